// Over generated catalogs, every dialect switched on at once: each file decodes, under the reading
// code of every updater its dialect serves (test/helpers/dialects/), to exactly the builds of its
// list a phone on an old build, and a phone on the list's middle build, can install.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { FORMAT_FAMILIES, formatPath } from '../../src/catalog/formats.js';
import { catalogArbitrary, contentOf, SEED } from '../helpers/arbitraries.js';
import { dialectOracles } from '../helpers/dialects/index.js';
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
