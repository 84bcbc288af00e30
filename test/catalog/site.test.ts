// content/site.yaml: configure only what you use. Lists default from the declared channels, and
// `hosts` says which hosts' rule files are written (and netlify.toml checked).
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite, plainSettings, SITE_KEYS, siteSchema } from '../../src/catalog/site.js';
import { readYamlSource } from '../../src/catalog/yaml-source.js';
import { catalogArbitrary, SEED } from '../helpers/arbitraries.js';

const BASE = 'download_base_url: https://dl.example.org\n';
const listsOf = (text: string) => parseSite(BASE + text).site?.lists.map((l) => `${l.name} ← ${l.channels.join(', ')}`);

describe('the settings keys', () => {
  it('are those of the schema, in its order, known without building it', () => {
    expect(SITE_KEYS).toEqual(Object.keys(siteSchema().shape));
  });
});

// plainSettings reads plain settings without zod; whatever it answers must be what zod answers,
// key for key and in the same order (the order of `lists` is the order of the output's lists).
describe('plainSettings: zod without its machinery', () => {
  /** `plainSettings` answers `undefined` (zod decides) or exactly zod's settings. */
  const agreesWithZod = (raw: Record<string, unknown>) => {
    const plain = plainSettings(raw);
    if (plain === undefined) return true;
    const parsed = siteSchema().safeParse(raw);
    expect(parsed.success, `zod refuses what plainSettings takes: ${JSON.stringify(raw)}`).toBe(true);
    // Node's comparison: vitest's toStrictEqual compares `.constructor`, which is a list's own
    // property when a list is named `constructor`.
    expect(
      isDeepStrictEqual(plain, parsed.data),
      `${JSON.stringify(plain)} against zod's ${JSON.stringify(parsed.data)}`,
    ).toBe(true);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data));
    return true;
  };
  const rawOf = (text: string) => readYamlSource(text, 'content/site.yaml').value as Record<string, unknown>;
  const words = [
    '',
    'a',
    'stable',
    'official',
    'dev',
    'Stable',
    '_x',
    '-x',
    'a-b_c',
    '0',
    '1',
    '10',
    'a b',
    'ä',
    'cloudflare',
    'netlify',
    'Netlify',
    'list',
    'omit',
    'empty',
    'changelog_url',
    '__proto__',
    'constructor',
  ];
  const urls = [
    'https://dl.example.org',
    'https://dl.example.org/builds',
    'http://x/a',
    'https://x.org/a b',
    'https://x.org/ä',
    'https://x.org/"q"',
    'https://x.org?q',
    'https://x.org/#f',
    'ftp://x',
    'https://',
    'https://u.example.org:8443/ota',
    'https://u.example.org/a%20b',
  ];
  const scalars: unknown[] = [...words, ...urls, true, false, null, 0, 1, 2.5, 'public, max-age=60'];
  const value: fc.Arbitrary<unknown> = fc.oneof(
    fc.constantFrom(...scalars),
    fc.array(fc.constantFrom(...scalars), { maxLength: 3 }),
    fc
      .uniqueArray(
        fc.tuple(
          fc.constantFrom(...words),
          fc.oneof(fc.array(fc.constantFrom(...words), { maxLength: 3 }), fc.constantFrom(...scalars)),
        ),
        { maxLength: 3, selector: ([key]) => key },
      )
      .map((entries) => {
        const lists: Record<string, unknown> = {};
        for (const [key, members] of entries)
          Object.defineProperty(lists, key, { value: members, enumerable: true, writable: true, configurable: true });
        return lists;
      }),
  );
  const rawOfUpTo = (most: number) =>
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...SITE_KEYS, 'site', 'list', '__proto__'), value), {
        minLength: 1,
        maxLength: most,
        selector: ([key]) => key,
      })
      .map((entries) => {
        const settings: Record<string, unknown> = {};
        for (const [key, v] of entries)
          Object.defineProperty(settings, key, { value: v, enumerable: true, writable: true, configurable: true });
        return settings;
      });
  const raw = rawOfUpTo(6);

  const PLAIN = `${BASE}channels: [stable, dev]\nlists:\n  stable: [stable]\n  all: [stable, dev]\nhosts: [netlify]\nv1_withdrawn: omit\nsite_url: https://ota.example.org\n`;
  /** Plain settings with one or two settings changed to an edge (or added). */
  const edited = rawOfUpTo(2).map((edits) => {
    const settings = rawOf(PLAIN);
    for (const key of Object.keys(edits))
      Object.defineProperty(settings, key, { value: edits[key], enumerable: true, writable: true, configurable: true });
    return settings;
  });

  it('reads plain settings itself, as zod does, and leaves the rest to zod', () => {
    const plain = rawOf(PLAIN);
    expect(plainSettings(plain)).toBeDefined();
    expect(agreesWithZod(plain)).toBe(true);
    for (const edit of [
      { download_base_url: 'ftp://x' },
      { channels: [] },
      { lists: { Stable: ['stable'] } },
      { hosts: ['apache'] },
      { unknown: 1 },
    ]) {
      expect(plainSettings({ ...plain, ...edit }), JSON.stringify(edit)).toBeUndefined();
    }
    const { download_base_url: _, ...missing } = plain;
    expect(plainSettings(missing)).toBeUndefined();
  });

  it('answers as zod does for every value at the edges of its checks', () => {
    let taken = 0;
    for (const settings of [raw, edited]) {
      fc.assert(
        fc.property(settings, (settings) => {
          if (plainSettings(settings)) taken++;
          return agreesWithZod(settings);
        }),
        { seed: SEED, numRuns: 20_000 },
      );
    }
    expect(taken).toBeGreaterThan(500);
  });

  it('takes the settings of the generated catalogs, as zod does', () => {
    fc.assert(
      fc.property(catalogArbitrary, (catalog) => {
        const settings = rawOf(catalog.siteText);
        expect(plainSettings(settings)).toBeDefined();
        return agreesWithZod(settings);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('the lists of a site that names none', () => {
  it.each([
    [
      'no channels either: the interface lists',
      '',
      ['stable ← stable, official', 'official ← official', 'dev ← dev, community', 'community ← community'],
    ],
    [
      'channels of another ROM: one list each',
      'channels: [nightly, unofficial]\n',
      ['nightly ← nightly', 'unofficial ← unofficial'],
    ],
    [
      'the interface channels: the interface lists',
      'channels: [stable, official, dev, community]\n',
      ['stable ← stable, official', 'official ← official', 'dev ← dev, community', 'community ← community'],
    ],
    [
      'some interface channels: only the declared ones are collected',
      'channels: [stable, dev, nightly]\n',
      ['stable ← stable', 'dev ← dev', 'nightly ← nightly'],
    ],
    [
      'a channel named like an Object property',
      'channels: [constructor, stable, official]\n',
      ['constructor ← constructor', 'stable ← stable, official', 'official ← official'],
    ],
  ])('%s', (_, text, lists) => {
    expect(parseSite(BASE + text).problems.map(formatProblem)).toEqual([]);
    expect(listsOf(text)).toEqual(lists);
  });

  it('lists written out are kept as written', () => {
    expect(listsOf('channels: [nightly, unofficial]\nlists:\n  all: [nightly, unofficial]\n')).toEqual([
      'all ← nightly, unofficial',
    ]);
  });
});

describe('hosts', () => {
  it.each([
    ['the default: every host', '', ['cloudflare', 'netlify', 'github-pages']],
    ['Cloudflare only', 'hosts: [cloudflare]\n', ['cloudflare']],
    ['Netlify only', 'hosts:\n  - netlify\n', ['netlify']],
    ['GitHub Pages only', 'hosts: [github-pages]\n', ['github-pages']],
  ])('%s', (_, text, hosts) => {
    expect(parseSite(BASE + text)).toEqual({ site: expect.objectContaining({ hosts }), problems: [] });
  });

  it.each([
    [
      'an unknown host',
      'hosts: [cloudflare, vercel]\n',
      [
        'content/site.yaml:2:21  hosts.1  expected a host otapress writes rules for: cloudflare or netlify or github-pages',
      ],
    ],
    [
      'a host named twice',
      'hosts: [netlify, cloudflare, netlify]\n',
      ['content/site.yaml:2:30  hosts.2  host `netlify` is listed twice'],
    ],
    [
      'no host',
      'hosts: []\n',
      ['content/site.yaml:2:8  hosts  name at least one host (cloudflare, netlify, github-pages)'],
    ],
    [
      'not a list',
      'hosts: cloudflare\n',
      ['content/site.yaml:2:1  hosts  expected the list of hosts this site deploys to, e.g. [cloudflare]'],
    ],
    [
      'an OPTIONS handler without Cloudflare',
      'hosts: [netlify]\noptions_handler: true\n',
      [
        'content/site.yaml:3:18  options_handler  the OPTIONS handler is a Cloudflare Pages _worker.js, and `hosts` has no cloudflare; remove options_handler or add cloudflare to hosts',
      ],
    ],
  ])('%s is a located problem', (_, text, problems) => {
    expect(parseSite(BASE + text).problems.map(formatProblem)).toEqual(problems);
  });
});

describe("the YAML reader's messages about site.yaml's shape", () => {
  it.each([
    [
      'several documents',
      'download_base_url: https://a.org/\n---\nchannels: [x]\n',
      [
        'content/site.yaml:2:1  (file)  the file holds several YAML documents (a `---` line); write the settings in one document',
      ],
    ],
    [
      'nesting deeper than any settings',
      `lists:\n${Array.from({ length: 20 }, (_, i) => `${' '.repeat(2 * i + 2)}a:`).join('\n')} 1\n`,
      [
        'content/site.yaml:18:35  lists.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a  nested more than 16 levels deep; site.yaml is a mapping of settings, its lists a level or two below',
      ],
    ],
  ])('speak of settings, not of a build, for %s', (_, text, expected) => {
    expect(parseSite(text).problems.map(formatProblem)).toEqual(expected);
  });
});
