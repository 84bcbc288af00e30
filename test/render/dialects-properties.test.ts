// Over generated catalogs, every dialect switched on at once: each file decodes, under the reading
// code of every updater its dialect serves (test/helpers/dialects/), to exactly the builds of its
// list a phone on an old build, and a phone on the list's middle build, can install.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { FORMAT_FAMILIES, formatPath } from '../../src/catalog/formats.js';
import { catalogArbitrary, contentOf, SEED } from '../helpers/arbitraries.js';
import { aospaComposeOffers, decodeAospaCompose, decodeAospaHub, dialectOracles } from '../helpers/dialects/index.js';
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
