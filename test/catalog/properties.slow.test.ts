import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { planImport } from '../../src/import/plan-import.js';
import { parseManifest } from '../../src/catalog/manifest.js';
import { formatProblem, type Problem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import type { OutputFile } from '../../src/render/output.js';
import {
  catalogArbitrary,
  contentOf,
  mutatedManifest,
  randomYaml,
  SEED,
  type GeneratedBuild,
  type GeneratedCatalog,
} from '../helpers/arbitraries.js';
import { downloadAllowed, v2Offers, v2Version, type Phone, type V2Entry } from '../helpers/clients.js';
import { snapshotTree, tempProject } from '../helpers/helpers.js';

/**
 * Properties over thousands of generated inputs. A failure prints fast-check's seed and path;
 * rerun exactly that case with FC_SEED=<seed> (and the path in `fc.assert`'s options).
 */
const RUNS = Number(process.env.FC_RUNS ?? 2000);
/** Whole catalogs cost a few milliseconds each (YAML parsing dominates), so they get half the runs. */
const CATALOG_RUNS = Math.ceil(RUNS / 2);
/** fast-check runs synchronously; these bound a whole property, far above its usual few seconds. */
const TIMEOUT = 120_000;
const options = (numRuns = RUNS) => ({ seed: SEED, numRuns, endOnFailure: true });

const { site } = parseSite('download_base_url: https://dl.example.org/builds\n');
const FILE = 'content/FP4/build.yaml';

/** A problem points at a real place of the file and prints as one line. */
function expectLocated(problems: Problem[], file: string, text: string | Uint8Array): void {
  const lines = (typeof text === 'string' ? text : Buffer.from(text).toString('latin1')).split(
    /\r\n|\r|\n|\u2028|\u2029|\u0085/,
  ).length;
  for (const p of problems) {
    expect(p.file).toBe(file);
    expect(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines + 1, `line ${p.line} of ${lines}`).toBe(true);
    expect(Number.isInteger(p.col) && p.col >= 1).toBe(true);
    expect(p.field.length).toBeGreaterThan(0);
    expect(p.message.length).toBeGreaterThan(0);
    expect(formatProblem(p)).not.toMatch(/[\n\r]/);
  }
}

describe('any manifest text validates or yields located problems, and never throws', () => {
  it.each([
    ['random bytes', fc.uint8Array({ maxLength: 600 }) as fc.Arbitrary<string | Uint8Array>],
    ['random text', fc.string({ unit: 'binary', maxLength: 400 })],
    ['random YAML', randomYaml],
    ['mutations of a valid manifest', mutatedManifest],
  ])(
    '%s',
    (_, arbitrary) => {
      fc.assert(
        fc.property(arbitrary, (text) => {
          const { build: parsed, problems } = parseManifest(text, FILE, 'FP4', site!);
          expect(parsed === undefined).toBe(problems.length > 0);
          expectLocated(problems, FILE, text);
        }),
        options(),
      );
    },
    TIMEOUT,
  );

  it(
    'site settings too',
    () => {
      fc.assert(
        fc.property(fc.oneof(randomYaml, fc.string({ unit: 'binary', maxLength: 300 }), mutatedManifest), (text) => {
          const { site: parsed, problems } = parseSite(text);
          expect(parsed === undefined).toBe(problems.length > 0);
          expectLocated(problems, 'content/site.yaml', text);
        }),
        options(),
      );
    },
    TIMEOUT,
  );
});

/** The v1 client's rule (REFERENCE.md): a record is dropped unless all these are present and datetime and size are numbers. */
function phoneOffers(record: Record<string, unknown>): boolean {
  const numeric = (v: unknown) =>
    typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
  return (
    ['datetime', 'filename', 'id', 'romtype', 'size', 'url', 'version'].every((k) => k in record) &&
    numeric(record.datetime) &&
    numeric(record.size)
  );
}

/**
 * A file as its path and its bytes in one string. `toEqual` walks a Uint8Array element by element
 * (the device pages are bytes): on whole catalogs that made this property most of the suite's time.
 */
const bytesOf = (file: OutputFile) => [file.path, Buffer.from(file.contents).toString('latin1')];

const RECORD_KEYS = [
  'incremental',
  'api_level',
  'url',
  'timestamp',
  'md5sum',
  'changes',
  'channel',
  'filename',
  'romtype',
  'datetime',
  'version',
  'pre_version',
  'display_version',
  'android_version',
  'id',
  'size',
  'is_upgrade_supported',
];

describe('for any valid catalog', () => {
  it(
    'the build accepts it; every output path stays inside dist/; phones see complete records and never a placeholder; the order of the files does not matter',
    () => {
      const withShuffle = catalogArbitrary.chain((catalog) =>
        fc.tuple(
          fc.constant(catalog),
          fc.shuffledSubarray(catalog.manifests, {
            minLength: catalog.manifests.length,
            maxLength: catalog.manifests.length,
          }),
        ),
      );
      fc.assert(
        fc.property(withShuffle, ([catalog, shuffled]) => {
          const compiled = compileSite(contentOf(catalog));
          expect(compiled.problems.map(formatProblem)).toEqual([]);
          const reordered = compileSite(contentOf(catalog, shuffled));
          expect(reordered.files.map(bytesOf)).toEqual(compiled.files.map(bytesOf));
          const dist = path.resolve('/srv/site/dist');
          for (const file of compiled.files) {
            expect(path.posix.normalize(file.path)).toBe(file.path);
            expect(path.resolve(dist, file.path).startsWith(dist + path.sep)).toBe(true);
          }
          const placeholders = new Set(
            catalog.builds.filter((b) => b.placeholder).map((b) => `${b.device} ${b.fields.display_version}`),
          );
          let records = 0;
          for (const listing of compiled.listings) {
            const file = compiled.files.find((f) => f.path === `api/v1/${listing.device}/${listing.list}/index.json`)!;
            const body = JSON.parse(String(file.contents));
            expect(Object.keys(body)).toEqual(['id', 'response', 'error']);
            expect([body.id, body.error]).toEqual([null, null]);
            for (const record of body.response as Record<string, unknown>[]) {
              records++;
              expect(Object.values(record)).not.toContain(null);
              expect(Object.keys(record)).toEqual(RECORD_KEYS.filter((k) => k in record));
              const placeholder = record.filename === '';
              expect(phoneOffers(record)).toBe(!placeholder);
              if (placeholder) {
                expect(placeholders.has(`${listing.device} ${record.display_version}`)).toBe(true);
                expect(record).not.toHaveProperty('url');
                expect(record.size).toBe('');
                continue;
              }
              expect(record.romtype).toBe(listing.list);
              expect(Number.isSafeInteger(record.datetime) && record.datetime === record.timestamp).toBe(true);
              expect(Number.isSafeInteger(record.size) && (record.size as number) >= 0).toBe(true);
              expect(record.id).toMatch(/^[0-9a-f]{64}$/);
              expect(record.filename).toMatch(/^[^/\\\s]+\.zip$/);
              expect(record.url).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
              expect(record.version).toMatch(/^\d+\.\d+(\.\d+)?$/);
            }
          }
          // Every build is in exactly the lists it asked for (or its channel's lists), once each; with
          // v1_withdrawn: omit (the default beside other channels than the /e/ ones), withdrawn and size-0 builds in none.
          const omitted = compiled.site!.v1Withdrawn === 'omit';
          const expected = compiled.builds
            .filter((b) => !(omitted && (b.filename.endsWith('.disabled.zip') || b.size === 0)))
            .reduce((n, b) => n + b.lists.length, 0);
          expect(records).toBe(expected);
        }),
        options(CATALOG_RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'importing any listing the build wrote gives manifests that build that listing again, byte for byte',
    () => {
      const withPick = catalogArbitrary.chain((catalog) => fc.tuple(fc.constant(catalog), fc.nat()));
      fc.assert(
        fc.property(withPick, ([catalog, pick]) => {
          const compiled = compileSite(contentOf(catalog));
          fc.pre(compiled.listings.length > 0);
          const listing = compiled.listings[pick % compiled.listings.length];
          const file = `api/v1/${listing.device}/${listing.list}/index.json`;
          const text = String(compiled.files.find((f) => f.path === file)!.contents);
          const plan = planImport({
            text,
            sourceName: 'listing.json',
            device: listing.device,
            list: listing.list,
            site: compiled.site!,
            existing: [],
          });
          expect(plan.problems.map(formatProblem)).toEqual([]);
          expect(plan.notes.map(formatProblem)).toEqual([]);
          const manifests = plan.writes.map((w) => ({
            file: w.file,
            device: listing.device,
            bytes: Buffer.from(w.text),
          }));
          const again = compileSite({
            site: Buffer.from(catalog.siteText),
            manifests,
            devices: [listing.device],
            problems: [],
          });
          expect(again.problems.map(formatProblem)).toEqual([]);
          expect(String(again.files.find((f) => f.path === file)!.contents)).toBe(text);
        }),
        options(CATALOG_RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'building on disk twice, with files created in any order, writes byte-identical trees',
    () => {
      fc.assert(
        fc.property(catalogArbitrary, fc.boolean(), (catalog, reverse) => {
          const root = writeCatalog(catalog, reverse);
          build({ root });
          const first = snapshotTree(path.join(root, 'dist'));
          build({ root });
          expect(snapshotTree(path.join(root, 'dist'))).toEqual(first);
          // The disk build writes exactly what the pure compiler renders.
          expect(first).toEqual(
            Object.fromEntries(
              compileSite(contentOf(catalog)).files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')]),
            ),
          );
        }),
        options(12),
      );
    },
    TIMEOUT,
  );
});

describe('for any valid catalog, what a LineageOS v2 phone is offered', () => {
  /** The lists a generated build is in: its own `lists`, else every list that collects its channel. */
  const listsOf = (catalog: GeneratedCatalog, build: GeneratedBuild) =>
    (build.fields.lists as string[] | undefined) ??
    Object.keys(catalog.lists).filter((list) => catalog.lists[list].includes(String(build.fields.channel)));
  /** The download address of a generated build: its own `url`, else derived from the site's base. */
  const urlOf = (catalog: GeneratedCatalog, build: GeneratedBuild) =>
    (build.fields.url as string | undefined) ??
    `${parseSite(catalog.siteText).site!.downloadBaseUrl}/${build.fields.channel}/${build.device}/${build.fields.filename}`;
  /** What v2 must offer: downloadable over https, not withdrawn, a version the client reads, a positive size. */
  const offerable = (catalog: GeneratedCatalog, build: GeneratedBuild) =>
    !build.placeholder &&
    !String(build.fields.filename).endsWith('.disabled.zip') &&
    Number(build.fields.size) > 0 &&
    downloadAllowed(urlOf(catalog, build)) &&
    v2Version(String(build.fields.version)) !== undefined;
  /** `stable` as a phone may spell its release type: `STABLE`, `Stable`, ... */
  const spelled = (type: string, upper: boolean[]) =>
    [...type].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('');

  it(
    'the v2 answer holds every offerable build under each of its lists and nothing else; a phone of that type, on an older build, is offered each and can download it; every build left out is reported',
    () => {
      fc.assert(
        fc.property(catalogArbitrary, fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), (catalog, upper) => {
          const compiled = compileSite(contentOf(catalog));
          expect(compiled.problems.map(formatProblem)).toEqual([]);
          const expectedNotices: string[] = [];
          for (const device of contentOf(catalog).devices) {
            const answer = JSON.parse(
              String(compiled.files.find((f) => f.path === `api/v2/devices/${device}/builds.json`)!.contents),
            ) as V2Entry[];
            const builds = catalog.builds
              .map((build, i) => ({ build, file: catalog.manifests[i].file }))
              .filter(({ build }) => build.device === device);
            const expected = builds
              .filter(({ build }) => offerable(catalog, build))
              .flatMap(({ build }) => listsOf(catalog, build).map((list) => `${list} ${build.fields.filename}`));
            expect(answer.map((e) => `${e.type} ${e.files[0].filename}`).sort()).toEqual(expected.sort());

            for (const entry of answer) {
              const { build } = builds.find(({ build }) => build.fields.filename === entry.files[0].filename)!;
              expect(entry).toMatchObject({
                datetime: build.fields.timestamp,
                version: build.fields.version,
                files: [{ sha256: build.fields.id, size: build.fields.size }],
              });
              const phone: Phone = {
                releaseType: spelled(String(entry.type), upper),
                buildDate: Number(build.fields.timestamp) - 1,
                version: '0.0',
                allowMajorUpgrades: true,
              };
              expect(v2Offers(entry, phone)).toBe(true);
              expect(downloadAllowed(entry.files[0].url)).toBe(true);
              expect(v2Offers(entry, { ...phone, buildDate: Number(build.fields.timestamp) })).toBe(false);
              for (const other of Object.keys(catalog.lists).filter((l) => l !== entry.type))
                expect(v2Offers(entry, { ...phone, releaseType: other })).toBe(false);
            }

            // Every leave-out is said: each unreadable version, and once per device the withdrawn builds and those of size 0.
            // With v1_withdrawn: omit (the default of a site with other channels than the /e/ ones), withdrawn and size-0 builds are in no list.
            const omitted = parseSite(catalog.siteText).site!.v1Withdrawn === 'omit';
            const listed = builds.filter(
              ({ build }) =>
                !build.placeholder &&
                listsOf(catalog, build).length > 0 &&
                !(omitted && (String(build.fields.filename).endsWith('.disabled.zip') || build.fields.size === 0)),
            );
            const newest = (some: typeof listed) =>
              [...some].sort(
                (a, b) =>
                  Number(b.build.fields.timestamp) - Number(a.build.fields.timestamp) ||
                  (String(a.build.fields.filename) < String(b.build.fields.filename) ? -1 : 1),
              )[0];
            const withdrawn = listed.filter(({ build }) => String(build.fields.filename).endsWith('.disabled.zip'));
            const sizeless = listed.filter(
              ({ build }) => !withdrawn.some((w) => w.build === build) && build.fields.size === 0,
            );
            const cleartext = listed.filter(
              ({ build }) =>
                !withdrawn.some((w) => w.build === build) &&
                build.fields.size !== 0 &&
                !downloadAllowed(urlOf(catalog, build)),
            );
            if (withdrawn.length > 0) expectedNotices.push(`${newest(withdrawn).file} filename`);
            if (sizeless.length > 0) expectedNotices.push(`${newest(sizeless).file} size`);
            if (cleartext.length > 0) expectedNotices.push(`${newest(cleartext).file} url`);
            for (const { build, file } of listed) {
              if (
                offerable(catalog, build) ||
                build.fields.size === 0 ||
                withdrawn.some((w) => w.build === build) ||
                cleartext.some((c) => c.build === build)
              )
                continue;
              expectedNotices.push(`${file} version`);
            }
          }
          const v2Notices = compiled.notices.filter((n) => n.message.includes('/api/v2/devices/'));
          expect(v2Notices.map((n) => `${n.file} ${n.field}`).sort()).toEqual(expectedNotices.sort());
        }),
        options(CATALOG_RUNS),
      );
    },
    TIMEOUT,
  );
});

/** Writes a generated catalog into a new project, creating the files in the given order. */
function writeCatalog(catalog: GeneratedCatalog, reverse: boolean): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'));
  writeFileSync(path.join(root, 'content', 'site.yaml'), catalog.siteText);
  const manifests = reverse ? [...catalog.manifests].reverse() : catalog.manifests;
  for (const m of manifests) {
    mkdirSync(path.join(root, path.dirname(m.file)), { recursive: true });
    writeFileSync(path.join(root, m.file), m.bytes);
  }
  return root;
}
