import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { OutputFile } from '../render/output.js';

/** The output folder cannot be written: another build holds it, or it would replace the sources. */
export class OutputError extends Error {
  constructor(
    message: string,
    /** `busy`: another build is writing (try again later); `unsafe`: the folder must never be written. */
    readonly reason: 'busy' | 'unsafe',
  ) {
    super(message);
    this.name = 'OutputError';
  }
}

/**
 * A tree being written so that no reader ever sees a half-written one: the files go into a fresh
 * staging folder beside `outDir` (from any number of threads), are flushed to disk, then the
 * staging folder replaces the old tree by two renames. If the process dies between the renames, the
 * next run finds the previous tree and puts it back first.
 */
export interface StagedTree {
  /** The staging folder: write into it with {@link writeStagedFile}. */
  staging: string;
  /** Flushes the staging folder to disk and swaps it in as the tree. */
  commit(): void;
  /** Removes the staging folder and leaves the tree as it was. */
  discard(): void;
}

/** Starts a tree for `outDir` (see {@link StagedTree}). */
export function stageTree(outDir: string): StagedTree {
  const { parent, staging, previous } = siblings(outDir);
  recoverTree(outDir);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  return {
    staging,
    commit() {
      try {
        // The files must be on disk before the rename makes them reachable from outDir (else a power
        // cut could leave empty files in place of the old tree). A killed process needs none of this.
        flushToDisk(staging);
        if (existsSync(outDir)) renameSync(outDir, previous);
        renameSync(staging, outDir);
        syncPath(parent);
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        if (!existsSync(outDir) && existsSync(previous)) renameSync(previous, outDir);
        throw error;
      }
      rmSync(previous, { recursive: true, force: true });
    },
    discard: () => rmSync(staging, { recursive: true, force: true }),
  };
}

/**
 * Writes one file into a staging folder; `made` remembers the folders this writer has created.
 * The file is created, never opened if it exists: a file linked in from the build cache
 * ({@link linkStagedFile}) must never be written through. Returns the path written.
 */
export function writeStagedFile(staging: string, file: OutputFile, made: Set<string>): string {
  const target = stagedPath(staging, file.path, made);
  writeFileSync(target, file.contents, { flag: 'wx' });
  return target;
}

/**
 * Puts the file `from` (in the build cache) into a staging folder as `file`: a hard link, so that
 * no byte is copied, or a copy where the two are on different file systems or links are refused.
 * Returns the path placed.
 */
export function linkStagedFile(staging: string, file: string, from: string, made: Set<string>): string {
  const target = stagedPath(staging, file, made);
  try {
    linkSync(from, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOENT') throw error;
    copyFileSync(from, target, constants.COPYFILE_EXCL);
  }
  return target;
}

/**
 * Puts a tree back that a killed run had moved aside, and removes the staging folders and lock
 * temporaries that runs which no longer exist left behind.
 */
export function recoverTree(outDir: string): void {
  const { parent, base } = siblings(outDir);
  if (!existsSync(parent)) return;
  const pattern = new RegExp(`^\\.${escapeRegExp(base)}\\.(staging-|previous-|lock\\.|lock\\.stale-)(\\d+)$`);
  for (const name of readdirSync(parent).sort()) {
    const match = pattern.exec(name);
    if (!match || isAlive(Number(match[2]))) continue;
    const leftover = path.join(parent, name);
    if (match[1] === 'previous-' && !existsSync(outDir)) renameSync(leftover, outDir);
    else rmSync(leftover, { recursive: true, force: true });
  }
}

/** Replaces one file so that readers see the old or the new contents, never a part. */
export function writeFileAtomic(file: string, contents: string | Uint8Array): void {
  const dir = path.dirname(file);
  const pattern = new RegExp(`^\\.${escapeRegExp(path.basename(file))}\\.(\\d+)\\.tmp$`);
  for (const name of readdirSync(dir)) {
    const match = pattern.exec(name);
    if (match && !isAlive(Number(match[1]))) rmSync(path.join(dir, name), { force: true });
  }
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    writeDurably(temporary, contents);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  syncPath(dir);
}

/** Options of {@link withOutputLock}. */
export interface LockOptions {
  /** How long to wait for another build to finish, in milliseconds, before refusing. */
  waitMs?: number;
  /** Called once when the lock is held by another live build and this one starts waiting. */
  onWait?(holder: number): void;
}

/**
 * Runs `work` while holding `.<out>.lock` beside the output folder, so two builds on one folder take
 * turns instead of racing their renames. The lock file holds the owner's pid; a lock whose owner
 * no longer runs (a killed build) is taken over. Waits for a live owner up to `waitMs`, then refuses.
 */
export function withOutputLock<T>(outDir: string, work: () => T, { waitMs = 300_000, onWait }: LockOptions = {}): T {
  const { parent, lock } = siblings(outDir);
  mkdirSync(parent, { recursive: true });
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    if (tryLock(lock)) break;
    const holder = lockHolder(lock);
    if (holder !== undefined && !isAlive(holder)) {
      takeOverStaleLock(lock, holder);
      continue;
    }
    if (holder === undefined) continue; // Released between our attempt and the read: try again.
    if (Date.now() >= deadline) {
      throw new OutputError(
        `another otapress build (pid ${holder}) is writing ${outDir}; run this one when it has finished (or pass a longer --wait). If no build is running, delete ${lock}`,
        'busy',
      );
    }
    if (!told) onWait?.(holder);
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
 * Refuses an output folder whose replacement would destroy something: the project itself, a folder
 * that contains it, or one inside `content/`. The tree is replaced as a whole, so it must be a
 * folder of its own.
 */
export function checkOutDir(outDir: string, root: string): void {
  const out = path.resolve(outDir);
  const project = path.resolve(root);
  const content = path.join(project, 'content');
  const inside = (child: string, dir: string) => {
    const relative = path.relative(dir, child);
    return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
  };
  if (inside(project, out) || inside(out, content)) {
    throw new OutputError(
      `refusing to write the site to ${out}: the output folder is replaced as a whole, so it cannot be the project, contain it, or lie in content/; use a folder of its own such as ${path.join(project, 'dist')}`,
      'unsafe',
    );
  }
}

// --- internal ---

/** The absolute path of `file` in a staging folder, its folder made; refuses a path that leaves the tree. */
function stagedPath(staging: string, file: string, made: Set<string>): string {
  checkTreePath(file);
  const target = path.join(staging, file);
  const dir = path.dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  return target;
}

/** A path must stay inside the tree: relative, no `..`, `.` or empty segment, no backslash or NUL. */
function checkTreePath(file: string): void {
  const parts = file.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0')) || path.isAbsolute(file)) {
    throw new Error(`refusing to write outside the output folder: ${JSON.stringify(file)}`);
  }
}

/**
 * Flushes a freshly written folder to disk: one `sync -f` (syncfs, Linux) for the whole file system,
 * a second rather than a millisecond and a half per file; where that is missing, fsync each path.
 */
function flushToDisk(dir: string): void {
  const synced = spawnSync('sync', ['-f', dir], { stdio: 'ignore' });
  if (synced.status === 0) return;
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const child = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(child);
      else syncPath(child);
    }
    syncPath(folder);
  };
  walk(dir);
}

function writeDurably(file: string, contents: string | Uint8Array): void {
  const fd = openSync(file, 'w');
  try {
    const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written, bytes.byteLength - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncPath(target: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(target, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a directory; the renames are still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function siblings(outDir: string) {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(path.resolve(outDir));
  return {
    parent,
    base,
    staging: path.join(parent, `.${base}.staging-${process.pid}`),
    previous: path.join(parent, `.${base}.previous-${process.pid}`),
    lock: path.join(parent, `.${base}.lock`),
  };
}

/** Creates the lock with our pid already in it: a hard link either appears whole or not at all. */
function tryLock(lock: string): boolean {
  const mine = `${lock}.${process.pid}`;
  writeDurably(mine, `${process.pid}\n`);
  try {
    linkSync(mine, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(mine, { force: true });
  }
}

function lockHolder(lock: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : 0;
  } catch {
    return undefined;
  }
}

/** Moves a dead owner's lock aside; if another build replaced it meanwhile, puts that one back. */
function takeOverStaleLock(lock: string, deadHolder: number): void {
  const aside = `${lock}.stale-${process.pid}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // Someone else took it over first.
  }
  if (lockHolder(aside) !== deadHolder) {
    try {
      linkSync(aside, lock);
    } catch {
      // A third build holds the lock now; the one we moved belongs to a build that will finish anyway.
    }
  }
  rmSync(aside, { force: true });
}

/** Whether another process with this id runs (this process does not count: what it left is stale to itself). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
