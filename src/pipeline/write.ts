import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { outputPathProblem } from '../catalog/path-limits.js';
import type { OutputFile } from '../render/output.js';
import {
  atPath,
  discardTree,
  flushToDisk,
  removeInBackground,
  startWriteback,
  stopWriteback,
  syncPath,
  writeAll,
} from './disk.js';
import { isAlive } from './output-lock.js';

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
  const { parent, base, staging, previous, flushed } = siblings(outDir);
  recoverTree(outDir);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Whatever else waits to be written to this file system (the dependencies `npm ci` has just
  // installed, the previous build's tree) goes to disk while this build compiles, not in its flush.
  startWriteback(staging);
  return {
    staging,
    commit() {
      try {
        // The files must be on disk before the rename makes them reachable from outDir (else a power
        // cut could leave empty files in place of the old tree). A killed process needs none of this.
        flushToDisk(staging, flushed);
        if (existsSync(outDir)) renameSync(outDir, previous);
        renameSync(staging, outDir);
        syncPath(parent);
      } catch (error) {
        stopWriteback(staging);
        rmSync(staging, { recursive: true, force: true });
        if (!existsSync(outDir) && existsSync(previous)) renameSync(previous, outDir);
        throw error;
      }
      // The old tree is removed by the helper that flushed the new one, which then ends.
      if (existsSync(previous)) discardTree(previous, parent, base, staging);
      stopWriteback(staging);
    },
    discard() {
      stopWriteback(staging);
      rmSync(staging, { recursive: true, force: true });
    },
  };
}

/**
 * Writes one file into a staging folder; `made` remembers the folders this writer has created.
 * The file is created, never opened if it exists: a file linked in from the build cache
 * ({@link linkStagedFile}) must never be written through. Returns the path written.
 */
export function writeStagedFile(staging: string, file: OutputFile, made: Set<string>): string {
  return writeNew(staging, file, made, false).path;
}

/** A file a build wrote into its staging tree, with the `lstat` of it taken from its descriptor ({@link createStagedFile}). */
export interface StagedFile {
  path: string;
  stat: Stats;
}

/**
 * Writes one file into a staging folder like {@link writeStagedFile}, and returns with its path the
 * `lstat` of the new file, taken from its descriptor before it is closed (the build cache records
 * each file's inode, size and modification time; a second lookup by path would cost as much again).
 */
export function createStagedFile(staging: string, file: OutputFile, made: Set<string>): StagedFile {
  return writeNew(staging, file, made, true) as StagedFile;
}

/** {@link createStagedFile}, with the `lstat` of the file only when `withStat` (nothing without the cache asks for it). */
function writeNew(
  staging: string,
  file: OutputFile,
  made: Set<string>,
  withStat: boolean,
): { path: string; stat?: Stats } {
  const target = stagedPath(staging, file.path, made);
  const bytes = typeof file.contents === 'string' ? Buffer.from(file.contents) : file.contents;
  let fd: number;
  try {
    fd = openSync(target, 'wx');
  } catch (error) {
    throw atPath(error, target);
  }
  try {
    writeAll(fd, bytes);
    return withStat ? { path: target, stat: fstatSync(fd) } : { path: target };
  } catch (error) {
    throw atPath(error, target);
  } finally {
    closeSync(fd);
  }
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
    try {
      copyFileSync(from, target, constants.COPYFILE_EXCL);
    } catch (copyError) {
      throw atPath(copyError, target);
    }
  }
  return target;
}

/**
 * Puts a tree back that a killed run had moved aside, and removes the staging folders and lock
 * temporaries that runs which no longer exist left behind. Called while holding the output lock
 * (withOutputLock, output-lock.ts): then no other build has a staging or previous folder of its own, so
 * every one found is a leftover, even when its pid has since been given to another process.
 */
export function recoverTree(outDir: string): void {
  const { parent, base } = siblings(outDir);
  if (!existsSync(parent)) return;
  const pattern = new RegExp(`^\\.${escapeRegExp(base)}\\.(staging-|previous-|flushed-|lock\\.|lock\\.stale-)(\\d+)$`);
  for (const name of readdirSync(parent).sort()) {
    const match = pattern.exec(name);
    // Lock temporaries are made before the lock is held: only a dead build's are left over.
    if (!match || (match[1].startsWith('lock') && isAlive(Number(match[2])))) continue;
    const leftover = path.join(parent, name);
    if (match[1] === 'previous-' && !existsSync(outDir)) renameSync(leftover, outDir);
    else rmSync(leftover, { recursive: true, force: true });
  }
  // Old trees a build had set aside to be removed: never put back, and removed in the background
  // again (the removal a build started may still run, or have been killed with it).
  const trash = new RegExp(`^\\.${escapeRegExp(base)}\\.trash-\\d+-\\d+$`);
  for (const name of readdirSync(parent).sort()) if (trash.test(name)) removeInBackground(path.join(parent, name));
}

// --- internal ---

/** The absolute path of `file` in a staging folder, its folder made; refuses a path that leaves the tree. */
function stagedPath(staging: string, file: string, made: Set<string>): string {
  checkTreePath(file);
  const target = path.join(staging, file);
  const dir = path.dirname(target);
  if (!made.has(dir)) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw atPath(error, dir);
    }
    made.add(dir);
  }
  return target;
}

/**
 * A path must stay inside the tree: relative, no `..`, `.` or empty segment, no backslash or NUL;
 * and within the lengths that the content's name limits guarantee (a last line of defence: `check`
 * refuses the names that could break them, at their line).
 */
function checkTreePath(file: string): void {
  const parts = file.split('/');
  if (
    parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0')) ||
    path.isAbsolute(file)
  ) {
    throw new Error(`refusing to write outside the output folder: ${JSON.stringify(file)}`);
  }
  const tooLong = outputPathProblem(file);
  if (tooLong) throw new Error(`refusing to write ${JSON.stringify(file)}: ${tooLong}`);
}

function siblings(outDir: string) {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(path.resolve(outDir));
  return {
    parent,
    base,
    staging: path.join(parent, `.${base}.staging-${process.pid}`),
    previous: path.join(parent, `.${base}.previous-${process.pid}`),
    // Where the writeback helper writes the exit status of the flush before the swap (disk.ts).
    flushed: path.join(parent, `.${base}.flushed-${process.pid}`),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
