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
import { crDroidOffers, decodeCrDroid, decodePixelExperience, pixelExperienceOffers } from '../helpers/format-clients.js';
import { outputFloor } from '../../src/hosts/limits.js';

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
    .builds.filter((b) => !b.placeholder && b.url !== undefined && !isWithdrawn(b) && typeof b.size === 'number' && b.size > 0)
    .sort((a, b) => b.timestamp - a.timestamp || (a.filename < b.filename ? -1 : 1));

describe('the crDroid-family answer', () => {
  it('builds without problems, and the v1 tree is the one without formats', () => {
    expect(compiled.problems).toEqual([]);
    const without = compileWith(content, '');
    for (const file of without.files.filter((f) => f.path.startsWith('api/v1/'))) expect(fileText(file.path), file.path).toBe(String(file.contents));
  });

  it.each(devices.flatMap((d) => compiled.site!.lists.map((l) => ({ d, l: l.name }))))('$d, list $l: what the updater decodes equals the catalog’s builds, newest first', ({ d, l }) => {
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
  });

  it('carries the device fields the updater shows, from device.yaml', () => {
    const decoded = decodeCrDroid(fileText('api/crdroid/official/FP4.json')!)!;
    expect(decoded.metadata).toEqual({ maintainer: 'Jane Doe, Ravi Kumar', device: 'Fairphone 4', forum: 'https://forum.example.org/c/fp4', telegram: 'https://t.me/example_fp4', paypal: null });
  });

  it('says which builds it leaves out, and why, once per reason and list', () => {
    const withdrawn = compiled.notices.filter((n) => n.message.includes('api/crdroid/') && n.message.includes('.disabled.zip'));
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
    expect(update).toMatchObject({ timestamp: newest.timestamp, name: newest.filename, downloadId: newest.id, fileSize: newest.size, downloadUrl: newest.url, version: newest.version, hash: newest.md5sum });
    expect(pixelExperienceOffers(update!, { buildDate: newest.timestamp - 1, version: newest.version.toUpperCase() })).toBe(true);
    expect(pixelExperienceOffers(update!, { buildDate: newest.timestamp, version: newest.version })).toBe(false);
  });

  it('names the maintainers as the updater reads them (Gson: name, github_username)', () => {
    const update = decodePixelExperience(fileText('api/updater/FP4.json')!)!;
    expect(update.maintainers).toEqual([{ name: 'Jane Doe', github_username: 'janedoe' }, { name: 'Ravi Kumar' }]);
    expect(update).toMatchObject({ forumUrl: 'https://forum.example.org/c/fp4', websiteUrl: 'https://wiki.example.org/devices/FP4', donateUrl: '', newsUrl: '' });
  });
});

describe('formats in site.yaml', () => {
  const base = 'download_base_url: https://images.example.org/builds\n';
  const problemsOf = (yaml: string) => parseSite(base + yaml).problems.map((p) => `${p.line}:${p.col} ${p.field} ${p.message}`);

  it('counts the crDroid-family files in the host limits: one per device and list it publishes', () => {
    const plain = parseSite(base).site!;
    const withFormats = parseSite(`${base}formats:\n  crdroid:\n  pixelexperience:\n`).site!;
    expect(outputFloor(withFormats, 1000).files - outputFloor(plain, 1000).files).toBe(1000 * 4);
    expect(parseSite(`${base}formats:\n`).site!.formats).toEqual([]);
  });

  it('takes the defaults: every list, each in its own folder', () => {
    expect(parseSite(`${base}formats:\n  crdroid:\n  pixelexperience: { lists: [stable] }\n`).site!.formats).toEqual([
      { family: 'crdroid', lists: ['stable', 'official', 'dev', 'community'], path: '/api/crdroid/{list}/{device}.json' },
      { family: 'pixelexperience', lists: ['stable'], path: '/api/pixelexperience/{device}.json' },
    ]);
  });

  it.each([
    ['formats:\n  lineage: {}\n', '3:3 formats.lineage unknown updater family; otapress writes the formats of crdroid and pixelexperience (besides the /e/ and LineageOS answers, which every site has)'],
    ['formats:\n  crdroid: { lists: [nightly] }\n', '3:22 formats.crdroid.lists.0 `nightly` is not a list of this site (lists: stable, official, dev, community); add it to `lists` or name one of those'],
    ['formats:\n  crdroid:\n    path: /api/crdroid/{device}.json\n', '4:11 formats.crdroid.path the format publishes several lists, and each needs its own file: put {list} in the path, e.g. /api/crdroid/{list}/{device}.json'],
    ['formats:\n  crdroid:\n    lists: [stable]\n    path: /{device}.json\n', expect.stringMatching(/^5:11 formats\.crdroid\.path a format's path starts with \/api\//)],
    ['formats:\n  crdroid:\n    lists: [stable]\n    path: /api/v1/{device}.json\n', expect.stringMatching(/^5:11 formats\.crdroid\.path \/api\/v1\/ holds the LineageOS and \/e\/ answers/)],
    ['formats:\n  crdroid:\n    lists: [stable]\n    path: /api/x/{device}.json\n  pixelexperience:\n    lists: [stable]\n    path: /api/x/{device}.json\n', '8:11 formats.pixelexperience.path /api/x/{device}.json is also the file of crdroid, list stable; give each format and list its own path'],
  ])('refuses %j', (yaml, expected) => {
    expect(problemsOf(yaml)).toEqual([expected]);
  });
});
