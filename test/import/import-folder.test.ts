import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSite, type Site } from '../../src/catalog/site.js';
import { classifyFile } from '../../src/import/folder-classify.js';
import { planFolder } from '../../src/import/folder-plan.js';
import { editSite } from '../../src/import/folder-site.js';
import { SEED } from '../helpers/arbitraries.js';

// The pure planning of `otapress import <folder>`: what each file is, the site.yaml edit, and a
// plan that writes nothing until every file is valid. The real repositories are imported and
// built in import-repositories.slow.test.ts.

const SITE = `# The site. This comment stays.
download_base_url: https://dl.example.org/builds

# Channels, kept with their comment.
channels: [stable, official]
lists:
  stable: [stable, official]   # the stable list
  official: [official]
# A comment after the lists.
`;

function siteOf(text: string): Site {
  const { site, problems } = parseSite(text);
  if (!site) throw new Error(problems.map((p) => p.message).join('\n'));
  return site;
}

const crdroid = (device: string, extra: Record<string, unknown> = {}) => ({
  response: [
    {
      maintainer: 'A Maintainer',
      oem: 'Xiaomi',
      device: 'Redmi',
      filename: `crDroidAndroid-14.0-20240315-${device}-v10.3.zip`,
      download: `https://dl.example.org/${device}.zip`,
      timestamp: 1710460800,
      md5: '0123456789abcdef0123456789abcdef',
      sha256: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      size: 1234567,
      version: '10.3',
      buildtype: 'Monthly',
      ...extra,
    },
  ],
});

const file = (path: string, value: unknown) => ({
  path,
  bytes: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value, null, 2)),
});

const plan = (files: { path: string; bytes: Uint8Array }[], siteText = SITE) =>
  planFolder({
    folder: 'ota',
    files,
    site: siteOf(siteText),
    siteText,
    existing: [],
    deviceFiles: new Set(),
  });

describe('import <folder>: what each file of a repository is', () => {
  const v1 = { datetime: 1, filename: 'a.zip', id: 'x', size: 1, url: 'https://x/a.zip', version: '1' };
  it.each([
    ['crDroid Java: md5 and the shown keys', 'akita.json', crdroid('akita'), 'crdroid-java'],
    [
      'six-field md5',
      'akita.json',
      { response: [{ timestamp: 1, filename: 'a', md5: 'm', size: 1, download: 'd', version: '1' }] },
      'md5-six',
    ],
    [
      'crDroid Kotlin: sha256, no md5',
      'akita.json',
      { response: [{ filename: 'a', download: 'd', timestamp: 1, sha256: 's', size: 1, version: '1' }] },
      'crdroid',
    ],
    ['LineageOS v1 records (romtype)', 'Pong.json', { response: [{ ...v1, romtype: 'Official' }] }, 'lineage-v1'],
    ['PixelOS 15 records (no romtype)', 'aston.json', { response: [v1] }, 'pixelos15'],
    [
      "PixelOS's strict feed (v2-shaped entries of type ci)",
      'aston.json',
      [
        {
          datetime: 1,
          files: [{ filename: 'a.zip', sha256: 's', size: 1, url: 'https://x/a.zip' }],
          type: 'ci',
          version: '1',
        },
      ],
      'pixelos-feed',
    ],
    [
      'a PixelExperience object',
      'sweet.json',
      { error: false, ...v1, filehash: 'm', maintainers: [] },
      'pixelexperience',
    ],
  ])('%s', (_, path, json, dialect) => {
    expect(classifyFile(path, JSON.stringify(json), json)).toMatchObject({
      kind: 'listing',
      dialect,
      template: '/{device}.json',
    });
  });

  it.each([
    ['OTA/VANILLA/akita.json', '/OTA/{LIST}/{device}.json', 'VANILLA'],
    ['OTA/device/EXTRA_2/akita.json', '/OTA/device/{LIST}/{device}.json', 'EXTRA_2'],
    ['OTA/Gapps/akita.json', '/OTA/Gapps/{device}.json', 'Gapps'],
    ['API/akita.json', '/API/{device}.json', undefined],
    ['GAPPS/akita.json', '/GAPPS/{device}.json', 'GAPPS'],
    ['OTA/vanilla/akita.json', '/OTA/{list}/{device}.json', 'vanilla'],
    ['vanilla/akita.json', '/vanilla/{device}.json', 'vanilla'],
    ['builds/akita.json', '/builds/{device}.json', undefined],
  ])('%s lies at %s (list folder %s)', (path, template, listFolder) => {
    const listing = classifyFile(path, '', crdroid('akita'));
    expect(listing).toMatchObject({ kind: 'listing', device: 'akita', template });
    expect((listing as { listFolder?: string }).listFolder).toBe(listFolder);
  });

  it.each([
    ['akita_changelog.txt', '/{device}_changelog.txt'],
    ['changelog_Pong.txt', '/changelog_{device}.txt'],
    ['API/updater/changelogs/aston.md', '/API/updater/changelogs/{device}.md'],
    ['OTA/changelogs/e.txt', '/OTA/changelogs/{device}.txt'],
  ])('the changelog %s is a device changelog at %s', (path, template) => {
    expect(classifyFile(path, 'text', undefined)).toMatchObject({ kind: 'changelog', template });
  });

  it.each([
    ['README.md', 'not a JSON listing or a changelog named after a device'],
    ['API/devices/aston.json', 'not a listing (no build records in it)'],
    [
      'v2.json',
      'a LineageOS v2 answer (builds with `files`), which no format of the site publishes: import it alone (otapress import FILE --device D --list L) once the device is in the site',
    ],
    [
      'empty.json',
      'a listing with no builds: nothing to import (the build writes the file again once the device has a build)',
    ],
  ])('%s is left alone: %s', (path, why) => {
    const json = path.startsWith('v2')
      ? [{ datetime: 1, type: 'nightly', version: '1.0', files: [] }]
      : path.startsWith('empty')
        ? { response: [] }
        : path.endsWith('.json')
          ? { model: 'x' }
          : undefined;
    expect(classifyFile(path, '# x', json)).toEqual({ kind: 'other', path, why });
  });
});

describe("import <folder>: a website's JSON beside the listings is left alone", () => {
  // Excerpts of real files: CherishOS-Devices/OTA udc `devices.json`, Spark-Devices/official_devices
  // main `API/features.json`, SuperiorOS-Devices/official_devices twelve `devices.json`
  // (test/fixtures/ota-repositories/README.md names the commits).
  const build = (codename: string) => ({
    brand: 'Xiaomi',
    codename,
    datetime: 1642522108,
    filename: `SuperiorOS-Twelve-${codename}-OFFICIAL-20220125-0447.zip`,
    id: '679321cd7bc90b42adcdafa96c65c688e1f6e14188c88abe90d1c74da11a8685',
    romtype: 'OFFICIAL',
    size: 897209737,
    url: `https://master.dl.sourceforge.net/project/superioros/${codename}/x.zip`,
    version: 'Twelve',
  });
  it.each([
    [
      'devices.json',
      [{ brand: 'Xiaomi', codename: 'Marble', name: 'POCO F5', supported_versions: [{ maintainer_name: 'JYR_RC' }] }],
      'not a listing (no build records in it)',
    ],
    [
      'API/features.json',
      [{ title: 'Battery', description: 'We are including many battery optimizations' }],
      'not a listing (no build records in it)',
    ],
    [
      'devices.json',
      [build('onclite'), build('sweet')],
      "its records name 2 devices: a list of devices, not a device's listing",
    ],
  ])('%s: %s', (path, json, why) => {
    expect(classifyFile(path, JSON.stringify(json), json)).toEqual({ kind: 'other', path, why });
  });

  it('a crDroid-family record with no `response` around it is named, with what to do', () => {
    // CherishOS-Devices/OTA udc `builds/chime.json` (there also not strict JSON: `"version": 4.1.4`).
    const json = { maintainer: 'Chikoni_UwU', filename: 'Cherish-OS-v4.1.4.zip', download: 'https://x.example/a.zip' };
    expect(classifyFile('builds/chime.json', JSON.stringify(json), json)).toEqual({
      kind: 'other',
      path: 'builds/chime.json',
      why: 'this is one crDroid-family record on its own: crDroid-family phones read the records of `{"response": [...]}` (getJSONArray("response")) and get nothing from this file; put the record in {"response": [ ... ]}, then import again',
    });
  });

  it("YAAP's OpenDelta file, a file name alone, is named with the reader and what to do", () => {
    // yaap/ota-info thirteen `alioth/alioth.json` (81cf8455badd8cb47c5581e202183474f49bf376), whole.
    const json = { response: [{ datetime: 1642691056, filename: 'YAAP-12-Scirocco-alioth-20220120.zip' }] };
    expect(classifyFile('alioth/alioth.json', JSON.stringify(json), json)).toEqual({
      kind: 'other',
      path: 'alioth/alioth.json',
      why: "records with a file name and no download address, size or hash, as YAAP's OpenDelta updater reads them (it builds the address itself): no format of otapress writes that; add each build with otapress add <zip>",
    });
  });

  it("a device's own listing whose record names its codename is still one", () => {
    const json = { response: [build('onclite')] };
    expect(classifyFile('onclite.json', JSON.stringify(json), json)).toMatchObject({
      kind: 'listing',
      device: 'onclite',
    });
  });
});

describe('import <folder>: the site.yaml edit', () => {
  it('adds the lists and a formats entry as text: every comment and line of the file stays', () => {
    const site = siteOf(SITE);
    const edited = editSite(
      SITE,
      site,
      ['monthly'],
      [{ family: 'crdroid-java', lists: ['monthly'], path: '/{device}.json', buildtype: 'Monthly' }],
    );
    if ('problem' in edited) throw new Error(edited.problem);
    expect(edited.text).toBe(`# The site. This comment stays.
download_base_url: https://dl.example.org/builds

# Channels, kept with their comment.
channels: [stable, official, monthly]
lists:
  stable: [stable, official]   # the stable list
  official: [official]
  monthly: [monthly]
# A comment after the lists.

# Other updaters' files, where the imported OTA repository kept them (otapress import).
formats:
  crdroid-java: { lists: [monthly], path: "/{device}.json", buildtype: "Monthly" }
`);
    expect(edited.site.formats).toMatchObject([
      { family: 'crdroid-java', lists: ['monthly'], path: '/{device}.json', buildtype: 'Monthly' },
    ]);
  });

  it('adds to block sequences and to an existing formats mapping at their indentation', () => {
    const text = `download_base_url: https://dl.example.org/builds
channels:
    - stable
lists:
    stable: [stable]
formats:
    crdroid: { lists: [stable] }
`;
    const edited = editSite(
      text,
      siteOf(text),
      ['gapps'],
      [{ family: 'pixelos15', lists: ['gapps'], path: '/{device}.json' }],
    );
    if ('problem' in edited) throw new Error(edited.problem);
    expect(edited.text).toBe(`download_base_url: https://dl.example.org/builds
channels:
    - stable
    - gapps
lists:
    stable: [stable]
    gapps: [gapps]
formats:
    crdroid: { lists: [stable] }
    pixelos15: { lists: [gapps], path: "/{device}.json" }
`);
  });

  it('refuses to add a dialect site.yaml already has, naming the entry the repository needs', () => {
    const text = `${SITE}formats:\n  crdroid-java: {}\n`;
    expect(
      editSite(text, siteOf(text), [], [{ family: 'crdroid-java', lists: ['stable'], path: '/{device}.json' }]),
    ).toEqual({
      problem:
        'content/site.yaml already has a `crdroid-java` format; the repository\'s files need `crdroid-java: { lists: [stable], path: "/{device}.json" }`: remove or change the entry, then import again',
    });
  });
});

describe('import <folder>: the plan', () => {
  it('reports the problems of every file at once, at file:line:col, and then writes nothing', () => {
    const broken = crdroid('akita', { size: 'big' });
    const result = plan([
      file('akita.json', broken),
      file('beckham.json', '{"response": [{"filename": "x.zip",'),
      file('vayu.json', crdroid('vayu')),
    ]);
    expect(result.writes).toEqual([]);
    expect(result.problems.map((p) => `${p.file}:${p.line}:${p.col}  ${p.field}`)).toEqual([
      'ota/akita.json:12:15  response.0.size',
      'ota/beckham.json:1:36  (file)',
    ]);
  });

  it('puts list folders in the path as {list}, adding the lists the site lacks', () => {
    const result = plan([
      file('OTA/gapps/akita.json', crdroid('akita')),
      file(
        'OTA/vanilla/akita.json',
        crdroid('akita', {
          sha256: 'f'.repeat(64),
          md5: 'f'.repeat(32),
          filename: 'crDroidAndroid-14.0-20240316-akita-v10.3.zip',
          download: 'https://dl.example.org/akita-20240316.zip',
          timestamp: 1710547200,
        }),
      ),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.dialects).toEqual([
      {
        entry: {
          family: 'crdroid-java',
          lists: ['gapps', 'vanilla'],
          path: '/OTA/{list}/{device}.json',
          buildtype: 'Monthly',
        },
        files: 2,
        newLists: ['gapps', 'vanilla'],
      },
    ]);
    expect(result.writes.map((w) => `${w.file} ${w.action}`)).toEqual([
      'content/akita/crDroidAndroid-14.0-20240315-akita-v10.3.yaml created',
      'content/akita/crDroidAndroid-14.0-20240316-akita-v10.3.yaml created',
      'content/akita/device.yaml created',
      "content/site.yaml lists gapps, vanilla added, 1 format added, and v1_withdrawn is now omit (its default once a channel is not /e/'s: withdrawn and size-0 builds leave the v1 lists; set v1_withdrawn: list to keep them)",
    ]);
  });

  // AxionAOSP/official_devices (branch lineage-23.1): `dinfo.json` at the root, in DerpFest's
  // device-list shape, beside OTA/GMS/ and OTA/VANILLA/.
  it('imports the listings beside a device list the build cannot write back, leaving the list alone', () => {
    const v1 = (filename: string, datetime: number, id: string) => ({
      response: [
        {
          datetime,
          filename,
          id,
          romtype: 'OFFICIAL',
          size: 2312525459,
          url: `https://sourceforge.net/projects/axionaosp/files/${filename}/download`,
          version: '2.2',
        },
      ],
    });
    const result = plan([
      file('dinfo.json', { devices: [{ device_name: 'Google Pixel 9a', codename: 'tegu', maintainer: 'rmp22' }] }),
      file(
        'OTA/GMS/tegu.json',
        v1('axion-2.2-NIGHTLY-20251112-OFFICIAL-GMS-tegu.zip', 1762980433, '9716cf218893a35a53bd7c891c882b9d'),
      ),
      file(
        'OTA/VANILLA/tegu.json',
        v1('axion-2.2-NIGHTLY-20251112-OFFICIAL-VANILLA-tegu.zip', 1762980434, '1497cefaee5937ccccb70f488c1c2338'),
      ),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.dialects.map((d) => d.entry)).toEqual([
      // `buildtype`: the `romtype` phones compare with their release type, whatever the folder.
      { family: 'lineage-v1', lists: ['gms', 'vanilla'], path: '/OTA/{LIST}/{device}.json', buildtype: 'OFFICIAL' },
    ]);
    expect(result.leftAlone).toEqual([
      {
        why: "a device list the build cannot write back there (the device list lies in a folder of its own (a file at the root could be a device's), e.g. /info/device-info.json); its entries fill the devices' device.yaml",
        paths: ['dinfo.json'],
      },
    ]);
    expect(result.writes.map((w) => w.file)).toContain('content/tegu/device.yaml');
  });

  // AxionAOSP/official_devices (main): a device list for its website, with keys DerpFest's updater
  // does not read (dinfo.json's `github_username`, `image_url`), at a path the build could write.
  it('leaves a website’s device list alone rather than write it back without the keys the website reads', () => {
    const devices = [
      { device_name: 'Google Pixel 9a', codename: 'tegu', maintainer: 'rmp22', image_url: 'https://x.example/t.png' },
    ];
    const listing = {
      response: [
        {
          datetime: 1762980433,
          filename: 'axion-2.2-20251112-OFFICIAL-tegu.zip',
          id: '9716cf218893a35a53bd7c891c882b9d',
          romtype: 'OFFICIAL',
          size: 2312525459,
          url: 'https://dl.example.org/axion-2.2-20251112-OFFICIAL-tegu.zip',
          version: '2.2',
        },
      ],
    };
    const result = plan([file('api/devices/info.json', { devices }), file('OTA/tegu.json', listing)]);
    expect(result.problems).toEqual([]);
    expect(result.dialects.map((d) => d.entry.deviceInfo)).toEqual([undefined]);
    expect(result.leftAlone.map((g) => g.why)).toContainEqual(
      expect.stringContaining('its entries carry keys DerpFest\'s updater does not read ("image_url"), for a website'),
    );
    expect(result.writes.map((w) => w.file)).toContain('content/tegu/device.yaml');
  });

  // AxionAOSP/official_devices (branch lineage-23.2, 90c1daeb17e408eb7875edb406de391b71b385e6),
  // OTA/GMS/bluejay.json and OTA/VANILLA/bluejay.json: both builds at one OneDrive folder address.
  it('refuses, at the record, a second build at the address of another: the build would refuse it', () => {
    const folder = 'https://1drv.ms/f/c/88f2d06dfca76168/IgCGdW2eEinnS66E3Jrojo68AfK1aeMM2NdltnCPc1OQ2CU?e=NAed1a';
    const record = (variant: string, datetime: number, id: string, size: number) => ({
      response: [
        {
          datetime,
          filename: `axion-2.4-TELOS-20260126-OFFICIAL-${variant}-bluejay.zip`,
          id,
          romtype: 'OFFICIAL',
          size,
          url: folder,
          version: '2.4',
        },
      ],
    });
    const result = plan([
      file('OTA/GMS/bluejay.json', record('GMS', 1769451801, 'b76365245c0b39d161f5abab5155b944', 2351030546)),
      file('OTA/VANILLA/bluejay.json', record('VANILLA', 1769451058, '7e332db7118ed7c2eb459068ee559e87', 1959935538)),
    ]);
    expect(result.writes).toEqual([]);
    expect(result.problems.map((p) => `${p.file}:${p.line}:${p.col}  ${p.field}  ${p.message}`)).toEqual([
      `ota/OTA/VANILLA/bluejay.json:9:14  response.0.url  record 0: ${folder} is also the address of the zip axion-2.4-TELOS-20260126-OFFICIAL-GMS-bluejay.zip of content/bluejay/axion-2.4-TELOS-20260126-OFFICIAL-GMS-bluejay.yaml, with another SHA-256 or size; one address holds one file, and the second upload would replace the first: correct this build's \`url\`, or the other file's name or address`,
    ]);
  });

  // RisingOS-Revived/official_devices (branch fifteen): OTA/device/GAPPS/, VANILLA/, CORE/, MICROG/.
  it('puts list folders in capitals in the path as {LIST}, each a list of its lowercase name', () => {
    const other = {
      sha256: 'f'.repeat(64),
      md5: 'f'.repeat(32),
      filename: 'crDroidAndroid-14.0-20240316-akita-v10.3.zip',
      download: 'https://dl.example.org/akita-20240316.zip',
    };
    const result = plan([
      file('OTA/device/GAPPS/akita.json', crdroid('akita')),
      file('OTA/device/GAPPS/beckham.json', crdroid('beckham')),
      file('OTA/device/VANILLA/akita.json', crdroid('akita', other)),
      // No known variant name, but beside GAPPS/ with the same device: a list too.
      file(
        'OTA/device/EXTRA/beckham.json',
        crdroid('beckham', { ...other, filename: 'crDroidAndroid-14.0-20240316-beckham-v10.3.zip' }),
      ),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.dialects).toEqual([
      {
        entry: {
          family: 'crdroid-java',
          lists: ['gapps', 'vanilla', 'extra'],
          path: '/OTA/device/{LIST}/{device}.json',
          buildtype: 'Monthly',
        },
        files: 4,
        newLists: ['gapps', 'vanilla', 'extra'],
      },
    ]);
    expect(result.leftOut).toEqual([]);
  });

  it('keeps a lone folder in capitals in the path: with no other such folder of the same devices, it is no list', () => {
    const result = plan([
      file('OTA/API/akita.json', crdroid('akita')),
      file('OTA/API/beckham.json', crdroid('beckham')),
    ]);
    expect(result.dialects.map((d) => d.entry)).toEqual([
      { family: 'crdroid-java', lists: ['monthly'], path: '/OTA/API/{device}.json', buildtype: 'Monthly' },
    ]);
  });

  // Project Infinity-X's gapps/ and vanilla/, SuperiorOS's gapps/ and Matrixx's vanila/ beside the root files.
  it.each([
    [['gapps/akita.json', 'vanilla/akita.json'], { gapps: '/gapps/{device}.json', vanilla: '/vanilla/{device}.json' }],
    [['akita.json', 'gapps/akita.json'], { gapps: '/gapps/{device}.json', vanilla: '/{device}.json' }],
    [['akita.json', 'vanila/akita.json'], { vanila: '/vanila/{device}.json', gapps: '/{device}.json' }],
  ])('gives the files of %j, at paths that differ by a variant folder, a path per list', (paths, path) => {
    const result = plan(paths.map((p) => file(p, crdroid('akita'))));
    expect(result.problems).toEqual([]);
    expect(result.leftOut).toEqual([]);
    expect(result.dialects.map((d) => d.entry)).toEqual([
      { family: 'crdroid-java', lists: Object.keys(path), path, buildtype: 'Monthly' },
    ]);
  });

  it('writes the changelogs of a path per list back only at a path that names the list', () => {
    const result = plan([
      file('akita.json', crdroid('akita')),
      file('vanila/akita.json', crdroid('akita')),
      file('akita_changelog.txt', '- Initial build'),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.dialects.map((d) => d.entry.changelog)).toEqual([undefined]);
    expect(result.leftOut).toEqual([
      "changelog files at /{device}_changelog.txt: their text goes into the newest build's changelog, but the build cannot write them back there (with a path per list, each list's changelog is a file of its own: put {list} in the path, e.g. /changelogs/{list}/{device}.txt, or give a path per list)",
    ]);
  });

  it('leaves out the files at a second path that differs by more than a variant folder', () => {
    const result = plan([file('gapps/akita.json', crdroid('akita')), file('other/akita.json', crdroid('akita'))]);
    expect(result.dialects.map((d) => d.entry.path)).toEqual(['/gapps/{device}.json']);
    expect(result.leftOut).toContain(
      '1 crdroid-java file at /other/{device}.json (other/akita.json): not imported, the other crdroid-java files lie at /gapps/{device}.json and a dialect is written at one path',
    );
  });

  it('leaves out a changelog the catalog would refuse, saying why, and imports the rest', () => {
    const result = plan([
      file('akita.json', crdroid('akita')),
      file('akita_changelog.txt', 'See [the notes](http://example.org/n).'),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.leftOut).toContainEqual(
      expect.stringMatching(/^akita_changelog\.txt: the catalog would not accept it: .*https/),
    );
    expect(result.writes.find((w) => w.file.endsWith('-v10.3.yaml'))!.text).not.toContain('changelog');
  });

  it('imports the newer of two devices whose names differ only by case, and leaves the other out, saying why', () => {
    const older = crdroid('x2', { timestamp: 1600000000, sha256: 'f'.repeat(64), md5: 'f'.repeat(32) });
    const result = plan([file('X2.json', crdroid('X2')), file('x2.json', older), file('FP4.json', crdroid('FP4'))]);
    expect(result.problems).toEqual([]);
    expect(result.devices).toEqual(['FP4', 'X2']);
    expect(result.writes.some((w) => w.file.startsWith('content/x2/'))).toBe(false);
    expect(result.leftOut).toContainEqual(
      expect.stringMatching(
        /^x2\.json: the device x2 differs from X2 only by case, .* X2, with the newer build, is imported/,
      ),
    );
  });

  it('writes nothing, site.yaml included, for a repository with no listing', () => {
    const result = plan([file('README.md', '# OTA')]);
    expect(result.writes).toEqual([]);
    expect(result.leftAlone).toEqual([
      { why: 'not a JSON listing or a changelog named after a device', paths: ['README.md'] },
    ]);
  });

  it('takes any file without throwing: every problem is located, and nothing is written with one', () => {
    const paths = fc.constantFrom(
      'a.json',
      'FP4.json',
      'OTA/gapps/x.json',
      'x_changelog.txt',
      'changelogs/FP4.md',
      'info/d.json',
      'a\u001b[31m.json',
      '__proto__.json',
      'constructor.json',
    );
    const contents = fc.oneof(
      fc.json(),
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify({ response: [v] })),
      fc.jsonValue().map((v) => JSON.stringify({ response: [{ ...crdroid('FP4').response[0], size: v }] })),
      fc.jsonValue().map((v) => JSON.stringify({ devices: [{ codename: 'FP4', device_name: v, support_group: v }] })),
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(paths, contents), { selector: ([p]) => p, maxLength: 4 }), (entries) => {
        const result = plan(entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, c]) => file(p, c)));
        for (const p of result.problems) {
          expect(p.line).toBeGreaterThan(0);
          expect(typeof p.message).toBe('string');
        }
        if (result.problems.length > 0) expect(result.writes).toEqual([]);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('imports the same repository again without a change: every build is there, and site.yaml has its format', () => {
    const files = [file('akita.json', crdroid('akita')), file('akita_changelog.txt', 'Fixed the camera.')];
    const first = plan(files);
    const siteText = first.writes.find((w) => w.file === 'content/site.yaml')!.text;
    const again = planFolder({
      folder: 'ota',
      files,
      site: siteOf(siteText),
      siteText,
      existing: first.writes
        .filter((w) => !w.file.endsWith('device.yaml') && w.file !== 'content/site.yaml')
        .map((w) => ({ file: w.file, device: 'akita', bytes: Buffer.from(w.text) })),
      deviceFiles: new Set(['akita']),
    });
    expect(again.problems).toEqual([]);
    expect(again.writes).toEqual([]);
  });
});
