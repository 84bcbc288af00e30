/**
 * The raw-branch bridge: the files that ROM builds already in the field fetch from
 * raw.githubusercontent.com (`https://raw.githubusercontent.com/<owner>/<repo>/<branch>/<path>`),
 * as copies of the site's own files, so that a branch holding them answers those phones byte for
 * byte as the site does while new ROM builds move to the site's address. raw serves every file as
 * it is, at its path, with no rewrites (test/helpers/raw-github-server.ts cites how): so each
 * answer is a file at the very path phones ask. Pure.
 */
import { formatPath } from '../catalog/formats.js';
import type { Site } from '../catalog/site.js';
import { API_FILES, fill } from '../render/urls.js';

/** The ledger in the branch folder: the files otapress wrote there, one a line, which alone it replaces or removes. */
export const RAW_LEDGER = '.otapress-raw';

/** The ledger's first line: what the file is, for whoever finds it in the branch. */
const RAW_LEDGER_HEADER =
  "# Written by `otapress raw-branch`: copies of the site's files, the only ones it replaces or removes.";

/** One file of the raw branch: its path there (where phones ask), and the file of dist/ it copies. */
export interface RawFile {
  path: string;
  from: string;
}

/**
 * The files of the raw branch for `devices`: each updater format's file at its `path`, which
 * site.yaml sets where that family's phones already ask (`/{device}.json`,
 * `/API/updater/{device}.json`), and each of the site's `request_paths` that names one file (no
 * `{incremental}`, no trailing slash), as a copy of the v1 listing it answers. In device, then
 * format or request path, then list order; paths without their leading `/`.
 */
export function rawBranchFiles(site: Site, devices: readonly string[]): RawFile[] {
  const files: RawFile[] = [];
  for (const device of devices) {
    for (const format of site.formats) {
      for (const list of format.lists) {
        const file = formatPath(format, device, list).slice(1);
        files.push({ path: file, from: file });
      }
    }
    for (const requestPath of site.requestPaths) {
      if (requestPath.pattern.includes('{incremental}') || requestPath.pattern.endsWith('/')) continue;
      for (const list of requestPath.list ? [requestPath.list] : site.lists.map((l) => l.name)) {
        const path = requestPath.pattern.replaceAll('{device}', device).replaceAll('{list}', list).slice(1);
        files.push({ path, from: fill(API_FILES.listing, { device, list }).slice(1) });
      }
    }
  }
  // A format's file with one list is the same for every list it names: once.
  return files.filter((file, i) => files.findIndex((other) => other.path === file.path) === i);
}

/** The paths a ledger's text names. */
export function readRawLedger(text: string): Set<string> {
  return new Set(text.split('\n').filter((line) => line !== '' && !line.startsWith('#')));
}

/** The ledger's text for `paths`, sorted. */
export function renderRawLedger(paths: Iterable<string>): string {
  return `${RAW_LEDGER_HEADER}\n${[...paths].sort().join('\n')}\n`;
}
