import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fg from 'fast-glob';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_FILE,
  DEVICE_SCHEMA_COMMENT,
  DEVICE_SCHEMA_FILE,
  parseDeviceFile,
  renderDeviceJsonSchema,
} from '../../src/catalog/device.js';
import { parseManifest } from '../../src/catalog/manifest.js';
import { renderJsonSchema, SCHEMA_FILE } from '../../src/catalog/json-schema.js';
import { parseSite } from '../../src/catalog/site.js';
import { EXAMPLE } from '../helpers/helpers.js';

const committed = readFileSync(path.join(EXAMPLE, SCHEMA_FILE), 'utf8');
const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(JSON.parse(committed));
const { site } = parseSite(readFileSync(path.join(EXAMPLE, 'content/site.yaml')));

const VALID = `filename: e-2.5-a14-20241108446322-official-FP4.zip
version: "2.5"
channel: official
timestamp: 1731067200
android_version: "14"
incremental: "eng.root.20241108.123456"
md5sum: 0123456789abcdef0123456789abcdef
id: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
size: 1387003904
`;
const PLACEHOLDER = `placeholder: true
version: "3.1"
channel: official
timestamp: 1751364000
android_version: "16"
display_version: 3.1-a16-20250701-official-FP4
`;
const set = (text: string, key: string, line: string | null) =>
  text
    .split('\n')
    .map((l) => (l.startsWith(`${key}:`) ? line : l))
    .filter((l) => l !== null)
    .join('\n');

/** Both the JSON Schema (ajv) and the build (parseManifest) must say the same. */
const verdicts = (text: string) => ({
  schema: validate(parse(text)),
  build: parseManifest(text, 'content/FP4/x.yaml', 'FP4', site!).problems.length === 0,
});

describe('the manifest JSON Schema', () => {
  it('is committed exactly as generated from the zod schema', () => {
    expect(committed).toBe(renderJsonSchema());
  });

  it.each(fg.sync('content/*/*.yaml', { cwd: EXAMPLE, ignore: [`content/*/${DEVICE_FILE}`] }).sort())(
    'accepts %s of the example catalog, which points at it',
    (file) => {
      const text = readFileSync(path.join(EXAMPLE, file), 'utf8');
      expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../manifest.schema.json');
      expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it.each([
    ['android_version as a YAML number', set(VALID, 'android_version', 'android_version: 14')],
    ['a Unix-seconds incremental as a YAML number', set(VALID, 'incremental', 'incremental: 1731067200')],
    ['size 0', set(VALID, 'size', 'size: 0')],
    ['v2 metadata', VALID + 'os_patch_level: "2024-11-05"\nota_type: AB\nota_property_files: "payload.bin:1:2"\n'],
    ['a placeholder', PLACEHOLDER],
    [
      'a placeholder with the empty fields of a listing',
      PLACEHOLDER + 'filename: ""\nid: ""\nsize: ""\nmd5sum: ""\nincremental: ""\napi_level: ""\n',
    ],
    [
      'a placeholder that keeps md5sum and api_level',
      PLACEHOLDER + 'md5sum: 0123456789abcdef0123456789abcdef\napi_level: "36"\n',
    ],
    // Phones read these: an id that is another download key, no md5sum.
    ['an MD5 as the download key', set(VALID, 'id', 'id: 5eb63bbbe01eeed093cb22bb8f5acdc3')],
    ['a random download key', set(VALID, 'id', 'id: c21ay6mf6uz6ruhkryd8udtii10bvvo5')],
    ['a missing md5sum', set(VALID, 'md5sum', null)],
    [
      "an MD5 as the download key with the zip's SHA-256 beside it",
      set(VALID, 'id', `id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nsha256: ${'ab'.repeat(32)}`),
    ],
    ['a placeholder with an empty sha256, as listings leave it', PLACEHOLDER + 'sha256: ""\n'],
  ])('accepts %s, as the build does', (_, text) => {
    expect(verdicts(text)).toEqual({ schema: true, build: true });
  });

  it.each([
    ['version as a YAML number', set(VALID, 'version', 'version: 2.10')],
    ['an upper-case md5sum', set(VALID, 'md5sum', 'md5sum: 0123456789ABCDEF0123456789ABCDEF')],
    ['an upper-case SHA-256', set(VALID, 'id', 'id: 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF')],
    ['an id with a space', set(VALID, 'id', 'id: "abc def"')],
    ['an empty id on a package', set(VALID, 'id', 'id: ""')],
    ['a timestamp in milliseconds', set(VALID, 'timestamp', 'timestamp: 1731067200000')],
    ['a size as text', set(VALID, 'size', 'size: "1387003904"')],
    ['a negative size', set(VALID, 'size', 'size: -1')],
    ['an unknown field', VALID + 'sha512: abc\n'],
    ['an upper-case sha256', set(VALID, 'id', `id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nsha256: ${'AB'.repeat(32)}`)],
    ['an empty sha256 on a package', set(VALID, 'id', 'id: 5eb63bbbe01eeed093cb22bb8f5acdc3\nsha256: ""')],
    ['a placeholder with the SHA-256 of a zip', PLACEHOLDER + `sha256: ${'ab'.repeat(32)}\n`],
    ['an empty md5sum on a package', set(VALID, 'md5sum', 'md5sum: ""')],
    ['a placeholder with a url', PLACEHOLDER + 'url: https://example.org/x.zip\n'],
    ['a placeholder with a size', PLACEHOLDER + 'size: 12\n'],
    ['a placeholder without display_version', set(PLACEHOLDER, 'display_version', null)],
    ['an ota_type in lower case', VALID + 'ota_type: ab\n'],
    ['a list of request lists as text', VALID + 'lists: official\n'],
  ])('rejects %s, as the build does', (_, text) => {
    expect(verdicts(text)).toEqual({ schema: false, build: false });
  });
});

describe('the device file JSON Schema', () => {
  const deviceSchema = readFileSync(path.join(EXAMPLE, DEVICE_SCHEMA_FILE), 'utf8');
  const validateDevice = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(
    JSON.parse(deviceSchema),
  );

  it('is committed exactly as generated from the zod schema', () => {
    expect(deviceSchema).toBe(renderDeviceJsonSchema());
  });

  it.each(fg.sync(`content/*/${DEVICE_FILE}`, { cwd: EXAMPLE }).sort())(
    'accepts %s of the example catalog, which points at it',
    (file) => {
      const text = readFileSync(path.join(EXAMPLE, file), 'utf8');
      expect(text.split('\n')[0]).toBe(DEVICE_SCHEMA_COMMENT);
      expect(validateDevice(parse(text)), JSON.stringify(validateDevice.errors)).toBe(true);
      expect(parseDeviceFile(text, file).problems).toEqual([]);
    },
  );
});
