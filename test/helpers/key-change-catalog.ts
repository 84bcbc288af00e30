// The catalog of the "never stranded" done-when tests: `init --channels nightly`, three full builds,
// an incremental package from the first to the second and a key change at the third; real zips,
// signed with keys made here. And what a LineageOS phone on each build is offered, read through the
// v1 client and the v2 transcription (clients.ts) from any host's answers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { runMain } from './cli-process.js';
import {
  LINEAGE_V1_TEMPLATE,
  LINEAGE_V2_INCR_TEMPLATE,
  v1CanInstall,
  v1Lists,
  v1RequestUrl,
  v2DecodeAnswer,
  v2Offers,
  v2RequestUrl,
} from './clients.js';
import { ROOT } from './helpers.js';
import { akitaMetadata as metadata, writeOtaZip } from './ota-zip.js';
import { generateKey, otacert, signWholeFile, type SigningKey } from './signed-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const BUILDS = [
  { date: '20250103', timestamp: 1735900000 },
  { date: '20250110', timestamp: 1736500000 },
  { date: '20250117', timestamp: 1737100000 },
];
const full = (date: string) => `lineage-22.1-${date}-nightly-akita-signed.zip`;
const INCREMENTAL = 'lineage-22.1-20250110-nightly-akita-signed-incremental-20250103.zip';

/** Makes the catalog in `base/my-ota` (keys and zips beside it) and returns its root. */
export async function keyChangeCatalog(base: string): Promise<string> {
  const keys: Record<'release' | 'rotated', SigningKey> = {
    release: generateKey(base, 'release'),
    rotated: generateKey(base, 'rotated'),
  };
  const root = path.join(base, 'my-ota');
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
  return root;
}

/** The phones asked about: one on each build, and one on a build the catalog does not publish. */
const PHONES = [...BUILDS, { date: '20241227', timestamp: 1735300000 }].map(({ date, timestamp }) => ({
  date,
  device: 'akita',
  releaseType: 'nightly',
  incremental: `eng.build.${date}`,
  buildDate: timestamp,
  version: '22.1',
  allowMajorUpgrades: false,
}));

/**
 * What each phone can install, by its build's date: on the incremental package's source, that
 * package and not the build of the other key; on the last build of the old key (no package applies
 * on it) and on the newest, nothing; on an unknown build, the listing's full packages.
 */
const INSTALLABLE: Record<string, string[]> = {
  '20250103': [INCREMENTAL],
  '20250110': [],
  '20250117': [],
  '20241227': [full('20250117'), full('20250110'), full('20250103')],
};

/**
 * What each phone is offered, by its build's date, through `get` (a request path and query, the
 * answer's body): the v1 records it lists (marked when it could not install one) and the `files[0]`
 * of the v2 entries it offers, asked with `{incr}` in both URIs.
 */
export async function offeredOn(
  get: (path: string) => Promise<string>,
): Promise<Record<string, { v1: string[]; v2: string[] }>> {
  const out: Record<string, { v1: string[]; v2: string[] }> = {};
  const pathOf = (url: string) => url.replace(/^https:\/\/[^/]+/, '');
  for (const phone of PHONES) {
    const v1 = (JSON.parse(await get(pathOf(v1RequestUrl(LINEAGE_V1_TEMPLATE, phone)))) as { response: never[] })
      .response;
    const v2 = v2DecodeAnswer(await get(pathOf(v2RequestUrl(LINEAGE_V2_INCR_TEMPLATE, phone))));
    expect(v2, `the v2 answer for ${phone.date}`).toBeDefined();
    out[phone.date] = {
      v1: v1
        .filter((r) => v1Lists(r, phone))
        .map((r) => `${(r as { filename: string }).filename}${v1CanInstall(r, phone) ? '' : ' (blocked)'}`),
      v2: v2!.filter((e) => v2Offers(e, phone)).map((e) => String(e.files[0].filename)),
    };
  }
  return out;
}

/** {@link INSTALLABLE} as {@link offeredOn} says it: the same for v1 and v2. */
export const EXPECTED_OFFERS = Object.fromEntries(
  Object.entries(INSTALLABLE).map(([date, files]) => [date, { v1: files, v2: files }]),
);
