/**
 * The build cache's folder and keys (see cache-entry.ts for the entries): what a device's output
 * depends on, hashed. Imports nothing of otapress at run time, so that the build command can look
 * for the cache before it loads the rest (worker-pool.ts).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ManifestFile } from '../catalog/read.js';

/** Part of every key and every entry: a change of the entry's layout makes every old entry unusable. */
export const CACHE_FORMAT = 'otapress device cache 4\n';

/** Where a build keeps compiled devices: outside `dist/` and git, where tools keep caches. */
export function cacheDirOf(root: string): string {
  return path.join(root, 'node_modules', '.cache', 'otapress');
}

/**
 * One file per device, named by the SHA-256 of everything its output depends on: the cache format,
 * otapress's own code and version and the versions of yaml and zod, the site settings, the device name and
 * every manifest's path and bytes. A changed input gives another name, so a stale entry is never
 * found, let alone served.
 */
export function baseKey(siteBytes: Uint8Array): string {
  return createHash('sha256')
    .update(CACHE_FORMAT)
    .update(codeVersion())
    .update(`${siteBytes.byteLength}\0`)
    .update(siteBytes)
    .digest('hex');
}

/**
 * `others`: the entries of the device's folder besides its manifests, in name order, as the build
 * listed them (catalog/read.ts); without them, the folder is listed here. Either way the key is the
 * same for the same folder.
 */
export function deviceKey(
  base: string,
  device: string,
  manifests: readonly ManifestFile[],
  root?: string,
  others?: readonly string[],
): string {
  const hash = createHash('sha256').update(base).update(`${device}\0`);
  for (const m of manifests) hash.update(`${m.file}\0${m.bytes.byteLength}\0`).update(m.bytes);
  if (root !== undefined) {
    // Listing every device's folder again took 135 ms of a single-threaded cold build of 100,000 manifests.
    if (others !== undefined) stampEntries(hash, root, `content/${device}`, others, new Set());
    else stampFolder(hash, root, `content/${device}`, new Set(manifests.map((m) => m.file)));
  }
  return hash.digest('hex');
}

/**
 * Every other file in the device's folder (say a device.yaml or change logs beside the manifests),
 * by name, size and modification time: whatever a device's output is later made to depend on in
 * its folder, a changed file there is another key.
 */
function stampFolder(hash: ReturnType<typeof createHash>, root: string, folder: string, manifests: Set<string>): void {
  let entries: string[];
  try {
    entries = readdirSync(path.join(root, folder)).sort();
  } catch {
    return;
  }
  stampEntries(hash, root, folder, entries, manifests);
}

/** The entries `names` (sorted) of `folder` but `manifests`, as {@link stampFolder} stamps them. */
function stampEntries(
  hash: ReturnType<typeof createHash>,
  root: string,
  folder: string,
  names: readonly string[],
  manifests: Set<string>,
): void {
  for (const name of names) {
    const file = `${folder}/${name}`;
    if (manifests.has(file)) continue;
    const stat = lstatSync(path.join(root, file), { bigint: true, throwIfNoEntry: false });
    if (!stat) continue;
    hash.update(`${file}\0${stat.size}\0${stat.mtimeNs}\0${stat.ino}\0`);
    if (stat.isDirectory()) stampFolder(hash, root, file, manifests);
  }
}

let code: string | undefined;
/**
 * A digest of the sources of otapress and of the libraries that shape its output. Each source file
 * counts by its name, size and modification time (as git's index and make tell a changed file),
 * not its bytes: reading and hashing 1.3 MB of code was a fixed cost of every cached build, a tenth
 * of a second on a loaded machine, that a build without the cache does not pay.
 */
function codeVersion(): string {
  if (code !== undefined) return code;
  const hash = createHash('sha256');
  // Every wing of src/ shapes the output, so the digest covers them all, not only this folder.
  // A walk of our own, plain stats, whole microseconds and one update: Node 20's recursive
  // readdirSync, stats as BigInts, a hash update per file and the shortest decimal of a fractional
  // number took 17 ms of the calling thread before its first device here, this about 4 ms.
  const dir = path.dirname(import.meta.dirname);
  let stamps = '';
  for (const name of sourceFiles(dir, '', [])) {
    const stat = lstatSync(path.join(dir, name));
    stamps += `${name}\0${stat.size}\0${Math.trunc(stat.mtimeMs * 1000)}\0`;
  }
  hash.update(stamps);
  // package.json (beside src/, or lib/ when installed) holds the version of otapress, so an upgrade
  // never reuses an entry, and the exact versions of yaml and zod (bundled into lib/ when installed).
  hash.update(readFileSync(new URL('../../package.json', import.meta.url)));
  return (code = hash.digest('hex'));
}

/** The source files under `dir`, as paths with `/` from it, sorted as strings. */
function sourceFiles(dir: string, prefix: string, into: string[]): string[] {
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const name = prefix + entry.name;
    if (entry.isDirectory()) sourceFiles(dir, `${name}/`, into);
    else if (/\.(ts|mjs|js)$/.test(name)) into.push(name);
  }
  return prefix === '' ? into.sort() : into;
}
