import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { LINK_KINDS } from '../../src/catalog/device.js';
import { runMain } from '../helpers/cli-process.js';
import { phoneView } from '../helpers/clients.js';
import { ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

// Real listings of five ROM projects (test/fixtures/real-listings/README.md names each repository,
// path and commit): import takes them with no hand edits exactly when a phone reads them, and the
// build gives back what the phone reads.

const FIXTURES = path.join(ROOT, 'test/fixtures/real-listings');
const SITE = `download_base_url: https://dl.example.org/builds
channels: [unofficial, weekly, official]
lists:
  unofficial: [unofficial]
  weekly: [weekly]
  official: [official]
`;

function project(): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'));
  writeFileSync(path.join(root, 'content/site.yaml'), SITE);
  return root;
}

const source = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')).response as Record<string, unknown>[];
const built = (root: string, device: string, list: string) =>
  JSON.parse(readFileSync(path.join(root, 'dist/api/v1', device, list, 'index.json'), 'utf8')).response as Record<
    string,
    unknown
  >[];

async function importFixture(root: string, name: string, device: string, list: string, ...args: string[]) {
  return runMain([
    'import',
    path.join(FIXTURES, name),
    '--device',
    device,
    '--list',
    list,
    '--root',
    root,
    '--verbose',
    ...args,
  ]);
}

describe('LineageOS listings phones read: numbers as text, keys that are not SHA-256, no md5sum', () => {
  it.each([
    // file, device, Android version its lineage-<version> name means
    ['razuuu-starlte.json', 'starlte', '12'],
    ['majaahh-a53x.json', 'a53x', '16'],
    ['marek-guran-jasmine_sprout.json', 'jasmine_sprout', '11'],
  ])(
    '%s imports with no hand edits and builds back to what the phone reads',
    { timeout: 60_000 },
    async (name, device, android) => {
      const root = project();
      const result = await importFixture(root, name, device, 'unofficial');
      expect({ code: result.code, out: result.out.at(-1) }).toEqual({
        code: 0,
        out: `imported 1 of 1 records into ${device}/unofficial: 1 manifest written`,
      });
      expect(result.err.filter((l) => !/^\S+:\d+:\d+  \S+  /.test(l))).toEqual([
        expect.stringMatching(/^\d+ notes above: the build publishes these values as they say$/),
      ]);
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const records = built(root, device, 'unofficial');
      expect(records.map(phoneView)).toEqual(source(name).map(phoneView));
      expect(records.map((r) => [r.android_version, r.md5sum])).toEqual([[android, '']]);
    },
  );
});

describe('a crDroid device file', () => {
  it(
    'maps download, timestamp, sha256, md5 and buildtype, and keeps the device fields in device.yaml',
    { timeout: 60_000 },
    async () => {
      const root = project();
      const { code, out } = await importFixture(root, 'crdroid-akita.json', 'akita', 'weekly');
      expect(code).toBe(0);
      expect(out).toEqual([
        'created content/akita/crDroidAndroid-14.0-20241003-akita-v10.8.yaml',
        'created content/akita/device.yaml',
        'device fields kept in content/akita/device.yaml: device → name, oem → oem, maintainer → maintainers.name, forum → links.forum, telegram → links.support, paypal → links.donate, dt → links.source',
        'device fields left out: common-dt (no updater reads it), kernel (no updater reads it)',
        'imported 1 of 1 records into akita/weekly: 2 manifests written',
      ]);
      const deviceFile = readFileSync(path.join(root, 'content/akita/device.yaml'), 'utf8');
      expect(deviceFile)
        .toBe(`# The device fields of crdroid-akita.json (otapress import); see the README for the other keys.
name: "Pixel 8a"
oem: "Google"
maintainers:
  - name: "Ionut Gherman"
links:
  forum: "https://xdaforums.com/t/rom-14-shiba-husky-akita-crdroid-10-8-official-03-10-2024.4650502/"
  support: "https://t.me/ionutbuilds"
  donate: "https://paypal.me/igherman96"
  source: "https://github.com/crdroidandroid/android_device_google_akita"
`);
      // Only the keys of the device.yaml contract.
      const parsed = parse(deviceFile) as Record<string, unknown>;
      expect(
        Object.keys(parsed).every((k) => ['name', 'oem', 'models', 'maintainers', 'links', 'dependencies'].includes(k)),
      ).toBe(true);
      expect(Object.keys(parsed.links as object).every((k) => (LINK_KINDS as readonly string[]).includes(k))).toBe(
        true,
      );

      // The build reads the device.yaml import wrote: the v2 directory and the device page show it.
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const v2Device = JSON.parse(
        readFileSync(path.join(root, 'dist/api/v2/devices/akita/index.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect([v2Device.name, v2Device.model, v2Device.oem]).toEqual(['Pixel 8a', 'akita', 'Google']);
      const oems = JSON.parse(readFileSync(path.join(root, 'dist/api/v2/oems.json'), 'utf8')) as unknown;
      expect(oems).toEqual([{ name: 'Google', devices: [{ model: 'akita', name: 'Pixel 8a' }] }]);
      const page = readFileSync(path.join(root, 'dist/devices/akita/index.html'), 'utf8');
      expect(page).toContain('Ionut Gherman');
      expect(page).toContain('href="https://t.me/ionutbuilds"');
      const [crDroid] = source('crdroid-akita.json');
      const [record] = built(root, 'akita', 'weekly');
      expect(phoneView(record)).toEqual({
        datetime: crDroid.timestamp,
        filename: crDroid.filename,
        id: crDroid.sha256,
        romtype: 'weekly',
        size: crDroid.size,
        url: crDroid.download,
        version: crDroid.version,
      });
      expect([record.md5sum, record.android_version]).toEqual([crDroid.md5, '14']);
      const [v2] = JSON.parse(readFileSync(path.join(root, 'dist/api/v2/devices/akita/builds.json'), 'utf8'));
      expect([v2.type, v2.files[0].sha256, v2.files[0].url]).toEqual(['weekly', crDroid.sha256, crDroid.download]);
    },
  );

  it('never overwrites a device.yaml, and says what it would have kept', { timeout: 60_000 }, async () => {
    const root = project();
    mkdirSync(path.join(root, 'content/akita'));
    writeFileSync(path.join(root, 'content/akita/device.yaml'), 'name: Pixel 8a (mine)\n');
    const { code, out } = await importFixture(root, 'crdroid-akita.json', 'akita', 'weekly');
    expect(code).toBe(0);
    expect(out).toContain(
      'device fields not written: content/akita/device.yaml exists and is left as it is (it would keep device → name, oem → oem, maintainer → maintainers.name, forum → links.forum, telegram → links.support, paypal → links.donate, dt → links.source)',
    );
    expect(readFileSync(path.join(root, 'content/akita/device.yaml'), 'utf8')).toBe('name: Pixel 8a (mine)\n');
  });

  it(
    'reads a ROM that copied the shape (PlusLineage), without and with --android-version for a name that does not tell it',
    { timeout: 60_000 },
    async () => {
      const without = await importFixture(project(), 'pluslineage-alioth.json', 'alioth', 'official');
      expect(without.code).toBe(0);
      expect(
        without.err.some((l) =>
          /android_version {2}the record lacks `android_version`, which only the \/e\/ updater reads: left out/.test(l),
        ),
      ).toBe(true);
      const root = project();
      const { code, out } = await importFixture(
        root,
        'pluslineage-alioth.json',
        'alioth',
        'official',
        '--android-version',
        '12',
      );
      expect(code).toBe(0);
      expect(out).toContain(
        'device fields kept in content/alioth/device.yaml: device → name, oem → oem, maintainer → maintainers.name, forum → links.forum, telegram → links.support, paypal → links.donate',
      );
      expect(out).toContain(
        'device fields left out: common-dt (no updater reads it), dt (empty), kernel (no updater reads it)',
      );
      expect(readFileSync(path.join(root, 'content/alioth/device.yaml'), 'utf8')).toContain(
        'name: "F3/ Mi 11x"\noem: "Poco"\n',
      );
    },
  );
});

describe('listings phones do not read', () => {
  it('refuses a placeholder record of "x" values at each field a phone cannot read', async () => {
    const root = project();
    const before = snapshotTree(path.join(root, 'content'));
    const { code, err } = await importFixture(root, 'razuuu-crownlte-placeholder.json', 'crownlte', 'unofficial');
    expect(code).toBe(1);
    const file = path.join(FIXTURES, 'razuuu-crownlte-placeholder.json');
    expect(err.filter((l) => l.includes('  response.0.'))).toEqual([
      `${file}:4:19  response.0.datetime  record 0: the text "x" is not Unix seconds; LineageOS phones drop a record whose datetime is not a number (they read it with getLong): write the build time, e.g. date -u -d 'x' +%s, or ro.build.date.utc of the build`,
      `${file}:8:15  response.0.size  record 0: expected the size in bytes as a whole number, found the text "x"; LineageOS phones drop a record whose size is not a number`,
      `${file}:9:14  response.0.url  record 0: expected an absolute http(s) download address without spaces`,
    ]);
    expect(snapshotTree(path.join(root, 'content'))).toEqual(before);
  });

  it('refuses a file that is not JSON (phones fail the whole check)', async () => {
    const root = project();
    const { code, err } = await importFixture(
      root,
      'shapeshiftos-laurel_sprout-invalid.json',
      'laurel_sprout',
      'unofficial',
    );
    expect(code).toBe(1);
    expect(err[0]).toBe(
      `${path.join(FIXTURES, 'shapeshiftos-laurel_sprout-invalid.json')}:7:4  (file)  not JSON that any updater reads: \`"\` where \`,\` or \`}\` should follow the value of \`size\` (a comma missing?); org.json, the most lenient parser phones use, fails here too, so phones get nothing from this file: correct it and import again`,
    );
  });
});

describe('names published under another convention', () => {
  // A maintainer prefix (`Linux4-`) or suffix before the codename: the device part of the name holds
  // the folder's codename as whole parts, so these listings import with no hand edits and build back.
  it.each([
    ['linux4-beyond1lte.json', 'beyond1lte'],
    ['lin19-microg-hotdog.json', 'hotdog'],
  ])(
    '%s imports with no hand edits and builds back to what the phone reads',
    { timeout: 60_000 },
    async (name, device) => {
      const root = project();
      const imported = await importFixture(root, name, device, 'unofficial');
      expect(imported.err.filter((l) => /  response\.\d+\./.test(l) && !/notice|filled|derived/.test(l))).toEqual([]);
      expect(imported.code).toBe(0);
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const records = source(name);
      const rebuilt = built(root, device, 'unofficial');
      expect(rebuilt.map(phoneView).sort((a, b) => a.datetime - b.datetime)).toEqual(
        records.map(phoneView).sort((a, b) => a.datetime - b.datetime),
      );
    },
  );
});
