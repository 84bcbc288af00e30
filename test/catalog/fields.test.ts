import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  ALWAYS_QUOTED,
  EMPTY_IN_PLACEHOLDER,
  FIELD_ROWS,
  FIELDS,
  MANIFEST_KEYS,
  MANIFEST_ORDER,
  PACKAGE_ONLY,
  REQUIRED,
  REQUIRED_PLACEHOLDER,
  V1_RECORD_KEYS,
  ZOD_ONLY,
  type Field,
  type WrittenField,
} from '../../src/catalog/fields.js';
import { manifestJsonSchema } from '../../src/catalog/json-schema.js';
import { manifestSchema, plainFields } from '../../src/catalog/manifest-schema.js';
import { parseManifest } from '../../src/catalog/manifest.js';
import { renderManifestText, type ManifestValues } from '../../src/catalog/manifest-text.js';
import { parseSite } from '../../src/catalog/site.js';
import { renderRecord } from '../../src/render/v1.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';

// fields.ts holds one row per manifest field, and every list of fields is derived from the rows.
// What the table guarantees, so that a new field is one row: each list the rest of otapress uses
// is the table's, and behaves as the row says.

const { site } = parseSite('download_base_url: https://dl.example.org/builds/\n');
const FILE = 'content/FP4/build.yaml';
const problemsOf = (text: string) =>
  parseManifest(text, FILE, 'FP4', site!).problems.map((p) => `${p.field}: ${p.message}`);
const names = (keep: (field: Field) => boolean) => FIELD_ROWS.filter(([, f]) => keep(f)).map(([name]) => name);
const PLACEHOLDER = 'placeholder: true\nversion: "3.1"\nchannel: official\ntimestamp: 1751364000\ndisplay_version: x\n';

describe('the field table', () => {
  it('gives every field a zod schema, and the manifest schema has the table’s fields in its order', () => {
    expect(MANIFEST_KEYS).toEqual(Object.keys(FIELDS));
    for (const [name, field] of FIELD_ROWS) expect(typeof field.schema().safeParse, name).toBe('function');
    expect(Object.keys(manifestSchema().shape)).toEqual(MANIFEST_KEYS);
  });

  it('gives every field a plain check, or leaves it to zod on purpose (a manifest with one goes to zod)', () => {
    const valid = parse(VALID_MANIFEST) as Record<string, unknown>;
    expect(plainFields(valid)).toBeDefined();
    for (const [name, field] of FIELD_ROWS) {
      expect(typeof field.plain === 'function' || field.plain === ZOD_ONLY, name).toBe(true);
      if (field.plain === ZOD_ONLY) expect(plainFields({ ...valid, [name]: [] }), name).toBeUndefined();
    }
    // Each check is held to its schema, value by value, in manifest-fields.test.ts.
    expect(names((f) => f.plain === ZOD_ONLY)).toEqual(['filename_differs', 'files']);
  });

  it('writes every field with a place, once each, in the order of their places', () => {
    const places = FIELD_ROWS.flatMap(([, f]) => (f.written === undefined ? [] : [f.written]));
    expect(new Set(places).size).toBe(places.length);
    expect([...MANIFEST_ORDER].sort()).toEqual(names((f) => f.written !== undefined).sort());
    // datetime always equals timestamp: a written manifest leaves it out.
    expect(names((f) => f.written === undefined)).toEqual(['datetime']);
    const value = (name: string) => (name === 'files' ? [{ filename: 'a.img' }] : 'x');
    const values: ManifestValues = Object.fromEntries(MANIFEST_ORDER.map((name) => [name, value(name)]));
    const written = renderManifestText(values)
      .split('\n')
      .filter((line) => /^\w+:/.test(line));
    expect(written.map((line) => line.slice(0, line.indexOf(':')))).toEqual(MANIFEST_ORDER);
  });

  it('quotes the text fields marked so, which read back as the text written', () => {
    for (const name of MANIFEST_ORDER) {
      const line = renderManifestText({ [name]: 'abc' }).split('\n')[1];
      expect(line, name).toBe(ALWAYS_QUOTED.has(name) ? `${name}: "abc"` : `${name}: abc`);
    }
    // What YAML would read as a number is quoted in any field; the marked ones read back as text.
    for (const name of ALWAYS_QUOTED) {
      expect(parse(renderManifestText({ [name as WrittenField]: '2.10' }))).toEqual({ [name]: '2.10' });
    }
  });

  it('requires of a package and of a placeholder the fields marked so', () => {
    const orPlaceholder = ' or mark the build `placeholder: true`';
    const missing = (name: string) => `(file): missing \`${name}\`; add it${name === 'filename' ? orPlaceholder : ''}`;
    expect(problemsOf('changes: x\n').sort()).toEqual(REQUIRED.map(missing).sort());
    const forPlaceholder = (name: string) =>
      `(file): missing \`${name}\` (a placeholder needs version, channel, timestamp and display_version); add it`;
    expect(problemsOf('placeholder: true\n').sort()).toEqual(REQUIRED_PLACEHOLDER.map(forPlaceholder).sort());
    expect(PACKAGE_ONLY.filter((name) => REQUIRED_PLACEHOLDER.includes(name))).toEqual([]);
  });

  it('keeps the package-only fields out of a placeholder, and reads "" there as left out', () => {
    const valid = parse(VALID_MANIFEST) as Record<string, unknown>;
    const example: Record<string, unknown> = {
      ...valid,
      sha1: '0123456789abcdef0123456789abcdef01234567',
      sha256: valid.id,
      url: 'https://dl.example.org/a.zip',
    };
    for (const name of PACKAGE_ONLY) {
      expect(problemsOf(`${PLACEHOLDER}${name}: ${JSON.stringify(example[name])}\n`), name).toEqual([
        `${name}: a placeholder has no package, so it must not have \`${name}\` ` +
          '(a phone would offer it for download); remove it, or remove `placeholder: true`',
      ]);
    }
    expect(problemsOf(`${PLACEHOLDER}${EMPTY_IN_PLACEHOLDER.map((name) => `${name}: ""`).join('\n')}\n`)).toEqual([]);
    const mayBeEmpty = names((f) => f.placeholder === 'may be empty');
    expect(EMPTY_IN_PLACEHOLDER.filter((name) => !PACKAGE_ONLY.includes(name))).toEqual(mayBeEmpty);
  });

  it('numbers the fields a v1 record carries in the record’s order, and names them as the record does', () => {
    const places = FIELD_ROWS.flatMap(([, f]) => (f.record === undefined ? [] : [f.record.at]));
    expect([...places].sort((a, b) => a - b)).toEqual(places.map((_, i) => i + 1));
    const { build } = parseManifest(VALID_MANIFEST, FILE, 'FP4', site!);
    expect(Object.keys(renderRecord(build!, 'stable'))).toEqual(V1_RECORD_KEYS);
  });

  it('makes the editor schema from the rows: descriptions, a package’s fields, a placeholder’s empty ones', () => {
    const schema = manifestJsonSchema() as {
      properties: Record<string, { description?: string }>;
      then: { required: string[]; properties: Record<string, unknown> };
      else: { required: string[]; properties: Record<string, unknown> };
    };
    expect(Object.keys(schema.properties)).toEqual(MANIFEST_KEYS);
    for (const [name, field] of FIELD_ROWS) expect(schema.properties[name].description, name).toBe(field.description);
    const narrowed = names((f) => f.json?.inPackage !== undefined);
    expect(Object.keys(schema.else.properties).sort()).toEqual([...narrowed].sort());
    expect(Object.keys(schema.then.properties)).toEqual(PACKAGE_ONLY.filter((name) => narrowed.includes(name)));
    expect(schema.then.required).toEqual(REQUIRED_PLACEHOLDER);
    expect(schema.else.required).toEqual(REQUIRED);
  });
});
