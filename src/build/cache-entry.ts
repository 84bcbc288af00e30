/**
 * The build cache's entries: one file per device in `node_modules/.cache/otapress`, named by the
 * key compile-devices.ts computes from everything the device's output depends on.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, writevSync } from 'node:fs';
import path from 'node:path';
import type { DeviceOutput } from './compile-device.js';
import type { Problem } from '../catalog/problems.js';

/** Part of every key and every entry: a change of the entry's layout makes every old entry unusable. */
export const CACHE_FORMAT = 'otapress device cache 2\n';

/**
 * An entry is the SHA-256 of the rest of the file on the first line, then a header line (JSON: the
 * device's problems and counts, each file's path and length), then the files' bytes. Anything that
 * does not check out (a truncated or corrupt file, another format) is treated as missing.
 */
export function readCacheEntry(cacheDir: string, key: string, copy: boolean): DeviceOutput | undefined {
  let data: Buffer;
  try {
    data = readInto(path.join(cacheDir, `${key}.bin`));
  } catch {
    return undefined;
  }
  try {
    if (data.byteLength < 65 || data[64] !== 10) return undefined;
    const rest = data.subarray(65);
    if (createHash('sha256').update(rest).digest('hex') !== data.toString('latin1', 0, 64)) return undefined;
    const newline = rest.indexOf(10);
    const header = JSON.parse(rest.subarray(0, newline).toString('utf8')) as CacheHeader;
    if (header.format !== CACHE_FORMAT || header.key !== key) return undefined;
    let offset = newline + 1;
    const files = header.files.map(([file, length]) => {
      const contents = rest.subarray(offset, (offset += length));
      return { path: file, contents: copy ? Buffer.from(contents) : contents };
    });
    if (offset !== rest.byteLength) return undefined;
    return { device: header.device, problems: header.problems, summary: header.summary, notices: header.notices, counts: header.counts, files };
  } catch {
    return undefined;
  }
}

/**
 * This thread's buffer for reading cache entries: one allocation that grows to the largest entry,
 * rather than one per device. What is read there is only good until the next read.
 */
let scratch = Buffer.alloc(0);

/** Reads a whole file into {@link scratch}; a view of the bytes read. */
function readInto(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (scratch.byteLength < size + 1) scratch = Buffer.allocUnsafeSlow(Math.max(size + 1, 2 * scratch.byteLength));
    let read = 0;
    // One byte more than the size says, to see a file that grew since.
    for (let n = -1; n !== 0 && read < scratch.byteLength; read += n) n = readSync(fd, scratch, read, scratch.byteLength - read, read);
    return scratch.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

interface CacheHeader {
  format: string;
  key: string;
  device: string;
  problems: Problem[];
  summary: DeviceOutput['summary'];
  notices: Problem[];
  counts: DeviceOutput['counts'];
  files: [string, number][];
}

export function writeCacheEntry(cacheDir: string, key: string, output: DeviceOutput): void {
  const contents = output.files.map((f) => (typeof f.contents === 'string' ? Buffer.from(f.contents) : f.contents));
  const header: CacheHeader = {
    format: CACHE_FORMAT,
    key,
    device: output.device,
    problems: output.problems,
    summary: output.summary,
    notices: output.notices,
    counts: output.counts,
    files: output.files.map((f, i) => [f.path, contents[i].byteLength]),
  };
  // Written from the pieces, without joining them into one more copy of the device's output.
  const parts = [Buffer.from(`${JSON.stringify(header)}\n`), ...contents];
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  parts.unshift(Buffer.from(`${hash.digest('hex')}\n`));
  const temporary = path.join(cacheDir, `.${key}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, 'w');
    try {
      for (let i = 0; i < parts.length; i += 512) writeAll(fd, parts.slice(i, i + 512));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path.join(cacheDir, `${key}.bin`));
  } catch {
    rmSync(temporary, { force: true }); // A cache that cannot be written only makes the next build slower.
  }
}

/** Writes every byte of `parts`, however much each writev call takes. */
function writeAll(fd: number, parts: Uint8Array[]): void {
  let left = parts.filter((p) => p.byteLength > 0);
  while (left.length > 0) {
    let n = writevSync(fd, left);
    while (left.length > 0 && n >= left[0].byteLength) n -= left.shift()!.byteLength;
    if (left.length > 0) left[0] = left[0].subarray(n);
  }
}

/** Removes entries this build did not use, so the cache holds one catalog's worth, not history. */
export function pruneCache(cacheDir: string, used: Set<string>): void {
  for (const name of readdirSync(cacheDir)) {
    const match = /^([0-9a-f]{64})\.bin$/.exec(name);
    if (match && !used.has(match[1])) rmSync(path.join(cacheDir, name), { force: true });
  }
}
