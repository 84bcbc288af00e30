import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareStrings, formatProblem } from '../../src/catalog/problems.js';
import fc from 'fast-check';
import { leastV2Bytes, renderV2, renderV2Build, V2_MAX_BYTES } from '../../src/render/v2.js';
import { unreadableV2Version } from '../../src/render/v2-candidates.js';
import type { Build } from '../../src/catalog/manifest.js';
import { SEED } from '../helpers/arbitraries.js';
import { downloadAllowed, v2DecodeAnswer, v2Offers, v2Version, type V2Entry } from '../helpers/clients.js';
import { catalogFiles, type BuildSpec } from '../helpers/catalog.js';
import { builtTree, compileFiles, exampleFiles, type BuiltTree } from '../helpers/memory-catalog.js';

const v2Of = (tree: BuiltTree, device: string) => tree.read(`api/v2/devices/${device}/builds.json`);

describe('v2 listing of the example catalog', () => {
  const tree = builtTree(exampleFiles());
  const { compiled } = tree;
  const fp4Body = v2Of(tree, 'FP4');
  const fp4 = JSON.parse(fp4Body);
  const starlte = JSON.parse(v2Of(tree, 'starlte')) as { version: string; files: { size: number }[] }[];

  it('lists each build once per list it is in, newest first, typed by the list, 2.6.3 as written; no placeholder, no withdrawn build', () => {
    expect(
      fp4.map((b: { type: string; version: string; datetime: number }) => `${b.datetime} ${b.type} ${b.version}`),
    ).toEqual([
      '1749549600 dev 3.0',
      '1734692400 stable 2.6.3',
      '1734692400 official 2.6.3',
      '1734688800 stable 2.6.3',
      '1734688800 official 2.6.3',
      '1733392800 dev 2.6',
      '1733392800 community 2.6',
      '1731067200 stable 2.5',
      '1731067200 official 2.5',
      '1711360800 official 1.21',
      '1700042400 stable 1.17',
    ]);
  });

  it('writes files[0] with the keys the updater reads, and the zip metadata only when the manifest has it', () => {
    // The official server's shape (lineageos-infra/updater api_v2.py at ad91889): keys sorted, the build's facts copied onto files[0].
    expect(
      fp4Body.startsWith(
        '[{"date":"2025-06-10","datetime":1749549600,"files":[{"date":"2025-06-10","datetime":1749549600,"filename":"e-3.0-a16-20250610500001-dev-FP4.zip",' +
          '"filepath":"/dev/FP4/e-3.0-a16-20250610500001-dev-FP4.zip","os_patch_level":"2025-06-05","os_sdk_level":36,' +
          '"ota_property_files":"payload_metadata.bin:4662:187245,payload.bin:4662:1612344380,payload_properties.txt:1612349090:156,metadata:69:683,metadata.pb:820:1352",' +
          '"sha1":"88283314defdeb8d816dc529942a420b6417359c","sha256":"6b926f090f7c3abd5c73dffe5d64809030746b4790a8da5e91f22eac71d64d91","size":1612349440,' +
          '"type":"dev","url":"https://images.example.org/builds/full/dev/FP4/e-3.0-a16-20250610500001-dev-FP4.zip"},',
      ),
    ).toBe(true);
    // A manifest without the zip's metadata: no os_patch_level or ota_property_files key.
    expect(fp4[5].files[0]).toEqual({
      date: '2024-12-05',
      datetime: 1733392800,
      filename: 'e-2.6-a15-20241205452210-community-FP4.zip',
      filepath: '/community/FP4/e-2.6-a15-20241205452210-community-FP4.zip',
      os_sdk_level: 35,
      sha1: '3141da37efc3c5e1d7005fe6ff51ae31a68f1c01',
      sha256: '1aa3a4ac60267b2f58024a7e9fb99ffa074bcb9b1b158f860f12735b899605c7',
      size: 1498912768,
      type: 'dev',
      url: 'https://images.example.org/builds/full/community/FP4/e-2.6-a15-20241205452210-community-FP4.zip',
    });
    // The example carries sha1 on every file, which the download portal keys its file lists by.
    for (const entry of [...fp4, ...starlte])
      for (const file of entry.files) expect(file.sha1, file.filename).toMatch(/^[0-9a-f]{40}$/);
  });

  it('writes no sha1 key for a hand-written manifest without one', () => {
    const [entry] = JSON.parse(v2Of(builtTree(catalogFiles([{}])), 'FP4')) as V2Entry[];
    expect(entry.files[0]).not.toHaveProperty('sha1');
  });

  it('leaves out the builds of size 0: starlte keeps its three sized builds', () => {
    expect(starlte.map((b) => `${b.version} ${b.files[0].size}`)).toEqual([
      '2.5 1188954112',
      '2.5 1188954112',
      '1.17 1102057472',
      '0.23 1012219904',
    ]);
  });

  it('says once per device what it left out and why, as notices', () => {
    expect(compiled.notices.filter((n) => n.message.includes('/api/v2/')).map(formatProblem)).toEqual([
      'content/FP4/e-2.4-a14-20241001430000-official-FP4.disabled.yaml:2:11  filename  left out of /api/v2/devices/FP4/builds: a `.disabled.zip` file is withdrawn, and a v2 entry cannot say so (phones would offer it for install); v1 still lists it, marked by the name',
      "content/starlte/e-0.17-p-2021060198765-stable-starlte.yaml:10:7  size  left out of /api/v2/devices/starlte/builds with 1 older starlte build of size 0: v2 phones check the download against `size` and some refuse a size that is not positive; write the zip's size in bytes (stat -c %s FILE) to offer them; v1 still lists them",
    ]);
  });

  it('gives a device whose lists hold only placeholders or nothing an empty array', () => {
    expect(v2Of(builtTree(catalogFiles([{ placeholder: true }])), 'FP4')).toBe('[]');
  });
});

describe('the versions a v2 updater reads: the first two dot-separated parts, as Java ints', () => {
  it.each([
    ['2.6', true],
    ['2.6.3', true],
    ['2.5.beta', true],
    ['2.5.', true],
    ['+2.5', true],
    ['2147483647.0', true],
    ['2', false],
    ['2.', false],
    ['2.5-beta', false],
    ['.5', false],
    ['2..5', false],
    ['2147483648.0', false],
    ['', false],
    [' 2.5', false],
  ])('%j: %s', (version, readable) => {
    expect(v2Version(version) !== undefined).toBe(readable);
    expect(unreadableV2Version(version) === undefined).toBe(readable);
  });

  it('judges each build by its own version, whichever versions the builds before it in its lists had', () => {
    // renderV2 asks once per version (builds share versions, and each is met once per list).
    const versions = ['2147483648.0', '2.6', '2147483648.0', '2.2147483648', '2.7', '2.6'];
    const { files, notices } = compileFiles(catalogFiles(versions.map((version) => ({ version }))));
    const unread = notices
      .filter((n) => n.message.startsWith('LineageOS v2 updaters cannot read'))
      .map((n) => `${path.basename(n.file)} ${n.message.split(':')[0]}`)
      .sort();
    expect(unread).toEqual(
      [
        'e-2147483648.0-a14-20241108100000-official-FP4.yaml LineageOS v2 updaters cannot read `2147483648.0`',
        'e-2147483648.0-a14-20241108100002-official-FP4.yaml LineageOS v2 updaters cannot read `2147483648.0`',
        'e-2.2147483648-a14-20241108100003-official-FP4.yaml LineageOS v2 updaters cannot read `2.2147483648`',
      ].sort(),
    );
    const answer = JSON.parse(files.find((f) => f.path === 'api/v2/devices/FP4/builds.json')!.contents.toString()) as {
      version: string;
    }[];
    expect(answer.map((b) => b.version).sort()).toEqual(['2.6', '2.6', '2.6', '2.6', '2.7', '2.7']);
  });

  it('otapress agrees with the client on any text of digits, dots, signs and letters', () => {
    const text = fc.string({ unit: fc.constantFrom(...'0123456789.+-a '), maxLength: 14 });
    fc.assert(
      fc.property(
        fc.oneof(
          text,
          fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 33n }), fc.nat()).map(([a, b]) => `${a}.${b}`),
        ),
        (version) => {
          expect(unreadableV2Version(version) === undefined).toBe(v2Version(version) !== undefined);
        },
      ),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('v2 size limit', () => {
  // 150 builds in two lists each: far more than 32 KiB of entries.
  const tree = builtTree(catalogFiles(Array.from({ length: 150 }, () => ({ channel: 'official' }))));
  const { compiled } = tree;
  const body = v2Of(tree, 'FP4');
  const entries = JSON.parse(body) as { datetime: number; type: string }[];
  const v1 = JSON.parse(tree.read('api/v1/FP4/stable/index.json'));

  it(`keeps the body within ${V2_MAX_BYTES} bytes by dropping the oldest entries`, () => {
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(V2_MAX_BYTES);
    const next = JSON.stringify(entries[0]).length + 1; // one more entry (all are the same length here) would not fit
    expect(Buffer.byteLength(body) + next).toBeGreaterThan(V2_MAX_BYTES);
    const times = entries.map((e) => e.datetime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBe(1731067200 + 149 * 3600);
  });

  it('says once which builds it left out: the newest dropped one and how many older ones', () => {
    const keptTimes = new Set(entries.map((e) => e.datetime));
    const droppedCount = 150 - keptTimes.size;
    const newestDropped = Math.max(
      ...Array.from({ length: 150 }, (_, i) => 1731067200 + i * 3600).filter((t) => !keptTimes.has(t)),
    );
    const index = (newestDropped - 1731067200) / 3600;
    expect(compiled.notices.map(formatProblem)).toEqual([
      `content/FP4/e-2.5-a14-20241108${100000 + index}-official-FP4.yaml:1:1  (file)  left out of /api/v2/devices/FP4/builds with ${droppedCount - 1} older builds of FP4: a v2 answer may hold at most 32768 bytes and the ${entries.length} entries it holds, newest first, fill it; v1 still lists them`,
    ]);
  });

  it('leaves v1 untouched: every build is still in the stable listing', () => {
    expect(v1.response).toHaveLength(150);
  });
});

describe('the entries left out for size without being rendered', () => {
  // renderV2 skips rendering an entry whose least possible size already passes the room left. The
  // oracle renders every entry, as the code did before: both must give the same answer, the same
  // entry-too-large problems and the same left-out notice, whatever the strings hold (escapes,
  // lone surrogates, four-byte characters) and however close an entry comes to the limit alone.
  // `&`, `'` and `<`: markup escapes them and JSON does not (a build not written as it is everywhere, as-is.ts, whose entry is).
  const unit = fc.constantFrom(
    'a',
    '0',
    '/',
    '"',
    '\\',
    '\n',
    '\u0001',
    '\u00e9',
    '\u20ac',
    '\ud800',
    '\udc00',
    '\u{1f600}',
    '&',
    "'",
    '<',
  );
  // Plain text most often: an entry of plain text, one-digit sizes and no optional keys is the
  // closest to its least possible size, where an error in that bound would show.
  const plain = (max: number) => fc.nat(max).map((n) => 'x'.repeat(n));
  const text = (max: number) =>
    fc.oneof(
      { arbitrary: plain(max), weight: 4 },
      fc.string({ unit, maxLength: max }),
      fc.nat(max).map((n) => '\u0001'.repeat(n)),
    );
  const size = fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
  const file = fc.record({
    filename: text(40),
    filepath: text(60),
    sha1: text(40),
    sha256: text(64),
    size,
    url: text(80),
  });
  const https = (u: string) => `https://${u}`;
  const timestamp = fc.integer({ min: 1_500_000_000, max: 1_500_000_040 });
  const rich = fc.record({
    filename: text(60),
    filepath: text(80),
    id: text(64),
    url: text(100).map(https),
    timestamp,
    size,
    api_level: fc.constantFrom('', '34', '99999999999999999999'),
    os_patch_level: fc.option(text(10), { nil: undefined }),
    ota_property_files: fc.option(
      fc.oneof(
        text(600),
        fc.integer({ min: 4500, max: 33000 }).map((n) => 'p'.repeat(n)),
        fc.integer({ min: 700, max: 5600 }).map((n) => '\u0001'.repeat(n)),
      ),
      { nil: undefined },
    ),
    sha1: fc.option(text(40), { nil: undefined }),
    // The zip's SHA-256 beside another download key: v2 `sha256` then carries it instead of the id.
    sha256: fc.option(text(64), { nil: undefined }),
    files: fc.option(fc.array(file, { maxLength: 3 }), { nil: undefined }),
  });
  // Exactly the least possible size: plain text, no optional key, one-digit numbers (the oldest
  // builds then, in 1970).
  const digit = fc.integer({ min: 1, max: 9 });
  const tightFile = fc.record({
    filename: plain(40),
    filepath: plain(60),
    sha1: plain(40),
    sha256: plain(64),
    size: digit,
    url: plain(80),
  });
  const tight = fc.record({
    filename: plain(60),
    filepath: plain(80),
    id: plain(64),
    sha256: fc.option(plain(64), { nil: undefined }),
    url: plain(100).map(https),
    timestamp: fc.oneof(digit, timestamp),
    size: digit,
    api_level: fc.constant(''),
    files: fc.array(tightFile, { maxLength: 2 }),
  });
  const at = { line: 1, col: 1 };
  const toBuild = (fields: object, i: number): Build =>
    ({
      ...fields,
      version: `2.${i}`,
      source: `content/D/b${i}.yaml`,
      placeholder: false,
      at: { id: at, filename: at, version: at, size: at, file: at, ota_property_files: at },
    }) as unknown as Build;

  function oracle(listings: { list: string; builds: Build[] }[]) {
    const candidates = listings.flatMap(({ list, builds }, rank) => builds.map((build) => ({ build, list, rank })));
    candidates.sort(
      (a, b) =>
        b.build.timestamp - a.build.timestamp || a.rank - b.rank || compareStrings(a.build.filename, b.build.filename),
    );
    const bodies: string[] = [];
    const tooLarge = new Set<Build>();
    const dropped = new Set<Build>();
    const kept = new Set<Build>();
    let bytes = 2;
    for (const { build, list } of candidates) {
      const body = JSON.stringify(renderV2Build(build, list));
      const size = Buffer.byteLength(body);
      const comma = bodies.length > 0 ? 1 : 0;
      if (size + 2 > V2_MAX_BYTES) tooLarge.add(build);
      else if (bytes + size + comma > V2_MAX_BYTES) dropped.add(build);
      else {
        bytes += size + comma;
        bodies.push(body);
        kept.add(build);
      }
    }
    const left = [...dropped].filter((b) => !tooLarge.has(b) && !kept.has(b));
    return {
      contents: `[${bodies.join(',')}]`,
      tooLarge: [...tooLarge].map((b) => b.source),
      left: left.map((b) => b.source),
    };
  }

  it('bounds each entry by its least size: never shorter, never longer than six times it', () => {
    fc.assert(
      fc.property(
        fc.oneof(rich, tight),
        fc.constantFrom('stable', 'a-much-longer-list-name', '\u0001\ud800'),
        (fields, list) => {
          const build = toBuild(fields, 7);
          const size = Buffer.byteLength(JSON.stringify(renderV2Build(build, list)));
          expect(size).toBeGreaterThanOrEqual(leastV2Bytes(build, list));
          expect(size).toBeLessThanOrEqual(6 * leastV2Bytes(build, list));
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('is the exact size of an entry of plain text with one-digit numbers and no optional key', () => {
    fc.assert(
      fc.property(tight, digit, (fields, timestamp) => {
        const build = toBuild({ ...fields, timestamp }, 7);
        expect(leastV2Bytes(build, 'stable')).toBe(Buffer.byteLength(JSON.stringify(renderV2Build(build, 'stable'))));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('gives what rendering every entry gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(rich, tight), { minLength: 1, maxLength: 90 }),
        fc.array(fc.array(fc.nat(), { maxLength: 90 }), { minLength: 1, maxLength: 3 }),
        (fields, picks) => {
          const builds = fields.map(toBuild);
          const listings = picks.map((pick, i) => ({
            device: 'D',
            list: ['stable', 'x', 'a-much-longer-list-name'][i],
            builds: [...new Set(pick.map((n) => builds[n % builds.length]))],
          }));
          const got = renderV2('D', listings);
          const want = oracle(listings);
          expect(got.file.contents).toBe(want.contents);
          expect(got.problems.map((p) => p.file)).toEqual(want.tooLarge);
          const notice = got.notices.find((n) => n.field === '(file)' && n.message.includes('may hold at most'));
          if (want.left.length === 0) expect(notice).toBeUndefined();
          else {
            expect(notice?.file).toBe(want.left[0]);
            expect(notice?.message).toContain(
              want.left.length > 1 ? ` with ${want.left.length - 1} older build` : 'builds: a v2 answer',
            );
          }
        },
      ),
      { seed: SEED, numRuns: 1000 },
    );
  });
});

describe('v2 routes on both hosts', () => {
  const tree = builtTree(exampleFiles());
  const redirects = tree.read('_redirects');
  const netlify = builtTree(exampleFiles(), 'netlify').read('_redirects');
  const notFound = (file: string) => JSON.parse(tree.read(file));
  const bodies = {
    'api/v2/devices/404.html': notFound('api/v2/devices/404.html'),
    'api/v2/devices/404.json': notFound('api/v2/devices/404.json'),
  };

  it('Cloudflare rewrites both slash forms to the device file, and other devices to []', () => {
    const rules = redirects.split('\n');
    for (const slash of ['', '/']) {
      const own = rules.indexOf(`/api/v2/devices/FP4/builds${slash}  /api/v2/devices/FP4/builds.json  200`);
      const others = rules.indexOf(`/api/v2/devices/:device/builds${slash}  /api/v2/unknown-device-builds.json  200`);
      expect(own).toBeGreaterThan(0);
      expect(others).toBeGreaterThan(own);
    }
  });

  it('Netlify has one forced rewrite per device (one rule serves both slash forms) and one JSON 404 rule for the rest of v2', () => {
    expect(netlify).toContain('\n/api/v2/devices/FP4/builds  /api/v2/devices/FP4/builds.json  200!\n');
    expect(netlify).not.toContain('\n/api/v2/devices/FP4/* ');
    expect(netlify).toContain('\n/api/v2/devices/*  /api/v2/devices/404.json  404\n');
    expect(netlify.indexOf('\n/api/v2/devices/* ')).toBeLessThan(netlify.indexOf('\n/api/* '));
  });

  it.each([
    [
      'api/v2/devices/404.html',
      'unknown device or path: v2 answers are /api/v2/devices/<device> and /api/v2/devices/<device>/builds for the devices in /api/v2/oems',
    ],
    [
      'api/v2/devices/404.json',
      'unknown device or path: v2 answers are /api/v2/devices/<device> and /api/v2/devices/<device>/builds for the devices in /api/v2/oems',
    ],
  ] as const)('%s answers %j in the JSON envelope', (file, error) => {
    expect(bodies[file]).toEqual({ id: null, response: [], error });
  });
});

/** `n` entries of ota-property-files, each within a zip of 1000000 bytes: about 17 bytes each. */
const longProperties = (n: number) =>
  Array.from({ length: n }, (_, i) => `f${String(i).padStart(5, '0')}.bin:${i}:1`).join(',');

describe('an entry that can never fit', { timeout: 60_000 }, () => {
  it('one that fits alone but not after the newer ones is left out on its own: the older ones still fill the answer', () => {
    // Newest first: 30 small entries (about 15 KB with the official server's fields), one of about 27 KB
    // that no longer fits, then 30 small older ones.
    const big = {
      version: '2.6',
      timestamp: 1731000000,
      extra: ['lists: [official]', `ota_property_files: "${longProperties(1600)}"`],
    };
    const small = (i: number) => ({
      version: '2.5',
      timestamp: i < 30 ? 1731100000 + i : 1730000000 + i,
      extra: ['lists: [official]'],
    });
    const tree = builtTree(catalogFiles([big, ...Array.from({ length: 60 }, (_, i) => small(i))]));
    const { compiled } = tree;
    const body = v2Of(tree, 'FP4');
    const answer = v2DecodeAnswer(body)!;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(V2_MAX_BYTES);
    // Before the fix the loop stopped at the big entry: only the 30 newer ones were kept.
    expect(answer.map((e) => e.version)).toEqual(Array(60).fill('2.5'));
    expect(compiled.notices.map(formatProblem)).toEqual([
      'content/FP4/e-2.6-a14-20241108100000-official-FP4.yaml:1:1  (file)  left out of /api/v2/devices/FP4/builds: a v2 answer may hold at most 32768 bytes and the 60 entries it holds, newest first, fill it; v1 still lists it',
    ]);
  });
});

describe('downloads over http', { timeout: 60_000 }, () => {
  it('the v2 client offers an http entry, and the app then refuses the download (the oracle)', () => {
    const entry: V2Entry = {
      datetime: 1731067200,
      type: 'stable',
      version: '2.5',
      files: [{ filename: 'a.zip', sha256: 'x', size: 1, url: 'http://dl.example.org/a.zip' }],
    };
    expect(v2Offers(entry, { releaseType: 'stable', buildDate: 1, version: '2.4', allowMajorUpgrades: false })).toBe(
      true,
    );
    expect(downloadAllowed(entry.files[0].url)).toBe(false);
  });

  it('are left out of v2 with one notice per device at the newest; v1 keeps them', () => {
    const specs: BuildSpec[] = [
      { version: '2.5', extra: ['url: http://mirror.example.net/FP4/a.zip'] },
      { version: '2.6' },
      { version: '2.7', extra: ['url: http://mirror.example.net/FP4/b.zip'] },
    ];
    const tree = builtTree(catalogFiles(specs));
    const answer = v2DecodeAnswer(v2Of(tree, 'FP4'))!;
    expect(answer.map((e) => `${e.type} ${e.version}`)).toEqual(['stable 2.6', 'official 2.6']);
    expect(answer.every((e) => downloadAllowed(e.files[0].url))).toBe(true);
    expect(tree.compiled.notices.map(formatProblem)).toContain(
      'content/FP4/e-2.7-a14-20241108100002-official-FP4.yaml:10:6  url  left out of /api/v2/devices/FP4/builds with 1 older FP4 build downloaded over http: the download address http://mirror.example.net/FP4/b.zip is not https, and the v2 updater offers it, then fails the download (the app permits no cleartext traffic); serve them over https (`url`, or download_base_url in content/site.yaml); v1 still lists them',
    );
    const v1 = JSON.parse(tree.read('api/v1/FP4/official/index.json'));
    expect(v1.response.map((r: { version: string }) => r.version)).toEqual(['2.7', '2.6', '2.5']);
  });
});
