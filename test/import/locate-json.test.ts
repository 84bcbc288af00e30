import fc from 'fast-check';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { locateJson } from '../../src/import/locate-json.js';
import { SEED } from '../helpers/arbitraries.js';

// The import's JSON locator scans the text itself instead of building a tree; it must find the same
// place as a JSON parser that keeps offsets (jsonc-parser) for every path it is asked about: the
// records' array, a record, a member of a record, and a missing member (then the record itself).
// The documents are written here token by token, so that the whitespace between tokens, the
// escapes in strings and the nesting of values vary independently of what JSON.stringify writes.

/** A JSON value, with the choices that change its text but not its value. */
type Value =
  | { kind: 'literal'; text: string }
  | { kind: 'string'; value: string; escaped: boolean[] }
  | { kind: 'array'; items: Value[] }
  | { kind: 'object'; members: [Key, Value][] };
type Key = { value: string; escaped: boolean[] };

// Characters that need an escape, that may have one, and that are more than one UTF-16 unit.
const character = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  fc.constantFrom('"', '\\', '/', '\n', '\t', '\u0000', '\u001f', '\u2028', 'é', 'ß', '中', '𝄞', '😀', '\u{10ffff}'),
  fc.constantFrom(']', '}', ',', ':', '{', '['),
);
const text = fc.array(character, { maxLength: 8 }).map((cs) => cs.join(''));
const escapes = fc.array(fc.boolean(), { maxLength: 12 });
const key: fc.Arbitrary<Key> = fc.record({ value: text, escaped: escapes });
const literal = fc
  .constantFrom('0', '-0', '12', '-3.5e+2', '1E-7', '0.25', 'true', 'false', 'null')
  .map((t) => ({ kind: 'literal' as const, text: t }));

const { value } = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    fc.record({ kind: fc.constant('string' as const), value: text, escaped: escapes }),
    fc.record({ kind: fc.constant('array' as const), items: fc.array(tie('value'), { maxLength: 4 }) }),
    fc.record({ kind: fc.constant('object' as const), members: members(tie('value')) }),
  ),
}));

/** Members with distinct names: with a name twice, JSON.parse keeps the last and jsonc-parser finds the first. */
function members(of: fc.Arbitrary<Value>): fc.Arbitrary<[Key, Value][]> {
  return fc.uniqueArray(fc.tuple(key, of), { maxLength: 5, selector: ([k]) => k.value });
}

/** A record of a listing: mostly an object with members (some nested), sometimes another value. */
const record: fc.Arbitrary<Value> = fc.oneof(
  { weight: 4, arbitrary: members(value).map((m) => ({ kind: 'object' as const, members: m })) },
  { weight: 1, arbitrary: value },
);

/** Whitespace JSON allows between tokens, line breaks of both kinds included. */
const gap = fc.array(fc.constantFrom(' ', '\t', '\n', '\r\n'), { maxLength: 3 }).map((ws) => ws.join(''));

/** Writes `v` with the gaps taken in turn from `gaps`. */
function write(v: Value, gaps: readonly string[]): string {
  let next = 0;
  const g = () => gaps[next++ % gaps.length];
  // Each character escaped as JSON.stringify does (only where it must), or as \u escapes, by `escaped`.
  const char = (c: string, i: number, escaped: readonly boolean[]) =>
    escaped[i % Math.max(escaped.length, 1)] ? escapeAll(c) : JSON.stringify(c).slice(1, -1);
  const str = (s: string, escaped: readonly boolean[]) => `"${[...s].map((c, i) => char(c, i, escaped)).join('')}"`;
  const go = (w: Value): string => {
    switch (w.kind) {
      case 'literal':
        return w.text;
      case 'string':
        return str(w.value, w.escaped);
      case 'array':
        return w.items.length === 0 ? `[${g()}]` : `[${w.items.map((item) => `${g()}${go(item)}${g()}`).join(',')}]`;
      case 'object':
        if (w.members.length === 0) return `{${g()}}`;
        return `{${w.members.map(([k, m]) => `${g()}${str(k.value, k.escaped)}${g()}:${g()}${go(m)}${g()}`)}}`;
    }
  };
  return `${g()}${go(v)}${g()}`;
}

/** `c` written with \u escapes only (a surrogate pair as two). */
function escapeAll(c: string): string {
  return [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
}

/** A listing as import reads one: an array of records, or an object whose `response` is one. */
const listing = fc
  .record({
    records: fc.array(record, { maxLength: 6 }),
    wrapped: fc.boolean(),
    around: members(value),
    gaps: fc.array(gap, { minLength: 1, maxLength: 40 }),
  })
  .map(({ records, wrapped, around, gaps }) => {
    const array: Value = { kind: 'array', items: records };
    const others = around.filter(([k]) => k.value !== 'response');
    // `response` among other members, in any place.
    const response: [Key, Value] = [{ value: 'response', escaped: [] }, array];
    const members: [Key, Value][] = [...others.slice(0, 1), response, ...others.slice(1)];
    const top: Value = wrapped ? { kind: 'object', members } : array;
    return { text: write(top, gaps), base: wrapped ? ['response'] : [], records };
  });

/** Line and column (1-based, in UTF-16 units) of an offset, counted afresh. */
function lineAndCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, col: lines[lines.length - 1].length + 1 };
}

/** Where jsonc-parser puts `path`, or its nearest parent that exists. */
function expected(root: Node, text: string, path: (string | number)[]): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node) return lineAndCol(text, node.offset);
  }
  throw new Error('the root has no node');
}

describe('locateJson', () => {
  it('agrees with jsonc-parser on the array, each record and each member, and on a missing member', () => {
    let members = 0;
    fc.assert(
      fc.property(listing, fc.string({ maxLength: 3 }), ({ text: t, base, records }, missing) => {
        // The text is JSON that JSON.parse reads as written: the locator is only used after it.
        expect(JSON.parse(t)).toBeDefined();
        const root = parseTree(t)!;
        const locate = locateJson(t, base);
        expect(locate(base)).toEqual(expected(root, t, base));
        records.forEach((r, i) => {
          expect(locate([...base, i])).toEqual(expected(root, t, [...base, i]));
          const names = r.kind === 'object' ? r.members.map(([k]) => k.value) : [];
          for (const name of names) {
            members++;
            expect(locate([...base, i, name])).toEqual(expected(root, t, [...base, i, name]));
          }
          if (!names.includes(missing)) expect(locate([...base, i, missing])).toEqual(expected(root, t, [...base, i]));
        });
      }),
      { seed: SEED, numRuns: 3000 },
    );
    // The documents do reach the members of records, not only empty arrays.
    expect(members).toBeGreaterThan(1000);
  });

  it('counts columns in UTF-16 units after characters outside the BMP, and lines after \\r\\n', () => {
    const t = '{"😀":1,\r\n "response" :\n\t[ {"a":"𝄞","size" : 5} ]}';
    const locate = locateJson(t, ['response']);
    expect(locate(['response'])).toEqual({ line: 3, col: 2 });
    expect(locate(['response', 0])).toEqual({ line: 3, col: 4 });
    expect(locate(['response', 0, 'size'])).toEqual({ line: 3, col: 23 });
  });
});
