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

/** The device's `SHA256SUMS`, or undefined when none of its downloads has a SHA-256 (`sha256sum -c` refuses an empty file). */
export function renderChecksums(device: string, listings: readonly Listing[]): OutputFile | undefined {
  const sums = new Map<string, string>();
  const add = (filename: string, sha256: string) => {
    // One line per name; a name that is not plain (no spaces, no line breaks) never reaches here: the manifest refuses it.
    if (PLAIN_FILENAME.test(filename) && !sums.has(filename)) sums.set(filename, sha256);
  };
  for (const { builds } of listings) {
    for (const build of builds) {
      if (build.placeholder) continue;
      const sha256 = sha256Of(build);
      if (sha256 !== undefined) add(build.filename, sha256);
      for (const file of build.files ?? []) add(file.filename, file.sha256);
    }
  }
  if (sums.size === 0) return undefined;
  const lines = [...sums].sort(([a], [b]) => compareStrings(a, b)).map(([filename, sha256]) => `${sha256}  ${filename}\n`);
  return { path: fileOf(URLS.checksums(device)), contents: lines.join('') };
}
