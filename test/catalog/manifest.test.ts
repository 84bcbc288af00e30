import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/catalog/manifest.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { composeYamlSource } from '../../src/catalog/yaml-source.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';

const { site } = parseSite('download_base_url: https://dl.example.org/builds/\n');
const FILE = 'content/FP4/build.yaml';

/** A valid package manifest; each case below changes one thing. */
const VALID = VALID_MANIFEST;

const messages = (text: string | Uint8Array, device = 'FP4') =>
  parseManifest(text, FILE, device, site!).problems.map(formatProblem);
const edit = (key: string, line: string | null) =>
  VALID.split('\n')
    .map((l) => (l.startsWith(`${key}:`) ? line : l))
    .filter((l) => l !== null)
    .join('\n');

describe('parseManifest: derived values', () => {
  it('derives api_level, url, display_version, datetime and the default lists', () => {
    const { build, problems } = parseManifest(VALID, FILE, 'FP4', site!);
    expect(problems).toEqual([]);
    expect(build).toMatchObject({
      api_level: '34',
      url: 'https://dl.example.org/builds/official/FP4/e-2.5-a14-20241108446322-official-FP4.zip',
      display_version: '2.5-a14-20241108446322-official-FP4',
      changes: '',
      pre_version: '',
      is_upgrade_supported: false,
      lists: ['stable', 'official'],
      size: 1387003904,
    });
  });

  it.each([
    [
      'an integer android_version',
      edit('android_version', 'android_version: 14'),
      { android_version: '14', api_level: '34' },
    ],
    ['a written api_level', VALID + 'api_level: "33"\n', { api_level: '33' }],
    [
      'an unknown pairing with api_level written',
      edit('android_version', 'android_version: "8"').replace('-a14-', '-o-') + 'api_level: "27"\n',
      { api_level: '27' },
    ],
    [
      'a unix-seconds incremental as a number',
      edit('incremental', 'incremental: 1731067200'),
      { incremental: '1731067200' },
    ],
    ['an empty incremental', edit('incremental', 'incremental: ""'), { incremental: '' }],
    ['size 0 of an old record', edit('size', 'size: 0'), { size: 0 }],
    [
      'a written url',
      VALID + 'url: https://github.com/x/y/releases/download/v2.5/e.zip\n',
      { url: 'https://github.com/x/y/releases/download/v2.5/e.zip' },
    ],
    ['explicit lists, in site order', VALID + 'lists: [official, dev]\n', { lists: ['official', 'dev'] }],
    ['lists: [] hides a build', VALID + 'lists: []\n', { lists: [] }],
    [
      'a disabled file',
      edit('filename', 'filename: e-2.5-a14-20241108446322-official-FP4.disabled.zip'),
      { display_version: 'e-2.5-a14-20241108446322-official-FP4' },
    ],
    [
      'a LineageOS file name',
      edit('filename', 'filename: lineage-2.5-20241108-official-FP4-signed.zip'),
      { display_version: '2.5-20241108-official-FP4-signed' },
    ],
    // The unofficial LineageOS name spells the type in capitals; phones compare romtype ignoring case.
    [
      'an upper-case LineageOS type',
      edit('filename', 'filename: lineage-2.5-20241108-OFFICIAL-FP4-signed.zip'),
      { display_version: '2.5-20241108-OFFICIAL-FP4-signed' },
    ],
    // Any other ROM's plain name: nothing to cross-check, the manifest's fields say it all.
    [
      "another ROM's file name",
      edit('filename', 'filename: crDroidAndroid-14.0-20250101-FP4-v10.10.zip'),
      {
        filename: 'crDroidAndroid-14.0-20250101-FP4-v10.10.zip',
        display_version: 'crDroidAndroid-14.0-20250101-FP4-v10.10',
        url: 'https://dl.example.org/builds/official/FP4/crDroidAndroid-14.0-20250101-FP4-v10.10.zip',
      },
    ],
    [
      "a name of another form that looks like another device's",
      edit('filename', 'filename: PixelOS_FP5-14.0-20250101.zip'),
      { display_version: 'PixelOS_FP5-14.0-20250101' },
    ],
    ['a name without .zip and with ~', edit('filename', 'filename: ota~2.5_FP4'), { display_version: 'ota~2.5_FP4' }],
    // display_version is what the /e/ updater shows: never empty, so a prefix of no form stays.
    ['a name that only starts like an /e/OS one', edit('filename', 'filename: e-.zip'), { display_version: 'e-' }],
    [
      'a name that only starts like a LineageOS one',
      edit('filename', 'filename: lineage-.zip'),
      { display_version: 'lineage-' },
    ],
    // Names published under another convention: the folder's code name as whole parts of the name's device part.
    [
      'a maintainer prefix before the device',
      edit('filename', 'filename: lineage-2.5-20241108-official-Linux4-FP4.zip'),
      { display_version: '2.5-20241108-official-Linux4-FP4' },
    ],
    [
      'a variant suffix after the device',
      edit('filename', 'filename: e-2.5-a14-20241108446322-official-FP4-KSU.zip'),
      { display_version: '2.5-a14-20241108446322-official-FP4-KSU' },
    ],
    [
      'a published name whose device and channel differ, said in filename_differs',
      edit(
        'filename',
        'filename: lineage-2.5-20241108-UNOFFICIAL-Linux4-beyond1lte.zip\nfilename_differs: [device, channel]',
      ),
      {
        filename: 'lineage-2.5-20241108-UNOFFICIAL-Linux4-beyond1lte.zip',
        channel: 'official',
        url: 'https://dl.example.org/builds/official/FP4/lineage-2.5-20241108-UNOFFICIAL-Linux4-beyond1lte.zip',
      },
    ],
    ['a BOM and CRLF line endings', '\ufeff' + VALID.replace(/\n/g, '\r\n'), { version: '2.5', size: 1387003904 }],
    ['datetime equal to timestamp', VALID + 'datetime: 1731067200\n', { timestamp: 1731067200 }],
    [
      'v2 metadata',
      VALID +
        'os_patch_level: "2024-11-05"\nota_type: AB\nota_property_files: "payload.bin:1234:5678,payload_properties.txt:100:154"\n',
      { os_patch_level: '2024-11-05', ota_type: 'AB' },
    ],
  ])('accepts %s', (_, text, expected) => {
    const { build, problems } = parseManifest(text, FILE, 'FP4', site!);
    expect(problems.map(formatProblem)).toEqual([]);
    expect(build).toMatchObject(expected);
  });

  it.each([
    [
      'without md5sum, incremental or api_level',
      'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\ndisplay_version: 3.1-a16-20250701-official-FP4\n',
      { filename: '', id: '', size: '', url: undefined, md5sum: '', incremental: '', api_level: '' },
    ],
    [
      'that keeps md5sum, incremental and api_level',
      'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\napi_level: "36"\nincremental: "1751364000"\nmd5sum: 0123456789abcdef0123456789abcdef\ndisplay_version: x\n',
      {
        filename: '',
        id: '',
        size: '',
        url: undefined,
        md5sum: '0123456789abcdef0123456789abcdef',
        incremental: '1751364000',
        api_level: '36',
      },
    ],
    [
      'with the empty strings a listing shows',
      'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\nfilename: ""\nid: ""\nsize: ""\nmd5sum: ""\ndisplay_version: x\n',
      { filename: '', id: '', size: '', url: undefined, md5sum: '' },
    ],
  ])('accepts a placeholder %s', (_, text, expected) => {
    const { build, problems } = parseManifest(text, FILE, 'FP4', site!);
    expect(problems.map(formatProblem)).toEqual([]);
    expect(build).toMatchObject({ placeholder: true, ...expected });
  });
});

describe('parseManifest: the SHA-256 of a zip beside another download key', () => {
  const md5Key = edit('id', 'id: 5eb63bbbe01eeed093cb22bb8f5acdc3');

  it("keeps the id as the download key, and the zip's SHA-256 beside it", () => {
    const { build, problems } = parseManifest(`${md5Key}sha256: ${'ab'.repeat(32)}\n`, FILE, 'FP4', site!);
    expect(problems).toEqual([]);
    expect(build).toMatchObject({ id: '5eb63bbbe01eeed093cb22bb8f5acdc3', sha256: 'ab'.repeat(32) });
  });

  it('takes a sha256 equal to a SHA-256 id, which adds nothing', () => {
    const { build, problems } = parseManifest(`${VALID}sha256: ${'0123456789abcdef'.repeat(4)}\n`, FILE, 'FP4', site!);
    expect(problems).toEqual([]);
    expect(build!.id).toBe('0123456789abcdef'.repeat(4));
    expect(build!.sha256).toBeUndefined();
  });

  it('knows where it stands, for the messages about the whole catalog', () => {
    const { build } = parseManifest(`${md5Key}sha256: ${'ab'.repeat(32)}\n`, FILE, 'FP4', site!);
    expect(build!.at.sha256).toEqual({ line: 10, col: 9 });
  });
});

describe('the default lists of a channel', () => {
  it('are the same for every build of the channel, and no build can change them for the others', () => {
    // One array per channel of a site, shared by its builds (manifest.ts, defaultLists): frozen.
    const a = parseManifest(VALID, FILE, 'FP4', site!).build!;
    const b = parseManifest(
      VALID.replace('e-2.5-a14-20241108446322', 'e-2.6-a14-20241108446323').replace('"2.5"', '"2.6"'),
      'content/FP4/b.yaml',
      'FP4',
      site!,
    ).build!;
    expect(a.lists).toEqual(['stable', 'official']);
    expect(b.lists).toEqual(a.lists);
    expect(() => (a.lists as string[]).push('x')).toThrow(TypeError);
    expect(b.lists).toEqual(['stable', 'official']);
    // A manifest's own `lists:` is its own.
    const c = parseManifest(`${VALID}lists: [official]\n`, 'content/FP4/c.yaml', 'FP4', site!).build!;
    expect(c.lists).toEqual(['official']);
  });
});

describe("a build's field positions, kept for messages about the whole catalog", () => {
  // Found only when a message asks for one (field-positions.ts) for a manifest the flat reader
  // reads, and as it is read for any other: either way where `yaml` itself puts the value, or the
  // start of the mapping for a field the manifest leaves out.
  const PROPS =
    'ota_property_files: "payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880"\n';
  const URL = 'url: https://mirror.example.org/FP4/e-2.5-a14-20241108446322-official-FP4.zip\n';
  const PLACEHOLDER =
    '# coming soon\nplaceholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\ndisplay_version: 3.1-a16-20250701-official-FP4\n';
  it.each([
    ['a plain manifest', VALID, false],
    [
      'comments, blank lines, a url and property files',
      `# FP4, November\n\n${URL}${VALID.replace('size:', '# the zip\nsize: ')}\n${PROPS}`,
      true,
    ],
    ['a byte order mark', `\ufeff${URL}${VALID}`, true],
    ['CRLF line ends (read by yaml)', `${VALID}${PROPS}`.replaceAll('\n', '\r\n'), false],
    [
      'an escape (read by yaml)',
      VALID.replace('incremental: eng.root.20241108.123456', 'incremental: "eng\\x2eroot"') + URL,
      true,
    ],
    ['a placeholder', PLACEHOLDER, false],
  ])('%s', (_, text, hasUrl) => {
    const { build, problems } = parseManifest(text, FILE, 'FP4', site!);
    expect(problems).toEqual([]);
    const yaml = composeYamlSource(text.replace(/^\ufeff/, ''), FILE);
    const at = build!.at;
    for (const key of ['id', 'filename', 'version', 'size'] as const)
      expect([key, at[key]]).toEqual([key, yaml.locate([key])]);
    expect(at.url).toEqual(hasUrl ? yaml.locate(['url']) : undefined);
    expect(at.ota_property_files).toEqual(
      text.includes('ota_property_files') ? yaml.locate(['ota_property_files']) : undefined,
    );
    expect(at.file).toEqual({ line: 1, col: 1 });
    // Asked twice, the same answer; and a copy (as a notice makes one) has every field.
    expect(at.version).toEqual(at.version);
    expect({ ...at.size }).toEqual(yaml.locate(['size']));
  });
});

describe('parseManifest: every problem, located', () => {
  it.each([
    [
      'version read as a number',
      edit('version', 'version: 2.10'),
      ['content/FP4/build.yaml:2:10  version  YAML reads 2.10 as the number 2.1, not text; quote it: version: "2.10"'],
    ],
    [
      'md5sum in upper case',
      edit('md5sum', 'md5sum: 0123456789ABCDEF0123456789ABCDEF'),
      [
        'content/FP4/build.yaml:7:9  md5sum  write the 32 hex characters in lowercase: 0123456789abcdef0123456789abcdef',
      ],
    ],
    [
      'md5sum too short',
      edit('md5sum', 'md5sum: 0123456789abcdef'),
      [
        'content/FP4/build.yaml:7:9  md5sum  expected the MD5 of the zip: 32 lowercase hex characters, got 16 characters',
      ],
    ],
    [
      'id with characters no listing carries unchanged',
      edit('id', 'id: "<b>0123"'),
      [
        'content/FP4/build.yaml:8:5  id  expected the SHA-256 of the zip (sha256sum FILE), or a download key of letters, digits and `. _ ~ - + = : /` (characters every listing, page and feed carries unchanged)',
      ],
    ],
    [
      'id in capitals',
      edit('id', `id: ${'AB'.repeat(32)}`),
      [`content/FP4/build.yaml:8:5  id  write the 64 hex characters in lowercase: ${'ab'.repeat(32)}`],
    ],
    [
      'md5: the key crDroid uses',
      edit('md5sum', 'md5: 0123456789abcdef0123456789abcdef'),
      [
        "content/FP4/build.yaml:7:1  md5  unknown field; did you mean `md5sum`? (`md5` is crDroid's and Evolution X's name for the MD5 of the zip)",
      ],
    ],
    // crDroid's name for the download key is the manifest's name for the SHA-256 beside another key.
    [
      'sha256 in place of id, as crDroid writes it',
      edit('id', `sha256: ${'ab'.repeat(32)}`),
      [
        'content/FP4/build.yaml:8:1  sha256  missing `id`, the key phones download the build by: write the SHA-256 of the zip there (rename `sha256` to `id`); `sha256` is only for a build whose id is another download key',
      ],
    ],
    [
      'a sha256 that differs from a SHA-256 id',
      VALID + `sha256: ${'ab'.repeat(32)}\n`,
      [
        "content/FP4/build.yaml:10:9  sha256  id is a SHA-256 already, and `sha256` says another: two SHA-256s for one zip; `sha256` is only for a build whose id is another download key (an MD5, a random key): remove it, and keep in `id` the zip's SHA-256 (sha256sum FILE)",
      ],
    ],
    [
      'a sha256 in capitals',
      edit('id', `id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nsha256: ${'AB'.repeat(32)}`),
      [`content/FP4/build.yaml:9:9  sha256  write the 64 hex characters in lowercase: ${'ab'.repeat(32)}`],
    ],
    [
      'a sha256 one character short',
      edit('id', `id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nsha256: ${'ab'.repeat(31)}a`),
      [
        'content/FP4/build.yaml:9:9  sha256  expected the SHA-256 of the zip (sha256sum FILE), for a build whose id is another download key: 64 lowercase hex characters, got 63 characters',
      ],
    ],
    [
      'SHA256, a known key in capitals',
      edit('id', `id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nSHA256: ${'ab'.repeat(32)}`),
      ['content/FP4/build.yaml:9:1  SHA256  unknown field; did you mean `sha256`?'],
    ],
    [
      'download: the key crDroid uses',
      VALID + 'download: https://example.org/x.zip\n',
      [
        "content/FP4/build.yaml:10:1  download  unknown field; did you mean `url`? (`download` is crDroid's and Evolution X's name for the download address)",
      ],
    ],
    [
      'a key named like an Object.prototype member',
      VALID + 'constructor: x\n',
      ['content/FP4/build.yaml:10:1  constructor  unknown field; see the manifest reference in the README'],
    ],
    [
      'buildtype: the key crDroid uses',
      VALID + 'buildtype: Weekly\n',
      [
        "content/FP4/build.yaml:10:1  buildtype  unknown field; did you mean `channel`? (`buildtype` is crDroid's and Evolution X's release type (weekly, OFFICIAL, ...))",
      ],
    ],
    [
      'timestamp in milliseconds',
      edit('timestamp', 'timestamp: 1731067200000'),
      ['content/FP4/build.yaml:4:12  timestamp  1731067200000 looks like milliseconds; write seconds: 1731067200'],
    ],
    [
      'timestamp as a date',
      edit('timestamp', 'timestamp: 2024-11-08'),
      [
        "content/FP4/build.yaml:4:12  timestamp  2024-11-08 is a date; write Unix seconds instead: timestamp: 1731024000 (date -u -d '2024-11-08' +%s, or post-timestamp in the zip's metadata)",
      ],
    ],
    [
      'implausible timestamp',
      edit('timestamp', 'timestamp: 12345'),
      [
        'content/FP4/build.yaml:4:12  timestamp  12345 is not a plausible build time; expected Unix seconds between 2009 and 2100, e.g. 1731067200',
      ],
    ],
    [
      'negative size',
      edit('size', 'size: -1'),
      ['content/FP4/build.yaml:9:7  size  a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)'],
    ],
    [
      'fractional size',
      edit('size', 'size: 1.5'),
      ['content/FP4/build.yaml:9:7  size  expected the zip size in bytes as a whole number (stat -c %s FILE)'],
    ],
    [
      'size as text',
      edit('size', 'size: "1387003904"'),
      ['content/FP4/build.yaml:9:7  size  the number is written as text; remove the quotes: size: 1387003904'],
    ],
    [
      'a typo in a key',
      VALID.replace('md5sum:', 'md5_sum:'),
      ['content/FP4/build.yaml:7:1  md5_sum  unknown field; did you mean `md5sum`?'],
    ],
    [
      'an unknown key',
      VALID + 'colour: blue\n',
      ['content/FP4/build.yaml:10:1  colour  unknown field; see the manifest reference in the README'],
    ],
    ['a missing field', edit('id', null), ['content/FP4/build.yaml:1:1  (file)  missing `id`; add it']],
    [
      'a duplicate key',
      VALID + 'size: 3\n',
      [
        'content/FP4/build.yaml:10:1  size  `size` is written twice (first on line 9); each field may appear once, keep one',
      ],
    ],
    [
      'a file name with a folder',
      edit('filename', 'filename: ../e-2.5-a14-20241108446322-official-FP4.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  expected a plain file name without folders, `..` or surrounding spaces; the phone saves the download under this name',
      ],
    ],
    [
      'a file name with spaces',
      edit('filename', 'filename: e 2.5.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  `e 2.5.zip` holds a space; a package name uses letters, digits, `-`, `.`, `_` and `~` only (it ends the download address and names the file on the phone): rename the package',
      ],
    ],
    [
      'a file name with a plus',
      edit('filename', 'filename: rom+gapps-2.5.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  `rom+gapps-2.5.zip` holds "+"; a package name uses letters, digits, `-`, `.`, `_` and `~` only (it ends the download address and names the file on the phone): rename the package',
      ],
    ],
    [
      'a file name with non-ASCII letters',
      edit('filename', 'filename: rom-ä-2.5.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  `rom-ä-2.5.zip` holds "ä"; a package name uses letters, digits, `-`, `.`, `_` and `~` only (it ends the download address and names the file on the phone): rename the package',
      ],
    ],
    [
      'a file name starting with a dot',
      edit('filename', 'filename: .rom-2.5.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  `.rom-2.5.zip` starts with `.`; start the package name with a letter, a digit or `_`',
      ],
    ],
    [
      'a file name longer than a phone holds',
      edit('filename', `filename: ${'r'.repeat(252)}.zip`),
      [
        'content/FP4/build.yaml:1:11  filename  the file name is 256 characters long; a phone saves the download under it, and its file system holds at most 255',
      ],
    ],
    [
      'an upper-case LineageOS type of another channel',
      edit('filename', 'filename: lineage-2.5-20241108-UNOFFICIAL-FP4-signed.zip'),
      [
        'content/FP4/build.yaml:3:10  channel  channel is `official` but the file name says `unofficial`; if the zip is already published under this name, write `filename_differs: [channel]`; otherwise make them agree',
      ],
    ],
    [
      'a file name of another device',
      edit('filename', 'filename: e-2.5-a14-20241108446322-official-FP5.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  the file name is for device `FP5` but the manifest is in the folder of `FP4`; if the zip is already published under this name, write `filename_differs: [device]`; otherwise move the manifest to content/FP5/ or fix the name',
      ],
    ],
    [
      'a version that disagrees with the file name',
      edit('version', 'version: "2.6"'),
      [
        'content/FP4/build.yaml:2:10  version  version is "2.6" but the file name says "2.5"; if the zip is already published under this name, write `filename_differs: [version]`; otherwise make them agree',
      ],
    ],
    [
      'a channel that disagrees with the file name',
      edit('channel', 'channel: dev'),
      [
        'content/FP4/build.yaml:3:10  channel  channel is `dev` but the file name says `official`; if the zip is already published under this name, write `filename_differs: [channel]`; otherwise make them agree',
      ],
    ],
    [
      'an Android version that disagrees with the file name',
      edit('android_version', 'android_version: "13"'),
      [
        'content/FP4/build.yaml:5:18  android_version  android_version is "13" but the file name\'s platform part `a14` means Android 14; if the zip is already published under this name, write `filename_differs: [android_version]`; otherwise make them agree',
      ],
    ],
    [
      'a device part that only contains the folder name inside a part',
      edit('filename', 'filename: e-2.5-a14-20241108446322-official-FP4x.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  the file name is for device `FP4x` but the manifest is in the folder of `FP4`; if the zip is already published under this name, write `filename_differs: [device]`; otherwise move the manifest to content/FP4x/ or fix the name',
      ],
    ],
    [
      'every disagreement at once, offered in one line',
      edit('filename', 'filename: lineage-2.6-20241108-UNOFFICIAL-FP5.zip'),
      [
        'content/FP4/build.yaml:1:11  filename  the file name is for device `FP5` but the manifest is in the folder of `FP4`; if the zip is already published under this name, write `filename_differs: [device, version, channel]`; otherwise move the manifest to content/FP5/ or fix the name',
        'content/FP4/build.yaml:2:10  version  version is "2.5" but the file name says "2.6"; if the zip is already published under this name, write `filename_differs: [device, version, channel]`; otherwise make them agree',
        'content/FP4/build.yaml:3:10  channel  channel is `official` but the file name says `unofficial`; if the zip is already published under this name, write `filename_differs: [device, version, channel]`; otherwise make them agree',
      ],
    ],
    [
      'filename_differs naming a part that agrees, twice, and one that is no part',
      edit('filename', 'filename: lineage-2.5-20241108-official-FP5.zip\nfilename_differs: [device, version, device]'),
      [
        'content/FP4/build.yaml:2:28  filename_differs.1  the file name agrees with the `version` field; remove `version` from filename_differs',
        'content/FP4/build.yaml:2:37  filename_differs.2  `device` is listed twice; remove one',
      ],
    ],
    [
      'filename_differs with an unknown part',
      edit('filename', 'filename: lineage-2.5-20241108-official-FP5.zip\nfilename_differs: [folder]'),
      [
        'content/FP4/build.yaml:2:20  filename_differs.0  expected a part of the file name: device, version, channel, android_version',
      ],
    ],
    [
      'filename_differs on a name of no known form',
      edit('filename', 'filename: crDroidAndroid-14.0-20250101-FP4-v10.10.zip\nfilename_differs: [device]'),
      [
        'content/FP4/build.yaml:2:1  filename_differs  `crDroidAndroid-14.0-20250101-FP4-v10.10.zip` is in neither form whose parts are compared (e-<version>-<platform letter or a+level>-<yyyymmdd><build number>-<channel>-<device>.zip (or .disabled.zip), or lineage-<version>-<yyyymmdd>-<type>-<device>[-signed].zip), so nothing differs; remove filename_differs',
      ],
    ],
    [
      'an unknown channel',
      edit('channel', 'channel: oficial').replace('-official-', '-oficial-'),
      [
        'content/FP4/build.yaml:3:10  channel  `oficial` is not a channel of this site; did you mean `official`? (channels: stable, official, dev, community, set in content/site.yaml)',
      ],
    ],
    [
      'an unknown list',
      VALID + 'lists: [stable, nightly]\n',
      [
        'content/FP4/build.yaml:10:17  lists.1  `nightly` is not a request list of this site (lists: stable, official, dev, community)',
      ],
    ],
    [
      'no API level for the Android version',
      edit('android_version', 'android_version: "8"').replace('-a14-', '-o-'),
      ['content/FP4/build.yaml:5:18  android_version  no known API level for Android 8; add `api_level: "NN"`'],
    ],
    [
      'datetime differing from timestamp',
      VALID + 'datetime: 1731067201\n',
      [
        'content/FP4/build.yaml:10:11  datetime  datetime must equal timestamp (1731067200): phones compare it with their own build time; remove `datetime`',
      ],
    ],
    [
      'a placeholder with a url and a numeric size',
      'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\ndisplay_version: x\nsize: 12\nurl: https://x.org/a.zip\n',
      [
        'content/FP4/build.yaml:7:1  size  a placeholder has no package, so it must not have `size` (a phone would offer it for download); remove it, or remove `placeholder: true`',
        'content/FP4/build.yaml:8:1  url  a placeholder has no package, so it must not have `url` (a phone would offer it for download); remove it, or remove `placeholder: true`',
      ],
    ],
    [
      'a placeholder with the SHA-256 of a zip',
      'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\ndisplay_version: x\nsha256: ' +
        'ab'.repeat(32) +
        '\n',
      [
        'content/FP4/build.yaml:7:1  sha256  a placeholder has no package, so it must not have `sha256` (a phone would offer it for download); remove it, or remove `placeholder: true`',
      ],
    ],
    [
      'a placeholder without display_version',
      'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\n',
      [
        'content/FP4/build.yaml:1:1  (file)  missing `display_version` (a placeholder needs version, channel, timestamp and display_version); add it',
      ],
    ],
    [
      'an empty file',
      '',
      [
        'content/FP4/build.yaml:1:1  (file)  the file is empty; a manifest is a mapping of fields (filename, version, channel, ...), see the README',
      ],
    ],
    [
      'a YAML list',
      '- a\n- b\n',
      ['content/FP4/build.yaml:1:1  (file)  expected a mapping of fields (filename: ..., version: ...), found a list'],
    ],
    [
      'a scalar',
      'hello\n',
      [
        'content/FP4/build.yaml:1:1  (file)  expected a mapping of fields (filename: ..., version: ...), found a single value',
      ],
    ],
    [
      'several documents',
      VALID + '---\n' + VALID,
      [
        'content/FP4/build.yaml:10:1  (file)  the file holds several YAML documents (a `---` line); write one build per file',
      ],
    ],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('version: "2.5"\nchannel: off'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')]),
      ['content/FP4/build.yaml:2:13  (file)  invalid UTF-8 at byte 27; save the file as UTF-8'],
    ],
    [
      'a YAML syntax error',
      'version: "2.5\n',
      ['content/FP4/build.yaml:2:1  (file)  YAML syntax: Missing closing "quote'],
    ],
  ])('reports %s', (_, text, expected) => {
    expect(messages(text)).toEqual(expected);
  });

  it('reports every problem of a file at once, each at its own line', () => {
    const text = edit('md5sum', 'md5sum: XYZ')
      .replace('version: "2.5"', 'version: 2.5')
      .replace('size: 1387003904', 'size: -4');
    expect(messages(text)).toEqual([
      'content/FP4/build.yaml:2:10  version  YAML reads 2.5 as the number 2.5, not text; quote it: version: "2.5"',
      'content/FP4/build.yaml:7:9  md5sum  expected the MD5 of the zip: 32 lowercase hex characters, got 3 characters with non-hex ones',
      'content/FP4/build.yaml:9:7  size  a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)',
    ]);
  });

  it('refuses a YAML alias bomb quickly', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    const [message] = messages(bomb);
    expect(message).toBe(
      'content/FP4/build.yaml:2:8  b.0  the alias *a repeats a list or mapping (and 89 more aliases do), which is refused: such aliases can expand without bound; write the values out',
    );
  });
});
