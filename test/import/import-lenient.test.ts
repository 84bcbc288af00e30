import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { planImport } from '../../src/import/plan-import.js';

// `import` of a listing that is not strict JSON: read as the phones of its shape read it (the
// strictest of them when they differ), with one note naming each leniency at its line and column,
// or refused at the line and column where that phone's parser fails too. The files are real
// listings of test/fixtures/real-listings/ (see its README) broken as hand-kept files are.

const FIXTURES = new URL('../fixtures/real-listings/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const { site } = parseSite('download_base_url: https://dl.example.org/builds\nchannels: [stable, unofficial]\n');

function plan(text: string | Uint8Array, device: string) {
  const result = planImport({ text, sourceName: 'listing.json', device, list: 'stable', site: site!, existing: [] });
  return {
    problems: result.problems.map(formatProblem),
    notes: result.notes.filter((n) => n.field === '(file)').map(formatProblem),
    writes: result.writes.length,
  };
}

const pixelOs = fixture('pixelos-G.json');
const crDroid = fixture('crdroid-akita.json');
const lineage = fixture('razuuu-starlte.json');
const PE_READER = "PixelExperience's updater and its forks (PixelOS up to 14, Project Elixir)";
const CRDROID_KOTLIN = "crDroid's Kotlin updater (crDroid 11 and later)";
const CRDROID_JAVA =
  "crDroid's Java updater (crDroid 7 to 10) and its forks (Evolution X, AlphaDroid, CherishOS, Matrixx, Infinity-X, VoltageOS)";

describe('a listing its phones read although it is not strict JSON', () => {
  it('imports an unquoted version as the text the phone reads, and says where', () => {
    const got = plan(pixelOs.replace('"version": "fourteen"', '"version": fourteen'), 'G');
    expect(got.problems).toEqual([]);
    expect(got.notes).toEqual([
      `listing.json:3:16  (file)  not strict JSON; read as ${PE_READER} reads it (org.json): 3:16 an unquoted value \`fourteen\`, which the phone reads as the text "fourteen". The build publishes strict JSON`,
    ]);
    expect(got.writes).toBeGreaterThan(0);
  });

  it('names every leniency of a hand-kept file: a byte order mark, comments, single quotes, `=>`', () => {
    const text = pixelOs
      .replace('{', '{\n    /* kept by hand */')
      .replace('"news_url": "https://blog.pixelos.net/"', "'news_url' => 'https://blog.pixelos.net/'");
    const got = plan(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'G');
    expect(got.problems).toEqual([]);
    expect(got.notes).toEqual([
      `listing.json:1:1  (file)  not strict JSON; read as ${PE_READER} reads it (org.json): ` +
        "1:1 a byte order mark (U+FEFF) before the JSON, which the phone's parser drops; " +
        "2:5 a comment `/* kept by hand */`, which the phone's parser skips; " +
        "21:5 a string in single quotes, which the phone's parser reads as text; " +
        "21:16 `=>` after the key `news_url`, which the phone's parser reads as `:`; " +
        "21:19 a string in single quotes, which the phone's parser reads as text. The build publishes strict JSON",
    ]);
  });

  it('still locates every later problem at its line and column in the lenient text', () => {
    const text = pixelOs
      .replace('"version": "fourteen"', '"version": fourteen')
      .replace(/"url": "[^"]*"/, "'url': 'ftp://x'");
    const got = plan(text, 'G');
    expect(got.problems).toEqual([
      'listing.json:7:12  url  record 0: expected an absolute http(s) download address without spaces',
    ]);
  });

  it('reads a v1 listing as its strictest published reader does: a control character in a string', () => {
    const text = lineage.replace('"romtype"', '"note": "built\tby hand",\n      "romtype"');
    const tab =
      '7:21 a control character U+0009 inside a string, which the phone keeps as it is. The build publishes strict JSON';
    expect(plan(text, 'starlte')).toMatchObject({
      problems: [],
      notes: [
        `listing.json:7:21  (file)  not strict JSON; read as LineageOS's updater and the Java updaters that read its listing (/e/OS, PixelOS 15, ...) reads it (org.json): ${tab}`,
      ],
    });
    // With DerpFest's static v1 file published too, its kotlinx reader is the strictest one.
    const derpFest = parseSite(
      'download_base_url: https://dl.example.org/builds\nchannels: [stable]\nformats: { lineage-v1: {} }\n',
    ).site!;
    const withDerpFest = planImport({
      text,
      sourceName: 'listing.json',
      device: 'starlte',
      list: 'stable',
      site: derpFest,
      existing: [],
    });
    expect(withDerpFest.notes.filter((n) => n.field === '(file)').map(formatProblem)).toEqual([
      `listing.json:7:21  (file)  not strict JSON; read as DerpFest's updater reads it (kotlinx.serialization, the strictest reader of a v1 listing): ${tab}`,
    ]);
  });

  it('says where the other readers of the shape read a value otherwise (a leading zero: octal for org.json)', () => {
    const got = plan(crDroid.replace('"size": 1681167996', '"size": 0100'), 'akita');
    expect(got.notes).toEqual([
      `listing.json:12:12  (file)  not strict JSON; read as ${CRDROID_KOTLIN} reads it (kotlinx.serialization, the strictest reader of a crDroid-family device file): 12:12 the number \`0100\`, which the phone reads as 100; ${CRDROID_JAVA} reads response.0.size at 12:12 otherwise (64); the import takes the stricter reading. The build publishes strict JSON`,
    ]);
  });
});

describe('a listing its phones fail on: refused where their parser fails', () => {
  it.each([
    {
      what: 'an unquoted version in a crDroid file, which the Kotlin updater refuses and the Java ones read',
      text: crDroid.replace('"version": "10.8"', '"version": 10.8.1'),
      device: 'akita',
      problem: `listing.json:13:15  (file)  not strict JSON, and ${CRDROID_KOTLIN} fails here too: an unquoted value \`10.8.1\` where the phone reads text: kotlinx needs it in double quotes; so its phones get nothing from this file: correct it and import again (${CRDROID_JAVA} read it, but the import goes by the strictest reader of a crDroid-family device file, so that every phone reads what it publishes)`,
    },
    {
      what: 'a comment in a crDroid file',
      text: crDroid.replace('"response": [', '"response": [ /* weekly */'),
      device: 'akita',
      problem: `listing.json:2:16  (file)  not strict JSON, and ${CRDROID_KOTLIN} fails here too: a comment, which kotlinx does not read, where a value should be; so its phones get nothing from this file: correct it and import again (${CRDROID_JAVA} read it, but the import goes by the strictest reader of a crDroid-family device file, so that every phone reads what it publishes)`,
    },
    {
      what: '`"timestamp": ,`',
      text: crDroid.replace('"timestamp": 1727965804', '"timestamp": '),
      device: 'akita',
      problem:
        'listing.json:9:17  (file)  not JSON that any updater reads: no value here (`,` where the value should start): write the value, or remove the key; org.json, the most lenient parser phones use, fails here too, so phones get nothing from this file: correct it and import again',
    },
    {
      what: 'a missing comma (ShapeShiftOS/Updater-stuff laurel_sprout.json)',
      text: fixture('shapeshiftos-laurel_sprout-invalid.json'),
      device: 'laurel_sprout',
      problem:
        'listing.json:7:4  (file)  not JSON that any updater reads: `"` where `,` or `}` should follow the value of `size` (a comma missing?); org.json, the most lenient parser phones use, fails here too, so phones get nothing from this file: correct it and import again',
    },
    {
      what: 'a `//` comment, which runs to the end of the file once the Java updater joins its lines',
      text: pixelOs.replace('{', '{\n    // kept by hand'),
      device: 'G',
      problem: `listing.json:23:2  (file)  not strict JSON, and ${PE_READER} fails here too: the file ends where a key should be: the comment at 2:5 runs to the end of the file, because the phone reads the file's lines joined into one; remove it or write it as /* ... */; so its phones get nothing from this file: correct it and import again`,
    },
  ])('$what', ({ text, device, problem }) => {
    const got = plan(text, device);
    expect(got.problems).toEqual([problem]);
    expect(got.writes).toBe(0);
  });
});

it('reads strict JSON as before: a byte order mark alone is no leniency to note', () => {
  const got = plan(`\ufeff${pixelOs}`, 'G');
  expect(got).toEqual({ problems: [], notes: [], writes: plan(pixelOs, 'G').writes });
});

describe('a listing read by the readers of the file the site publishes in that shape', () => {
  const unquoted = crDroid.replace('"version": "10.8"', '"version": 10.8.1');
  const withFormats = (formats: string) =>
    parseSite(`download_base_url: https://dl.example.org/builds\nchannels: [stable]\nformats: ${formats}\n`).site!;
  const planFor = (formats: string) =>
    planImport({
      text: unquoted,
      sourceName: 'listing.json',
      device: 'akita',
      list: 'stable',
      site: withFormats(formats),
      existing: [],
    });

  it('imports for a site that writes the crDroid-family file only for the Java updaters, which read it', () => {
    const result = planFor('{ crdroid-java: {} }');
    expect(result.problems.map(formatProblem)).toEqual([]);
    expect(result.writes.length).toBeGreaterThan(0);
    const note = result.notes.filter((n) => n.field === '(file)').map(formatProblem);
    expect(note).toEqual([expect.stringContaining(`read as ${CRDROID_JAVA} reads it`)]);
    expect(note[0]).toContain('13:15');
  });

  it("refuses it for a site that also writes crDroid's Kotlin file, whose phones fail on it", () => {
    const result = planFor('{ crdroid-java: {}, crdroid: {} }');
    expect(result.problems.map(formatProblem)).toEqual([
      expect.stringContaining(`and ${CRDROID_KOTLIN} fails here too`),
    ]);
    expect(result.writes).toEqual([]);
  });
});
