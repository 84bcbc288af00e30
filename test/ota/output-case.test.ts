// Output paths that differ only by case are one file on a case-insensitive disk (macOS, Windows,
// where sites are often built before their upload): a build that would write two is refused, saying
// why, at the manifest that asks for the second.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { caseClashes } from '../../src/catalog/path-limits.js';
import { parseSite } from '../../src/catalog/site.js';
import { folderCaseProblems } from '../../src/pipeline/output-case.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const fingerprint = (incremental: string) => `google/akita/akita:15/BP1A.250105.002/${incremental}:user/release-keys`;
const metadata = (incremental: string, timestamp: number, from?: string) =>
  [
    'ota-type=AB',
    `post-build=${fingerprint(incremental)}`,
    `post-build-incremental=${incremental}`,
    'post-sdk-level=35',
    `post-timestamp=${timestamp}`,
    ...(from ? [`pre-build=${fingerprint(from)}`, `pre-build-incremental=${from}`] : []),
    'pre-device=akita',
    '',
  ].join('\n');

describe('output paths unique ignoring case', { timeout: 60_000 }, () => {
  const base = mkdtempSync(path.join(tmpdir(), 'otapress-case-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('finds files and folders that differ only by case', () => {
    expect(
      caseClashes([
        'api/v1/a/n/index.json',
        'api/v1/a/n/INDEX.json',
        'API/updater/a.json',
        'api/v2/x',
        'devices/a/index.html',
      ]),
    ).toEqual([
      { path: 'api/v1/a/n/INDEX.json', other: 'api/v1/a/n/index.json' },
      { path: 'API/updater/a.json', other: 'api' },
    ]);
    expect(caseClashes(['api/v1/a/n/index.json', 'api/v1/a/n/eng.1.json', 'devices/a/index.html'])).toEqual([]);
  });

  it("refuses an incremental package whose source incremental is INDEX, beside the listing's index.json", async () => {
    const root = path.join(mkdtempSync(path.join(base, 'catalog-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    const zips = [
      ['lineage-22.1-20250110-nightly-akita-signed.zip', metadata('INDEX', 1736500000)],
      ['lineage-22.1-20250117-nightly-akita-signed.zip', metadata('eng.build.20250117', 1737100000)],
      [
        'lineage-22.1-20250117-nightly-akita-signed-incremental-20250110.zip',
        metadata('eng.build.20250117', 1737100000, 'INDEX'),
      ],
    ];
    for (const [name, meta] of zips) {
      await writeOtaZip(path.join(root, name), { metadata: meta, payloadSize: 8 * 1024 });
      expect((await runMain(['add', path.join(root, name), '--root', root])).code).toBe(0);
    }
    const built = await runMain(['build', '--root', root]);
    expect(built.code).toBe(1);
    expect(built.err).toEqual([
      'content/akita/lineage-22.1-20250117-nightly-akita-signed-incremental-20250110.yaml:8:21  source_incremental  the output would hold api/v1/akita/nightly/INDEX.json beside api/v1/akita/nightly/index.json, which differ only by case: on a case-insensitive disk (macOS, Windows) they are one file, and phones would get another answer than theirs; an incremental that differs from another path only by case cannot have an answer of its own, so publish the build under another incremental',
      '1 problem found; nothing was written.',
    ]);
  });

  it("refuses a format's /API/ beside /api/ where the output's disk ignores case, and only there", () => {
    const text =
      'download_base_url: https://dl.example.org\nchannels: [weekly]\nformats:\n  pixelexperience:\n    path: /API/updater/{device}.json\n';
    const site = parseSite(text).site!;
    const dir = mkdtempSync(path.join(base, 'out-'));
    expect(folderCaseProblems(site, dir, () => true)).toEqual([
      {
        file: 'content/site.yaml',
        line: 5,
        col: 11,
        field: 'formats.pixelexperience.path',
        message:
          "/API/ and /api/ differ only by case, and the disk of the output ignores case (macOS, Windows): they would be one folder, and phones asking /API/updater/… would get 404s; build on a disk that keeps case (the hosts' builds do), or give the format a path whose folders differ by more than case",
      },
    ]);
    // This disk keeps case (Linux): nothing to refuse, as on the hosts' builds.
    expect(folderCaseProblems(site, dir)).toEqual([]);
    const apart = parseSite(text.replace('/API/updater/', '/pixelos/updater/')).site!;
    expect(folderCaseProblems(apart, dir, () => true)).toEqual([]);
  });

  it('refuses a {LIST} folder beside a {list} folder of the same list, on a disk that ignores case', () => {
    const text =
      'download_base_url: https://dl.example.org\nchannels: [weekly]\nformats:\n  crdroid:\n    path: /ota/{list}/{device}.json\n  md5-six:\n    path: /ota/{LIST}/{device}.json\n';
    const site = parseSite(text).site!;
    const dir = mkdtempSync(path.join(base, 'out-'));
    expect(folderCaseProblems(site, dir, () => true).map((p) => `${p.line}:${p.col} ${p.field} ${p.message}`)).toEqual([
      "7:11 formats.md5-six.path /ota/WEEKLY/ and /ota/weekly/ differ only by case, and the disk of the output ignores case (macOS, Windows): they would be one folder, and phones asking /ota/WEEKLY/… would get 404s; build on a disk that keeps case (the hosts' builds do), or give the format a path whose folders differ by more than case",
    ]);
    expect(folderCaseProblems(site, dir)).toEqual([]);
  });
});
