/**
 * A device's `SHA256SUMS`: the SHA-256 of every file its listings offer for download (packages,
 * the incremental packages of the answers for one build, their other files), in the format
 * `sha256sum -c` reads (GNU coreutils: `<64 hex>  <file name>`, one per line), so that people
 * downloading by hand can check what they got. Pure.
 */
import { sha256Of } from '../catalog/download-key.js';
import { PLAIN_FILENAME } from '../catalog/filename.js';
import type { Listing } from '../catalog/plan.js';
import { compareStrings } from '../catalog/problems.js';
import type { OutputFile } from './output.js';
import { fileOf, URLS } from './urls.js';

/**
 * The device's `SHA256SUMS`, or undefined when none of its downloads has a SHA-256 (`sha256sum -c`
 * refuses an empty file). A file name that downloads of different contents share (each build's own
 * `recovery.img` at its own address) is written as the address's path under `download_base_url`
 * (`20250110/recovery.img`), one line each: one line per name would check every copy but one
 * against another file's SHA-256, and `sha256sum -c` would always fail for them.
 */
export function renderChecksums(device: string, listings: readonly Listing[]): OutputFile | undefined {
  const byName = new Map<string, Map<string, string>>();
  const add = (filename: string, sha256: string, filepath: string | undefined) => {
    // A name that is not plain (no spaces, no line breaks) never reaches here: the manifest refuses it.
    if (!PLAIN_FILENAME.test(filename)) return;
    let sums = byName.get(filename);
    if (!sums) byName.set(filename, (sums = new Map()));
    if (!sums.has(sha256)) sums.set(sha256, filepath?.replace(/^\/+/, '') ?? filename);
  };
  for (const { builds } of listings) {
    for (const build of builds) {
      if (build.placeholder) continue;
      const sha256 = sha256Of(build);
      if (sha256 !== undefined) add(build.filename, sha256, build.filepath);
      for (const file of build.files ?? []) add(file.filename, file.sha256, file.filepath);
      // The incremental packages its page lists, those its source does not trust included.
      for (const pkg of build.incrementals ?? []) {
        const digest = sha256Of(pkg);
        if (digest !== undefined) add(pkg.filename, digest, pkg.filepath);
      }
    }
  }
  if (byName.size === 0) return undefined;
  const lines: [string, string][] = [];
  for (const [filename, sums] of byName) {
    if (sums.size === 1) lines.push([filename, [...sums.keys()][0]]);
    // Paths whose parts are not plain are left out, as names are: a line break would forge a line.
    else
      for (const [sha256, filepath] of sums)
        if (filepath.split('/').every((part) => PLAIN_FILENAME.test(part))) lines.push([filepath, sha256]);
  }
  const text = lines.sort(([a], [b]) => compareStrings(a, b)).map(([name, sha256]) => `${sha256}  ${name}\n`);
  return { path: fileOf(URLS.checksums(device)), contents: text.join('') };
}
