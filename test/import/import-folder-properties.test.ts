import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planFolder } from '../../src/import/folder-plan.js';
import { parseSite } from '../../src/catalog/site.js';
import type { CompiledSite } from '../../src/pipeline/build.js';
import { catalogArbitrary, SEED } from '../helpers/arbitraries.js';
import { compileFiles, type CatalogFiles } from '../helpers/memory-catalog.js';

// The round trip a ROM project makes when it moves: a catalog built with a dialect on writes a
// folder of that dialect's files; importing that folder into an empty catalog of the same site
// gives a catalog that writes the same files, byte for byte: the same catalog on what the dialect
// carries. For every dialect `import` reads (render/dialects.ts writes them; import/read-record.ts
// and other-formats.ts read them).

const DIALECTS = ['crdroid', 'crdroid-java', 'md5-six', 'lineage-v1', 'pixelos15', 'pixelexperience', 'aospa'] as const;

/** Each dialect's format in site.yaml (of the site's first list, or every one): AOSPA's hubs ask `<base>updates/<device>`. */
const formatOf = (dialect: string, list: string) =>
  dialect === 'aospa, every list'
    ? 'aospa: { path: "/ota/updates/{device}" }'
    : `${dialect}: { lists: [${list}], path: "/ota/${dialect === 'aospa' ? 'updates/{device}' : '{device}.json'}" }`;

/** The files of `compiled` under `folder/`, as the repository the import reads (paths inside it, sorted). */
function repositoryOf(compiled: CompiledSite, folder: string): { path: string; bytes: Uint8Array }[] {
  return compiled.files
    .filter((f) => f.path.startsWith(`${folder}/`))
    .map((f) => ({ path: f.path, bytes: typeof f.contents === 'string' ? Buffer.from(f.contents) : f.contents }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const text = (files: { path: string; bytes: Uint8Array }[]) =>
  Object.fromEntries(files.map((f) => [f.path, Buffer.from(f.bytes).toString('utf8')]));

/** Builds generated catalogs with `dialect` on, imports the written folder, builds again: the same files. */
function roundTrip(dialect: string): void {
  fc.assert(
    fc.property(catalogArbitrary, (catalog) => {
      const siteText = catalog.siteText.endsWith('\n') ? catalog.siteText : `${catalog.siteText}\n`;
      const site = parseSite(siteText).site!;
      const list = site.lists[0].name;
      const withFormat = `${siteText}formats:\n  ${formatOf(dialect, list)}\n`;
      const files: CatalogFiles = { 'content/site.yaml': withFormat };
      for (const m of catalog.manifests) files[m.file] = Buffer.from(m.bytes).toString('utf8');
      const built = compileFiles(files);
      expect(built.problems).toEqual([]);
      const repository = repositoryOf(built, 'ota');
      fc.pre(repository.length > 0);

      const plan = planFolder({
        folder: 'repository',
        files: repository,
        site,
        siteText,
        existing: [],
        deviceFiles: new Set(),
      });
      expect(plan.problems).toEqual([]);
      const imported: CatalogFiles = Object.fromEntries(plan.writes.map((w) => [w.file, w.text]));
      const rebuilt = compileFiles(imported);
      expect(rebuilt.problems).toEqual([]);
      // Every device file with a build to offer, and nothing else, back at its path, byte for byte.
      const offered = repository.filter((f) => !/"response":\[\]/.test(Buffer.from(f.bytes).toString('utf8')));
      expect(text(repositoryOf(rebuilt, 'ota').filter((f) => offered.some((o) => o.path === f.path)))).toEqual(
        text(offered),
      );
    }),
    { seed: SEED, numRuns: 30 },
  );
}

describe('import <folder>: a built dialect folder imports back into the same catalog', () => {
  it.each(DIALECTS)('%s', roundTrip);
  // AOSPA's one file of every list: each build goes back to the list its build_type names.
  it('aospa, every list in one file', () => roundTrip('aospa, every list'));
});
