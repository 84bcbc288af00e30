import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { EXAMPLE, ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

const GOLDEN_API = path.join(ROOT, 'test/golden/dist/api/v1');
const LISTS = ['stable', 'official', 'dev', 'community'];
const golden = (device: string, list: string) =>
  readFileSync(path.join(GOLDEN_API, device, list, 'index.json'), 'utf8');
const records = (device: string, list: string) =>
  JSON.parse(golden(device, list)).response as Record<string, unknown>[];

/** A project with the example site settings and no manifests. */
function emptyProject(): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'));
  cpSync(path.join(EXAMPLE, 'content/site.yaml'), path.join(root, 'content/site.yaml'));
  return root;
}

function writeListing(root: string, response: unknown, name = 'listing.json'): string {
  const file = path.join(root, name);
  writeFileSync(
    file,
    typeof response === 'string' ? response : JSON.stringify({ id: null, response, error: null }, null, 2),
  );
  return file;
}

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
const SCHEMA_LINE = '# yaml-language-server: $schema=../manifest.schema.json';

describe('otapress import: round trip', () => {
  it('imports every list of every device and builds the same listings byte for byte', { timeout: 60_000 }, async () => {
    const root = emptyProject();
    for (const device of ['FP3', 'FP4', 'starlte']) {
      for (const list of LISTS) {
        const { code, err } = await runMain([
          'import',
          path.join(GOLDEN_API, device, list, 'index.json'),
          '--device',
          device,
          '--list',
          list,
          '--root',
          root,
        ]);
        expect({ code, err }).toEqual({ code: 0, err: [] });
      }
    }
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(snapshotTree(path.join(root, 'dist/api/v1'))).toEqual(snapshotTree(GOLDEN_API));
    // One manifest per physical build, lists written only where they differ from the default.
    expect(Object.keys(snapshotTree(path.join(root, 'content'))).filter((f) => f.endsWith('.yaml')).length).toBe(21);
    expect(read(root, 'content/FP4/e-1.21-t-20240325389105-official-FP4.yaml')).toContain('\nlists: [official]\n');
    expect(read(root, 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml')).not.toContain('lists');
    expect(read(root, 'content/FP3/placeholder-1.9-s-20230312290000-dev-FP3.yaml')).toBe(`${SCHEMA_LINE}
placeholder: true
version: "1.9"
channel: dev
timestamp: 1678615200
android_version: "12"
md5sum: 957786ef0565b5a324360ff58e7b1afd
display_version: 1.9-s-20230312290000-dev-FP3
`);
  });

  it('changes nothing when the listings come from the catalog itself', { timeout: 60_000 }, async () => {
    const root = tempProject({ withContent: true });
    const before = snapshotTree(path.join(root, 'content'));
    for (const device of ['FP3', 'FP4', 'starlte']) {
      for (const list of LISTS) {
        const { code, out } = await runMain([
          'import',
          path.join(GOLDEN_API, device, list, 'index.json'),
          '--device',
          device,
          '--list',
          list,
          '--root',
          root,
        ]);
        expect({ code, out: out.at(-1) }).toEqual({ code: 0, out: expect.stringMatching(/: 0 manifests written$/) });
      }
    }
    expect(snapshotTree(path.join(root, 'content'))).toEqual(before);
  });

  it(
    'merges a second list of the same device into the manifests of the first (real CLI process)',
    { timeout: 60_000 },
    () => {
      const root = emptyProject();
      const stable = runOtapress([
        'import',
        path.join(GOLDEN_API, 'FP4/stable/index.json'),
        '--device',
        'FP4',
        '--list',
        'stable',
        '--root',
        root,
      ]);
      expect(stable.code).toBe(0);
      expect(read(root, 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml')).toContain('\nlists: [stable]\n');
      const official = runOtapress([
        'import',
        path.join(GOLDEN_API, 'FP4/official/index.json'),
        '--device',
        'FP4',
        '--list',
        'official',
        '--root',
        root,
      ]);
      expect(official).toEqual({
        code: 0,
        stderr: '',
        stdout: [
          'created content/FP4/e-1.21-t-20240325389105-official-FP4.yaml',
          'updated content/FP4/e-2.4-a14-20241001430000-official-FP4.disabled.yaml: added to list official',
          'updated content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml: added to list official',
          'updated content/FP4/e-2.6.3-a14-20241220455571-official-FP4.yaml: added to list official',
          'updated content/FP4/e-2.6.3-a15-20241220455570-official-FP4.yaml: added to list official',
          'updated content/FP4/placeholder-3.1-a16-20250701-official-FP4.yaml: added to list official',
          'imported 6 of 6 records into FP4/official: 6 manifests written',
          '',
        ].join('\n'),
      });
      expect(read(root, 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml')).toBe(`${SCHEMA_LINE}
filename: e-2.5-a14-20241108446322-official-FP4.zip
version: "2.5"
channel: official
timestamp: 1731067200
android_version: "14"
incremental: "eng.root.20241108.123456"
md5sum: 75d230308d36383a21994e175cb1d0b7
id: 13853cffb4381efecf5ece95af491e554f9195c0e56f71d4ec7eb2a1a12a8f8b
size: 1387003904
`);
      // Importing the same list again changes nothing.
      const again = runOtapress([
        'import',
        path.join(GOLDEN_API, 'FP4/official/index.json'),
        '--device',
        'FP4',
        '--list',
        'official',
        '--root',
        root,
      ]);
      expect(again.stdout).toBe('imported 6 of 6 records into FP4/official: 0 manifests written\n');
    },
  );

  it('reads standard input with - (real CLI process)', { timeout: 60_000 }, () => {
    const root = emptyProject();
    const result = runOtapress(['import', '-', '--device', 'FP4', '--list', 'dev', '--root', root], {
      input: golden('FP4', 'dev'),
    });
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'created content/FP4/e-2.6-a15-20241205452210-community-FP4.yaml\ncreated content/FP4/e-3.0-a16-20250610500001-dev-FP4.yaml\nimported 2 of 2 records into FP4/dev: 2 manifests written\n',
    });
    expect(read(root, 'content/FP4/e-2.6-a15-20241205452210-community-FP4.yaml')).toContain('\nlists: [dev]\n');
  });

  it('takes a build out of the list when the source does not hold it', async () => {
    const root = tempProject({ withContent: true });
    const listing = writeListing(
      root,
      records('FP4', 'stable').filter((r) => r.version !== '1.17'),
    );
    const { code, out } = await runMain(['import', listing, '--device', 'FP4', '--list', 'stable', '--root', root]);
    expect(code).toBe(0);
    expect(out).toEqual([
      'updated content/FP4/e-1.17-t-20231115350000-stable-FP4.yaml: removed from list stable (not in the source)',
      'imported 5 of 5 records into FP4/stable: 1 manifest written',
    ]);
    expect(read(root, 'content/FP4/e-1.17-t-20231115350000-stable-FP4.yaml')).toContain('\nlists: []\n');
  });
});

describe('otapress import: normalisations', () => {
  it('reports each value it publishes differently, and the build shows exactly those changes', async () => {
    const root = emptyProject();
    const [first, second] = records('FP4', 'official').slice(1, 3);
    const source = [
      {
        ...first,
        md5sum: String(first.md5sum).toUpperCase(),
        size: String(first.size),
        android_version: 15,
        extra: 'x',
      },
      Object.fromEntries(Object.entries({ ...second, romtype: 'OFFICIAL' }).reverse()),
    ];
    const listing = writeListing(root, source);
    const { code, err } = await runMain(['import', listing, '--device', 'FP4', '--list', 'official', '--root', root]);
    expect(code).toBe(0);
    expect(err).toEqual([
      `${listing}:9:17  response.0.md5sum  record 0: md5sum is in upper-case hex; published in lowercase`,
      `${listing}:18:26  response.0.android_version  record 0: android_version is the number 15; published as the text "15", as the interface types it`,
      `${listing}:20:15  size  \`size\` is text in 1 of 2 records; phones read it with getLong, which takes a number in text, so it is published as the number ("1501339648")`,
      `${listing}:22:16  response.0.extra  record 0: \`extra\` is not a field of the v1 interface; it is left out`,
      `${listing}:24:5  response.1  record 1: the keys are in another order than the interface's; the build writes every record in the interface's order`,
      `${listing}:33:18  romtype  \`romtype\` is not the list imported into in 1 of 2 records; published as the list, which phones compare with their release type (ignoring case) (OFFICIAL → official)`,
      '6 notes above: the build publishes these values as they say',
    ]);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const built = JSON.parse(read(root, 'dist/api/v1/FP4/official/index.json')).response;
    expect(built).toEqual([
      { ...first, md5sum: String(first.md5sum).toLowerCase(), size: Number(first.size), android_version: '15' },
      { ...second, romtype: 'official' },
    ]);
    expect(Object.keys(built[1])).toEqual(Object.keys(first));
  });
});

describe('otapress import: records with only what a LineageOS phone reads', () => {
  const dev = () => records('FP4', 'dev').map((r) => ({ ...r }));
  const without = (...keys: string[]) =>
    dev().map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !keys.includes(k))));
  const lack = (field: string, how: string) =>
    `all 2 records lack \`${field}\`, which only the /e/ updater reads: ${how}`;

  it.each([
    ['timestamp', 'set to datetime (the build time phones compare)', {}],
    ['channel', 'set to the channel the file name states (the download folder of the default address)', {}],
    [
      'android_version',
      'derived from api_level by the pairing of the v1 interface (README, The v1 interface) (35 → 15, 36 → 16)',
      {},
    ],
    ['api_level', 'derived from android_version by the same pairing, as the build does', {}],
    ['display_version', 'derived from the file name, as the build does', {}],
    ['incremental', 'published as ""', { incremental: '' }],
    ['changes', 'published as ""', {}],
    ['pre_version', 'published as ""', {}],
    ['is_upgrade_supported', 'published as false', {}],
  ])(
    'fills in a missing %s, says so once for the listing, and the build publishes it',
    async (field, how, published) => {
      const root = emptyProject();
      const listing = writeListing(root, without(field));
      const { code, out, err } = await runMain(['import', listing, '--device', 'FP4', '--list', 'dev', '--root', root]);
      expect({ code, out: out.at(-1) }).toEqual({
        code: 0,
        out: 'imported 2 of 2 records into FP4/dev: 2 manifests written',
      });
      expect(err.map((l) => l.replace(/^.*?:\d+:\d+ {2}/, ''))).toEqual([
        `${field}  ${lack(field, how)}`,
        '1 note above: the build publishes these values as they say',
      ]);
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      expect(JSON.parse(read(root, 'dist/api/v1/FP4/dev/index.json')).response).toEqual(
        dev().map((r) => ({ ...r, ...published })),
      );
    },
  );

  it("takes android_version from the file name's platform part when no api_level tells it", async () => {
    const root = emptyProject();
    const listing = writeListing(root, without('android_version', 'api_level'));
    const { code, err } = await runMain([
      'import',
      listing,
      '--device',
      'FP4',
      '--list',
      'dev',
      '--root',
      root,
      '--verbose',
    ]);
    expect(code).toBe(0);
    expect(err).toEqual([
      `${listing}:4:5  android_version  ${lack('android_version', 'derived from the file name (e-2.6-a15-20241205452210-community-FP4.zip → 15, e-3.0-a16-20250610500001-dev-FP4.zip → 16)')}`,
      `${listing}:4:5  api_level  ${lack('api_level', 'derived from android_version by the same pairing, as the build does')}`,
      '2 notes above: the build publishes these values as they say',
    ]);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(JSON.parse(read(root, 'dist/api/v1/FP4/dev/index.json')).response).toEqual(dev());
  });

  it('counts the records that lack a field, and names the first', async () => {
    const root = emptyProject();
    const [first, second] = dev();
    delete (second as Record<string, unknown>).pre_version;
    const listing = writeListing(root, [first, second]);
    const { code, err } = await runMain(['import', listing, '--device', 'FP4', '--list', 'dev', '--root', root]);
    expect(code).toBe(0);
    expect(err[0]).toBe(
      `${listing}:23:5  pre_version  1 of 2 records lack \`pre_version\`, which only the /e/ updater reads: published as ""`,
    );
  });

  it('with --skip-invalid, exits 1 when no record could be imported', async () => {
    const root = emptyProject();
    const listing = writeListing(root, without('url'));
    const before = snapshotTree(root);
    const { code, out, err } = await runMain([
      'import',
      listing,
      '--device',
      'FP4',
      '--list',
      'dev',
      '--root',
      root,
      '--skip-invalid',
    ]);
    expect(code).toBe(1);
    expect(out).toEqual(['imported 0 of 2 records into FP4/dev: 0 manifests written, 2 invalid records skipped']);
    expect(err.at(-1)).toBe(
      'no record of 2 could be imported (problems above); fix the listing, or the site settings it needs',
    );
    expect(snapshotTree(root)).toEqual(before);
  });
});

describe('otapress import: malformed sources', () => {
  const base = () => records('FP4', 'dev').map((r) => ({ ...r }));
  const change = (index: number, patch: Record<string, unknown>, remove: string[] = []) => {
    const list = base();
    Object.assign(list[index], patch);
    for (const key of remove) delete list[index][key];
    return list;
  };

  it.each([
    [
      'a missing key',
      change(1, {}, ['version']),
      ['listing.json:23:5  response.1.version  record 1: missing; LineageOS phones drop a record without version'],
    ],
    [
      'a missing url',
      change(1, {}, ['url']),
      [
        'listing.json:23:5  response.1.url  record 1: missing (only a placeholder, with filename, id and size "", has no url); LineageOS phones drop a record without url',
      ],
    ],
    [
      'a date as text',
      change(0, { timestamp: '2024-12-05T10:00:00Z', datetime: '2024-12-05T10:00:00Z' }),
      [
        'listing.json:8:20  response.0.timestamp  record 0: expected Unix seconds, like datetime, found the text "2024-12-05T10:00:00Z"',
        'listing.json:14:19  response.0.datetime  record 0: the text "2024-12-05T10:00:00Z" is not Unix seconds; LineageOS phones drop a record whose datetime is not a number (they read it with getLong): write the build time, e.g. date -u -d \'2024-12-05T10:00:00Z\' +%s, or ro.build.date.utc of the build',
      ],
    ],
    [
      'an id no output carries unchanged',
      change(1, { id: '<b>' }),
      [
        'listing.json:38:13  response.1.id  record 1: the text "<b>" is not a download key otapress can publish unchanged: it needs 1 to 255 letters, digits and `. _ ~ - + = : /` (phones key downloads by it, and pages and feeds link it)',
      ],
    ],
    [
      'an empty id',
      change(1, { id: '' }),
      [
        'listing.json:38:13  response.1.id  record 1: id is empty; phones key each download by it (records with the same id collapse into one): give the build its own, e.g. the SHA-256 of the zip',
      ],
    ],
    [
      'a size that is not a number',
      change(1, { size: 'x' }),
      [
        'listing.json:39:15  response.1.size  record 1: expected the size in bytes as a whole number, found the text "x"; LineageOS phones drop a record whose size is not a number (they read it with getLong)',
      ],
    ],
    [
      'JSON null in a string field',
      change(0, { changes: null }),
      [
        'listing.json:10:18  response.0.changes  record 0: changes is JSON null; phones read it as the text "null"; write the value, or "" for none',
      ],
    ],
    [
      'a placeholder with a numeric size',
      change(0, { filename: '', id: '' }, ['url']),
      [
        'listing.json:19:15  response.0.size  record 0: a placeholder (no url, filename "") has size ""; a numeric size would make a phone offer it',
      ],
    ],
    [
      'a datetime other than the timestamp',
      change(0, { datetime: 1749549601 }),
      [
        'listing.json:14:19  response.0.datetime  record 0: datetime 1749549601 differs from timestamp 1749549600; phones compare datetime with their build time, so otapress publishes one build time: make them equal',
      ],
    ],
    [
      'the same build twice',
      [...base(), base()[0]],
      [
        'listing.json:57:13  response.2.id  record 2: the same build as record 0 (same id or file name); a list holds each build once, remove one',
      ],
    ],
    [
      'a channel the site lacks',
      change(1, { version: '3.10', channel: 'beta', filename: 'e-3.10-a15-20241205452210-beta-FP4.zip' }),
      [
        'listing.json:30:18  response.1.channel  record 1: `beta` is not a channel of this site (channels: stable, official, dev, community, set in content/site.yaml)',
      ],
    ],
    [
      'a record that is not an object',
      [base()[0], 'e-3.0.zip'],
      ['listing.json:23:5  response.1  record 1: expected a record (a JSON object), found string'],
    ],
    [
      'bad JSON',
      '{"id": null, "response": [{"incremental": "x",}]}',
      [
        'listing.json:1:47  (file)  not JSON that any updater reads: `}` where a key should be: a comma before `}`, which org.json refuses; org.json, the most lenient parser phones use, fails here too, so phones get nothing from this file: correct it and import again',
      ],
    ],
    [
      'an object without response',
      '{"builds": []}',
      [
        'listing.json:1:1  (file)  expected a v1 listing ({"id": null, "response": [records...], "error": null}), an array of records, a LineageOS v2 answer ([{"datetime": ..., "files": [...], "type": ..., "version": ...}]), a crDroid-family device file ({"response": [...]}), a PixelExperience-family answer ({"error": false, "filename": ..., "url": ..., ...}) or an AOSPA file ({"updates": [...]})',
      ],
    ],
  ])('reports %s and writes nothing', async (_, source, messages) => {
    const root = emptyProject();
    writeListing(root, source);
    const before = snapshotTree(root);
    const { code, err } = await runMain(
      ['import', 'listing.json', '--device', 'FP4', '--list', 'dev', '--root', root].map((a) =>
        a === 'listing.json' ? path.join(root, a) : a,
      ),
    );
    expect(code).toBe(1);
    expect(err.map((l) => l.replace(`${root}/`, ''))).toEqual([
      ...messages,
      `${messages.length} problem${messages.length === 1 ? '' : 's'} found; nothing was written.`,
    ]);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('imports the valid records with --skip-invalid and names the others', async () => {
    const root = emptyProject();
    const listing = writeListing(root, change(1, { md5sum: null }));
    const { code, out, err } = await runMain([
      'import',
      listing,
      '--device',
      'FP4',
      '--list',
      'dev',
      '--root',
      root,
      '--skip-invalid',
    ]);
    expect(code).toBe(0);
    expect(err).toEqual([
      `${listing}:28:17  response.1.md5sum  record 1: md5sum is JSON null; phones read it as the text "null"; write the value, or "" for none`,
    ]);
    expect(out).toEqual([
      'created content/FP4/e-3.0-a16-20250610500001-dev-FP4.yaml',
      'imported 1 of 2 records into FP4/dev: 1 manifest written, 1 invalid record skipped',
    ]);
  });

  it('keeps a build in the list when its record is only skipped as invalid', async () => {
    const root = tempProject({ withContent: true });
    const listing = writeListing(root, change(1, { timestamp: 'yesterday' }));
    const { code, out } = await runMain([
      'import',
      listing,
      '--device',
      'FP4',
      '--list',
      'dev',
      '--root',
      root,
      '--skip-invalid',
    ]);
    expect(code).toBe(0);
    expect(out).toEqual(['imported 1 of 2 records into FP4/dev: 0 manifests written, 1 invalid record skipped']);
  });

  it('refuses a build that differs from its manifest already in content/', async () => {
    const root = tempProject({ withContent: true });
    const listing = writeListing(root, change(0, { md5sum: '0'.repeat(32) }));
    const { code, err } = await runMain(['import', listing, '--device', 'FP4', '--list', 'dev', '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      `${listing}:9:17  response.0.md5sum  record 0: the same build as content/FP4/e-3.0-a16-20250610500001-dev-FP4.yaml (same id or file name), but md5sum is "0ec87c0bb0a436e2d30eb81eefa276a3" there and "00000000000000000000000000000000" here; correct one of them`,
    );
  });

  it.each([
    [
      ['--device', 'FP4'],
      2,
      'pass the device and the request list the listing is for, e.g. --device FP4 --list stable',
    ],
    [
      ['--device', '../x', '--list', 'dev'],
      2,
      '`../x` is not a usable device code name; pass --device with the name phones ask for, e.g. FP4',
    ],
    [
      ['--device', 'FP4', '--list', 'nightly'],
      1,
      '<listing>:1:1  --list  `nightly` is not a request list of this site (lists: stable, official, dev, community); phones of release type `nightly` ask for /api/v1/<device>/nightly/. The one edit in content/site.yaml: add the list `nightly: [nightly]` under `lists:` (line 10) and `nightly` to `channels` (line 6); then run the same import again',
    ],
  ])('refuses the options %j', async (args, code, message) => {
    const root = emptyProject();
    const listing = writeListing(root, base());
    const result = await runMain(['import', listing, '--root', root, ...args]);
    expect(result.code).toBe(code);
    expect(result.err[0].replace(listing, '<listing>')).toBe(message);
  });

  it('says what to put in site.yaml when there is none', async () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content'));
    const listing = writeListing(root, base());
    const { code, err } = await runMain(['import', listing, '--device', 'FP4', '--list', 'dev', '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      "content/site.yaml:1:1  (file)  missing: run `npx otapress init` to start a catalog here, or create content/site.yaml with at least `download_base_url: https://...` (see the README) (the listing's addresses suggest download_base_url: https://images.example.org/builds/full)",
    );
  });
});
