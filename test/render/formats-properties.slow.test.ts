// Over generated catalogs: what the crDroid family's and the PixelExperience family's updaters decode
// from the build (test/helpers/format-clients.ts) equals the catalog's builds of each list they
// publish, as the generated manifests say them (membership from their lists or channels).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import {
  catalogArbitrary,
  contentOf,
  SEED,
  type GeneratedBuild,
  type GeneratedCatalog,
} from '../helpers/arbitraries.js';
import { decodeCrDroid, decodePixelExperience } from '../helpers/format-clients.js';

const RUNS = Math.ceil(Number(process.env.FC_RUNS ?? 2000) / 4);
const FORMATS = '\nformats:\n  crdroid: {}\n  pixelexperience: {}\n';

/** The generated builds of `list` on `device` that both families can offer, newest first. */
function offerable(catalog: GeneratedCatalog, device: string, list: string): GeneratedBuild[] {
  const inList = (b: GeneratedBuild) =>
    Array.isArray(b.fields.lists)
      ? (b.fields.lists as string[]).includes(list)
      : catalog.lists[list].includes(String(b.fields.channel));
  return catalog.builds
    .filter((b) => b.device === device && !b.placeholder && inList(b))
    .filter(
      (b) =>
        !String(b.fields.filename).endsWith('.disabled.zip') && typeof b.fields.size === 'number' && b.fields.size > 0,
    )
    .sort(
      (a, b) =>
        Number(b.fields.timestamp) - Number(a.fields.timestamp) ||
        (String(a.fields.filename) < String(b.fields.filename) ? -1 : 1),
    );
}

describe('the other families over generated catalogs', () => {
  it('decode to the catalog’s builds of each list', () => {
    fc.assert(
      fc.property(catalogArbitrary, (catalog) => {
        const compiled = compileSite(contentOf({ ...catalog, siteText: catalog.siteText + FORMATS }));
        expect(compiled.problems).toEqual([]);
        const lists = Object.keys(catalog.lists);
        const file = (family: string, device: string, list: string) => {
          const path = lists.length === 1 ? `api/${family}/${device}.json` : `api/${family}/${list}/${device}.json`;
          const found = compiled.files.find((f) => f.path === path);
          return found === undefined ? undefined : String(found.contents);
        };
        for (const device of new Set(catalog.manifests.map((m) => m.device))) {
          for (const list of lists) {
            const expected = offerable(catalog, device, list);
            const crdroid = decodeCrDroid(file('crdroid', device, list)!);
            expect(crdroid).toBeDefined();
            const withSha256 = expected.filter((b) => /^[0-9a-f]{64}$/.test(String(b.fields.id)));
            expect(crdroid!.updates.map((u) => [u.name, u.downloadId, u.timestamp, u.fileSize, u.version])).toEqual(
              withSha256.map((b) => [
                b.fields.filename,
                b.fields.id,
                b.fields.timestamp,
                b.fields.size,
                b.fields.version,
              ]),
            );
            const newest = expected.find((b) => typeof b.fields.md5sum === 'string' && b.fields.md5sum !== '');
            const pixel = file('pixelexperience', device, list);
            if (newest === undefined) expect(pixel).toBeUndefined();
            else {
              expect(decodePixelExperience(pixel!)).toMatchObject({
                name: newest.fields.filename,
                downloadId: newest.fields.id,
                timestamp: newest.fields.timestamp,
                fileSize: newest.fields.size,
                version: newest.fields.version,
                hash: newest.fields.md5sum,
              });
            }
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);
});
