/**
 * The lock that lets one build at a time write an output folder: `.<out>.lock` beside it, holding
 * the owner's pid and start time, so that a lock left by a killed build is taken over instead of
 * blocking every build after it. Used by build.ts around staging and swapping the tree (write.ts).
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { OutputError } from './out-dir.js';
import { writeDurably } from './disk.js';

/** Options of {@link withOutputLock}. */
export interface LockOptions {
  /** How long to wait for another build to finish, in milliseconds, before refusing. */
  waitMs?: number;
  /** Called once when the lock is held by another live build and this one starts waiting. */
  onWait?(holder: number): void;
}

/**
 * Runs `work` while holding `.<out>.lock` beside the output folder, so two builds on one folder take
 * turns instead of racing their renames. The lock file holds the owner's pid and, where Linux's
 * /proc tells it, the owner's start time: a lock whose owner no longer runs (a killed build) is
 * taken over, and so is one whose pid the system has since given to another process (the start
 * time differs). Waits for a live owner up to `waitMs`, then refuses.
 */
export function withOutputLock<T>(outDir: string, work: () => T, { waitMs = 300_000, onWait }: LockOptions = {}): T {
  const parent = path.dirname(path.resolve(outDir));
  const lock = path.join(parent, `.${path.basename(path.resolve(outDir))}.lock`);
  mkdirSync(parent, { recursive: true });
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    if (tryLock(lock)) break;
    const holder = lockHolder(lock);
    if (holder === undefined) continue; // Released between our attempt and the read: try again.
    if (!ownerRuns(holder)) {
      takeOverStaleLock(lock, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new OutputError(
        `another otapress build (pid ${holder.pid}) is writing ${outDir}; run this one when it has finished (or pass a longer --wait). If no build is running, delete ${lock}`,
        'busy',
      );
    }
    if (!told) onWait?.(holder.pid);
    told = true;
    sleep(Math.min(100, Math.max(1, deadline - Date.now())));
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Whether another process with this id runs (this process does not count: what it left is stale to
 * itself). A process that has ended but not been reaped (a zombie: state `Z` in /proc/<pid>/stat)
 * does not run; it stays until its parent collects it, and where the parent is an init that never
 * does (some containers' process 1), it would otherwise hold a dead build's lock for ever.
 */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processState(pid) !== 'Z';
}

// --- internal ---

/** Creates the lock with our pid (and start time) already in it: a hard link either appears whole or not at all. */
function tryLock(lock: string): boolean {
  const mine = `${lock}.${process.pid}`;
  // Never through a link someone left under our name: `wx` creates the file or fails.
  rmSync(mine, { force: true });
  const start = processStart(process.pid);
  try {
    writeDurably(mine, start === undefined ? `${process.pid}\n` : `${process.pid} ${start}\n`, 'wx');
    linkSync(mine, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** What a lock file says of its owner: `<pid> <start time>`, or `<pid>` alone (written by otapress 0.2 and before, or without /proc). */
interface LockHolder {
  pid: number;
  /** The owner's start time in clock ticks after boot (field 22 of /proc/<pid>/stat). */
  start?: string;
  /** When the lock was written (its mtime, ms), and its exact text. */
  writtenMs: number;
  text: string;
}

function lockHolder(lock: string): LockHolder | undefined {
  try {
    const text = readFileSync(lock, 'utf8');
    const writtenMs = statSync(lock).mtimeMs;
    const [pidText, start] = text.trim().split(' ');
    const pid = Number.parseInt(pidText, 10);
    return {
      pid: Number.isSafeInteger(pid) && pid > 0 ? pid : 0,
      start: /^\d+$/.test(start ?? '') ? start : undefined,
      writtenMs,
      text,
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether the build that wrote a lock still runs. A live pid is not enough: after a crash or a
 * reboot the system gives the pid to other processes, and a lock naming one of them would block
 * every build. The start time tells them apart; a lock without one is an earlier otapress's, whose
 * owner started before writing it, so a process that started later only reuses the pid.
 */
function ownerRuns({ pid, start, writtenMs }: LockHolder): boolean {
  if (!isAlive(pid)) return false;
  const running = processStart(pid);
  if (running === undefined) return true; // No /proc (macOS, or the process just ended): the pid is all we know.
  if (start !== undefined) return running === start;
  const startedMs = startedAtMs(running);
  return startedMs === undefined || startedMs <= writtenMs + 1000;
}

/** A process's start time in clock ticks after boot (field 22 of /proc/<pid>/stat), or `undefined` without /proc. */
function processStart(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** A process's state (field 3 of /proc/<pid>/stat: `R`, `S`, `Z`...), or `undefined` without /proc. */
function processState(pid: number): string | undefined {
  return statFields(pid)?.[0];
}

/** The fields of /proc/<pid>/stat from the third on, or `undefined` without /proc. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command name, is in parentheses and may itself hold spaces and `)`.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Wall-clock time (ms) of a start time in ticks: boot time (`btime` of /proc/stat) plus ticks at USER_HZ, 100 on Linux's common architectures. */
function startedAtMs(ticks: string): number | undefined {
  try {
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return boot ? Number(boot[1]) * 1000 + Number(ticks) * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Moves a stale lock aside; if another build replaced it meanwhile, puts that one back. */
function takeOverStaleLock(lock: string, stale: LockHolder): void {
  const aside = `${lock}.stale-${process.pid}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // Someone else took it over first.
  }
  if (lockHolder(aside)?.text !== stale.text) {
    try {
      linkSync(aside, lock);
    } catch {
      // A third build holds the lock now; the one we moved belongs to a build that will finish anyway.
    }
  }
  rmSync(aside, { force: true });
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
