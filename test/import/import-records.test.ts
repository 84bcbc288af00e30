// Import takes every record its own phones read, and speaks of the updater that reads the file:
// real listings of the md5-keyed readers (Matrixx, Project Infinity-X, VoltageOS), CherishOS's
// `"version": 4.2`, PixelOS's `"version": 16` and otapress's own LineageOS v2 answer are imported,
// built back in their dialect, and decoded by the updater's own reading code
// (test/helpers/dialects/, test/helpers/clients.ts) to the builds it decodes from the source.
// Fixtures: test/fixtures/dialect-listings/ (its README names repository, path and commit).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSite } from '../../src/catalog/site.js';
import { planFolder } from '../../src/import/folder-plan.js';
import { planImport, type ImportPlan } from '../../src/import/plan-import.js';
import { v2DecodeAnswer } from '../helpers/clients.js';
import {
  decodeCrDroidKotlin,
  decodeJavaResponse,
  decodePixelOs15,
  decodePixelOsFeed,
  javaResponseReaders,
  PIXELOS_FEED,
} from '../helpers/dialects/index.js';
import { builtTree, exampleFiles, type BuiltTree, type CatalogFiles } from '../helpers/memory-catalog.js';

const listing = (name: string) =>
  readFileSync(new URL(`../fixtures/dialect-listings/${name}`, import.meta.url), 'utf8');

/** A site with one list, and `formats` as written under it in site.yaml. */
function siteText(list: string, formats = ''): string {
  return `download_base_url: https://dl.example.org/builds\nchannels: [${list}]\nlists:\n  ${list}: [${list}]\n${formats}`;
}

/** The plan of importing `text` into an empty catalog of `site`. */
function plan(text: string, device: string, list: string, site: string, sourceName = 'listing.json'): ImportPlan {
  return planImport({ text, sourceName, device, list, site: parseSite(site).site!, existing: [] });
}

/** The tree a build writes of `site` and what `imported` writes. */
function build(site: string, imported: ImportPlan, more: CatalogFiles = {}): BuiltTree {
  const files: CatalogFiles = { 'content/site.yaml': site, ...more };
  for (const write of imported.writes) files[write.file] = write.text;
  return builtTree(files);
}

const javaReader = (reader: keyof typeof javaResponseReaders) => (text: string) =>
  decodeJavaResponse(text, javaResponseReaders[reader]);

describe('real listings that import refused, imported and built back in their dialect', () => {
  // file, device, dialect, its other settings, decoder (the updater's own reading).
  const rows: [string, string, string, string, (text: string) => unknown][] = [
    ['matrixx-14.0-beryllium.json', 'beryllium', 'md5-six', '', javaReader('matrixx')],
    ['voltageos-14-X00T.json', 'X00T', 'md5-six', '', javaReader('voltageos')],
    ['infinityx-15-vanilla-begonia.json', 'begonia', 'md5-six', '', javaReader('infinityx')],
    [
      'cherishos-udc-RMX1851.json',
      'RMX1851',
      'crdroid-java',
      // The listing's own buildtype, which CherishOS phones show.
      '    buildtype: Active Development Releases\n',
      javaReader('cherishos'),
    ],
    [
      'pixelos-sixteen-gauguin.json',
      'gauguin',
      'pixelos15',
      '',
      // stream_url has no place in a manifest: the one key the reader reads that is not carried over.
      (text) => decodePixelOs15(text)?.map((u) => ({ ...u, streamUrl: '(no place)' })),
    ],
  ];
  it.each(rows)('%s (%s) as %s', (file, device, dialect, settings, decode) => {
    const source = listing(file);
    const site = siteText('official', `formats:\n  ${dialect}:\n    path: /{device}.json\n${settings}`);
    const imported = plan(source, device, 'official', site, file);
    expect(imported.problems).toEqual([]);
    const built = build(site, imported).read(`${device}.json`);
    const original = decode(source) as unknown[];
    expect(original).toHaveLength(1);
    expect(decode(built)).toEqual(original);
  });
});

describe('records keyed by md5', () => {
  const source = listing('matrixx-14.0-beryllium.json');
  const record = (JSON.parse(source) as { response: Record<string, unknown>[] }).response[0];
  const three = JSON.stringify({
    response: [0, 1, 2].map((n) => ({
      ...record,
      filename: `Matrixx-v10.9.${n}-Official-beryllium-Gapps-20241019.zip`,
      download: String(record.download).replace('v10.9.0', `v10.9.${n}`),
      md5: 'abc'[n].repeat(32),
      timestamp: 1729297345 + n,
      // A version the v2 updater reads (Matrixx's own `v10.9.0` has no leading number: v2 leaves it out).
      version: `10.9.${n}`,
    })),
  });

  it('take the md5 as the id phones key downloads by, and say once per file what each answer can publish', () => {
    const imported = plan(three, 'beryllium', 'official', siteText('official'));
    expect(imported.problems).toEqual([]);
    expect(imported.writes.map((w) => /^id: (.*)$/m.exec(w.text)?.[1]).filter(Boolean)).toEqual([
      'a'.repeat(32),
      'b'.repeat(32),
      'c'.repeat(32),
    ]);
    const notes = imported.notes.filter((n) => n.message.includes('is the download key'));
    expect(notes.map((n) => [n.field, n.message.split(';')[0]])).toEqual([
      [
        'md5',
        "`md5` is the download key in all 3 records, with no `sha256` (these phones read none): imported as `id` and `md5sum`, as LineageOS v1 phones take any unique id. The crDroid-family (`crdroid`) and PixelOS feed (`pixelos-feed`) answers leave these builds out (they need the zip's SHA-256)",
      ],
    ]);
  });

  it('are left out where the note says, and published as the download key elsewhere', () => {
    const formats = 'formats:\n  crdroid: {}\n  pixelos-feed: {}\n  md5-six: {}\n';
    const site = siteText('official', formats);
    const tree = build(site, plan(three, 'beryllium', 'official', site));
    expect(decodeCrDroidKotlin(tree.read('api/crdroid/beryllium.json'))).toEqual([]);
    expect(decodePixelOsFeed(tree.read('api/pixelos-feed/beryllium.json'), PIXELOS_FEED)).toEqual([]);
    const md5 = decodeJavaResponse(tree.read('api/md5-six/beryllium.json'), javaResponseReaders.matrixx)!;
    expect(md5.map((u) => u.downloadId)).toEqual(['c'.repeat(32), 'b'.repeat(32), 'a'.repeat(32)]);
    const v1 = JSON.parse(tree.read('api/v1/beryllium/official/index.json')) as { response: { id: string }[] };
    expect(v1.response.map((r) => r.id)).toEqual(md5.map((u) => u.downloadId));
    // v2 publishes the MD5 where a SHA-256 belongs, as the note says.
    const v2 = v2DecodeAnswer(tree.read('api/v2/devices/beryllium/builds.json'))!;
    expect(v2.map((e) => e.files[0].sha256)).toEqual(md5.map((u) => u.downloadId));
  });
});

describe('a number where phones read text', () => {
  const crDroid = (version: string) =>
    `{"response":[{"filename":"crDroidAndroid-14.0-20240101-akita-v10.0.zip","download":"https://dl.example.org/a.zip",` +
    `"timestamp":1704067200,"md5":"${'a'.repeat(32)}","sha256":"${'b'.repeat(64)}","size":1000,"version":${version}}]}`;
  // The literal, the text Java's String.valueOf gives for what org.json's tokener made of it.
  it.each([
    ['4.2', '4.2', 'is a number in the record; crDroid'],
    ['4.10', '4.1', 'is a number in the record that phones show otherwise than the file writes it'],
    ['4.0', '4.0', 'is a number in the record; crDroid'],
    ['16', '16', 'is a number in the record; crDroid'],
    ['1e3', '1000.0', 'is a number in the record that phones show otherwise'],
    ['12345678.5', '1.23456785E7', 'is a number in the record that phones show otherwise'],
  ])('`"version": %s` is imported as "%s", as the phone shows it', (literal, shown, note) => {
    const imported = plan(crDroid(literal), 'akita', 'official', siteText('official'));
    expect(imported.problems).toEqual([]);
    const manifest = imported.writes.find((w) => w.file.endsWith('v10.0.yaml'))!.text;
    expect(manifest).toContain(`version: "${shown}"`);
    const [versionNote] = imported.notes.filter((n) => n.field === 'version');
    expect(versionNote.message).toContain(`\`version\` ${note}`);
    expect(versionNote.message).toContain(`(${literal} → "${shown}")`);
  });

  // A listing org.json reads but JSON.parse does not (a comment), whose numbers are written as
  // only the tokener's readLiteral takes them: Long.parseLong in base 16 or 8, else Double.valueOf.
  it.each([
    ['0x10', '16'],
    ['010', '8'],
    ['019', '19.0'],
    ['4.0', '4.0'],
  ])('`"version": %s` in a file only org.json reads is imported as "%s"', (literal, shown) => {
    const site = siteText('official', 'formats:\n  crdroid-java: {}\n');
    const imported = plan(crDroid(literal).replace(/}]}$/, ' /* the build */}]}'), 'akita', 'official', site);
    expect(imported.problems).toEqual([]);
    expect(imported.writes.find((w) => w.file.endsWith('v10.0.yaml'))!.text).toContain(`version: "${shown}"`);
  });

  it('is refused in a LineageOS v2 answer, whose phones refuse the whole answer over it', () => {
    const entry = {
      date: '2024-01-01',
      datetime: 1704067200,
      files: [
        {
          filename: 'lineage-21.0-20240101-OFFICIAL-akita-signed.zip',
          sha256: 'c'.repeat(64),
          size: 1000,
          url: 'https://dl.example.org/x.zip',
        },
      ],
      type: 'official',
      version: 21.0,
    };
    const imported = plan(JSON.stringify([entry]), 'akita', 'official', siteText('official'));
    expect(imported.writes).toEqual([]);
    expect(imported.problems.map((p) => `${p.field}  ${p.message}`)).toEqual([
      '0.version  record 0: expected text for version, found the number 21; LineageOS v2 phones refuse the whole answer over it: kotlinx reads `version` only as quoted text',
    ]);
  });
});

describe('every message in the words of the updater that reads the file', () => {
  const crDroid = {
    filename: 'crDroidAndroid-14.0-20240101-akita-v10.0.zip',
    download: 'https://dl.example.org/a.zip',
    timestamp: 1704067200,
    md5: 'a'.repeat(32),
    sha256: 'b'.repeat(64),
    size: 1000,
    version: '10.0',
    buildtype: 'Weekly',
  };
  const v2 = {
    date: '2024-01-01',
    datetime: 1704067200,
    files: [
      {
        filename: 'lineage-21.0-20240101-OFFICIAL-akita-signed.zip',
        sha256: 'c'.repeat(64),
        size: 1000,
        url: 'https://dl.example.org/x.zip',
      },
    ],
    type: 'official',
    version: '21.0',
  };
  const drop = (o: object, ...keys: string[]) =>
    Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
  const rows: [string, unknown, string | string[]][] = [
    [
      'a LineageOS v1 record without size',
      {
        response: [
          {
            datetime: 1704067200,
            filename: 'a.zip',
            id: 'd'.repeat(64),
            romtype: 'official',
            url: 'https://dl.example.org/a.zip',
            version: '1.0',
          },
        ],
      },
      'response.0.size  record 0: missing; LineageOS phones drop a record without size',
    ],
    [
      'a crDroid record without timestamp',
      { response: [drop(crDroid, 'timestamp')] },
      "response.0.timestamp  record 0: missing; crDroid's Java updater drops a record without `timestamp`, and its Kotlin updater (crDroid 11 and later) loses the whole answer",
    ],
    [
      'a crDroid record whose timestamp is no number',
      { response: [{ ...crDroid, timestamp: 'today' }] },
      "response.0.timestamp  record 0: the text \"today\" is not Unix seconds; crDroid's Java updater drops a record whose `timestamp` is not a number (getLong), and its Kotlin updater loses the whole answer: write the build time, e.g. date -u -d 'today' +%s, or ro.build.date.utc of the build",
    ],
    [
      'a crDroid record whose download the build cannot publish, at the key the file has',
      { response: [{ ...crDroid, download: 'https://dl.example.org/a b.zip' }] },
      'response.0.download  record 0: expected an absolute http(s) download address without spaces',
    ],
    [
      // RisingOS-Revived/official_devices fifteen `OTA/device/CORE/sky.json`: `"download": ""`.
      'a crDroid record with an empty download address',
      { response: [{ ...crDroid, download: '' }] },
      'response.0.download  record 0: the download address is empty: phones list the build and then cannot download it; write its https address, or remove the record',
    ],
    [
      // AlphaDroid-devices/OTA alpha-13 `mi439.json`, record 1: the phone would save it under no name.
      'a crDroid record with a download and an empty file name',
      { response: [{ ...crDroid, filename: '' }] },
      "response.0.filename  record 0: filename is empty, but the record has a download address: the phone would save the download under no name, so it cannot install it; write the zip's name (as in its address), or remove the record",
    ],
    [
      'an md5-keyed record without size',
      { response: [drop(crDroid, 'sha256', 'size')] },
      'response.0.size  record 0: missing; the md5-keyed Java updaters (Matrixx, Project Infinity-X, VoltageOS, crDroid) drop a record without `size`',
    ],
    [
      'a PixelExperience answer without url',
      {
        error: false,
        filename: 'PixelOS_G-14.0-20240101-1200.zip',
        datetime: 1704067200,
        size: 1000,
        id: 'e'.repeat(32),
        filehash: 'e'.repeat(32),
        version: 'fourteen',
        maintainers: [],
      },
      'url  record 0: missing; the PixelExperience updater offers nothing from an answer without `url` (the object is the whole answer)',
    ],
    [
      'a LineageOS v2 entry whose zip has no url',
      [{ ...v2, files: [drop(v2.files[0], 'url')] }],
      '0.files.0.url  record 0: missing; LineageOS v2 phones (Updater 23.2 and later) refuse the whole answer over an entry without `files.0.url`',
    ],
    [
      'a LineageOS v2 entry whose zip has no url and no name (no placeholder: v2 has none)',
      [{ ...v2, files: [{ ...drop(v2.files[0], 'url'), filename: '' }] }],
      [
        '0.files.0.url  record 0: missing; LineageOS v2 phones (Updater 23.2 and later) refuse the whole answer over an entry without `files.0.url`',
        '0.files.0.filename  record 0: expected a plain file name without folders, `..` or surrounding spaces; the phone saves the download under this name',
      ],
    ],
    [
      'a LineageOS v2 entry whose datetime is padded text, which kotlinx does not read as a Long',
      [{ ...v2, datetime: ' 1704067200' }],
      '0.datetime  record 0: the text " 1704067200" is not Unix seconds; LineageOS v2 phones refuse the whole answer over an entry whose `datetime` is not a number (kotlinx Long): write the build time, e.g. date -u -d \' 1704067200\' +%s, or ro.build.date.utc of the build',
    ],
    [
      'a PixelOS feed entry without version',
      [{ ...drop(v2, 'version'), type: 'ci' }],
      "0.version  record 0: missing; PixelOS's strict feed loses the whole answer over an entry without `version`",
    ],
    [
      // kotlinx reads no fraction as a Long; org.json's getLong would (SuperiorOS ten, import-repositories.slow.test.ts).
      'a LineageOS v2 entry whose zip size has a fraction',
      [{ ...v2, files: [{ ...v2.files[0], size: 579652812.8 }] }],
      '0.files.0.size  record 0: expected the size in bytes as a whole number, found the number 579652812.8',
    ],
    [
      'a LineageOS v2 entry whose zip size is text',
      [{ ...v2, files: [{ ...v2.files[0], size: '1 GB' }] }],
      '0.files.0.size  record 0: expected the size in bytes as a whole number, found the text "1 GB"; LineageOS v2 phones refuse the whole answer over an entry whose `files.0.size` is not a number (kotlinx Long)',
    ],
  ];
  it.each(rows)('%s', (_, source, problem) => {
    const imported = plan(JSON.stringify(source), 'akita', 'official', siteText('official'));
    expect(imported.problems.map((p) => `${p.field}  ${p.message}`)).toEqual([problem].flat());
  });

  it('reads a padded number in text where org.json does (getLong trims it), and says so', () => {
    const record = {
      datetime: ' 1704067200 ',
      filename: 'a.zip',
      id: 'd'.repeat(64),
      romtype: 'official',
      size: '1000\t',
      url: 'https://dl.example.org/a.zip',
      version: '1.0',
    };
    const imported = plan(JSON.stringify({ response: [record] }), 'akita', 'official', siteText('official'));
    expect(imported.problems).toEqual([]);
    expect(imported.writes[0]!.text).toMatch(/^timestamp: 1704067200$/m);
    expect(imported.writes[0]!.text).toMatch(/^size: 1000$/m);
    expect(imported.notes.find((n) => n.field === 'datetime')!.message).toBe(
      '`datetime` is text in the record; phones read it with getLong, which takes a number in text, so it is published as the number (" 1704067200 ")',
    );
  });

  it('says of a crDroid file that its phones only show buildtype, and reads quoted numbers as its parsers do', () => {
    const quoted = { ...crDroid, timestamp: '1704067200', size: '1000', os_sdk_level: '33' };
    const imported = plan(JSON.stringify({ response: [quoted] }), 'akita', 'official', siteText('official'));
    expect(imported.problems).toEqual([]);
    const messages = imported.notes.map((n) => n.message);
    expect(messages.filter((m) => /LineageOS phones|which phones compare/.test(m))).toEqual([]);
    expect(imported.notes.find((n) => n.field === 'buildtype')!.message).toMatch(
      /^`buildtype` is not the list imported into in the record; crDroid-family phones only show `buildtype`, never compare it/,
    );
    expect(imported.notes.find((n) => n.field === 'size')!.message).toBe(
      '`size` is text in the record; crDroid\'s Java updater reads it with getLong and its Kotlin updater as a Long: both take a number in text, so it is published as the number ("1000")',
    );
    const site = siteText('official', 'formats:\n  crdroid: {}\n');
    const published = decodeCrDroidKotlin(
      build(site, plan(JSON.stringify({ response: [quoted] }), 'akita', 'official', site)).read(
        'api/crdroid/akita.json',
      ),
    );
    // `buildtype`, which it only shows, is not in its answer, as the note says.
    expect(published).toEqual(
      decodeCrDroidKotlin(JSON.stringify({ response: [quoted] }))!.map((u) => ({ ...u, type: null })),
    );
    expect(published![0]!.osSdkLevel).toBe(33);
  });
});

describe("PixelOS's strict feed (the v2 shape, type: ci)", () => {
  it('imports as a folder of the feed: the site gains the format, and builds the same file back', () => {
    const example = exampleFiles();
    const site = `${example['content/site.yaml']!}formats:\n  pixelos-feed:\n    lists: [dev]\n    path: /API/updater/{device}.json\n`;
    const feed = builtTree({ ...example, 'content/site.yaml': site }).read('API/updater/FP4.json');
    const bare = example['content/site.yaml']!;
    const folder = planFolder({
      folder: 'repository',
      files: [{ path: 'API/updater/FP4.json', bytes: Buffer.from(feed) }],
      site: parseSite(bare).site!,
      siteText: bare,
      existing: [],
      deviceFiles: new Set(),
    });
    expect(folder.problems).toEqual([]);
    const files: CatalogFiles = Object.fromEntries(folder.writes.map((w) => [w.file, w.text]));
    expect(builtTree(files).read('API/updater/FP4.json')).toBe(feed);
  });

  it('imports into the list given and builds back the same feed', () => {
    const example = exampleFiles();
    const site = `${example['content/site.yaml']!}formats:\n  pixelos-feed:\n    lists: [dev]\n`;
    const feed = builtTree({ ...example, 'content/site.yaml': site }).read('api/pixelos-feed/FP4.json');
    const imported = plan(feed, 'FP4', 'dev', site, 'feed.json');
    expect(imported.problems).toEqual([]);
    expect(imported.notes.find((n) => n.field === 'type')!.message).toMatch(/PixelOS phones do not read it/);
    const rebuilt = build(site, imported).read('api/pixelos-feed/FP4.json');
    expect(decodePixelOsFeed(rebuilt, PIXELOS_FEED)).toEqual(decodePixelOsFeed(feed, PIXELOS_FEED));
    expect(rebuilt).toBe(feed);
  });
});

describe("otapress's own LineageOS v2 answer", () => {
  const example = exampleFiles();
  const site = example['content/site.yaml']!;
  const answer = builtTree(example).read('api/v2/devices/FP4/builds.json');

  it('imports into the lists its entries name, and builds back the same answer byte for byte', () => {
    const imported = plan(answer, 'FP4', 'official', site, 'builds');
    expect(imported.problems).toEqual([]);
    const rebuilt = build(site, imported).read('api/v2/devices/FP4/builds.json');
    expect(v2DecodeAnswer(rebuilt)).toEqual(v2DecodeAnswer(answer));
    expect(rebuilt).toBe(answer);
    // An entry per build and list: a build in two lists is one manifest in both.
    const entries = JSON.parse(answer) as { type: string; files: { filename: string }[] }[];
    const twice = entries.find((e) => entries.some((o) => o !== e && o.files[0].filename === e.files[0].filename))!;
    expect(
      imported.writes.filter((w) => w.file.endsWith(twice.files[0].filename.replace(/\.zip$/, '.yaml'))),
    ).toHaveLength(1);
  });

  it('imported beside the manifests it was built from, changes nothing: what v2 lacks or cannot hold is not contradicted', () => {
    const existing = Object.entries(example)
      .filter(([file]) => file.startsWith('content/FP4/') && !file.endsWith('/device.yaml'))
      .map(([file, text]) => ({ file, device: 'FP4', bytes: Buffer.from(text) }));
    const imported = planImport({
      text: answer,
      sourceName: 'builds',
      device: 'FP4',
      list: 'official',
      site: parseSite(site).site!,
      existing,
    });
    expect(imported.problems).toEqual([]);
    // incremental, md5sum and is_upgrade_supported are in the manifests and in no v2 entry; the
    // placeholder and the withdrawn build are in lists and can be in no v2 answer.
    expect(imported.writes).toEqual([]);
  });

  it('takes an entry whose type is no list of the site into the list given, and says so in v2 terms', () => {
    const entries = (JSON.parse(answer) as { type: string }[]).map((e) => ({ ...e, type: 'Nightly' }));
    const imported = plan(JSON.stringify(entries.slice(0, 1)), 'FP4', 'dev', site, 'builds');
    expect(imported.problems).toEqual([]);
    expect(imported.notes.find((n) => n.field === 'type')!.message).toBe(
      '`type` is not the list imported into in the record; it names no list of this site, so the entry goes to the list given (--list), which LineageOS v2 phones compare with their release type (ignoring case) (Nightly → dev)',
    );
  });
});
