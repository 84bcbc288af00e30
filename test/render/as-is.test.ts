import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Build } from '../../src/catalog/manifest.js';
import { parseManifest } from '../../src/catalog/manifest.js';
import { parseSite } from '../../src/catalog/site.js';
import { writtenAsIs } from '../../src/render/as-is.js';
import { escapeMarkup } from '../../src/render/markup.js';
import { EXAMPLE } from '../helpers/helpers.js';

const { site } = parseSite('download_base_url: https://dl.example.org/builds\n');
// The example build with every optional text a manifest can have (os_patch_level, ota_property_files, sha1, files), its
// SHA-256 moved to `sha256` beside another download key.
const FILE = 'content/FP4/e-3.0-a16-20250610500001-dev-FP4.yaml';
const TEXT = readFileSync(path.join(EXAMPLE, FILE), 'utf8').replace(
  /^id: (.*)$/m,
  'id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nsha256: $1',
);
const { build, problems } = parseManifest(
  `${TEXT}display_version: "3.0 (June)"\npre_version: rc1\nchanges: https://doc.example.org/3.0\n`,
  FILE,
  'FP4',
  site!,
);

/** Texts of a build that no output writes: the manifest's path is for messages only, `ota_type` is read by `add` alone. */
const NOT_WRITTEN = new Set(['source', 'ota_type']);

/** Every character that JSON.stringify or escapeMarkup does not write as itself, and their neighbours that both do. */
const ESCAPED = [
  '"',
  '\\',
  '&',
  "'",
  '<',
  '>',
  '\u0000',
  '\t',
  '\n',
  '\r',
  '\u001f',
  '\ud800',
  '\udfff',
  '\ufffe',
  '\uffff',
];
const KEPT = [' ', '!', '#', '%', '/', ';', '=', '?', '\u007f', '\u2028', '\ud7ff', '\ue000', '\ufffd', 'é'];

describe('writtenAsIs', () => {
  it('holds for a build whose texts hold nothing to escape', () => {
    expect(problems).toEqual([]);
    expect(writtenAsIs(build!)).toBe(true);
  });

  // Every text of the build, found from the build itself: a text added to Build later is tested too.
  const texts = Object.keys(build!).filter(
    (key) => typeof build![key as keyof Build] === 'string' && !NOT_WRITTEN.has(key),
  );

  it('covers the texts that the outputs write', () => {
    expect(texts.sort()).toEqual(
      [
        'android_version',
        'api_level',
        'changes',
        'channel',
        'device',
        'display_version',
        'filename',
        'filepath',
        'id',
        'incremental',
        'md5sum',
        'os_patch_level',
        'ota_property_files',
        'pre_version',
        'sha1',
        'sha256',
        'url',
        'version',
      ].sort(),
    );
  });

  it.each(texts)('does not hold once %s holds any character that JSON or markup escapes', (key) => {
    for (const c of ESCAPED) {
      const changed = { ...build!, [key]: `${build![key as keyof Build] as string}${c}x` } as Build;
      expect(writtenAsIs(changed), JSON.stringify(c)).toBe(false);
      // And what it stood for: escaping or JSON would have changed that text.
      const text = changed[key as keyof Build] as string;
      expect(escapeMarkup(text) !== text || JSON.stringify(text) !== `"${text}"`).toBe(true);
    }
  });

  it.each(texts)('still holds when %s holds characters that both write as they are', (key) => {
    for (const c of KEPT) {
      const changed = { ...build!, [key]: `${build![key as keyof Build] as string}${c}` } as Build;
      expect(writtenAsIs(changed), JSON.stringify(c)).toBe(true);
      const text = changed[key as keyof Build] as string;
      expect([escapeMarkup(text), JSON.stringify(text)]).toEqual([text, `"${text}"`]);
    }
  });
});
