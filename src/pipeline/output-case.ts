/**
 * The site's folders that differ only by case, refused where the output is written on a disk that
 * ignores case (macOS's and Windows' defaults, where a site is often built before its upload):
 * there a format's `/API/updater/` and otapress's `/api/` are one folder, and the format's files
 * land under `/api/`, where phones asking `/API/updater/…` get 404s. On a disk that keeps case
 * (the hosts' builds, Linux) the two folders stay apart and nothing is refused. A device's own
 * files that differ only by case are refused on every disk (compile-device.ts).
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatPath, formatPathField } from '../catalog/formats.js';
import { caseClashes } from '../catalog/path-limits.js';
import type { Problem } from '../catalog/problems.js';
import { SITE_FILE, type Site } from '../catalog/site.js';

/**
 * Problems of the site's folders that differ only by case, when `dir` lies on a disk that ignores
 * case (`ignores`: how that is found; the probe of a file by another case of its name).
 */
export function folderCaseProblems(
  site: Site,
  dir: string,
  ignores: (dir: string) => boolean = ignoresCase,
): Problem[] {
  // The folders every site writes, then each format's folders of each list (up to the device's
  // segment): `/ota/{list}/` of one format and `/ota/{LIST}/` of another are `ota/stable/` and
  // `ota/STABLE/`, one folder there.
  const formatFolders = (f: Site['formats'][number]) =>
    f.lists.map((list) =>
      formatPath(f, '{device}', list)
        .slice(1)
        .replace(/[^/]*\{.*$/, ''),
    );
  const folders = ['api/v1/', 'api/v2/', 'devices/', ...new Set(site.formats.flatMap(formatFolders))];
  const clashes = caseClashes(folders.filter((f) => f !== ''));
  if (clashes.length === 0 || !ignores(dir)) return [];
  return clashes.map(({ path: folder, other }) => {
    const format = site.formats.find((f) => formatFolders(f).some((mine) => mine.startsWith(folder)));
    const mine = folder.split('/').slice(0, other.split('/').length).join('/');
    return {
      file: SITE_FILE,
      ...(format?.at ?? { line: 1, col: 1 }),
      field: format ? formatPathField(format) : 'formats',
      message: `/${mine}/ and /${other}/ differ only by case, and the disk of the output ignores case (macOS, Windows): they would be one folder, and phones asking /${folder}… would get 404s; build on a disk that keeps case (the hosts' builds do), or give the format a path whose folders differ by more than case`,
    };
  });
}

// --- internal ---

/** Whether the file system of `dir` finds a file by a name that differs from its own only by case. */
function ignoresCase(dir: string): boolean {
  const probe = path.join(dir, '.otapress-case-probe');
  writeFileSync(probe, '');
  try {
    return existsSync(path.join(dir, '.OTAPRESS-CASE-PROBE'));
  } finally {
    rmSync(probe, { force: true });
  }
}
