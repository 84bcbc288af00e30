import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_KEY, isDownloadKey } from '../../src/catalog/download-key.js';
import { FIELD_ROWS, MANIFEST_KEYS, ZOD_ONLY } from '../../src/catalog/fields.js';
import { manifestSchema, plainFields } from '../../src/catalog/manifest-schema.js';
import { readYamlSource } from '../../src/catalog/yaml-source.js';
import { catalogArbitrary, SEED, VALID_MANIFEST } from '../helpers/arbitraries.js';

// plainFields reads most manifests without zod; whatever it answers must be what zod answers, key
// for key and in the same order, or the listings would differ with the way a manifest was read.

const rawOf = (text: string | Uint8Array) => ({
  ...(readYamlSource(text, 'content/FP4/m.yaml').value as Record<string, unknown>),
});

/** `plainFields` answers `undefined` (zod decides) or exactly zod's fields. */
function agreesWithZod(raw: Record<string, unknown>): boolean {
  const plain = plainFields(raw);
  if (plain === undefined) return true;
  const parsed = manifestSchema().safeParse(raw);
  expect(parsed.success, `zod refuses what plainFields takes: ${JSON.stringify(raw)}`).toBe(true);
  expect(plain).toStrictEqual(parsed.data);
  expect(Object.keys(plain)).toEqual(Object.keys(parsed.data!));
  return true;
}

/** Values at and around every check's edges, of every type YAML gives. */
const EDGES: unknown[] = [
  ...[
    '',
    'a',
    ' ',
    '2.5',
    '2.5.1',
    '2.5.1.1',
    '2',
    '.5',
    '14',
    '007',
    '1234',
    ' 14',
    '14 ',
    '٣',
    'eng.root.1',
    'a b',
    'a\nb',
  ],
  ...[
    '0123456789abcdef0123456789abcdef',
    '0123456789ABCDEF0123456789ABCDEF',
    '0123456789abcdef0123456789abcde',
    '0123456789abcdef0123456789abcdeg',
  ],
  ...['0123456789abcdef0123456789abcdef01234567', '0123456789ABCDEF0123456789abcdef01234567'],
  ...[
    '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    '0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef',
    'A'.repeat(64),
    'G'.repeat(64),
  ],
  ...['k'.repeat(255), 'k'.repeat(256), 'md5:0123', 'a/b=c+d~e', 'a#b', 'ä'],
  ...[
    'https://dl.example.org/a.zip',
    'http://x/',
    'https://x.org',
    'https://x.org/a b',
    'https://x.org/ä',
    'ftp://x/a',
    'https://x.org/"q"',
    'https:///a',
    'https://x.org/a\tb',
  ],
  ...[
    '2024-11-05',
    '2024-1-5',
    '2024-11-05T00:00',
    'AB',
    'BLOCK',
    'ab',
    'payload.bin:123:456',
    'a:1:2,b:3:4 ',
    'a:1',
    'a:1:2,',
    'a:1:2\n',
  ],
  ...['\u202eabc', 'x\u2066y', '\u200f', 'stable', 'official', 'e-2.5-a14-20241108446322-official-FP4.zip'],
  ...[
    0,
    -0,
    1,
    -1,
    7,
    14,
    99,
    999,
    1000,
    1.5,
    -1.5,
    1e21,
    2 ** 53,
    2 ** 53 - 1,
    -(2 ** 53),
    Number.MAX_SAFE_INTEGER,
    NaN,
    Infinity,
    -Infinity,
  ],
  ...[1230768000, 1230767999, 1731067200, 1731067200.5, 4102444799, 4102444800, 1731067200000, 1e11],
  ...[true, false, null, [], ['stable'], ['stable', 'stable'], ['stable', 1], [null], [['a']], {}, { a: 1 }],
];

const KEYS = [...MANIFEST_KEYS, 'md5', 'SHA256', '__proto__', 'constructor', 'toString'];

/** Raw manifests of one to five fields, each any of the edges. */
const edgeRaw = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...EDGES)), {
    minLength: 1,
    maxLength: 5,
    selector: ([key]) => key,
  })
  .map((entries) => {
    const raw: Record<string, unknown> = {};
    for (const [key, value] of entries)
      Object.defineProperty(raw, key, { value, enumerable: true, writable: true, configurable: true });
    return raw;
  });

/** A valid manifest with one to three fields changed to an edge. */
const editedRaw = fc.tuple(edgeRaw, fc.boolean()).map(([edits, drop]) => {
  const raw = rawOf(VALID_MANIFEST);
  for (const key of Object.keys(edits))
    Object.defineProperty(raw, key, { value: edits[key], enumerable: true, writable: true, configurable: true });
  if (drop) delete raw.size;
  return raw;
});

describe('isDownloadKey', () => {
  it('takes any download key but a SHA-256 in capitals, whatever the shortcut for a lowercase one', () => {
    // The rule as written: a download key, and not 64 hex characters with a capital among them.
    const rule = (v: string) =>
      DOWNLOAD_KEY.test(v) && !(v.length === 64 && /^[0-9a-fA-F]{64}$/.test(v) && /[A-F]/.test(v));
    const key = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgz.-/ '), minLength: 62, maxLength: 66 }),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
      fc.string({ maxLength: 300 }),
    );
    fc.assert(
      fc.property(key, (v) => isDownloadKey(v) === rule(v)),
      { seed: SEED, numRuns: 20_000 },
    );
  });
});

describe('plainFields: zod without its machinery', () => {
  it('knows the keys of the schema, in its order, without building it', () => {
    expect(MANIFEST_KEYS).toEqual(Object.keys(manifestSchema().shape));
  });

  it('reads a valid manifest itself, as zod does', () => {
    const raw = rawOf(VALID_MANIFEST);
    expect(plainFields(raw)).toBeDefined();
    expect(agreesWithZod(raw)).toBe(true);
    // Unquoted whole numbers where text is expected become their digits, as zod's preprocessing has them.
    const numbers = { ...raw, android_version: 14, api_level: 34, incremental: 20241108 };
    expect(plainFields(numbers)).toMatchObject({ android_version: '14', api_level: '34', incremental: '20241108' });
    expect(agreesWithZod(numbers)).toBe(true);
  });

  it('leaves to zod what it does not take: unknown keys, wrong values, and the fields the table leaves to zod', () => {
    const raw = rawOf(VALID_MANIFEST);
    const zodOnly = FIELD_ROWS.filter(([, field]) => field.plain === ZOD_ONLY).map(([name]) => ({ [name]: [] }));
    for (const edit of [
      { md5: 'x' },
      { version: 2.5 },
      { timestamp: 1731067200000 },
      { id: 'A'.repeat(64) },
      ...zodOnly,
      { display_version: '' },
      { changes: '\u202e' },
    ]) {
      expect(plainFields({ ...raw, ...edit }), JSON.stringify(edit)).toBeUndefined();
    }
  });

  it('answers as zod does for every value at the edges of its checks', () => {
    fc.assert(fc.property(edgeRaw, agreesWithZod), { seed: SEED, numRuns: 20_000 });
    fc.assert(fc.property(editedRaw, agreesWithZod), { seed: SEED, numRuns: 20_000 });
  });

  it('answers as zod does for the generated catalogs, and takes most of their manifests itself', () => {
    let taken = 0;
    let all = 0;
    fc.assert(
      fc.property(catalogArbitrary, (catalog) => {
        for (const manifest of catalog.manifests) {
          const raw = rawOf(manifest.bytes);
          agreesWithZod(raw);
          all++;
          if (plainFields(raw)) taken++;
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    expect(all).toBeGreaterThan(300);
    expect(taken / all).toBeGreaterThan(0.5);
  });
});
