/**
 * The disk under a build's tree: flushing it (`sync -f`, or an fsync per path), starting writeback
 * in the background while a build writes, writing a small file durably, and removing a replaced
 * tree without waiting for it. Used by write.ts (the staged tree), output-lock.ts (its lock) and
 * compile-devices.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';

/**
 * Removes the tree a build has just replaced without waiting for it: it is renamed out of the way
 * (`.<out>.trash-<pid>-<ms>`, a name that recovery never puts back) and removed by an `rm -rf`
 * that runs on after the build. Removing a tree waits on the disk more than it works: 6,515 files
 * and 3,506 folders of a 100k build took 1.8 to 4.3 s of `rm -rf` here (0.45 s of CPU), a
 * quarter of a warm build. Where `rm` cannot be started, the tree is removed before returning.
 */
export function discardTree(previous: string, parent: string, base: string, helperOf?: string): void {
  const trash = path.join(parent, `.${base}.trash-${process.pid}-${Date.now()}`);
  try {
    renameSync(previous, trash);
  } catch {
    rmSync(previous, { recursive: true, force: true });
    return;
  }
  // The `rm -rf` from the writeback helper of the staging folder that replaced it, when it runs.
  const helper = helperOf === undefined ? undefined : writebacks.get(helperOf);
  if (helper === undefined || !tell(helper, 'r', trash)) removeInBackground(trash);
}

/** Starts `rm -rf` on a folder nobody needs any more, and does not wait for it (see {@link discardTree}). */
export function removeInBackground(dir: string): void {
  if (process.platform === 'win32') {
    removeNow(dir);
    return;
  }
  try {
    const child = spawn('rm', ['-rf', '--', dir], { stdio: 'ignore', detached: true });
    // No `rm`: remove it here, once the build is done (the event loop runs again).
    child.on('error', () => removeNow(dir));
    child.unref();
  } catch {
    removeNow(dir);
  }
}

function removeNow(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Whatever is left, the next build's recovery removes.
  }
}

/**
 * Starts writing a staging folder's files back to disk now, in the background, instead of all at
 * the end: a `sync -f` (syncfs) of its file system that nobody waits for. The kernel would
 * otherwise hold a build's pages back for 30 seconds (`dirty_expire_centisecs`), so the one flush
 * before the swap (`StagedTree.commit`, write.ts) wrote back everything the build wrote while the
 * cores waited: 0.6 to 1.1 s of a cold 100,000-manifest build, 60 to 100 ms once a build started
 * writeback every second as it went. The flush is of the whole file system, so it also wrote what
 * other programs had left unwritten (in CI, the packages `npm ci` has just installed): the first
 * writeback starts with the staging folder. Linux only (`-f` is GNU coreutils'); elsewhere, and if
 * `sh` or `sync` cannot be started, the flush at the end does all of it.
 *
 * The `sync` runs from one `sh` per folder, started by the first call, that reads a line for each
 * call after it ({@link stopWriteback} ends it). Starting a process from the build was the cost:
 * the fork of a process holding a build's heap took 15 to 40 ms of the calling thread here, a
 * dozen times in a 100,000-manifest build; a line into a pipe takes a fraction of a millisecond.
 * The same `sh` runs the flush before the swap ({@link flushToDisk}) and the removal of the tree
 * the swap replaced ({@link discardTree}), which were two more processes started by every build.
 */
export function startWriteback(dir: string): void {
  if (process.platform !== 'linux') return;
  let helper = writebacks.get(dir);
  if (helper === undefined) {
    try {
      // The folder is an argument of the script (`$1`), never part of its text; the paths in the
      // lines it reads are absolute paths without a line break (see {@link tell}). Detached, in a
      // process group of its own, like any removal that outlives the build: an interrupt typed for
      // the next command must not stop it halfway.
      helper = spawn('sh', ['-c', HELPER, 'sh', dir], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    } catch {
      return; // Out of processes or memory: the flush before the swap still makes the tree durable.
    }
    // No `sh`: the failure arrives on the event loop, and so does a write into a pipe nobody reads.
    helper.on('error', () => {});
    helper.stdin!.on('error', () => {});
    // Once the event loop has reaped it, its pid may be another process's: no more lines for it.
    const started = helper;
    helper.on('exit', () => {
      if (writebacks.get(dir) === started) writebacks.delete(dir);
    });
    // Neither the process nor its pipe keeps a finished build's process alive.
    helper.unref();
    (helper.stdin as Socket).unref();
    writebacks.set(dir, helper);
  }
  tell(helper, '');
}

/**
 * The helper's script. An empty line: `sync -f` the folder's file system. `f<file>`: the same, then
 * its exit status into `<file>` (and the helper ends if that cannot be written, so that nobody
 * waits for it). `r<folder>`: `rm -rf` it.
 */
const HELPER = `while IFS= read -r line; do
  case $line in
    '') sync -f "$1" ;;
    f/*) sync -f "$1"; echo "$?" > "\${line#f}" || exit 1 ;;
    r/*) rm -rf -- "\${line#r}" ;;
  esac
done`;

/** Hands the helper a line; `false` where it cannot take this one (then the caller does the work itself). */
function tell(helper: ChildProcess, what: '' | 'f' | 'r', file = ''): boolean {
  if (what !== '' && (!file.startsWith('/') || file.includes('\n'))) return false;
  if (helper.pid === undefined || helper.stdin!.destroyed) return false;
  helper.stdin!.write(`${what}${file}\n`);
  // The line is in the pipe only once nothing is left queued: a thread that then blocks never sends
  // what is queued (libuv writes a short line into a pipe with room at once).
  return helper.stdin!.writableLength === 0;
}

/** Ends the `sh` of {@link startWriteback} for this folder, once the work asked of it has run. */
export function stopWriteback(dir: string): void {
  const helper = writebacks.get(dir);
  if (helper === undefined) return;
  writebacks.delete(dir);
  helper.stdin!.end();
}

const writebacks = new Map<string, ChildProcess>();

/**
 * Flushes a freshly written folder to disk: one `sync -f` (syncfs, Linux) for the whole file system,
 * a second rather than a millisecond and a half per file; where that is missing, fsync each path.
 * The `sync` runs in the folder's writeback helper when it has one ({@link startWriteback}), which
 * writes its exit status into `marker` (a path that is not in the folder, removed again here);
 * otherwise in a process started for it.
 */
export function flushToDisk(dir: string, marker?: string): void {
  const status = marker === undefined ? undefined : flushByHelper(dir, marker);
  if (status === 0 || (status === undefined && spawnSync('sync', ['-f', dir], { stdio: 'ignore' }).status === 0))
    return;
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

/**
 * Has the helper of `dir` sync its file system and waits for the exit status it writes into
 * `marker`, looking every few milliseconds; `undefined` when there is no helper, it cannot take
 * the line, or it ends without writing one (the caller then starts a `sync` of its own).
 */
function flushByHelper(dir: string, marker: string): number | undefined {
  const helper = writebacks.get(dir);
  rmSync(marker, { force: true });
  if (helper === undefined || !tell(helper, 'f', marker)) return undefined;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  try {
    for (let wait = 1; ; wait = Math.min(wait + 1, 8)) {
      let written: string | undefined;
      try {
        written = readFileSync(marker, 'latin1');
      } catch {
        // Not there yet.
      }
      // `echo` creates the file, then writes the status and its line break.
      if (written?.endsWith('\n')) return Number(written);
      if (!isRunning(helper.pid!)) return undefined;
      Atomics.wait(pause, 0, 0, wait);
    }
  } finally {
    rmSync(marker, { force: true });
  }
}

/**
 * Whether a child of this process still runs: one that has ended stays a zombie (state Z in
 * /proc) until the event loop reaps it, which it cannot while this thread waits.
 */
function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X' && state !== 'x';
}

export function writeDurably(file: string, contents: string | Uint8Array, flags = 'w'): void {
  const fd = openSync(file, flags);
  try {
    writeAll(fd, typeof contents === 'string' ? Buffer.from(contents) : contents);
    fsyncSync(fd);
  } catch (error) {
    throw atPath(error, file);
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `bytes` to an open file (a write may take fewer bytes than it is given). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let written = 0; written < bytes.byteLength;)
    written += writeSync(fd, bytes, written, bytes.byteLength - written);
}

/** A write's error names no path (write(2) has only a file descriptor): add the file's, so that messages can say where. */
export function atPath(error: unknown, file: string): unknown {
  if (error instanceof Error && (error as NodeJS.ErrnoException).path === undefined)
    (error as NodeJS.ErrnoException).path = file;
  return error;
}

export function syncPath(target: string): void {
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
