import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { catalogArbitrary, contentOf, SEED } from '../helpers/arbitraries.js';
import { catalogFiles } from '../helpers/catalog.js';
import { downloadAllowed, v1CanInstall, v1Lists, type Phone } from '../helpers/clients.js';
import { builtTree, exampleFiles, type BuiltTree } from '../helpers/memory-catalog.js';

interface V1Record {
  filename: string;
  version: string;
  datetime: number;
  romtype: string;
  url?: string;
  size: number | '';
}

const listing = (tree: BuiltTree, device: string, list: string) =>
  (JSON.parse(tree.read(`api/v1/${device}/${list}/index.json`)) as { response: V1Record[] }).response;
/** The notices a build prints, one line each. */
const noticesOf = (tree: BuiltTree) => tree.compiled.notices.map(formatProblem);
/** A phone running `record`'s build, asking list `list`. */
const phoneOn = (record: V1Record, list: string): Phone => ({
  releaseType: list,
  buildDate: record.datetime,
  version: record.version,
  allowMajorUpgrades: false,
});
/** Release order as a maintainer means it (written here, apart from otapress): whole numbers part by part, a missing part 0. */
function releaseOrder(a: string, b: string): number {
  const pa = a.split('.').map(BigInt);
  const pb = b.split('.').map(BigInt);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++)
    if ((pa[i] ?? 0n) !== (pb[i] ?? 0n)) return (pa[i] ?? 0n) < (pb[i] ?? 0n) ? -1 : 1;
  return 0;
}

const EXAMPLE_V1_NOTICES = [
  'content/FP3/e-1.10-s-20230412300000-dev-FP3.yaml:3:10  version  list `dev` of FP3: LineageOS v1 updaters compare `version` as text, where "1.10" comes before "1.9", so phones on 1.9 are never offered 1.10; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating',
  'content/FP4/e-2.4-a14-20241001430000-official-FP4.disabled.yaml:2:11  filename  the v1 lists of FP4 hold withdrawn builds, and LineageOS v1 updaters cannot tell a `.disabled.zip` file is withdrawn: they offer it for install to phones on its version, with an older build, of the release types that list it: 2.4 (stable, official); for sites whose phones run the LineageOS updater, `v1_withdrawn: omit` in content/site.yaml leaves withdrawn builds out of v1',
  'content/starlte/e-0.23-q-2022050312345-stable-starlte.yaml:3:10  version  list `stable` of starlte: LineageOS v1 updaters compare `version` as text, where "0.17" comes before "0.7", so phones on 0.7 are never offered 0.17 or 0.23; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating',
];

describe('the example catalog built: what LineageOS v1 phones do, and the notices that say it', () => {
  it('has one notice per list where text and release order disagree, and one for the withdrawn builds of FP4', () => {
    const root = builtTree(exampleFiles());
    expect(noticesOf(root).filter((l) => !l.includes('/api/v2/'))).toEqual(EXAMPLE_V1_NOTICES);

    // What the notices say, on the real listings with the client's own rules.
    const fp3 = listing(root, 'FP3', 'dev');
    const on19 = phoneOn(
      fp3.find((r) => r.version === '1.9')!,
      'dev',
    );
    const v110 = fp3.find((r) => r.version === '1.10')!;
    expect(v110.datetime).toBeGreaterThan(on19.buildDate);
    expect(v1Lists(v110, on19)).toBe(false);
    const starlte = listing(root, 'starlte', 'stable');
    const on07 = phoneOn(
      starlte.find((r) => r.version === '0.7')!,
      'stable',
    );
    expect(starlte.filter((r) => v1Lists(r, on07)).map((r) => r.version)).toEqual(['2.5', '1.17']);

    const withdrawn = listing(root, 'FP4', 'stable').find((r) => r.filename.endsWith('.disabled.zip'))!;
    expect(
      v1CanInstall(withdrawn, {
        releaseType: 'STABLE',
        buildDate: withdrawn.datetime - 1,
        version: '2.4',
        allowMajorUpgrades: false,
      }),
    ).toBe(true);
  });

  it('with v1_withdrawn: omit, no listing holds a withdrawn or size-0 build, no phone is offered one, and nothing is said about them', () => {
    const plain = builtTree(exampleFiles());
    const files = exampleFiles();
    files['content/site.yaml'] += '\n# Our phones run the LineageOS updater.\nv1_withdrawn: omit\n';
    const root = builtTree(files);
    expect(noticesOf(root).filter((l) => l.includes('withdrawn'))).toEqual([]);
    for (const device of root.list('api/v1').filter((d) => !d.includes('.'))) {
      for (const list of ['stable', 'official', 'dev', 'community']) {
        const records = listing(root, device, list);
        expect(records.filter((r) => r.filename.endsWith('.disabled.zip') || r.size === 0)).toEqual([]);
        // Everything else as before.
        expect(records).toEqual(
          listing(plain, device, list).filter((r) => !r.filename.endsWith('.disabled.zip') && r.size !== 0),
        );
      }
    }
    expect(listing(plain, 'FP4', 'official').some((r) => r.filename.endsWith('.disabled.zip'))).toBe(true);
    expect(listing(plain, 'starlte', 'stable').some((r) => r.size === 0)).toBe(true);
  });

  it.each([
    [
      'v1_withdrawn: yes',
      'content/site.yaml:2:15  v1_withdrawn  expected `list` (withdrawn .disabled.zip and size-0 builds stay in the v1 lists, the default for the /e/ channels) or `omit` (left out, for phones running the LineageOS updater; the default for other channels)',
    ],
    [
      'v1_withdrawn: false',
      'content/site.yaml:2:15  v1_withdrawn  expected `list` (withdrawn .disabled.zip and size-0 builds stay in the v1 lists, the default for the /e/ channels) or `omit` (left out, for phones running the LineageOS updater; the default for other channels)',
    ],
  ])('site.yaml %j is a problem at its line', (line, message) => {
    expect(parseSite(`download_base_url: https://dl.example.org\n${line}\n`).problems.map(formatProblem)).toEqual([
      message,
    ]);
  });
});

describe('v1 downloads over http', () => {
  it('stay listed (phones list them) with one notice per device: the app refuses the download', () => {
    const http = { version: '2.5', extra: ['url: http://mirror.example.net/FP4/a.zip'] };
    const root = builtTree(catalogFiles([http, { version: '2.6' }]));
    expect(noticesOf(root)).toContain(
      'content/FP4/e-2.5-a14-20241108100000-official-FP4.yaml:10:6  url  the v1 lists of FP4 offer a build downloaded over http (http://mirror.example.net/FP4/a.zip): LineageOS updaters permit no cleartext traffic, so phones list it and fail the download; serve it over https (`url`, or download_base_url in content/site.yaml)',
    );
    const record = listing(root, 'FP4', 'official').find((r) => r.version === '2.5')!;
    expect(v1Lists(record, { releaseType: 'official', buildDate: 1, version: '2.5', allowMajorUpgrades: false })).toBe(
      true,
    );
    expect(downloadAllowed(record.url)).toBe(false);
  });
});

describe('for any valid catalog: a text-order notice for exactly the lists where some phone misses a newer release or lists an older one', () => {
  it('agrees with the v1 client run on the rendered listings', () => {
    fc.assert(
      fc.property(catalogArbitrary, (catalog) => {
        const compiled = compileSite(contentOf(catalog));
        expect(compiled.problems.map(formatProblem)).toEqual([]);
        const noticed = new Set(
          compiled.notices
            .map((n) => /^list `([^`]+)` of (\S+): LineageOS v1/.exec(n.message))
            .filter(Boolean)
            .map((m) => `${m![2]} ${m![1]}`),
        );
        for (const { device, list } of compiled.listings) {
          const records = JSON.parse(
            String(compiled.files.find((f) => f.path === `api/v1/${device}/${list}/index.json`)!.contents),
          ).response as V1Record[];
          const disagree = records.some((installed) =>
            records.some((offered) => {
              if (offered.filename === '' || offered.version === installed.version) return false;
              const phone = phoneOn(installed, list);
              const listed = v1Lists(offered, phone);
              const newer = offered.datetime > phone.buildDate && releaseOrder(offered.version, installed.version) >= 0;
              return (newer && !listed) || (listed && releaseOrder(offered.version, installed.version) < 0);
            }),
          );
          expect(noticed.has(`${device} ${list}`), `${device} ${list}`).toBe(disagree);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  }, 120_000);
});
