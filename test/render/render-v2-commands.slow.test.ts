// The v2 answer's notices and problems as the commands print them and exit on them; what the
// answer holds is tested in memory (render-v2.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { check } from '../../src/pipeline/build.js';
import { catalogProject } from '../helpers/catalog.js';

const v2Of = (root: string, device: string) =>
  readFileSync(path.join(root, 'dist/api/v2/devices', device, 'builds.json'), 'utf8');

/** A build of each kind v2 leaves out (unreadable version, withdrawn, size 0 twice) beside two it keeps. */
const LEFT_OUT = [
  { version: '2147483648.0' },
  { version: '2.6.3' },
  { version: '2.7', disabled: true },
  { version: '2.7', size: 0 },
  { version: '2.8', size: 0 },
  { version: '2.8' },
];
const LEFT_OUT_NOTICES = [
  'content/FP4/e-2.7-a14-20241108100002-official-FP4.yaml:1:11  filename  left out of /api/v2/devices/FP4/builds: a `.disabled.zip` file is withdrawn, and a v2 entry cannot say so (phones would offer it for install); v1 still lists it, marked by the name',
  'content/FP4/e-2.7-a14-20241108100002-official-FP4.yaml:1:11  filename  the v1 lists of FP4 hold withdrawn builds, and LineageOS v1 updaters cannot tell a `.disabled.zip` file is withdrawn: they offer it for install to phones on its version, with an older build, of the release types that list it: 2.7 (stable, official); for sites whose phones run the LineageOS updater, `v1_withdrawn: omit` in content/site.yaml leaves withdrawn builds out of v1',
  "content/FP4/e-2.8-a14-20241108100004-official-FP4.yaml:9:7  size  left out of /api/v2/devices/FP4/builds with 1 older FP4 build of size 0: v2 phones check the download against `size` and some refuse a size that is not positive; write the zip's size in bytes (stat -c %s FILE) to offer them; v1 still lists them",
  'content/FP4/e-2147483648.0-a14-20241108100000-official-FP4.yaml:2:10  version  LineageOS v2 updaters cannot read `2147483648.0`: 2147483648 is larger than the updater can read (at most 2147483647); so /api/v2/devices/FP4/builds leaves this build out; v1 still lists it (stable, official)',
];

describe('the build command prints notices and still succeeds', () => {
  it.each([
    ['build', 0],
    ['check', 0],
  ])('%s exits %i and prints each notice as file:line:col  field  message', async (command, code) => {
    const root = catalogProject(LEFT_OUT);
    const err: string[] = [];
    const out: string[] = [];
    expect(await main([command, '--root', root], { out: (l) => out.push(l), err: (l) => err.push(l) })).toBe(code);
    expect(err).toEqual([
      ...LEFT_OUT_NOTICES,
      '4 notices (not errors: the site builds; each says what phones will do, and what to change).',
    ]);
    expect(out.at(-1)).toMatch(
      command === 'build' ? /^built 6 builds of 1 device into 4 listings \(12 records\), / : /^6 manifests are valid$/,
    );
    if (command === 'build')
      expect(
        JSON.parse(v2Of(root, 'FP4')).map((e: { version: string; type: string }) => `${e.type} ${e.version}`),
      ).toEqual(['stable 2.8', 'official 2.8', 'stable 2.6.3', 'official 2.6.3']);
  });

  it('check --format github prints notices as notice annotations', async () => {
    const root = catalogProject([{ version: '2147483648.0' }]);
    const out: string[] = [];
    expect(
      await main(['check', '--root', root, '--format', 'github'], { out: (l) => out.push(l), err: () => {} }),
    ).toBe(0);
    expect(out).toEqual([
      '::notice file=content/FP4/e-2147483648.0-a14-20241108100000-official-FP4.yaml,line=2,col=10,title=version::LineageOS v2 updaters cannot read `2147483648.0`: 2147483648 is larger than the updater can read (at most 2147483647); so /api/v2/devices/FP4/builds leaves this build out; v1 still lists it (stable, official)',
      '1 manifest is valid',
    ]);
  });

  it('check reports the same notices as build, without writing', () => {
    const root = catalogProject(LEFT_OUT);
    expect(check({ root }).notices.map(formatProblem)).toEqual(LEFT_OUT_NOTICES);
  });
});

/** `n` entries of ota-property-files, each within a zip of 1000000 bytes: about 17 bytes each. */
const longProperties = (n: number) =>
  Array.from({ length: n }, (_, i) => `f${String(i).padStart(5, '0')}.bin:${i}:1`).join(',');

describe('an entry that can never fit', { timeout: 60_000 }, () => {
  // 2000 entries: about 36 KB of ota_property_files, a valid manifest (under 64 KiB) of a zip that holds them.
  const specs = [
    { version: '2.5' },
    { version: '2.6', extra: [`ota_property_files: "${longProperties(2000)}"`] },
    { version: '2.7' },
  ];

  it('is a problem at the ota_property_files line: check and build exit 1, nothing is written', async () => {
    const root = catalogProject(specs);
    for (const command of ['check', 'build']) {
      const err: string[] = [];
      expect(await main([command, '--root', root], { out: () => {}, err: (l) => err.push(l) })).toBe(1);
      expect(err[0]).toMatch(
        /^content\/FP4\/e-2\.6-a14-20241108100001-official-FP4\.yaml:10:21  ota_property_files  the v2 entry of this build \(list `stable`\) is 3\d{4} bytes, and a v2 answer may hold at most 32768 with its brackets: no v2 phone could ever be offered it; write the ota-property-files of the zip's META-INF\/com\/android\/metadata \(a few entries\), or remove `ota_property_files` \(phones then download the whole zip\)$/,
      );
    }
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });
});
