import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderManifestText } from '../../src/catalog/manifest-text.js';
import { DIRECTION_CONTROLS, directionControlProblem, textProblem } from '../../src/catalog/published-text.js';
import { parseManifest } from '../../src/catalog/manifest.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';

describe('renderManifestText', () => {
  it('writes the schema line, comments, then the fields in the canonical order', () => {
    expect(
      renderManifestText(
        {
          lists: ['official'],
          size: 12,
          filename: 'e.zip',
          placeholder: undefined,
          version: '2.5',
          is_upgrade_supported: true,
        },
        ['Needs a clean install.'],
      ),
    ).toBe(
      '# yaml-language-server: $schema=../manifest.schema.json\n# Needs a clean install.\nfilename: e.zip\nversion: "2.5"\nsize: 12\nis_upgrade_supported: true\nlists: [official]\n',
    );
  });

  it.each([
    ['plain text', 'e-2.5-a14-20241108446322-official-FP4.zip', 'e-2.5-a14-20241108446322-official-FP4.zip'],
    ['a url', 'https://example.org/a/b.zip', 'https://example.org/a/b.zip'],
    ['an md5sum that YAML reads as a number', '12345678901234567890123456789012', '"12345678901234567890123456789012"'],
    ['an md5sum in exponent form', '1e100000000000000000000000000000', '"1e100000000000000000000000000000"'],
    ['a word YAML reads as a boolean', 'true', '"true"'],
    ['a word YAML reads as null', 'null', '"null"'],
    ['empty text', '', '""'],
    ['text with a comment sign and a colon', 'fixes: camera # and more', '"fixes: camera # and more"'],
    ['text over two lines', 'line one\nline two', '"line one\\nline two"'],
  ])('writes %s so YAML reads it back unchanged', (_, value, written) => {
    const text = renderManifestText({ changes: value });
    expect(text.split('\n')[1]).toBe(`changes: ${written}`);
    expect(parse(text)).toEqual({ changes: value });
  });

  it('always quotes the fields hand-written manifests quote', () => {
    expect(
      renderManifestText({
        version: '2.10',
        android_version: '14',
        api_level: '34',
        incremental: '1731067200',
        os_patch_level: '2024-11-05',
      }),
    ).toBe(
      '# yaml-language-server: $schema=../manifest.schema.json\nversion: "2.10"\nandroid_version: "14"\napi_level: "34"\nincremental: "1731067200"\nos_patch_level: "2024-11-05"\n',
    );
  });
});

describe('directionControlProblem', () => {
  it.each(Object.entries(DIRECTION_CONTROLS))('names U+%s and where it is', (ch, name) => {
    const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    expect(directionControlProblem(`2.5${ch}-official`)).toBe(
      `holds U+${code} ${name} (character 4): an invisible direction control makes the text display in another order than it is written, so a name can pass for another; remove it`,
    );
  });

  it('accepts right-to-left text without controls, and every other character', () => {
    expect(directionControlProblem('תיקוני מצלמה – إصلاحات الكاميرا – 2.5 ✓ \u200b\u00a0')).toBeUndefined();
    expect(Object.keys(DIRECTION_CONTROLS).sort()).toEqual([
      '\u061c',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ]);
  });
});

describe('one rule for every free text field of a manifest (textProblem)', () => {
  const site = parseSite('download_base_url: https://dl.example.org/builds\n').site!;
  const manifest = (line: string) =>
    `filename: e-2.5-a14-20241108100000-official-FP4.zip\nversion: "2.5"\nchannel: official\ntimestamp: 1731067200\nandroid_version: "14"\nincremental: "1"\nmd5sum: ${'a'.repeat(32)}\nid: ${'b'.repeat(64)}\nsize: 100\n${line}\n`;
  const cases = [
    ['\\u202E', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['\\0', 'U+0000 (character 4), a control character, which pages and feeds cannot show; remove it'],
    ['\\uFFFE', 'U+FFFE (character 4), a noncharacter, which is not text; remove it'],
    [
      '\\uD800',
      'U+D800 (character 4), half of a character (a lone surrogate), which strict JSON decoders refuse; remove it',
    ],
  ] as const;
  it.each(
    ['display_version', 'changes', 'pre_version', 'changelog'].flatMap((field) =>
      cases.map(([escape, said]) => ({ field, escape, said })),
    ),
  )('$field with $escape is refused', ({ field, escape, said }) => {
    const { problems, build } = parseManifest(manifest(`${field}: "- a${escape}b"`), 'content/FP4/x.yaml', 'FP4', site);
    expect(build).toBeUndefined();
    expect(problems.map(formatProblem)).toEqual([expect.stringContaining(`  ${field}  holds ${said}`)]);
  });

  it('takes tabs, line breaks, right-to-left text and characters outside the BMP', () => {
    expect(textProblem('- fixed\tthe camera\n- תיקוני מצלמה 😀 \u200b\u00a0')).toBeUndefined();
    const { problems } = parseManifest(
      manifest('changelog: |\n  - fixed\tthe camera 😀\n  - second'),
      'content/FP4/x.yaml',
      'FP4',
      site,
    );
    expect(problems).toEqual([]);
  });
});
