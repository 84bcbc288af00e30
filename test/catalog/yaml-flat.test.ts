import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isPair, isScalar, parseDocument, type Node } from 'yaml';
import { readFlatYaml } from '../../src/catalog/yaml-flat.js';
import { composeYamlSource, readYamlSource } from '../../src/catalog/yaml-source.js';
import { manifest } from '../bench/catalog.js';
import { SEED } from '../helpers/arbitraries.js';
import { EXAMPLE } from '../helpers/helpers.js';

// The fast reader must agree with the `yaml` package on every text it accepts (value, key and value
// positions), and must hand every text it cannot read exactly back to `yaml`.

const examples = readdirSync(path.join(EXAMPLE, 'content'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => [`content/${f}`, readFileSync(path.join(EXAMPLE, 'content', f), 'utf8')] as const);

// Every shape the benchmark's catalog generator writes: comments, placeholders, lists, flags.
const generated = Array.from({ length: 600 }, (_, b) => {
  const { name, text } = manifest(b % 7, b, 600);
  return [name, text] as const;
});

const plainValues = [
  '2.10',
  '2.5',
  '1e5',
  '1E5',
  '3361bcbfccc8d0ca7ae1dab8fec4d47d',
  '123e4567',
  '0x1F',
  '0o17',
  '017',
  '+12',
  '-3',
  '-0',
  '0',
  '00',
  '1.',
  '.5',
  '1.0e+3',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  'yes',
  'no',
  'on',
  'off',
  'y',
  '2024-11-05',
  '12:30',
  '1_000',
  '9007199254740993',
  '99999999999999999999',
  'a#b',
  'http://x/y#z',
  'https://images.example.org/b',
  'a:b',
  'eng.root.20241108.123456',
  'e-2.5-a14-20241108446322-official-FP4.zip',
  'a b  c',
  'x{y}',
  'x[y]',
  'a,b',
  '-1',
  '-x',
  '~x',
  '.',
  '..',
  '+',
  '/abs',
  'a]',
  'x}',
  // Starting with a letter: text unless a null or bool word (the reader's shortcut).
  'n',
  'N',
  'nan',
  'NaN',
  'inf',
  'Inf',
  'Infinity',
  'e5',
  'E5',
  'x1',
  'True1',
  'nulls',
  'Nulls',
  'FALSEx',
  'o17',
  'x1F',
  'Z',
  'zz9',
];
const rawValues = [
  ...plainValues,
  '"quoted"',
  '"2.10"',
  "'single'",
  "'it''s'",
  '"esc\\"x"',
  '"tab\\tx"',
  '"a" # c',
  "'a' # c",
  '"x"y',
  '""',
  "''",
  '"a#b"',
  '"a: b"',
  'a # comment',
  'a #',
  'x   ',
  'a: b',
  '- a',
  '-',
  '? x',
  '?',
  ': x',
  '&anchor x',
  '*alias',
  '!tag x',
  '!!str 1',
  '|',
  '>',
  '|-',
  '%x',
  '@x',
  '`x',
  '{a: 1}',
  '{}',
  '[a, b]',
  '[]',
  '[ ]',
  '[a,]',
  '[,]',
  '[a, [b]]',
  '[a, "b"]',
  "['a']",
  '[1, true, null, 2.10, ~]',
  '[a b, c]',
  '[a:b]',
  '[a: b]',
  '[a] # c',
  '[a] y',
  '[a]]',
  '[a, b',
  '[-, a]',
  '[- a]',
  '[a #b]',
  '[stable, official]',
  '#x',
  'a\tb',
  'ü',
  'a\rb',
];

const texts: (readonly [string, string])[] = [
  ...examples,
  ...generated,
  ...rawValues.map((v) => [`value ${v}`, `filename: x.zip\nvalue: ${v}\nsize: 1\n`] as const),
  ...rawValues.map((v) => [`last value ${v} without newline`, `value: ${v}`] as const),
  ...[
    '',
    '\n',
    '# only a comment\n',
    '---\na: 1\n',
    'a: 1\n---\nb: 2\n',
    'a: 1\n...\n',
    'a: 1\n  b: 2\n',
    'a: 1\nb\n',
    'a: 1\r\nb: 2\r\n',
    '\ufeffa: 1\n',
    '  a: 1\n',
    'a:1\n',
    'a:  two spaces\n',
    'a:\n',
    'a: \n',
    'a:\n  - x\n',
    'a: 1\na: 2\n',
    'null: 1\n',
    'true: x\n',
    '__proto__: x\n',
    '1: x\n',
    'A: x\n',
    'a-b: x\n',
    '"a": x\n',
    `${'k'.repeat(1100)}: x\n`,
    `${'k'.repeat(1020)}: x\n`,
    '# c\n\na: 1\n\n# d\n',
    'a: x\n# c\n b: y\n',
    'a: 1\n\tb: 2\n',
    'a: multi\nline\n',
    'a: x\n  continued\n',
    'a: >\n  folded\n',
    'a: &x 1\nb: *x\n',
    '%YAML 1.2\n---\na: 1\n',
    '- a\n- b\n',
    'just text\n',
    'a: [x,\n  y]\n',
    'a: "x\n  y"\n',
    'a: 1 #c\nb: 2 # d\n',
    // Literal blocks (changelogs): the reader takes the plain shape and leaves the rest to yaml.
    'a: |\n  x\n',
    'a: |\n  x\n  y\nb: 1\n',
    'a: |\n  x\n\n  - y\n    z # not a comment\n\n\nb: 1\n',
    'a: |\n  x\n',
    'a: |\n  x',
    'a: |\n\n  x\n',
    'a: |\n  x\n \n  y\n',
    'a: |\n    x\n  y\n',
    'a: |\n  x\n y\n',
    'a: |\nb: 1\n',
    'a: |\n',
    'a: |-\n  x\n',
    'a: |2\n  x\n',
    'a: | # c\n  x\n',
    'a: |\n  # x\n  b: c\n---\n',
    'a: |\n   x\n  y\n',
    'a: |\n  x\n    y\n',
    'a: |\n  x\n\n',
    // The indentation comes off after every newline, and only there; trailing blank lines go, inner ones stay.
    'a: |\n    x\n    y\nb: 1\n',
    'a: |\n  x\n\n\n    y\n  z\n\n\nb: 1\n',
    'a: |\n  x  y\n  - a  b\n',
    'a: |\n  x\n\n\n',
    'a: |\n  x\n\n  \n',
    'a: |\n  x\n\n y\n',
    'a: |\n  one line of more than thirteen characters\nb: |\n     x\n     y\n',
    // A mapping one level down (site.yaml's lists): the reader takes lines of one indentation, each a flat `key: value`.
    'lists:\n  stable: [stable, official]\n  dev: [dev]\n',
    'a: 1\nlists:\n  x: 1\n  y: two\nb: 2\n',
    'a:\n  b: 1\n\n  c: 2\nd: 3\n',
    'a:\n  b: 1\n\n\nd: 3',
    'a:\n  b: 1\n   c: 2\n',
    'a:\n  b: 1\n c: 2\n',
    'a:\n  b: 1\n    c: 2\n',
    'a:\n  # c\n  b: 1\n',
    'a:\n  b: 1\n  # c\n',
    'a:\n  b:\n    c: 1\n',
    'a:\n  b: |\n    x\n',
    'a:\n  - x\n',
    'a:\n  b: 1\n  b: 2\n',
    'a:\n  null: 1\n',
    'a:\n  true: 1\n',
    'a:\n  __proto__: 1\n',
    'a:\n\n  b: 1\n',
    'a:\nb: 1\n',
    'a:\n  b: 1',
    'a:',
    'a:\n',
    'a: \n  b: 1\n',
    'a:  \n  b: 1\n',
    'a: # c\n  b: 1\n',
    'a:\n  b: 1\n  \n  c: 2\n',
    'a:\n    b: 1\n    c: [x, y]\n',
    'a:\n  b: 1 # c\n',
    'a:\n  b: "q"\n  c: \'r\'\n',
    'a:\n  b: 1\n# c\n  c: 2\n',
    'a:\n  b: 1\na:\n  c: 2\n',
    'a:\n  b:1\n',
    'a:\n  b:  x\n',
    'a:\n  B: x\n',
    'a:\n  b-c: x\n',
    'a:\n  b: x\n  continued\n',
    'a:\n  b: x\n    continued\n',
    'a:\n  b: [x,\n    y]\n',
    'a:\n  b: 1\nc:\n  d: 2\n',
    'a:\n\tb: 1\n',
  ].map((t) => [JSON.stringify(t), t] as const),
];

const options = { prettyErrors: false, uniqueKeys: true, strict: true } as const;

describe('the flat YAML reader agrees with the yaml package', () => {
  it.each(texts)('%s', (_, text) => {
    const flat = readFlatYaml(text);
    const doc = parseDocument(text, options);
    if (flat === undefined) return; // `yaml` reads it; nothing to compare.
    expect(doc.errors).toEqual([]);
    expect(flat.value).toEqual(doc.toJS());
    expect(isMap(doc.contents)).toBe(true);
    const map = doc.contents as unknown as { items: unknown[]; range: [number, number, number] };
    expect(flat.start).toBe(map.range[0]);
    const positions = map.items.map((pair) => {
      if (!isPair(pair) || !isScalar(pair.key)) throw new Error('not a flat mapping');
      return [String(pair.key.value), { key: pair.key.range![0], value: (pair.value as Node).range![0] }];
    });
    expect([...flat.offsets]).toEqual(positions);
  });

  it("reads site.yaml itself, as init writes it and as the example has it: a build's first YAML document", async () => {
    const { siteYaml } = await import('../../src/commands/init-files.js');
    const sites = [...examples.filter(([f]) => f === 'content/site.yaml').map(([, text]) => text), siteYaml()];
    expect(sites.length).toBe(2);
    for (const text of sites) expect(readFlatYaml(text)?.value).toEqual(parseDocument(text, options).toJS());
  });

  it('reads nearly every manifest itself (otherwise it would not be worth having)', () => {
    // Device files (device.yaml) have nested lists, and a build's other files (`files:`, a list of
    // mappings) are rare enough: the full parser reads both.
    const manifests = [
      ...examples.filter(
        ([f, text]) => f !== 'content/site.yaml' && !f.endsWith('/device.yaml') && !text.includes('\nfiles:\n'),
      ),
      ...generated,
    ];
    expect(manifests.filter(([, text]) => readFlatYaml(text) === undefined).map(([name]) => name)).toEqual([]);
  });

  it.each([
    ['version: 2.10\n', '2.10 is the number 2.1'],
    ['md5sum: 123e4567\n', 'a float'],
    ['size: 0x1F\n', 'hex'],
    ['placeholder: True\n', 'a boolean'],
    ['channel: ~\n', 'null'],
  ])('types %j as yaml does (%s)', (text) => {
    expect(readFlatYaml(text)!.value).toEqual(parseDocument(text, options).toJS());
  });
});

describe('the flat YAML reader on generated texts', () => {
  // Lines of keys, values, comments and blank lines drawn from the pieces that change the reading
  // (spaces, quotes, `#`, `:`, brackets, digits with `.eE+-xo`), joined with or without a final newline.
  const scalar = fc.oneof(
    fc.constantFrom(...plainValues),
    fc.stringMatching(/^[0-9][0-9a-fxoeE.+-]{0,12}$/),
    fc.stringMatching(/^[0-9]{1,25}$/),
    fc.stringMatching(/^[a-z0-9 #:.'"\[\],{}\\-]{1,12}$/),
  );
  const value = fc.oneof(
    scalar,
    scalar.map((v) => `"${v}"`),
    scalar.map((v) => `'${v}'`),
    fc.array(scalar, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    fc.tuple(scalar, fc.constantFrom(' #', '  # c', ' ', '#', ' #x')).map(([v, c]) => v + c),
  );
  const pair = fc
    .tuple(
      fc.constantFrom('a', 'b', 'id', 'size', 'k_1', '_x', 'null', 'A', 'a-b'),
      fc.constantFrom(': ', ':  ', ':'),
      value,
    )
    .map(([k, sep, v]) => k + sep + v);
  // A key alone on its line and lines below it, mostly at one indentation (a mapping one level down).
  const below = fc
    .tuple(
      fc.constantFrom('m', 'lists', 'a'),
      fc.array(fc.tuple(fc.constantFrom(2, 2, 2, 4, 1, 3), fc.oneof(pair, fc.constantFrom('', '# c', '- x'))), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([k, lines]) => `${k}:\n${lines.map(([indent, l]) => (l === '' ? '' : ' '.repeat(indent) + l)).join('\n')}`);
  const line = fc.oneof(
    { weight: 6, arbitrary: pair },
    { weight: 2, arbitrary: below },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '# comment',
        ' # indented',
        '  a: 1',
        'a: |',
        '  text',
        'm:',
        'lists:',
        '  x: [a, b]',
        '   y: 1',
        '  z: |',
        '  - a',
      ),
    },
  );
  const text = fc
    .tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean())
    .map(([lines, newline]) => lines.join('\n') + (newline ? '\n' : ''));

  it('reads what yaml reads, at the same positions, or leaves the text to yaml', () => {
    let read = 0;
    let nested = 0;
    fc.assert(
      fc.property(text, (t) => {
        const flat = readFlatYaml(t);
        if (flat === undefined) return;
        read++;
        if (Object.values(flat.value).some((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) nested++;
        const doc = parseDocument(t, options);
        expect(doc.errors).toEqual([]);
        expect(flat.value).toEqual(doc.toJS());
        const map = doc.contents as unknown as { items: { key: Node; value: Node }[]; range: [number, number, number] };
        expect(flat.start).toBe(map.range[0]);
        expect([...flat.offsets]).toEqual(
          map.items.map((pair) => [
            String((pair.key as unknown as { value: unknown }).value),
            { key: pair.key.range![0], value: pair.value.range![0] },
          ]),
        );
      }),
      { seed: SEED, numRuns: 20000 },
    );
    expect(read).toBeGreaterThan(1000);
    expect(nested).toBeGreaterThan(50);
  });
});

describe('a source read by the flat reader locates fields like one composed by yaml', () => {
  const paths: [PropertyKey[], boolean][] = [
    [[], false],
    [['filename'], false],
    [['filename'], true],
    [['id'], false],
    [['size'], true],
    [['lists'], false],
    [['lists', 1], false],
    [['missing'], false],
    [['missing'], true],
    [['lists', 7], false],
    [['lists'], true],
    [['lists', 'stable'], false],
    [['lists', 'stable'], true],
    [['lists', 'stable', 1], false],
    [['lists', 'missing'], true],
  ];
  it.each([...examples, ...generated.slice(0, 60)])('%s', (file, text) => {
    const fast = readYamlSource(text, file);
    const full = composeYamlSource(text, file);
    expect(fast.value).toEqual(full.value);
    expect(fast.problems).toEqual(full.problems);
    for (const [p, key] of paths) expect([p, key, fast.locate(p, { key })]).toEqual([p, key, full.locate(p, { key })]);
    for (const [p] of paths) expect(fast.sourceText(p)).toBe(full.sourceText(p));
  });
});
