import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PROBLEMS } from '../../src/import/plan-import.js';
import { runMain } from '../helpers/cli-process.js';
import { phoneView } from '../helpers/clients.js';
import { snapshotTree, tempProject } from '../helpers/helpers.js';

// import takes every record a LineageOS v1 phone reads, as org.json reads it, and
// refuses exactly the records a phone drops, at the field and with why. Also its input limits
//.

const SITE =
  'download_base_url: https://dl.example.org/builds\nchannels: [unofficial, nightly]\nlists:\n  unofficial: [unofficial]\n  nightly: [nightly]\n';

function project(): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'));
  writeFileSync(path.join(root, 'content/site.yaml'), SITE);
  return root;
}

/** A record as hand-made LineageOS listings have it: numbers as text, an MD5 as id, no md5sum, no /e/ fields. */
const record = (date: string, datetime: string, id: string) => ({
  datetime,
  filename: `lineage-21.0-${date}-UNOFFICIAL-beyond1lte.zip`,
  id,
  romtype: 'UNOFFICIAL',
  size: '934468608',
  url: `https://github.com/x/ota/releases/download/${date}/lineage-21.0-${date}-UNOFFICIAL-beyond1lte.zip`,
  version: '21.0',
});
const LISTING = {
  response: [
    record('20240626', '1719422942', '5eb63bbbe01eeed093cb22bb8f5acdc3'),
    record('20240501', '1714521600', 'ac3f2ba4a47d45d1d4ae4fbba6b5e142b9c39590'),
  ],
};

async function importText(root: string, text: string | Buffer, ...args: string[]) {
  const file = path.join(root, 'listing.json');
  writeFileSync(file, text);
  const result = await runMain([
    'import',
    file,
    '--device',
    'beyond1lte',
    '--list',
    'unofficial',
    '--root',
    root,
    '--verbose',
    ...args,
  ]);
  return { ...result, err: result.err.map((l) => l.replace(`${root}/`, '')) };
}

describe('import: what a LineageOS phone reads', () => {
  it('takes numbers as text, any download key, no md5sum, and the Android version of lineage-21.0; each normalisation once per listing', async () => {
    const root = project();
    const { code, out, err } = await importText(root, JSON.stringify(LISTING, null, 2));
    expect({ code, out: out.at(-1) }).toEqual({
      code: 0,
      out: 'imported 2 of 2 records into beyond1lte/unofficial: 2 manifests written',
    });
    expect(err).toEqual([
      'listing.json:3:5  android_version  all 2 records lack `android_version`, which only the /e/ updater reads: derived from the file name (lineage-21.0-20240501-UNOFFICIAL-beyond1lte.zip → 14, lineage-21.0-20240626-UNOFFICIAL-beyond1lte.zip → 14)',
      'listing.json:3:5  api_level  all 2 records lack `api_level`, which only the /e/ updater reads: derived from android_version by the same pairing, as the build does',
      'listing.json:3:5  changes  all 2 records lack `changes`, which only the /e/ updater reads: published as ""',
      'listing.json:3:5  channel  all 2 records lack `channel`, which only the /e/ updater reads: set to the channel the file name states (the download folder of the default address)',
      'listing.json:3:5  display_version  all 2 records lack `display_version`, which only the /e/ updater reads: derived from the file name, as the build does',
      'listing.json:3:5  incremental  all 2 records lack `incremental`, which only the /e/ updater reads: published as ""',
      'listing.json:3:5  is_upgrade_supported  all 2 records lack `is_upgrade_supported`, which only the /e/ updater reads: published as false',
      'listing.json:3:5  md5sum  all 2 records lack `md5sum`, which only the /e/ updater reads: published as "" (LineageOS phones never read it; the build notes each package without one)',
      'listing.json:3:5  pre_version  all 2 records lack `pre_version`, which only the /e/ updater reads: published as ""',
      'listing.json:3:5  timestamp  all 2 records lack `timestamp`, which only the /e/ updater reads: set to datetime (the build time phones compare)',
      'listing.json:4:19  datetime  `datetime` is text in all 2 records; phones read it with getLong, which takes a number in text, so it is published as the number ("1714521600", "1719422942")',
      'listing.json:6:13  id  `id` is not a SHA-256 in all 2 records; phones use it only as the download key, so it is published as written (pages and feeds do not call it a SHA-256) (5eb63bbbe01eeed093cb22bb8f5acdc3, ac3f2ba4a47d45d1d4ae4fbba6b5e142b9c39590)',
      'listing.json:7:18  romtype  `romtype` is not the list imported into in all 2 records; published as the list, which phones compare with their release type (ignoring case) (UNOFFICIAL → unofficial)',
      'listing.json:8:15  size  `size` is text in all 2 records; phones read it with getLong, which takes a number in text, so it is published as the number ("934468608")',
      '14 notes above: the build publishes these values as they say',
    ]);
    expect(readFileSync(path.join(root, 'content/beyond1lte/lineage-21.0-20240626-UNOFFICIAL-beyond1lte.yaml'), 'utf8'))
      .toBe(`# yaml-language-server: $schema=../manifest.schema.json
filename: lineage-21.0-20240626-UNOFFICIAL-beyond1lte.zip
version: "21.0"
channel: unofficial
timestamp: 1719422942
android_version: "14"
incremental: ""
id: 5eb63bbbe01eeed093cb22bb8f5acdc3
size: 934468608
url: https://github.com/x/ota/releases/download/20240626/lineage-21.0-20240626-UNOFFICIAL-beyond1lte.zip
`);
  });

  it('builds back what the phone reads: each field as getLong / getString read it, romtype ignoring case', async () => {
    const root = project();
    expect((await importText(root, JSON.stringify(LISTING))).code).toBe(0);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const built = JSON.parse(
      readFileSync(path.join(root, 'dist/api/v1/beyond1lte/unofficial/index.json'), 'utf8'),
    ).response;
    expect(built.map(phoneView)).toEqual(LISTING.response.map(phoneView));
    expect(built.map((r: Record<string, unknown>) => [r.android_version, r.md5sum])).toEqual([
      ['14', ''],
      ['14', ''],
    ]);
  });

  it.each([
    [
      'a record without size',
      { size: undefined },
      'listing.json:2:1  response.0.size  record 0: missing; LineageOS phones drop a record without size',
    ],
    [
      'a datetime that is a date',
      { datetime: 'Thu Dec 15 10:47:48 CET 2022' },
      'listing.json:2:13  response.0.datetime  record 0: the text "Thu Dec 15 10:47:48 CET 2022" is not Unix seconds; LineageOS phones drop a record whose datetime is not a number (they read it with getLong): write the build time, e.g. date -u -d \'Thu Dec 15 10:47:48 CET 2022\' +%s, or ro.build.date.utc of the build',
    ],
    [
      'a size that is not a number',
      { size: '934 MB' },
      'listing.json:2:157  response.0.size  record 0: expected the size in bytes as a whole number, found the text "934 MB"; LineageOS phones drop a record whose size is not a number (they read it with getLong)',
    ],
  ])('refuses %s, at its field and with why, and writes nothing', async (_, patch, message) => {
    const root = project();
    const before = snapshotTree(path.join(root, 'content'));
    const bad = { response: [{ ...LISTING.response[0], ...patch }, LISTING.response[1]] };
    const { code, err } = await importText(root, JSON.stringify(bad).replace('{"response":[', '{"response":[\n'));
    expect(code).toBe(1);
    expect(
      err.filter((l) => !l.includes('  `') && !l.includes('lack') && !l.includes('romtype') && !l.includes('note')),
    ).toEqual([message, '1 problem found; nothing was written.']);
    expect(snapshotTree(path.join(root, 'content'))).toEqual(before);
  });

  it('takes --android-version for file names that do not tell it', async () => {
    const root = project();
    const other = { response: [{ ...LISTING.response[0], filename: 'PixelOS_beyond1lte-14.0-20240626.zip' }] };
    // Without it the build is imported all the same: no phone needs the Android version to offer it.
    const without = await importText(project(), JSON.stringify(other));
    expect(without.code).toBe(0);
    expect(without.err).toContain(
      'listing.json:1:14  android_version  the record lacks `android_version`, which only the /e/ updater reads: left out: neither api_level nor the file name tells it, and no phone needs it to offer the build (the build notes how each answer shows it; --android-version N sets it) (PixelOS_beyond1lte-14.0-20240626.zip)',
    );
    const { code, err } = await importText(root, JSON.stringify(other), '--android-version', '14');
    expect(code).toBe(0);
    expect(err).toContain(
      'listing.json:1:14  android_version  the record lacks `android_version`, which only the /e/ updater reads: set to --android-version (14)',
    );
    expect((await importText(root, JSON.stringify(other), '--android-version', 'fourteen')).err).toEqual([
      '--android-version takes the Android major version, e.g. 14, not `fourteen`',
    ]);
  });
});

describe('import: keys of other formats in a v1 record', () => {
  it('names what md5, sha256, download and buildtype are, and what v1 calls them', async () => {
    const root = project();
    const [first] = LISTING.response;
    const { code, err } = await importText(
      root,
      JSON.stringify({
        response: [{ ...first, md5: '0'.repeat(32), sha256: 'a'.repeat(64), download: first.url, buildtype: 'weekly' }],
      }),
    );
    expect(code).toBe(0);
    expect(
      err.filter((l) => l.includes('is not a field of the v1 interface')).map((l) => l.replace(/^.*?record 0: /, '')),
    ).toEqual([
      "`md5` is not a field of the v1 interface; it is left out (md5 is crDroid's and Evolution X's name for the MD5 of the zip; v1 calls it `md5sum`)",
      "`sha256` is not a field of the v1 interface; it is left out (sha256 is crDroid's and Evolution X's name for the SHA-256 of the zip (phones key downloads by it); v1 calls it `id`)",
      "`download` is not a field of the v1 interface; it is left out (download is crDroid's and Evolution X's name for the download address; v1 calls it `url`)",
      "`buildtype` is not a field of the v1 interface; it is left out (buildtype is crDroid's and Evolution X's release type (weekly, OFFICIAL, ...); v1 calls it `romtype`)",
    ]);
  });
});

describe('import: the bytes of a listing', () => {
  it('accepts a UTF-8 byte order mark, as manifests do', async () => {
    const root = project();
    const { code } = await importText(
      root,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(LISTING))]),
    );
    expect(code).toBe(0);
  });

  it('refuses Latin-1 text at its byte offset instead of reading it as U+FFFD', async () => {
    const root = project();
    const latin1 = Buffer.from(
      JSON.stringify({ response: [{ ...LISTING.response[0], version: '21.0' }] }, null, 1).replace(
        '"UNOFFICIAL"',
        '"INOFFICIEL-é"',
      ),
      'latin1',
    );
    const offset = latin1.indexOf(0xe9);
    const { code, err } = await importText(root, latin1);
    expect(code).toBe(1);
    expect(err).toEqual([
      `listing.json:7:27  (file)  invalid UTF-8 at byte ${offset} (0xE9); a listing is UTF-8 JSON: convert it (iconv -f latin1 -t utf-8), do not let the bytes become U+FFFD`,
      '1 problem found; nothing was written.',
    ]);
  });
});

describe('import: a listing of many empty records', () => {
  it(
    `shows the first ${MAX_PROBLEMS} problems and counts the others, at the 4 MiB limit`,
    { timeout: 300_000 },
    async () => {
      const root = project();
      // Enough records for far more problems than are shown, padded to the limit with the whitespace
      // JSON allows after the value: the 1.4 million empty records the limit holds took half a
      // minute and said nothing more.
      const count = 20_000;
      const listing = `{"response":[${'{},'.repeat(count - 1)}{}]}`;
      const text = listing.padEnd(4 * 1024 * 1024, ' ');
      expect(Buffer.byteLength(text)).toBe(4 * 1024 * 1024);
      const { code, out, err } = await importText(root, text);
      expect(code).toBe(1);
      expect(out).toEqual([]);
      // Each empty record lacks 6 of the fields a phone reads (its romtype is the list's) and its display_version.
      const perRecord = 7;
      const shown = err.filter((l) => l.startsWith('listing.json:') && l.includes('  response.'));
      expect(shown).toHaveLength(MAX_PROBLEMS);
      const missing = (k: string) =>
        `listing.json:1:14  response.0.${k}  record 0: missing; LineageOS phones drop a record without ${k}`;
      expect(shown.slice(0, perRecord)).toEqual([
        missing('datetime'),
        'listing.json:1:14  response.0.display_version  record 0: missing `display_version`, which names a placeholder (it has no file name to derive it from); add it',
        ...['filename', 'id', 'size'].map(missing),
        'listing.json:1:14  response.0.url  record 0: missing (only a placeholder, with filename, id and size "", has no url); LineageOS phones drop a record without url',
        missing('version'),
      ]);
      // The notes about fields only the /e/ updater reads stay one per field, whatever the number of records.
      expect(err.filter((l) => l.includes(`all ${count} records lack`))).toHaveLength(9);
      expect(err.at(-1)).toBe(
        `${count * perRecord} problems found, the first ${MAX_PROBLEMS} above: ${count * perRecord - MAX_PROBLEMS} more not shown; fix these (or the tool that wrote the listing) and import again; nothing was written.`,
      );
      expect(err).toHaveLength(9 + 1 + MAX_PROBLEMS + 1);
    },
  );
});
