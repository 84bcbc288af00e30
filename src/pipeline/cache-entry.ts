/**
 * The build cache's entries, in `node_modules/.cache/otapress`, named by the key compile-devices.ts
 * computes from everything a device's output depends on. One compact entry per device,
 * `<key>.bin` (the device's problems, summary, notices, counts and the list of its files), and
 * each rendered file beside it as `<key>.<n>`: a hard link to the file the build has just written
 * into the staging tree, so that filling the cache writes no byte of the pages twice, and a warm
 * build links the files back into the new tree instead of writing them.
 *
 * A hard link is the same file as the one in `dist/`: something that edits `dist/` in place edits
 * the cache too. Each file is therefore recorded with its inode, size and modification time (in
 * milliseconds with their fraction, as `lstat` gives them), as git's index records the files it
 * has seen; a file whose `lstat` differs is an entry that does not check out, and the device is
 * compiled again. Replacing `dist/` (a new build, `rm -rf dist`, a deploy tool writing a new file
 * and renaming it) only removes names, never the cache's bytes. Nothing otapress writes ever opens
 * an existing file for writing: new files are created exclusively (createStagedFile, the entries)
 * or written beside and renamed over.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  constants,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  linkSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import type { DeviceOutput } from './compile-device.js';
import type { Problem } from '../catalog/problems.js';
import { CACHE_FORMAT } from './cache-key.js';
import { writeAll } from './disk.js';
import { isAlive } from './output-lock.js';
import type { StagedFile } from './write.js';

/** A device found in the cache: its output without the files' bytes, and where each file is. */
export interface CacheHit {
  output: DeviceOutput;
  /** The device's files: their paths in the tree and the cache files holding their bytes. */
  files: { path: string; source: string }[];
}

/**
 * Reads an entry and checks it: the SHA-256 of the header, the format and key, and each file's
 * inode, size and modification time against the ones recorded when it was written. Anything that
 * does not check out (a truncated or corrupt header, another format, a file edited, replaced or
 * missing) is treated as missing. `output.files` is empty: the bytes stay where `files` says.
 */
export function readCacheEntry(cacheDir: string, key: string): CacheHit | undefined {
  let data: Buffer;
  try {
    data = readFileSync(path.join(cacheDir, `${key}.bin`));
  } catch {
    return undefined;
  }
  try {
    if (data.byteLength < 65 || data[64] !== 10) return undefined;
    const rest = data.subarray(65);
    if (createHash('sha256').update(rest).digest('hex') !== data.toString('latin1', 0, 64)) return undefined;
    const header = JSON.parse(rest.toString('utf8')) as CacheHeader;
    if (header.format !== CACHE_FORMAT || header.key !== key || header.files.length !== header.counts.files)
      return undefined;
    const files: CacheHit['files'] = [];
    for (const [n, [file, size, ino, mtimeMs]] of header.files.entries()) {
      const source = path.join(cacheDir, `${key}.${n}`);
      const stat = lstatSync(source, { throwIfNoEntry: false });
      if (!stat || !stat.isFile() || stat.size !== size || stat.ino !== ino || stat.mtimeMs !== mtimeMs)
        return undefined;
      files.push({ path: file, source });
    }
    const output = {
      device: header.device,
      problems: header.problems,
      summary: header.summary,
      notices: header.notices,
      counts: header.counts,
      files: [],
    };
    return { output, files };
  } catch {
    return undefined;
  }
}

/** The bytes of a cache hit's files (the preview keeps them; a build links them instead). */
export function readCachedFiles(hit: CacheHit): DeviceOutput['files'] | undefined {
  try {
    return hit.files.map((f) => ({ path: f.path, contents: readFileSync(f.source) }));
  } catch {
    return undefined; // Removed since it was checked (another build pruning): compile it again.
  }
}

/**
 * Stores a device's output under `key`. `written` are the files the build has just written for it
 * (in the order of `output.files`): they are hard-linked into the cache, or copied where the cache
 * is on another file system. Without them, the bytes of `output.files` are written. The entry
 * itself comes last, with the checksum that makes a partly written one not check out, so a killed
 * build leaves no entry that names files it did not store. A cache that cannot be written only
 * makes the next build slower: errors are swallowed.
 */
export function writeCacheEntry(
  cacheDir: string,
  key: string,
  output: DeviceOutput,
  written?: readonly StagedFile[],
): void {
  const temporary = path.join(cacheDir, `.${key}.${process.pid}.tmp`);
  const entry = path.join(cacheDir, `${key}.bin`);
  try {
    const files = output.files.map((file, n): [string, number, number, number] => {
      const target = path.join(cacheDir, `${key}.${n}`);
      let stat: Stats | undefined;
      if (written) stat = linkOrCopy(written[n].path, target) ? written[n].stat : undefined;
      else writeBeside(target, typeof file.contents === 'string' ? Buffer.from(file.contents) : file.contents);
      // A link is the file written into the tree, whose stat the writer took from its descriptor.
      stat ??= lstatSync(target);
      return [file.path, stat.size, stat.ino, stat.mtimeMs];
    });
    const header: CacheHeader = {
      format: CACHE_FORMAT,
      key,
      device: output.device,
      problems: output.problems,
      summary: output.summary,
      notices: output.notices,
      counts: output.counts,
      files,
    };
    // The text encoded once, for the checksum and the file: hashing the string and writing it out
    // after its checksum encoded it twice, and copied it once more.
    const body = Buffer.from(JSON.stringify(header));
    const bytes = Buffer.concat([Buffer.from(`${createHash('sha256').update(body).digest('hex')}\n`, 'latin1'), body]);
    // Created in place when there is none (one change to the folder instead of three): its checksum
    // makes a partly written entry, of a build killed meanwhile, one that does not check out. One
    // already there (that did not check out) is replaced by a new file renamed over it.
    if (!createNew(entry, bytes)) writeBeside(entry, bytes, temporary);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * Removes what this build did not use, so that the cache holds one catalog's worth, not history:
 * the entries of other keys with their files, and the temporaries of builds that no longer run
 * (`.<key>.<pid>.tmp` and `.<key>.<n>.<pid>.tmp`, left by a build that was killed while writing).
 */
export function pruneCache(cacheDir: string, used: Set<string>): void {
  for (const name of readdirSync(cacheDir)) {
    const entry = /^([0-9a-f]{64})\.(?:bin|\d+)$/.exec(name);
    const temporary = /^\.[0-9a-f]{64}(?:\.\d+)?\.(\d+)\.tmp$/.exec(name);
    if ((entry && !used.has(entry[1])) || (temporary && !isAlive(Number(temporary[1]))))
      rmSync(path.join(cacheDir, name), { force: true });
  }
}

// --- internal ---

interface CacheHeader {
  format: string;
  key: string;
  device: string;
  problems: Problem[];
  summary: DeviceOutput['summary'];
  notices: Problem[];
  counts: DeviceOutput['counts'];
  /**
   * Per file: its path in the tree, and the size, inode and modification time (ms, with its
   * fraction) of `<key>.<n>`, as numbers: the same doubles a later `lstat` gives for an unchanged
   * file. Taken as BigInts (an exact inode, nanoseconds) and turned into text, they cost a cold
   * build with the cache of 10,000 manifests 0.4 % of its instructions.
   */
  files: [string, number, number, number][];
}

/**
 * Makes `to` a hard link to `from`, replacing whatever `to` was (only its name: a file that was
 * linked from an older tree keeps its bytes), and returns true. Copies where a link cannot be made
 * (another file system, or one without hard links), and returns false.
 */
function linkOrCopy(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      copyBeside(from, to);
      return false;
    }
  }
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
    return true;
  } catch {
    copyBeside(from, to);
    return false;
  }
}

/** Creates `file` with `bytes`, or returns false if it exists (it is then left as it was). */
function createNew(file: string, bytes: Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeAll(fd, bytes);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
  return true;
}

function copyBeside(from: string, to: string): void {
  const temporary = `${path.join(path.dirname(to), `.${path.basename(to)}`)}.${process.pid}.tmp`;
  try {
    copyFileSync(from, temporary, constants.COPYFILE_FICLONE);
    renameSync(temporary, to);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Writes a new file and renames it over `file`: an existing `file` (maybe a link into dist/) is never written through. */
function writeBeside(
  file: string,
  bytes: Uint8Array,
  temporary = `${path.join(path.dirname(file), `.${path.basename(file)}`)}.${process.pid}.tmp`,
): void {
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}
