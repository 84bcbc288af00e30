import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { readDocument, type DocumentKind } from '../../src/catalog/read-document.js';

// readDocument is the reading every content file shares (manifests, site.yaml, device.yaml):
// YAML text, a mapping, its schema, located problems. Each file's own messages are held by its
// exact-message tests (manifest.test.ts, site.test.ts, device-file.test.ts); here, what they share.

const FILE = 'content/x.yaml';
const name = z
  .string()
  .min(2, { error: 'too short' })
  .regex(/^[a-z]+$/, { error: 'lowercase only' });
const schema = z.strictObject({ name, size: z.number() }).partial();
const kind: DocumentKind<z.infer<typeof schema>> = {
  notAMapping: (found) => (found === 'nothing' ? undefined : `expected a mapping, found ${found}`),
  schema: () => schema,
  unknownKey: (key) => `unknown key ${key}`,
};
const read = (text: string, k = kind) => {
  const document = readDocument(text, FILE, k);
  return { ...document, lines: document.problems.map(formatProblem) };
};

describe('readDocument', () => {
  it('reads a mapping by its schema', () => {
    const { data, raw, bad, lines } = read('name: ab\nsize: 3\n');
    expect({ data, raw, bad: [...bad], lines }).toEqual({
      data: { name: 'ab', size: 3 },
      raw: { name: 'ab', size: 3 },
      bad: [],
      lines: [],
    });
  });

  it('says what the file holds instead of a mapping, or takes an empty file as nothing said when the kind does', () => {
    expect(read('- a\n').lines).toEqual([`${FILE}:1:1  (file)  expected a mapping, found a list`]);
    expect(read('just text\n').lines).toEqual([`${FILE}:1:1  (file)  expected a mapping, found a single value`]);
    const empty = read('# nothing\n');
    expect([empty.raw, empty.data, empty.lines]).toEqual([undefined, undefined, []]);
  });

  it('passes on the problems of the YAML text itself, and reads no further', () => {
    const { raw, lines } = read('name: a\nname: b\n');
    expect(raw).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^content\/x\.yaml:2:1  name  /);
  });

  it('locates every issue at its value, unknown keys at the key, and names the fields that failed', () => {
    const { data, bad, lines } = read('size: "3"\nname: A\ncolour: red\n');
    expect(data).toBeUndefined();
    expect(bad.has('name') && bad.has('size')).toBe(true);
    // In the order zod finds them: the caller sorts them if it wants.
    expect(lines).toEqual([
      `${FILE}:2:7  name  too short`,
      `${FILE}:2:7  name  lowercase only`,
      `${FILE}:1:7  size  Invalid input: expected number, received string`,
      `${FILE}:3:1  colour  unknown key colour`,
    ]);
  });

  it('reports only the first issue of a field when the kind asks, and a kind may word an issue', () => {
    const worded: typeof kind = { ...kind, issue: ({ message }) => ({ message: `${message}!` }) };
    const first = read('name: A\n', { ...worded, firstIssueOnly: true });
    expect(first.lines).toEqual([`${FILE}:1:7  name  too short!`]);
  });

  it('takes what the plain reader vouches for without building the schema, and prepares the mapping first', () => {
    const k: DocumentKind<{ name?: string }> = {
      ...kind,
      prepare: (raw) => ({ ...raw, name: String(raw.name).toLowerCase() }),
      plain: (raw) => (typeof raw.name === 'string' ? { name: raw.name } : undefined),
      schema: () => {
        throw new Error('the schema is built only for what the plain reader leaves');
      },
    };
    const { data, raw, problems } = readDocument('name: ABC\n', FILE, k);
    expect({ data, raw, problems }).toEqual({ data: { name: 'abc' }, raw: { name: 'abc' }, problems: [] });
  });
});
