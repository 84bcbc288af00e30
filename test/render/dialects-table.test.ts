// Each dialect's row says the keys of a record, their JSON types and which are required: every
// file written on the example holds exactly that, in the row's order, whatever the catalog lacks.
import { describe, expect, it } from 'vitest';
import { FORMAT_FAMILIES, formatPath } from '../../src/catalog/formats.js';
import { readContent } from '../../src/catalog/read.js';
import { DIALECTS } from '../../src/render/dialects.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const content = readContent(EXAMPLE);
const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);

/** The records of a file, as its wrapper holds them. */
function recordsOf(wrapper: string, text: string): Record<string, unknown>[] {
  const json = JSON.parse(text) as unknown;
  if (wrapper === 'array') return json as Record<string, unknown>[];
  if (wrapper === 'object') return [json as Record<string, unknown>];
  if (wrapper === 'updates') return (json as { updates: Record<string, unknown>[] }).updates;
  return (json as { response: Record<string, unknown>[] }).response;
}

const JSON_ROWS = FORMAT_FAMILIES.filter((name) => !['v1', 'line'].includes(DIALECTS[name].wrapper));

describe.each(JSON_ROWS)('the %s row', (name) => {
  const dialect = DIALECTS[name];
  const compiled = compileWith(content, `formats:\n  ${name}: {}\n`);
  const files = compiled.listings.flatMap(({ device, list }) => {
    const file = compiled.files.find((f) => `/${f.path}` === formatPath(compiled.site!.formats[0], device, list));
    return file === undefined ? [] : [String(file.contents)];
  });

  it('writes each record with the row’s keys, types and required ones, in its order', () => {
    const records = files.flatMap((text) => recordsOf(dialect.wrapper, text));
    expect(records.length).toBeGreaterThan(0);
    const order = dialect.keys.map((k) => k.key);
    for (const record of records) {
      const keys = Object.keys(record);
      expect(
        keys.every((k) => order.includes(k)),
        keys.join(' '),
      ).toBe(true);
      expect(keys).toEqual(order.filter((k) => keys.includes(k)));
      for (const { key, type, missing } of dialect.keys) {
        if (missing !== 'omit') expect(record, `${key} is always there`).toHaveProperty(key);
        const written = missing === '' && record[key] === '' ? 'string' : type;
        if (key in record) expect(typeOf(record[key]), key).toBe(written);
      }
    }
  });
});
