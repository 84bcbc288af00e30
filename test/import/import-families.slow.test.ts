// The other updater families' files, imported and published back in their own format: what each
// family's updater decodes from the source (test/helpers/format-clients.ts) equals what it decodes
// from the build, on every field it reads that the catalog keeps. Real listings are in
// test/fixtures/real-listings/ (its README names each repository, path and commit).
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';
import { decodeCrDroid, decodePixelExperience } from '../helpers/format-clients.js';
import { decodePixelExperienceUpdate } from '../helpers/dialects/index.js';

const FIXTURES = path.join(ROOT, 'test/fixtures/real-listings');
const SITE = `download_base_url: https://dl.example.org/builds
channels: [unofficial, weekly, official]
lists:
  unofficial: [unofficial]
  weekly: [weekly]
  official: [official]
`;

function project(extra = ''): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'));
  writeFileSync(path.join(root, 'content/site.yaml'), SITE + extra);
  return root;
}
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const importFile = (root: string, file: string, device: string, list: string, ...args: string[]) =>
  runMain(['import', file, '--device', device, '--list', list, '--root', root, ...args]);
const writeSource = (root: string, value: unknown) => {
  const file = path.join(root, 'source.json');
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
};

describe('the PixelExperience family', () => {
  it(
    'imports PixelOS G.json with no hand edits and publishes it back where its phones read it',
    { timeout: 60_000 },
    async () => {
      const root = project(
        'formats:\n  pixelexperience:\n    lists: [official]\n    path: /api/updater/{device}.json\n',
      );
      const result = await importFile(root, path.join(FIXTURES, 'pixelos-G.json'), 'G', 'official');
      expect(result.code).toBe(0);
      expect(result.out).toContain(
        'device fields kept in content/G/device.yaml: maintainers → maintainers (1), website_url → links.info, news_url → links.news',
      );
      expect(result.out.at(-1)).toBe('imported 1 of 1 records into G/official: 2 manifests written');
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const source = decodePixelExperience(fixture('pixelos-G.json'))!;
      const published = decodePixelExperience(readFileSync(path.join(root, 'dist/api/updater/G.json'), 'utf8'))!;
      // Every field the updater reads comes back; a maintainer's `main_maintainer`, which it does not read, does not.
      expect({ ...published, maintainers: published.maintainers }).toEqual({
        ...source,
        maintainers: published.maintainers,
      });
      // The user name under both keys: PixelExperience thirteen reads `ci_username`.
      expect(published.maintainers).toEqual([
        { name: 'Debayan Kar', github_username: 'kardebayan', ci_username: 'kardebayan' },
      ]);
      expect(published.version).toBe('fourteen');
    },
  );

  it(
    'imports a hand-kept file its phones read although it is not strict JSON, and publishes what they read',
    { timeout: 60_000 },
    async () => {
      const root = project(
        'formats:\n  pixelexperience:\n    lists: [official]\n    path: /api/updater/{device}.json\n',
      );
      const lenient = fixture('pixelos-G.json')
        .replace('{', '{\n    /* kept by hand */')
        .replace('"version": "fourteen"', '"version": fourteen');
      const file = path.join(root, 'G.json');
      writeFileSync(file, lenient);
      const result = await importFile(root, file, 'G', 'official');
      expect(result.code).toBe(0);
      expect(result.err).toContain(
        `${file}:2:5  (file)  not strict JSON; read as PixelExperience's updater and its forks (PixelOS up to 14, Project Elixir) reads it (org.json): 2:5 a comment \`/* kept by hand */\`, which the phone's parser skips; 4:16 an unquoted value \`fourteen\`, which the phone reads as the text "fourteen". The build publishes strict JSON`,
      );
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      // What a PixelExperience phone reads from the hand-kept file equals what it reads from the build.
      const published = readFileSync(path.join(root, 'dist/api/updater/G.json'), 'utf8');
      const { maintainers, newsUrl, ...source } = decodePixelExperienceUpdate(lenient)!;
      expect(decodePixelExperienceUpdate(published)).toMatchObject(source);
      expect(JSON.parse(published).version).toBe('fourteen');
    },
  );

  it('refuses a hand-kept file where its phones fail too, and writes nothing', async () => {
    const root = project();
    const file = path.join(root, 'G.json');
    writeFileSync(file, fixture('pixelos-G.json').replace('{', '{\n    // kept by hand'));
    const result = await importFile(root, file, 'G', 'official');
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:23:2  \\(file\\)  not strict JSON, and PixelExperience's updater .* fails here too: the file ends where a key should be: the comment at 2:5 runs to the end of the file`,
      ),
    );
    expect(existsSync(path.join(root, 'content/G'))).toBe(false);
  });

  it('names an answer that says error: true, and server data keyed by device, in one line', async () => {
    const root = project();
    const error = await importFile(root, writeSource(root, { error: true }), 'G', 'official');
    expect(error.code).toBe(1);
    expect(error.err[0]).toMatch(/\(file\) {2}this is a PixelExperience-family answer with "error": true/);
    const arrow = await importFile(
      root,
      writeSource(root, {
        alioth: [
          {
            filename: 'Arrow-v13.1-alioth-OFFICIAL-20240101-GAPPS.zip',
            filepath: '/arrow-13.1/alioth/Arrow-v13.1-alioth-OFFICIAL-20240101-GAPPS.zip',
            datetime: '20240101',
            size: '1',
            sha256: 'a'.repeat(64),
            type: 'official',
            version: 'v13.1',
          },
        ],
        lmi: [{ filename: 'b.zip', filepath: '/lmi/b.zip' }],
      }),
      'alioth',
      'official',
    );
    expect(arrow.err[0]).toMatch(
      /this is server data keyed by device \(2 devices: alioth, lmi\), as ArrowOS's OTA repository keeps it, not a listing phones read: .* add each build with otapress add <zip> \(the zip's metadata has the build time\), or import the listing its server answers for one device$/,
    );
  });
});

describe('the crDroid family', () => {
  it.each([
    ['crdroid-akita.json', 'akita', 'weekly'],
    ['evolutionx-alioth.json', 'alioth', 'official'],
  ])(
    'imports %s and publishes it back: what the updater reads is equal',
    { timeout: 60_000 },
    async (name, device, list) => {
      const root = project(`formats:\n  crdroid:\n    lists: [${list}]\n    path: /api/ota/{device}.json\n`);
      expect((await importFile(root, path.join(FIXTURES, name), device, list)).code).toBe(0);
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const source = decodeCrDroid(fixture(name))!;
      const published = decodeCrDroid(readFileSync(path.join(root, `dist/api/ota/${device}.json`), 'utf8'))!;
      // buildtype (`Weekly`, `Release`) becomes the list the build is in; the updater only shows it.
      // os_sdk_level, which the updater decodes and does not use, is the API level of the name's Android 14.
      expect(published.updates).toEqual(source.updates.map((u) => ({ ...u, type: null, osSdkLevel: 34 })));
      expect(published.metadata).toEqual(source.metadata);
    },
  );
});

describe('the crDroid family: the build facts beyond the v1 record', () => {
  it(
    'keeps os_patch_level, os_sdk_level and ota_property_files, and publishes them back',
    { timeout: 60_000 },
    async () => {
      const root = project('formats:\n  crdroid:\n    lists: [weekly]\n');
      const record = {
        filename: 'crDroidAndroid-15.0-20250301-akita-v11.2.zip',
        download: 'https://dl.example.org/builds/weekly/akita/crDroidAndroid-15.0-20250301-akita-v11.2.zip',
        timestamp: 1740787200,
        sha256: 'cd'.repeat(32),
        size: 1681167996,
        version: '11.2',
        os_patch_level: '2025-02-05',
        os_sdk_level: 35,
        ota_property_files: 'payload.bin:1577:1681000000,payload_properties.txt:1681001577:154',
      };
      const source = JSON.stringify({ response: [record] });
      const file = writeSource(root, JSON.parse(source));
      expect((await importFile(root, file, 'akita', 'weekly')).code).toBe(0);
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const published = decodeCrDroid(readFileSync(path.join(root, 'dist/api/crdroid/akita.json'), 'utf8'))!;
      expect(published.updates).toEqual(decodeCrDroid(source)!.updates);
      expect(readFileSync(path.join(root, 'dist/api/crdroid/akita.json'), 'utf8')).toContain(
        `"ota_property_files":"${record.ota_property_files}"`,
      );
    },
  );
});

describe('what import says', () => {
  const record = {
    datetime: 1731067200,
    filename: 'RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip',
    id: 'ab'.repeat(32),
    size: 1387003904,
    url: 'https://dl.example.org/builds/official/akita/RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip',
    version: '8.1.1-Arete',
  };

  it('takes a record without romtype or Android version and a text version, in a few lines of notes', async () => {
    const root = project();
    const { code, err } = await importFile(root, writeSource(root, { response: [record] }), 'akita', 'official');
    expect(code).toBe(0);
    expect(err).toHaveLength(2);
    expect(err[0]).toMatch(
      /^\S+source\.json:3:5 {2}\(filled in\) {2}11 fields the records lack are filled in as the build publishes them \(android_version, api_level, changes, channel, display_version, incremental, is_upgrade_supported, md5sum, pre_version, romtype, timestamp\); --verbose says how each$/,
    );
    expect(err[1]).toBe('1 note above (11 in all; --verbose shows each): the build publishes these values as they say');
    const verbose = await importFile(
      project(),
      writeSource(root, { response: [record] }),
      'akita',
      'official',
      '--verbose',
    );
    expect(
      verbose.err.some((l) =>
        l.endsWith(
          'the record lacks `romtype`, which phones compare with their release type: set to the list imported into',
        ),
      ),
    ).toBe(true);
  });

  it('says every problem of a record in one run', async () => {
    const root = project();
    const { code, err } = await importFile(
      root,
      writeSource(root, { response: [{ ...record, version: '8.1.1 Arete', datetime: 'yesterday' }] }),
      'akita',
      'official',
    );
    expect(code).toBe(1);
    expect(err.filter((l) => l.includes('record 0:')).map((l) => l.split('  ')[1])).toEqual([
      'response.0.datetime',
      'response.0.version',
    ]);
  });

  it('names the one site.yaml edit for a list the site lacks', async () => {
    const root = project();
    appendFileSync(path.join(root, 'content/site.yaml'), '');
    const { code, err } = await importFile(root, writeSource(root, { response: [record] }), 'akita', 'nightly');
    expect(code).toBe(1);
    expect(err[0]).toMatch(
      /The one edit in content\/site\.yaml: add the list `nightly: \[nightly\]` under `lists:` \(line 3\) and `nightly` to `channels` \(line 2\); then run the same import again$/,
    );
  });
});
