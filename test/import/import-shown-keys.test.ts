// The keys the phones of each dialect show, kept by import: real files of crDroid 13.0 and 14.0,
// Evolution X udc and vic, and PixelOS thirteen (PixelExperience's object) planned into manifests
// and device.yaml, built in memory, and read back by the updater's own reading code
// (test/helpers/dialects/): every key it reads comes back as the source had it. crDroid's links
// (gapps, firmware, modem, bootloader, recovery) are per build; the maintainers, Evolution X's
// `github` and PixelExperience's `news_url` go to device.yaml; what no updater reads is named once,
// as left out. The source's `buildtype` is the list's, and comes back through the format's `buildtype:`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/catalog/formats.js';
import { parseSite } from '../../src/catalog/site.js';
import { planImport, type ImportPlan } from '../../src/import/plan-import.js';
import { decodeJavaResponse, decodePixelExperienceUpdate, javaResponseReaders } from '../helpers/dialects/index.js';
import { ROOT } from '../helpers/helpers.js';
import { compileFiles } from '../helpers/memory-catalog.js';

const listing = (file: string) => readFileSync(path.join(ROOT, 'test/fixtures/dialect-listings', file), 'utf8');

/** The source imported into `list` of a site that publishes `format` (site.yaml's lines for it), then built. */
function importAndBuild(text: string, device: string, list: string, format: string) {
  const channels = [...new Set(['official', list])].join(', ');
  const siteText =
    `download_base_url: https://dl.example.org/builds\nchannels: [${channels}]\nlists:\n  ${list}: [${channels}]\n` +
    `formats:\n${format}`;
  const site = parseSite(siteText).site!;
  const plan = planImport({ text, sourceName: 'source.json', device, list, site, existing: [] });
  expect(plan.problems).toEqual([]);
  const files = Object.fromEntries([['content/site.yaml', siteText], ...plan.writes.map((w) => [w.file, w.text])]);
  const compiled = compileFiles(files);
  expect(compiled.problems).toEqual([]);
  const at = formatPath(compiled.site!.formats[0], device, list);
  const built = compiled.files.find((f) => `/${f.path}` === at)?.contents;
  return { plan, files, built: String(built) };
}

const JAVA: [string, string, string, keyof typeof javaResponseReaders][] = [
  ['crdroid-14.0-Pong.json', 'Pong', 'Monthly', 'crdroid'],
  ['crdroid-13.0-Mi439.json', 'Mi439', 'Weekly', 'crdroid'],
  ['evolutionx-udc-Pong.json', 'Pong', 'Release', 'evolutionxUdc'],
  ['evolutionx-vic-bangkk.json', 'bangkk', 'userdebug', 'evolutionxVic'],
];

describe.each(JAVA)('%s, imported and built as crdroid-java', (file, device, buildtype, reader) => {
  const list = buildtype.toLowerCase();
  const { plan, files, built } = importAndBuild(
    listing(file),
    device,
    list,
    `  crdroid-java: { lists: [${list}], buildtype: ${buildtype} }\n`,
  );

  it(`reads back, with ${javaResponseReaders[reader].name}, every key the source shows`, () => {
    const source = decodeJavaResponse(listing(file), javaResponseReaders[reader])!;
    expect(source).toHaveLength(1);
    expect(decodeJavaResponse(built, javaResponseReaders[reader])).toEqual(source);
  });

  it("keeps crDroid's build links in the build's manifest", () => {
    const record = (JSON.parse(listing(file)) as { response: Record<string, unknown>[] }).response[0]!;
    const manifest = parse(files[plan.writes.find((w) => !w.file.endsWith('/device.yaml'))!.file]!) as Record<
      string,
      unknown
    >;
    for (const key of ['gapps', 'firmware', 'modem', 'bootloader', 'recovery'])
      expect(manifest[key], key).toBe(record[key] === '' ? undefined : record[key]);
  });
});

describe('Evolution X: the device keys', () => {
  it('udc: the maintainer with their GitHub page (`github`) in device.yaml', () => {
    const { plan, files } = importAndBuild(
      listing('evolutionx-udc-Pong.json'),
      'Pong',
      'release',
      '  crdroid-java: { lists: [release] }\n',
    );
    expect(parse(files['content/Pong/device.yaml']!)).toMatchObject({
      maintainers: [{ name: 'AgBKartikey', url: 'https://github.com/AgBKartikey' }],
    });
    expect(plan.device?.kept).toContain('github → maintainers.url');
  });

  it('vic: what no updater reads is left out, named once with who reads it', () => {
    const { plan } = importAndBuild(
      listing('evolutionx-vic-bangkk.json'),
      'bangkk',
      'official',
      '  crdroid-java: { lists: [official] }\n',
    );
    expect((plan.device as NonNullable<ImportPlan['device']>).leftOut).toEqual([
      "currently_maintained (no updater reads it; Evolution X's website shows it)",
      'extra_images (no updater reads it)',
      "initial_installation_images (no updater reads it; Evolution X's website lists the images to flash first)",
    ]);
  });
});

describe('PixelOS thirteen (the PixelExperience object)', () => {
  const source = listing('pixelos-thirteen-sweet-pixelexperience.json');
  const format = '  pixelexperience: { lists: [official] }\n';

  // The file's own phones run PixelOS's fork; PixelExperience twelve reads the same keys.
  it.each(['pixelos-thirteen', 'twelve'] as const)(
    'reads back on %s: news_url, every link and maintainer',
    (branch) => {
      const { built } = importAndBuild(source, 'sweet', 'official', format);
      const original = decodePixelExperienceUpdate(source, branch)!;
      expect(original.newsUrl).toBe('https://blog.pixelos.net/');
      expect(decodePixelExperienceUpdate(built, branch)).toEqual(original);
    },
  );

  it("gives PixelExperience thirteen the maintainer's user name the original left null (it reads ci_username)", () => {
    const { built } = importAndBuild(source, 'sweet', 'official', format);
    const original = decodePixelExperienceUpdate(source, 'thirteen')!;
    expect(original.maintainers).toEqual([{ name: 'Aryan', username: null }]);
    expect(decodePixelExperienceUpdate(built, 'thirteen')).toEqual({
      ...original,
      maintainers: [{ name: 'Aryan', username: 'basamaryan' }],
    });
  });

  it('keeps every maintainer of the list, each checked alone', () => {
    const object = JSON.parse(source) as Record<string, unknown>;
    object.maintainers = [
      { name: 'Aryan', github_username: 'basamaryan', main_maintainer: true },
      { name: 'Jane Doe' },
      { name: 'Ravi', github_username: 'not a user' },
      { github_username: 'nobody' },
      { name: 'Bidi\u202e' },
    ];
    const { plan, files, built } = importAndBuild(JSON.stringify(object), 'sweet', 'official', format);
    expect(parse(files['content/sweet/device.yaml']!).maintainers).toEqual([
      { name: 'Aryan', url: 'https://github.com/basamaryan' },
      { name: 'Jane Doe' },
      { name: 'Ravi' },
    ]);
    expect(plan.device!.kept).toContain('maintainers → maintainers (3)');
    expect(plan.device!.leftOut).toEqual([
      'donate_url (empty)',
      'github_releases_url (no updater reads it)',
      'maintainers.2.github_username (not a GitHub user name)',
      'maintainers.3 (no name)',
      expect.stringMatching(/^maintainers\.4 \(holds U\+202E RIGHT-TO-LEFT OVERRIDE/),
    ]);
    expect(decodePixelExperienceUpdate(built, 'twelve')!.maintainers).toEqual([
      { name: 'Aryan', username: 'basamaryan' },
      { name: 'Jane Doe', username: null },
      { name: 'Ravi', username: null },
    ]);
  });
});

describe('a placeholder record with a build link', () => {
  it('keeps no link (it has no build) and names the key as left out', () => {
    const placeholder = {
      datetime: 1731067200,
      filename: '',
      id: '',
      romtype: 'official',
      size: '',
      version: '2.5',
      display_version: '2.5-coming',
      firmware: 'https://firmware.example.org/FP4.zip',
    };
    const siteText =
      'download_base_url: https://dl.example.org/builds\nchannels: [official]\nlists:\n  official: [official]\n';
    const plan = planImport({
      text: JSON.stringify({ response: [placeholder] }),
      sourceName: 'source.json',
      device: 'FP4',
      list: 'official',
      site: parseSite(siteText).site!,
      existing: [],
    });
    expect(plan.problems).toEqual([]);
    expect(plan.writes.map((w) => parse(w.text).firmware)).toEqual([undefined]);
    expect(plan.notes.map((n) => `${n.field} ${n.message}`)).toContain(
      'response.0.firmware record 0: `firmware` is not a field of the v1 interface; it is left out',
    );
  });
});

describe('a build link the manifest cannot hold', () => {
  it('is left out of the manifest with a note at its key, and the build is imported', () => {
    const object = JSON.parse(listing('crdroid-14.0-Pong.json')) as { response: Record<string, unknown>[] };
    object.response[0]!.recovery = 'see the forum';
    object.response[0]!.modem = 42;
    const { plan, files } = importAndBuild(JSON.stringify(object), 'Pong', 'monthly', '  crdroid-java: {}\n');
    const notes = plan.notes.map((n) => `${n.field} ${n.message}`);
    expect(notes).toContain(
      'response.0.recovery record 0: `recovery` is "see the forum", not an http(s) address the build can publish; it is left out',
    );
    expect(notes).toContain(
      'response.0.modem record 0: `modem` is 42, not an http(s) address the build can publish; it is left out',
    );
    const manifest = parse(files[plan.writes.find((w) => !w.file.endsWith('/device.yaml'))!.file]!);
    expect(manifest).toMatchObject({ gapps: 'https://nikgapps.com/crdroid-official' });
    expect(manifest.recovery).toBeUndefined();
  });
});
