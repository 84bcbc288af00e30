// The probe's pure rules: each updater's reading of an answer (transcribed in src/probe/updaters.ts,
// checked here against the test oracles' verdicts), where it asks, and what a build.prop asks.
import { describe, expect, it } from 'vitest';
import { decodeAnswer } from '../../src/probe/decode.js';
import { fetchable } from '../../src/probe/http.js';
import { buildTarget, readBuildProps, siteTargets } from '../../src/probe/targets.js';
import { UPDATERS } from '../../src/probe/updaters.js';
import { parseSite } from '../../src/catalog/site.js';
import { v2DecodeAnswer } from '../helpers/clients.js';
import { decodeCrDroidKotlin } from '../helpers/dialects/index.js';
import { readContent } from '../../src/catalog/read.js';
import { FORMAT_FAMILIES } from '../../src/catalog/formats.js';
import { sha256Of } from '../../src/catalog/download-key.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const v2File = { filename: 'a.zip', sha256: 'ab'.repeat(32), size: 10, url: 'https://dl.example.org/a.zip' };
const v2Entry = { datetime: 1, type: 'nightly', version: '23.2', files: [v2File] };

describe('decodeAnswer, as each updater reads an answer', () => {
  it.each<[string, unknown]>([
    ['a good entry', [v2Entry]],
    ['a size that is text', [{ ...v2Entry, files: [{ ...v2File, size: 'x' }] }]],
    ['an entry without files', [{ ...v2Entry, files: [] }]],
    ['the v1 envelope', { response: [] }],
  ])('v2 refuses the whole answer exactly where the transcribed client does: %s', (_, answer) => {
    const text = JSON.stringify(answer);
    const decoded = decodeAnswer(UPDATERS.v2, text, 'https://x/');
    expect('offered' in decoded).toBe(v2DecodeAnswer(text) !== undefined);
  });

  it('v1 drops a placeholder record and keeps the others (org.json, record by record)', () => {
    const record = {
      datetime: 1,
      filename: 'a.zip',
      id: 'x',
      romtype: 'stable',
      size: 5,
      url: 'https://d/a.zip',
      version: '2.5',
    };
    const text = JSON.stringify({
      id: null,
      response: [
        { ...record, size: '', url: undefined },
        { ...record, md5sum: 'AB' },
      ],
    });
    expect(decodeAnswer(UPDATERS.v1, text, 'https://x/')).toEqual({
      offered: [{ url: 'https://d/a.zip', size: 5, filename: 'a.zip', md5: 'ab' }],
    });
  });

  it("crDroid's Kotlin updater loses the whole answer to one bad record, as its transcription does", () => {
    const good = {
      filename: 'a.zip',
      download: 'https://d/a.zip',
      timestamp: 1,
      sha256: 'c'.repeat(64),
      size: 5,
      version: '11',
    };
    const text = JSON.stringify({ response: [good, { ...good, size: undefined }] });
    expect(decodeCrDroidKotlin(text)).toBeUndefined();
    expect(decodeAnswer(UPDATERS.crdroid, text, 'https://x/')).toEqual({
      refused: 'record 1: `size` is missing or not a number, which fails the whole answer',
    });
  });

  it("GrapheneOS's package lies beside its channel file", () => {
    expect(
      decodeAnswer(
        UPDATERS.grapheneos,
        '2024110800 1731067200 akita stable\n',
        'https://s/api/grapheneos/akita-stable',
      ),
    ).toEqual({
      offered: [
        {
          url: 'https://s/api/grapheneos/akita-ota_update-2024110800.zip',
          size: -1,
          filename: 'akita-ota_update-2024110800.zip',
        },
      ],
    });
  });
});

describe('decodeAnswer on what otapress writes', () => {
  // Every dialect, each list of its own; the example's builds as each one carries them.
  const yaml = `\nformats:\n${FORMAT_FAMILIES.map((f) => `  ${f}: {}\n`).join('')}`;
  const compiled = compileWith(readContent(EXAMPLE), yaml);
  const base = 'https://updates.example.org';
  const targets = siteTargets(compiled.site!, compiled.listings, compiled.files, base);
  const builds = new Map(compiled.builds.filter((b) => b.url !== undefined).map((b) => [b.url!, b]));
  const answers = targets
    .filter((t) => t.kind !== 'v1' && t.kind !== 'v2')
    .map((t) => ({ ...t, file: compiled.files.find((f) => `${base}/${f.path}` === t.url)! }));

  it('finds an answer of every dialect in the example', () => {
    expect(compiled.problems).toEqual([]);
    expect(new Set(answers.map((a) => a.kind))).toEqual(new Set(FORMAT_FAMILIES));
  });

  it('reads every answer of every dialect, each download with the size and hashes of its build', () => {
    const read = answers.map(({ kind, url, file }) => {
      const decoded = decodeAnswer(UPDATERS[kind], Buffer.from(file.contents).toString('utf8'), url);
      if ('refused' in decoded) return `${url}: ${decoded.refused}`;
      const wrong = decoded.offered.flatMap((o) => {
        const build = builds.get(o.url);
        // GrapheneOS names its package by the incremental, beside the channel file.
        if (kind === 'grapheneos') return o.url.startsWith(`${base}/api/grapheneos/`) ? [] : [o.url];
        const same =
          build !== undefined &&
          o.size === build.size &&
          (o.md5 === undefined || o.md5 === build.md5sum) &&
          (o.sha256 === undefined || o.sha256 === sha256Of(build));
        return same ? [] : [o.url];
      });
      return wrong.length > 0 ? `${url}: ${wrong}` : decoded.offered.length > 0 ? kind : 'empty';
    });
    expect(read.filter((r) => r.includes(':'))).toEqual([]);
    // Some files of a device offer nothing (a list wrapper with no build a dialect carries); every dialect offers some.
    expect(new Set(read.filter((r) => r !== 'empty'))).toEqual(new Set(FORMAT_FAMILIES));
  });
});

describe('where the probe asks', () => {
  it('asks https, or plain http on loopback only', () => {
    expect(
      ['https://a.org/', 'http://127.0.0.1:8788/', 'http://localhost/', 'http://[::1]/', 'http://a.org/'].map((u) =>
        fetchable(new URL(u)),
      ),
    ).toEqual([true, true, true, true, false]);
  });

  it('asks every answer at its phone path, and the files on GitHub Pages', () => {
    const site = (extra: string) =>
      parseSite(`download_base_url: https://dl.example.org\nformats:\n  crdroid-java:\n    lists: [stable]\n${extra}`)
        .site!;
    // As a phone on the list's newest build asks: its incremental after the list.
    const listings = [
      { device: 'FP4', list: 'stable', builds: [{ incremental: '' }, { incremental: 'eng.root.1' }] },
      { device: 'FP4', list: 'dev' },
    ];
    const files = [
      { path: 'api/crdroid-java/FP4.json' },
      { path: 'api/v1/FP4/stable/index.json' },
      { path: 'api/v1/FP4/stable/eng.root.0.json' },
      { path: 'api/v2/devices/FP4/builds/eng.root.0.json' },
    ];
    expect(siteTargets(site(''), listings, files, 'https://u.org').map((t) => `${t.kind} ${t.url}`)).toEqual([
      'v1 https://u.org/api/v1/FP4/stable/eng.root.1',
      'v1 https://u.org/api/v1/FP4/dev/',
      'v2 https://u.org/api/v2/devices/FP4/builds',
      // The answers for phones on a build an incremental package applies on.
      'v1 https://u.org/api/v1/FP4/stable/eng.root.0',
      'v2 https://u.org/api/v2/devices/FP4/builds/eng.root.0',
      'crdroid-java https://u.org/api/crdroid-java/FP4.json',
    ]);
    const pages = site('site_url: https://me.github.io/ota\n');
    expect(siteTargets(pages, listings.slice(0, 1), files, 'https://me.github.io/ota').map((t) => t.url)).toEqual([
      'https://me.github.io/ota/api/v1/FP4/stable/index.json',
      'https://me.github.io/ota/api/v2/devices/FP4/builds.json',
      'https://me.github.io/ota/api/crdroid-java/FP4.json',
    ]);
  });

  it('asks what a build.prop asks, with the v2 rules from LineageOS 23.2 on', () => {
    const props = (version: string) =>
      readBuildProps(
        `# comment\nro.product.device=FP4\nro.lineage.releasetype=NIGHTLY\nro.build.version.incremental=eng.1\n${version}lineage.updater.uri=https://u.org/api/v1/{device}/{type}/{incr}\n`,
      );
    expect(buildTarget(props('ro.lineage.build.version=23.2\n'))).toEqual({
      kind: 'v2',
      device: 'FP4',
      list: 'nightly',
      url: 'https://u.org/api/v1/FP4/nightly/eng.1',
    });
    expect(buildTarget(props('ro.lineage.build.version=22.1\n'))).toMatchObject({ kind: 'v1' });
    expect(buildTarget(readBuildProps('ro.product.device=FP4\n'))).toBe(
      'the build.prop has no lineage.updater.uri, ro.lineage.releasetype; the probe asks what that build asks, so it needs them',
    );
  });
});
