// Output paths that differ only by case are one file on a case-insensitive disk (macOS, Windows,
// where sites are often built before their upload): a build that would write two is refused, saying
// why, at the manifest that asks for the second.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { caseClashes } from '../../src/catalog/path-limits.js';
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
    expect(caseClashes(['api/v1/a/n/index.json', 'api/v1/a/n/INDEX.json', 'API/updater/a.json', 'api/v2/x', 'devices/a/index.html'])).toEqual([
      { path: 'api/v1/a/n/INDEX.json', other: 'api/v1/a/n/index.json' },
      { path: 'API/updater/a.json', other: 'api' },
    ]);
    expect(caseClashes(['api/v1/a/n/index.json', 'api/v1/a/n/eng.1.json', 'devices/a/index.html'])).toEqual([]);
  });

  it('refuses an incremental package whose source incremental is INDEX, beside the listing\'s index.json', async () => {
    const root = path.join(mkdtempSync(path.join(base, 'catalog-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    const zips = [
      ['lineage-22.1-20250110-nightly-akita-signed.zip', metadata('INDEX', 1736500000)],
      ['lineage-22.1-20250117-nightly-akita-signed.zip', metadata('eng.build.20250117', 1737100000)],
      ['lineage-22.1-20250117-nightly-akita-signed-incremental-20250110.zip', metadata('eng.build.20250117', 1737100000, 'INDEX')],
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
});
