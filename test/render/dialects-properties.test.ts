// Over generated catalogs, every dialect switched on at once: each file decodes, under the reading
// code of every updater its dialect serves (test/helpers/dialects/), to exactly the builds of its
// list a phone on an old build, and a phone on the list's middle build, can install. The AOSPA file
// has a second reader that chooses by another rule, the Compose Hub: its own property below.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { compileSite } from '../../src/pipeline/build.js';
import { FORMAT_FAMILIES, formatPath } from '../../src/catalog/formats.js';
import type { Build } from '../../src/catalog/manifest.js';
import { catalogArbitrary, contentOf, SEED, type GeneratedCatalog } from '../helpers/arbitraries.js';
import {
  aospaComposeOffers,
  decodeAospaCompose,
  decodeAospaHub,
  dialectOracles,
  type DialectPhone,
} from '../helpers/dialects/index.js';
import { DIALECT_CASES, expectedOffers, installable } from '../helpers/dialect-cases.js';

const RUNS = Math.ceil(Number(process.env.FC_RUNS ?? 2000) / 20);
const FORMATS = `\nformats:\n${FORMAT_FAMILIES.map((name) => `  ${name}: {}\n`).join('')}`;

describe('every dialect over generated catalogs', () => {
  it('decodes to what each phone can install, under every reader', () => {
    fc.assert(
      fc.property(catalogArbitrary, (catalog) => {
        const compiled = compileSite(contentOf({ ...catalog, siteText: catalog.siteText + FORMATS }));
        expect(compiled.problems).toEqual([]);
        for (const { device, list, builds } of compiled.listings) {
          for (const dialect of FORMAT_FAMILIES) {
            const rule = DIALECT_CASES[dialect];
            const format = compiled.site!.formats.find((f) => f.family === dialect)!;
            const path = formatPath(format, device, list).slice(1);
            const file = compiled.files.find((f) => f.path === path);
            const offerable = installable(rule, builds);
            if (file === undefined) {
              expect(rule.newestOnly && offerable.length === 0, `${path} is written`).toBe(true);
              continue;
            }
            const sorted = builds.map((b) => b.timestamp).sort((a, b) => a - b);
            for (const buildDate of [0, sorted[Math.floor(sorted.length / 2)] ?? 0]) {
              const version = offerable[0]?.version ?? '';
              const androidVersion = offerable[0]?.android_version ?? '13';
              const phone = {
                buildDate,
                device,
                version,
                androidVersion,
                sdkLevel: 1,
                isAB: true,
                buildType: list,
                channel: list,
              };
              for (const reader of rule.readers) {
                const offered = dialectOracles[reader](String(file.contents), phone);
                expect(offered, `${reader} reads ${path}`).toBeDefined();
                expect([...offered!].sort(), `${reader}, ${path}, phone at ${buildDate}`).toEqual(
                  expectedOffers(rule, offerable, buildDate),
                );
              }
            }
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);
});

/**
 * What the Compose Hub (Herna1994/ComposeParanoidHub, app/src/main/java/co/aospa/hub/MainActivityViewModel.kt
 * at a53e1ec6663f496ab6b2deb536df6e424f88a3c3, `searchForUpdate`) should show a phone, from the
 * catalog's builds rather than the file: of the builds the AOSPA file can carry (`offerable`,
 * newest first), those the hub matches by its own comparisons, which are of Strings (a stable
 * phone: the same `android_version` and a greater `version_code`, the build's version; a beta
 * phone: a `Beta` build type, an `android_version` not below its own, a newer build), and of these
 * the one with the greatest version code, the newest build of it when several share it: an older
 * one would leave the phone on a build it never leaves for the newer one of the same code.
 */
function composeShows(offerable: readonly Build[], phone: DialectPhone, buildType: string): string[] {
  const beta = phone.buildType === 'Beta';
  const matching = offerable.filter((b) =>
    beta
      ? buildType === 'Beta' && b.android_version >= phone.androidVersion! && b.timestamp > phone.buildDate
      : b.android_version === phone.androidVersion && b.version > phone.version!,
  );
  const top = matching.reduce<Build | undefined>(
    (best, b) => (best === undefined || b.version > best.version ? b : best),
    undefined,
  );
  return top === undefined ? [] : [top.filename];
}

/**
 * The generated catalogs, and half of the time the same with every version drawn from a few: the
 * generator's versions rarely meet, and builds that share a version code are where the Compose Hub
 * has to choose (it tells builds apart by `version_code` alone).
 */
const sharedVersionCodes = catalogArbitrary.chain((catalog) =>
  fc.oneof(
    fc.constant(catalog),
    fc
      .array(fc.constantFrom('1.0', '1.1', '2.0', '10.0'), {
        minLength: catalog.manifests.length,
        maxLength: catalog.manifests.length,
      })
      .map((versions): GeneratedCatalog => ({
        ...catalog,
        manifests: catalog.manifests.map((m, i) => {
          const doc = parseDocument(Buffer.from(m.bytes).toString('utf8'));
          doc.set('version', versions[i]);
          // The file name keeps its own version, as a zip published before the version was corrected.
          if (doc.get('filename')) doc.set('filename_differs', ['version']);
          return { ...m, bytes: Buffer.from(doc.toString()) };
        }),
      })),
  ),
);

describe('the AOSPA file under the Compose Hub, over generated catalogs', () => {
  it('shows each phone the newest build of the greatest version code it matches, and fails for none that can install one', () => {
    const aospa = fc.constantFrom('  aospa: {}\n', '  aospa: {buildtype: Beta}\n', '  aospa: {buildtype: Release}\n');
    fc.assert(
      fc.property(sharedVersionCodes, aospa, (catalog, entry) => {
        const compiled = compileSite(contentOf({ ...catalog, siteText: `${catalog.siteText}\nformats:\n${entry}` }));
        expect(compiled.problems).toEqual([]);
        const format = compiled.site!.formats.find((f) => f.family === 'aospa')!;
        for (const { device, list, builds } of compiled.listings) {
          const path = formatPath(format, device, list).slice(1);
          const file = compiled.files.find((f) => f.path === path);
          const offerable = installable(DIALECT_CASES.aospa, builds);
          if (file === undefined) {
            expect(offerable, `${path} is written`).toEqual([]);
            continue;
          }
          // A phone on each build of the list (installable or not), and a fresh one on each Android
          // version there (no version code, built at 0), each with and without the beta switch.
          const onBuilds = builds.map((b) => ({
            buildDate: b.timestamp,
            version: b.version,
            androidVersion: b.android_version,
          }));
          const fresh = [...new Set(builds.map((b) => b.android_version))].map((androidVersion) => ({
            buildDate: 0,
            version: '',
            androidVersion,
          }));
          for (const base of [...onBuilds, ...fresh]) {
            for (const buildType of ['Release', 'Beta']) {
              const phone: DialectPhone = { ...base, device, buildType, contentType: 'text/plain; charset=utf-8' };
              const shown = dialectOracles.aospaCompose(String(file.contents), phone);
              expect(shown, `the Compose Hub reads ${path}`).toBeDefined();
              expect(
                shown,
                `${path}, ${buildType} phone on ${base.version || '-'} (Android ${base.androidVersion}) at ${base.buildDate}`,
              ).toEqual(composeShows(offerable, phone, format.buildtype ?? list));
            }
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);
});

// AOSPA keeps a device's Stable, Beta and Alpha builds in one file, `updates/<device>`, each with its
// own `build_type`. Neither hub asks for a list: the Java Hub (AOSPA/android_packages_apps_ParanoidHub
// uvite at 606c32e2d68cfe8741eb536f94fc984057805069, ClientConnector.java) asks `updates/<ro.aospa.device>`
// and reads the first record only, whatever `build_type` it has, `ro.aospa.build.variant` deciding
// nothing but download verification (UpdateController.java `shouldVerifyUpdate`); the Compose Hub
// (Herna1994/ComposeParanoidHub at b29981a569f919ae8888e4fc1c5c364fbf1a5b3c, MainActivityViewModel.kt
// `searchForUpdate`, DeviceUtils.kt `getCurrentVariant`) shows a Beta phone (`ro.aospa.build.variant`
// Beta) only `Beta` builds, and any other phone any build of its Android version with a greater
// `version_code`, whatever its `build_type`.
describe('aospa: one file for all the lists', () => {
  it("the first list's newest build first, every list's builds with its build_type", () => {
    fc.assert(
      fc.property(catalogArbitrary, (catalog) => {
        const lists = Object.keys(catalog.lists);
        const types = ['Stable', 'Beta'];
        const buildtype = lists.map((list, i) => (i < types.length ? `${list}: ${types[i]}` : '')).filter(Boolean);
        const aospa = `\nformats:\n  aospa:\n    path: /aospa/updates/{device}\n    buildtype: { ${buildtype.join(', ')} }\n`;
        // The generated site may name its lists by default (no `lists:` in its text): the compiled site's are the ones.
        const compiled = compileSite(contentOf({ ...catalog, siteText: catalog.siteText + aospa }));
        expect(compiled.problems).toEqual([]);
        const format = compiled.site!.formats[0];
        const typeOf = (list: string) => format.buildtypes?.[list] ?? list;
        const rule = DIALECT_CASES.aospa;
        for (const device of new Set(compiled.listings.map((l) => l.device))) {
          const path = formatPath(format, device, format.lists[0]).slice(1);
          const file = compiled.files.find((f) => f.path === path);
          const perList = format.lists.map((list) => {
            const builds = compiled.listings.find((l) => l.device === device && l.list === list)?.builds ?? [];
            return installable(rule, builds).map((b) => ({ b, type: typeOf(list) }));
          });
          const every = perList.flat();
          if (every.length === 0) {
            expect(file, `${path} is written`).toBeUndefined();
            continue;
          }
          const text = String(file!.contents);
          // Every phone on the Java Hub is offered the first list's newest build (or the next list's).
          const first = decodeAospaHub(text);
          expect([first?.fileName, first?.buildType]).toEqual([every[0].b.filename, every[0].type]);
          const records = decodeAospaCompose(text, 'text/plain; charset=utf-8');
          expect(records?.map((r) => [r.filename, r.build_type])).toEqual(
            every.map(({ b, type }) => [b.filename, type]),
          );
          // A Beta phone on the Compose Hub is shown a build of the Beta list only, newer than its own.
          const android = every[0].b.android_version;
          for (const buildDate of [0, every[every.length - 1].b.timestamp]) {
            // Build.TIME, in milliseconds, compared with `datetime` as text.
            const phone = {
              androidVersion: android,
              versionCode: '0',
              buildDate: String(buildDate * 1000),
              beta: true,
            };
            const shown = aospaComposeOffers(records!, phone);
            const beta = every.filter(
              ({ b, type }) => type === 'Beta' && b.android_version >= android && b.timestamp > buildDate,
            );
            if (beta.length === 0) expect(shown).toBeUndefined();
            else expect(beta.map(({ b }) => b.filename)).toContain(shown?.filename);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);
});

describe('the AOSPA file, two builds of one version code', () => {
  const manifest = (date: string, timestamp: number, id: string) => ({
    file: `content/FP4/${date}.yaml`,
    device: 'FP4',
    bytes: Buffer.from(
      `filename: e-2.5-a14-${date}-official-FP4.zip\nversion: "2.5"\nchannel: official\ntimestamp: ${timestamp}\n` +
        `android_version: "14"\nincremental: eng.${date}\nmd5sum: ${id.repeat(32)}\nid: ${id.repeat(64)}\nsize: 1387003904\n`,
    ),
  });
  const compiled = compileSite({
    site: Buffer.from(
      'download_base_url: https://dl.example.org\nsite_url: https://ota.example.org\nformats:\n  aospa: {lists: [official]}\n',
    ),
    manifests: [manifest('20241108', 1731067200, 'a'), manifest('20241201', 1733067200, 'b')],
    devices: ['FP4'],
    problems: [],
  });
  const text = String(compiled.files.find((f) => f.path === 'aospa/updates/FP4')!.contents);

  it('builds', () => expect(compiled.problems).toEqual([]));

  it('carries the newer alone, which the Compose Hub shows a phone on an older code (it would show the older of the two)', () => {
    const phone = { buildDate: 0, version: '2.4', androidVersion: '14', contentType: 'text/plain' };
    expect(dialectOracles.aospaCompose(text, { ...phone, buildType: 'Release' })).toEqual([
      'e-2.5-a14-20241201-official-FP4.zip',
    ]);
    expect(dialectOracles.aospaHub(text, phone)).toEqual(['e-2.5-a14-20241201-official-FP4.zip']);
  });

  it('says it left the older out, and why', () => {
    expect(compiled.notices.map((n) => `${n.file}  ${n.message}`)).toEqual([
      "content/FP4/20241108.yaml  left out of /aospa/updates/FP4 (the AOSPA hub answer): its download key (`version_code`) is a newer build's too; one per key is kept",
    ]);
  });
});
