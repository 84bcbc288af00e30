import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLenientJson, type JsonReader } from '../../src/import/lenient-json.js';
import { SEED } from '../helpers/arbitraries.js';
import {
  JSONException,
  NULL,
  SerializationException,
  decodeDerpFest,
  joinLines,
  parseJSONObject,
  parseKotlinx,
  type JsonValue,
  type KxValue,
} from '../helpers/dialects/index.js';

// import reads a listing that is not strict JSON as the phone's own parser does. The oracles are
// the test transcriptions of both parsers (test/helpers/dialects/org-json.ts, kotlinx-json.ts, each
// citing its upstream source); lenient-json.ts is written apart from them, so a generated text must
// get the same verdict from both, and when it is read, the same value. The texts are written token
// by token from what the two parsers tolerate and a little of what they do not.

const pick = <T>(...values: T[]) => fc.constantFrom(...values);

/** Unquoted words: JSON's own, other numbers org.json reads (hex, octal, Double.valueOf), case variants, plain words. */
const word = pick(
  '12',
  '-3.5e+2',
  'true',
  'null',
  'True',
  'NULL',
  'FALSE',
  '3.9.5',
  '0x1F',
  '0X',
  '010',
  '08',
  '00',
  '-0',
  '+1',
  '1.',
  '.5',
  '1f',
  '1e5',
  'NaN',
  '-Infinity',
  '12345678901234567890',
  'abc',
  'a#b',
  'x/y',
  '',
);
const character = pick(
  'a',
  'é',
  '😀',
  "'",
  '"',
  '\\n',
  '\\q',
  '\\u0041',
  '\\u-001',
  '\\u12',
  '\\/',
  '\t',
  '\n',
  '\r\n',
  '\\',
);
const stringBody = fc.array(character, { maxLength: 4 }).map((cs) => cs.join(''));
const quoted = fc.tuple(pick('"', '"', "'"), stringBody, fc.boolean()).map(([q, body, closed]) => {
  const inner = body.replace(new RegExp(q, 'g'), `\\${q}`);
  return `${q}${inner}${closed ? q : ''}`;
});
/** Between tokens: JSON's blanks, org.json's comments, and a form feed, which neither reads as blank. */
const gap = fc
  .array(pick('', ' ', '\n', '\r\n', '\t', '/* c */', '/* \n */', '// c\n', '# c\n', '\f', '/*'), { maxLength: 2 })
  .map((gs) => gs.join(''));
const key = fc.oneof(quoted, pick('k', 'id', '1', 'true', '__proto__', '"a"', '"a"', "'b'", '', '{'));
const nameSeparator = pick(':', ':', ':', '=', '=>', ':>', '');
const separator = pick(',', ',', ',', ';', '', ',,');

const { value } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    word,
    quoted,
    fc
      .tuple(fc.array(fc.tuple(gap, tie('value'), gap, separator), { maxLength: 4 }), gap, pick(']', ']', ''))
      .map(([items, end, close]) => `[${items.map((i) => i.join('')).join('')}${end}${close}`),
    fc
      .tuple(
        fc.array(fc.tuple(gap, key, gap, nameSeparator, gap, tie('value'), gap, separator), { maxLength: 4 }),
        pick('}', '}', ''),
      )
      .map(([members, close]) => `{${members.map((m) => m.join('')).join('')}${close}`),
  ),
}));
/** A document: mostly an object, then possibly text after it. */
const document = fc
  .tuple(gap, fc.oneof({ weight: 3, arbitrary: value.map((v) => (v.startsWith('{') ? v : `{"v":${v}}`)) }, value))
  .chain(([before, v]) => fc.tuple(fc.constant(before + v), pick('', '', ' ', '\n', ' x', '}', '// end')))
  .map(([v, after]) => v + after);

describe('org.json, as the Java updaters read (lines joined)', () => {
  it.each([
    { joinsLines: true, oracle: (text: string) => parseJSONObject(joinLines(text)) },
    { joinsLines: false, oracle: (text: string) => parseJSONObject(text) },
  ])('agrees with the transcription, lines joined: $joinsLines', ({ joinsLines, oracle }) => {
    const reader: JsonReader = { parser: 'org-json', joinsLines };
    fc.assert(
      fc.property(document, fc.boolean(), (text, bom) => {
        let expected: unknown;
        try {
          expected = canonical(fromOrgJson(oracle(bom ? `\ufeff${text}` : text)));
        } catch (error) {
          if (!(error instanceof JSONException)) throw error;
          expected = 'fails';
        }
        const read = readLenientJson(text, reader, bom);
        expect(read.ok ? canonical(read.value) : 'fails').toEqual(expected);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});

describe('kotlinx, as the Kotlin updaters read', () => {
  it('agrees with the transcription on the text alone (every key unknown, so every token skipped)', () => {
    const reader: JsonReader = { parser: 'kotlinx', isLenient: false, bomConsumed: true, root: { fields: {} } };
    fc.assert(
      fc.property(value, (text) => {
        let expected: unknown;
        try {
          const parsed = parseKotlinx(text);
          expected = parsed.kind === 'object' ? canonical(fromKotlinx(parsed)) : 'not an object';
        } catch (error) {
          if (!(error instanceof SerializationException)) throw error;
          expected = 'fails';
        }
        // A document that is not an object is not read into the class; the transcription's lexer reads it.
        const read = readLenientJson(text, {
          ...reader,
          root: text.trimStart().startsWith('{') ? reader.root : 'Long',
        });
        const got = read.ok
          ? typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value)
            ? canonical(read.value)
            : 'not an object'
          : 'fails';
        if (expected === 'not an object' && !read.ok) return; // a token where a Long is declared: the typed test covers it
        expect(got).toEqual(expected);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  // DerpFest's class (test/helpers/dialects/derpfest.ts): each declared field given as the listings
  // give it, leniently or not; the verdict and the numbers must be the phone's.
  // Not a fraction JSON writes (`1.5e3`): a value JSON itself writes is left to the record's reading, as in strict files.
  const longToken = pick('1719422942', '"1719422942"', '01719422942', '-007', '1e3', '0x10', '1.', '3.9.5');
  const textToken = pick('"1.0"', '3.9.5', 'abc', '"a\tb"');
  const record = fc
    .tuple(longToken, longToken, textToken, pick('', ', "api_level": 034', ', "x": 3.9.5', ', "y": a#b'))
    .map(
      ([datetime, size, version, extra]) =>
        `{"datetime": ${datetime}, "filename": "a.zip", "id": "i", "size": ${size}, "url": "https://x/a.zip", "version": ${version}${extra}}`,
    );
  const derpfest: JsonReader = {
    parser: 'kotlinx',
    isLenient: false,
    bomConsumed: true,
    root: {
      fields: {
        response: {
          list: {
            fields: {
              datetime: 'Long',
              filename: 'String',
              id: 'String',
              romtype: 'String',
              size: 'Long',
              url: 'String',
              version: 'String',
            },
          },
        },
      },
    },
  };

  it("agrees with DerpFest's reading of its records (a number where a Long is declared, text where a String is)", () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 3 }), (records) => {
        const text = `{"response": [${records.join(',\n')}]}`;
        const phone = decodeDerpFest(text);
        const read = readLenientJson(text, derpfest);
        expect(read.ok).toBe(phone !== undefined);
        if (!read.ok || phone === undefined) return;
        const ours = (read.value as { response: Record<string, unknown>[] }).response;
        expect(ours.map((r) => [Number(r.datetime), Number(r.size), r.version])).toEqual(
          phone.map((u) => [u.timestamp, u.fileSize, u.version]),
        );
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
});

describe('what a maintainer is told', () => {
  const java: JsonReader = { parser: 'org-json', joinsLines: true };
  it.each([
    {
      text: '{"response": [{\n  "version": 3.9.5,\n  "size": 12\n}]}',
      leniencies: ['2:14 an unquoted value `3.9.5`, which the phone reads as the text "3.9.5"'],
    },
    {
      text: "{\n  /* built by hand */\n  'a': 'b';\n  c => 010\n}",
      leniencies: [
        "2:3 a comment `/* built by hand */`, which the phone's parser skips",
        "3:3 a string in single quotes, which the phone's parser reads as text",
        "3:8 a string in single quotes, which the phone's parser reads as text",
        "3:11 `;` between two members, which the phone's parser reads as `,`",
        '4:3 an unquoted key `c`, which the phone\'s parser reads as the text "c"',
        "4:5 `=>` after the key `c`, which the phone's parser reads as `:`",
        '4:8 `010`, which the phone reads as the number 8 (octal: a leading 0)',
      ],
    },
  ])('names each leniency at its line and column: $text', ({ text, leniencies }) => {
    const read = readLenientJson(text, java);
    expect(read.ok && read.leniencies.map((l) => `${l.line}:${l.col} ${l.what}`)).toEqual(leniencies);
  });

  it.each([
    ['{\n  "a": "x"\n  "b": 1\n}', '3:3', /where `,` or `}` should follow the value of `a` \(a comma missing/],
    ['{\n  "timestamp": ,\n  "b": 1\n}', '2:16', /no value here/],
    ['{\n  // note\n  "a": 1\n}', '4:2', /the comment at 2:3 runs to the end of the file/],
    ['{"a": 1,}', '1:9', /a comma before `}`, which org.json refuses/],
  ])('says where the phone fails: %j at %s', (text, at, reason) => {
    const read = readLenientJson(text, java);
    expect(read.ok ? 'read' : `${read.line}:${read.col}`).toBe(at);
    expect(read.ok ? '' : read.reason).toMatch(reason);
  });

  it.each([
    ['org.json', java],
    ['kotlinx', { parser: 'kotlinx', isLenient: false, bomConsumed: true, root: { fields: {} } } as const],
  ])('refuses nesting deeper than any listing, instead of running out of stack (%s)', (_, reader) => {
    const read = readLenientJson(`{"a": ${'['.repeat(200_000)}`, reader);
    expect(read.ok ? 'read' : `${read.line}:${read.col} ${read.reason}`).toBe(
      "1:518 arrays or objects nested more than 512 deep, which no listing is and the phone's parser does not read",
    );
  });

  it('locates records and keys in the text, also where the phone joins lines', () => {
    const read = readLenientJson('{\n "response": [\n  {"a": 1,\n   b: x}\n ]\n}', java);
    if (!read.ok) throw new Error(read.reason);
    expect(read.locate(['response', 0, 'b'])).toEqual({ line: 4, col: 7 });
    expect(read.locate(['response', 0])).toEqual({ line: 3, col: 3 });
    expect(read.locate(['response', 0, 'missing'])).toEqual({ line: 3, col: 3 });
    expect(read.locate(['response', 7])).toEqual({ line: 2, col: 14 });
  });
});

// --- internal ---

/** A value in one comparable form: objects as sorted entries, numbers as text (NaN, -0 and 0 alike). */
function canonical(v: unknown): unknown {
  if (typeof v === 'number') return Object.is(v, -0) ? '0' : String(v);
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object')
    return Object.entries(v)
      .map(([k, x]) => [k, canonical(x)])
      .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1));
  return v;
}

function fromOrgJson(v: JsonValue | null): unknown {
  if (v === null || v === NULL) return null;
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, fromOrgJson(x)]));
  if (Array.isArray(v)) return v.map(fromOrgJson);
  if (typeof v === 'object') return Number(v.value);
  return v;
}

function fromKotlinx(v: KxValue): unknown {
  if (v.kind === 'string') return v.value;
  if (v.kind === 'literal')
    return /^(?:null|true|false|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/.test(v.text)
      ? JSON.parse(v.text)
      : v.text;
  if (v.kind === 'array') return v.items.map(fromKotlinx);
  return Object.fromEntries([...v.entries].map(([k, x]) => [k, fromKotlinx(x)]));
}
