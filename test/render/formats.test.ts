// The crDroid-family and PixelExperience-family answers, decoded by transcriptions of each
// updater's own parsing (test/helpers/format-clients.ts), must hold the catalog's builds of the
// lists each format publishes: every field the updater reads, equal.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { parseSite } from '../../src/catalog/site.js';
import { isWithdrawn } from '../../src/catalog/filename.js';
import type { Build } from '../../src/catalog/manifest.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith, FORMATS_YAML } from '../helpers/host-table.js';
import {
  crDroidOffers,
  decodeCrDroid,
  decodePixelExperience,
  pixelExperienceOffers,
} from '../helpers/format-clients.js';
import { outputFloor } from '../../src/hosts/limits.js';
import { changelogPath, formatFolder, formatPath } from '../../src/catalog/formats.js';
import { formatFiles } from '../../src/hosts/format-routes.js';
import { dialectAnswers, renderFormats } from '../../src/render/formats.js';

const content = readContent(EXAMPLE);
const compiled = compileWith(content, FORMATS_YAML);
const fileText = (path: string) => {
  const file = compiled.files.find((f) => f.path === path);
  return file === undefined ? undefined : String(file.contents);
};
const devices = [...new Set(compiled.listings.map((l) => l.device))];
/** The builds a family can offer from a listing: downloadable, not withdrawn, of a known size. */
const offerable = (device: string, list: string) =>
  compiled.listings
    .find((l) => l.device === device && l.list === list)!
    .builds.filter(
      (b) => !b.placeholder && b.url !== undefined && !isWithdrawn(b) && typeof b.size === 'number' && b.size > 0,
    )
    .sort((a, b) => b.timestamp - a.timestamp || (a.filename < b.filename ? -1 : 1));

describe('the crDroid-family answer', () => {
  it('builds without problems, and the v1 tree is the one without formats', () => {
    expect(compiled.problems).toEqual([]);
    const without = compileWith(content, '');
    for (const file of without.files.filter((f) => f.path.startsWith('api/v1/')))
      expect(fileText(file.path), file.path).toBe(String(file.contents));
  });

  it.each(devices.flatMap((d) => compiled.site!.lists.map((l) => ({ d, l: l.name }))))(
    '$d, list $l: what the updater decodes equals the catalog’s builds, newest first',
    ({ d, l }) => {
      const text = fileText(`api/crdroid/${l}/${d}.json`);
      expect(text, 'the file exists').toBeDefined();
      const decoded = decodeCrDroid(text!);
      expect(decoded, 'the updater decodes the answer').toBeDefined();
      const expected = offerable(d, l).filter((b) => /^[0-9a-f]{64}$/.test(b.id));
      expect(decoded!.updates).toEqual(
        expected.map((b: Build) => ({
          downloadId: b.id,
          name: b.filename,
          timestamp: b.timestamp,
          type: null,
          fileSize: b.size,
          downloadUrl: b.url,
          version: b.version,
          osPatchLevel: b.os_patch_level ?? null,
          osSdkLevel: b.api_level === '' ? null : Number(b.api_level),
        })),
      );
      // A phone on an old build is offered every one of them.
      for (const update of decoded!.updates) expect(crDroidOffers(update, { buildDate: 0 })).toBe(true);
    },
  );

  it('carries the device fields the updater shows, from device.yaml', () => {
    const decoded = decodeCrDroid(fileText('api/crdroid/official/FP4.json')!)!;
    expect(decoded.metadata).toEqual({
      maintainer: 'Jane Doe, Ravi Kumar',
      device: 'Fairphone 4',
      forum: 'https://forum.example.org/c/fp4',
      telegram: 'https://t.me/example_fp4',
      paypal: null,
    });
  });

  it('says which builds it leaves out, and why, once per reason and list', () => {
    const withdrawn = compiled.notices.filter(
      (n) => n.message.includes('api/crdroid/') && n.message.includes('.disabled.zip'),
    );
    expect(withdrawn.length).toBeGreaterThan(0);
    expect(withdrawn[0].message).toMatch(/^left out of \/api\/crdroid\/\w+\/FP4\.json \(the crDroid-family answer\)/);
  });
});

describe('the PixelExperience-family answer', () => {
  it.each(devices)('%s: the updater reads the newest build of the list, with the maintainers and links', (d) => {
    const text = fileText(`api/updater/${d}.json`);
    const newest = offerable(d, 'stable').find((b) => b.md5sum !== '');
    if (newest === undefined) return expect(text).toBeUndefined();
    const update = decodePixelExperience(text!);
    expect(update).toMatchObject({
      timestamp: newest.timestamp,
      name: newest.filename,
      downloadId: newest.id,
      fileSize: newest.size,
      downloadUrl: newest.url,
      version: newest.version,
      hash: newest.md5sum,
    });
    expect(
      pixelExperienceOffers(update!, { buildDate: newest.timestamp - 1, version: newest.version.toUpperCase() }),
    ).toBe(true);
    expect(pixelExperienceOffers(update!, { buildDate: newest.timestamp, version: newest.version })).toBe(false);
  });

  it('names the maintainers as the updater reads them (Gson: name, github_username on twelve, ci_username on thirteen)', () => {
    const update = decodePixelExperience(fileText('api/updater/FP4.json')!)!;
    expect(update.maintainers).toEqual([
      { name: 'Jane Doe', github_username: 'janedoe', ci_username: 'janedoe' },
      { name: 'Ravi Kumar' },
    ]);
    expect(update).toMatchObject({
      forumUrl: 'https://forum.example.org/c/fp4',
      websiteUrl: 'https://wiki.example.org/devices/FP4',
      donateUrl: '',
      newsUrl: '',
    });
  });
});

describe('formats in site.yaml', () => {
  const base = 'download_base_url: https://images.example.org/builds\n';
  const problemsOf = (yaml: string) =>
    parseSite(base + yaml).problems.map((p) => `${p.line}:${p.col} ${p.field} ${p.message}`);

  it('counts the crDroid-family files in the host limits: one per device and list it publishes', () => {
    const plain = parseSite(base).site!;
    const withFormats = parseSite(`${base}formats:\n  crdroid:\n  pixelexperience:\n`).site!;
    expect(outputFloor(withFormats, 1000).files - outputFloor(plain, 1000).files).toBe(1000 * 4);
    expect(parseSite(`${base}formats:\n`).site!.formats).toEqual([]);
  });

  it('takes the defaults: every list, each in its own folder', () => {
    expect(parseSite(`${base}formats:\n  crdroid:\n  pixelexperience: { lists: [stable] }\n`).site!.formats).toEqual([
      {
        family: 'crdroid',
        lists: ['stable', 'official', 'dev', 'community'],
        path: '/api/crdroid/{list}/{device}.json',
        at: { line: 3, col: 3 },
      },
      {
        family: 'pixelexperience',
        lists: ['stable'],
        path: '/api/pixelexperience/{device}.json',
        at: { line: 4, col: 3 },
      },
    ]);
  });

  it.each([
    // Where crDroid's OTA repository serves them, and PixelOS's (case matters: not /api/).
    ['/{device}.json', undefined],
    ['/API/updater/{device}.json', '/API/updater/'],
    ['/api/updater/{device}.json', '/api/updater/'],
    ['/ota/{device}/update.json', '/ota/'],
    ['/ota-{device}.json', undefined],
    ['/Devices/{device}.json', '/Devices/'],
    ['/api.json/{device}.json', '/api.json/'],
  ])('takes %s, in a folder of its own or at the root', (path, folder) => {
    const site = parseSite(`${base}formats:\n  crdroid:\n    lists: [stable]\n    path: ${path}\n`);
    expect(site.problems).toEqual([]);
    expect(site.site!.formats).toEqual([{ family: 'crdroid', lists: ['stable'], path, at: { line: 5, col: 11 } }]);
    expect(formatFolder(path)).toBe(folder);
  });

  it('takes {list} in a folder of its own or beside {device} at the root, for several lists', () => {
    const site = parseSite(
      `${base}formats:\n  crdroid:\n    path: /ota/{list}/{device}.json\n  pixelexperience:\n    path: /{list}-{device}.json\n`,
    );
    expect(site.problems).toEqual([]);
    expect(site.site!.formats.map((f) => f.path)).toEqual(['/ota/{list}/{device}.json', '/{list}-{device}.json']);
  });

  // RisingOS's phones ask OTA/device/GAPPS/{device}.json and OTA/device/VANILLA/{device}.json
  // (RisingOS-Revived/official_devices, branch fifteen): one folder per variant, in capitals.
  it('takes {LIST}, the list in capitals, in a folder of its own, and writes each list at its own path', () => {
    const site = parseSite(
      `${base}formats:\n  crdroid-java:\n    lists: [stable, dev]\n    path: /OTA/device/{LIST}/{device}.json\n    changelog: /OTA/changelogs/{LIST}/{device}.txt\n  md5-six:\n    lists: [stable, dev]\n    path: /{LIST}-{device}.json\n`,
    );
    expect(site.problems).toEqual([]);
    const [folders, root] = site.site!.formats;
    expect(formatFolder(folders.path)).toBe('/OTA/device/');
    expect(folders.lists.map((list) => formatPath(folders, 'akita', list))).toEqual([
      '/OTA/device/STABLE/akita.json',
      '/OTA/device/DEV/akita.json',
    ]);
    expect(changelogPath(folders, 'akita', 'dev')).toBe('/OTA/changelogs/DEV/akita.txt');
    expect(formatPath(root, 'akita', 'stable')).toBe('/STABLE-akita.json');
  });

  it('refuses a {LIST} folder beside a fixed folder of the same name: the STABLE files would overwrite them', () => {
    expect(
      problemsOf(
        `formats:\n  crdroid-java:\n    lists: [stable]\n    path: /OTA/STABLE/{device}.json\n  md5-six:\n    lists: [stable, dev]\n    path: /OTA/{LIST}/{device}.json\n`,
      ),
    ).toEqual([
      '8:11 formats.md5-six.path /OTA/STABLE/{device}.json is also the file of crdroid-java, list stable; give each format and list its own path',
    ]);
  });

  const one = (path: string) => `formats:\n  crdroid:\n    lists: [stable]\n    path: ${path}\n`;
  it.each([
    [
      '/{device}.txt',
      "a format's path ends in .json, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json: every host sends the JSON content type by the name",
    ],
    [
      'ota/{device}.json',
      "a format's path starts with /, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json",
    ],
    [
      '/ota/{codename}.json',
      "unknown placeholder {codename}; use {device}, and {list} or {LIST} (the list's name in capitals)",
    ],
    [
      '/ota/{List}/{device}.json',
      "unknown placeholder {List}; use {device}, and {list} or {LIST} (the list's name in capitals)",
    ],
    ['/ota/{list}/{LIST}-{device}.json', "a format's path has {list} or {LIST} at most once"],
    [
      '/{LIST}/{device}.json',
      "a format's file lies directly at the root (/{device}.json) or in a folder of its own whose name has no placeholder (/ota/{list}/{device}.json), not in a folder named after a device or list",
    ],
    [
      '/{LIST}_{device}.json',
      'at the root, a placeholder is followed by `.`, `-` or `~` (Cloudflare Pages reads letters, digits and `_` after it as part of its name), e.g. /{device}.json or /{list}-{device}.json',
    ],
    [
      '/ota/{device}$x.json',
      '`$` cannot be part of a path; use letters, digits, `.`, `_`, `~`, `-` and `/` besides {device} and {list}',
    ],
    [
      '"/ota/{device} .json"',
      '` ` cannot be part of a path; use letters, digits, `.`, `_`, `~`, `-` and `/` besides {device} and {list}',
    ],
    ['/ota//{device}.json', 'a path has no empty, `.` or `..` segments'],
    ['/ota/../{device}.json', 'a path has no empty, `.` or `..` segments'],
    ['/ota/{device}/{device}.json', "a format's path has {device} exactly once"],
    ['/ota/update.json', "a format's path has {device} exactly once"],
    [
      '/_ota/{device}.json',
      "`_ota` starts with `_`: such names are the hosts' own (_headers, _redirects, dotfiles); pick a name that starts with a letter or digit",
    ],
    [
      '/.well-known/{device}.json',
      "`.well-known` starts with `.`: such names are the hosts' own (_headers, _redirects, dotfiles); pick a name that starts with a letter or digit",
    ],
    [
      '/_{device}.json',
      "`_{device}.json` starts with `_`: such names are the hosts' own (_headers, _redirects, dotfiles); pick a name that starts with a letter or digit",
    ],
    [
      '/{device}/update.json',
      "a format's file lies directly at the root (/{device}.json) or in a folder of its own whose name has no placeholder (/ota/{list}/{device}.json), not in a folder named after a device or list",
    ],
    [
      '/{device}_ota.json',
      'at the root, a placeholder is followed by `.`, `-` or `~` (Cloudflare Pages reads letters, digits and `_` after it as part of its name), e.g. /{device}.json or /{list}-{device}.json',
    ],
    [
      '/api/{device}.json',
      "a format's file lives in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json: the files directly in /api/ are otapress's own",
    ],
    [
      '/api/v2/x/{device}.json',
      '/api/v2/ holds the LineageOS and /e/ answers; put the format in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json',
    ],
    [
      '/api/devices.json/{device}.json',
      'otapress writes /api/devices.json itself; put the format in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json',
    ],
    [
      '/api/format-misses/{device}.json',
      'otapress writes /api/format-misses itself; put the format in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json',
    ],
    [
      '/devices/{device}.json',
      "otapress writes /devices/ itself (the site's pages and answers); put the format in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json",
    ],
    [
      `/${'a'.repeat(95)}/{device}.json`,
      "a format's path has at most 100 characters (this one has 110): Cloudflare Pages takes no longer rule for its folder",
    ],
    [
      '/404.html/{device}.json',
      "otapress writes /404.html itself (the site's pages and answers); put the format in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json",
    ],
  ])('refuses the path %s, saying what to do', (path, message) => {
    expect(problemsOf(one(path))).toEqual([`5:11 formats.crdroid.path ${message}`]);
  });

  it.each([
    [
      '/ota/{device}.json',
      '/ota/pe-{device}.json',
      '/ota/pe-{device}.json can name the same file or folder as /ota/{device}.json (crdroid, list stable) for some device; make them differ by a fixed part, e.g. a folder of each its own',
    ],
    [
      '/{device}.json',
      '/x.json/{device}.json',
      '/x.json/{device}.json can name the same file or folder as /{device}.json (crdroid, list stable) for some device; make them differ by a fixed part, e.g. a folder of each its own',
    ],
    [
      '/API/updater/{device}.json',
      '/API/updater/{device}.json',
      '/API/updater/{device}.json is also the file of crdroid, list stable; give each format and list its own path',
    ],
  ])('refuses two formats whose files can meet: %s and %s', (first, second, message) => {
    expect(
      problemsOf(
        `formats:\n  crdroid:\n    lists: [stable]\n    path: ${first}\n  pixelexperience:\n    lists: [stable]\n    path: ${second}\n`,
      ),
    ).toEqual([`8:11 formats.pixelexperience.path ${message}`]);
  });

  it('takes the same name in another case as another folder: /API/updater/ is not /api/updater/', () => {
    expect(
      problemsOf(
        `formats:\n  crdroid:\n    lists: [stable]\n    path: /api/updater/{device}.json\n  pixelexperience:\n    lists: [stable]\n    path: /API/updater/{device}.json\n`,
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'formats:\n  lineage: {}\n',
      '3:3 formats.lineage unknown updater dialect; otapress writes the formats of crdroid, pixelexperience, ' +
        'crdroid-java, md5-six, lineage-v1, pixelos15, pixelos-feed, grapheneos and aospa ' +
        '(besides the /e/ and LineageOS answers, which every site has)',
    ],
    [
      'formats:\n  crdroid: { lists: [nightly] }\n',
      '3:22 formats.crdroid.lists.0 `nightly` is not a list of this site (lists: stable, official, dev, community); add it to `lists` or name one of those',
    ],
    [
      'formats:\n  crdroid:\n    path: /api/crdroid/{device}.json\n',
      '4:11 formats.crdroid.path the format publishes several lists, and each needs its own file: put {list} (or {LIST}, the name in capitals) in the path, e.g. /api/crdroid/{list}/{device}.json, /OTA/device/{LIST}/{device}.json or /{list}-{device}.json',
    ],
    [
      'formats:\n  crdroid:\n    lists: [stable]\n    path: /api/v1/{device}.json\n',
      expect.stringMatching(/^5:11 formats\.crdroid\.path \/api\/v1\/ holds the LineageOS and \/e\/ answers/),
    ],
    [
      'formats:\n  crdroid:\n    lists: [stable]\n    path: /api/x/{device}.json\n  pixelexperience:\n    lists: [stable]\n    path: /api/x/{device}.json\n',
      '8:11 formats.pixelexperience.path /api/x/{device}.json is also the file of crdroid, list stable; give each format and list its own path',
    ],
  ])('refuses %j', (yaml, expected) => {
    expect(problemsOf(yaml)).toEqual([expected]);
  });
});

describe('aospa: one file for every list', () => {
  const oneFile = compileWith(
    content,
    '\nformats:\n  aospa:\n    path: /aospa/updates/{device}\n    buildtype: { stable: Stable, dev: Beta }\n',
  );
  it('is one route and one answer of the device page, naming every list', () => {
    expect(oneFile.problems).toEqual([]);
    const lists = oneFile.site!.lists.map((l) => l.name);
    expect(formatFiles(oneFile.site!)).toEqual([
      {
        name: `aospa format, lists ${lists.join(', ')}`,
        path: '/aospa/updates/:device',
        list: lists[0],
        folder: '/aospa/updates/',
      },
    ]);
    const device = oneFile.listings.find((l) => l.builds.length > 0)!.device;
    const written = oneFile.files.filter((f) => f.path.startsWith(`aospa/updates/${device}`));
    expect(written.map((f) => f.path)).toEqual([`aospa/updates/${device}`]);
    const { files } = renderFormats(
      device,
      oneFile.listings.filter((l) => l.device === device),
      oneFile.site!,
      {
        maintainers: [],
        links: {},
      } as never,
    );
    expect(dialectAnswers(device, oneFile.site!, files)).toEqual([
      { title: 'AOSPA hub', list: lists.join(', '), path: `/aospa/updates/${device}` },
    ]);
  });
});
