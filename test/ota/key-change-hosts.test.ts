// On an `init --channels nightly` catalog with three full builds, an incremental package and a key
// change, a LineageOS v1 phone asking with its own incremental is offered exactly what it can
// install, on the preview and on Netlify's rule engine: real zips, signed with keys the test makes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { readContent } from '../../src/catalog/read.js';
import { build, compileSite } from '../../src/pipeline/build.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { runMain } from '../helpers/cli-process.js';
import { LINEAGE_V1_TEMPLATE, v1CanInstall, v1Lists, v1RequestUrl } from '../helpers/clients.js';
import { ROOT } from '../helpers/helpers.js';
import { loadNetlifySite, netlifyAnswer, type NetlifySite } from '../helpers/netlify-engine.js';
import { writeOtaZip } from '../helpers/ota-zip.js';
import { generateKey, otacert, signWholeFile, type SigningKey } from '../helpers/signed-zip.js';
import { akitaMetadata as metadata } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const BUILDS = [
  { date: '20250103', timestamp: 1735900000 },
  { date: '20250110', timestamp: 1736500000 },
  { date: '20250117', timestamp: 1737100000 },
];
const full = (date: string) => `lineage-22.1-${date}-nightly-akita-signed.zip`;
const INCREMENTAL = 'lineage-22.1-20250110-nightly-akita-signed-incremental-20250103.zip';

describe('three builds, an incremental package and a key change', { timeout: 120_000 }, () => {
  let base: string;
  let root: string;
  let netlify: NetlifySite;
  let preview: ReturnType<typeof servedTree>;

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'otapress-key-change-'));
    const keys: Record<'release' | 'rotated', SigningKey> = {
      release: generateKey(base, 'release'),
      rotated: generateKey(base, 'rotated'),
    };
    root = path.join(base, 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    const zips: { name: string; date: string; timestamp: number; from?: string; key: SigningKey }[] = [
      { name: full('20250103'), ...BUILDS[0], key: keys.release },
      { name: full('20250110'), ...BUILDS[1], key: keys.release },
      { name: INCREMENTAL, ...BUILDS[1], from: '20250103', key: keys.release },
      // The key change: the newest build is signed with, and trusts, another key.
      { name: full('20250117'), ...BUILDS[2], key: keys.rotated },
    ];
    for (const zip of zips) {
      const file = path.join(base, zip.name);
      await writeOtaZip(file, {
        metadata: metadata(zip.date, zip.timestamp, zip.from),
        payloadSize: (zip.from ? 8 : 48) * 1024,
        entries: otacert(zip.key),
      });
      signWholeFile(file, zip.key);
      expect((await runMain(['add', file, '--root', root])).code).toBe(0);
    }
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    preview = servedTree(compiled.site!, compiled.files);
    build({ root, host: 'netlify', cache: false, threads: 1 });
    netlify = await loadNetlifySite(path.join(root, 'netlify.toml'), path.join(root, 'dist'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const phoneOn = (date: string, timestamp: number) => ({
    device: 'akita',
    releaseType: 'nightly',
    incremental: `eng.build.${date}`,
    buildDate: timestamp,
    version: '22.1',
    allowMajorUpgrades: false,
  });
  const hosts = {
    preview: (url: string) => String(respond(preview, 'GET', url).body),
    netlify: (url: string) => netlifyAnswer(netlify, url).body,
  };

  it.each(Object.keys(hosts) as (keyof typeof hosts)[])('on %s, each phone is offered what it can install', (host) => {
    const offered = (date: string, timestamp: number) => {
      const phone = phoneOn(date, timestamp);
      const records = (
        JSON.parse(hosts[host](v1RequestUrl(LINEAGE_V1_TEMPLATE, phone))) as { response: Record<string, unknown>[] }
      ).response;
      return records
        .filter((r) => v1Lists(r as never, phone))
        .map((r) => `${r.filename}${v1CanInstall(r as never, phone) ? '' : ' (blocked)'}`);
    };
    // On the incremental package's source: it, and not the build of the other key.
    expect(offered('20250103', BUILDS[0].timestamp)).toEqual([INCREMENTAL]);
    // On the last build of the old key (no incremental package applies on it): nothing it cannot install.
    expect(offered('20250110', BUILDS[1].timestamp)).toEqual([]);
    expect(offered('20250117', BUILDS[2].timestamp)).toEqual([]);
    // A build the catalog does not publish: the listing, full packages.
    expect(offered('20241227', 1735300000)).toEqual([full('20250117'), full('20250110'), full('20250103')]);
  });
});
