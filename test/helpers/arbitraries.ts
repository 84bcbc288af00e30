import fc from 'fast-check';
import { Document } from 'yaml';
import type { Content, ManifestFile } from '../../src/catalog/read.js';

/**
 * fast-check generators for the property tests: valid catalogs (site settings and manifests as the
 * YAML a maintainer would write, in varied styles) and hostile manifest text.
 */

/** The seed of every property; override with FC_SEED=<n> to explore, and quote it in a failure report. */
export const SEED = Number(process.env.FC_SEED ?? 20261123);

/** A valid package manifest, the base that mutations start from. */
export const VALID_MANIFEST = `filename: e-2.5-a14-20241108446322-official-FP4.zip
version: "2.5"
channel: official
timestamp: 1731067200
android_version: "14"
incremental: eng.root.20241108.123456
md5sum: 0123456789abcdef0123456789abcdef
id: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
size: 1387003904
`;

/** One generated build before it is written as YAML. */
export interface GeneratedBuild {
  device: string;
  placeholder: boolean;
  fields: Record<string, unknown>;
}

/** A generated catalog: site settings and builds, written as the files of `content/`. */
export interface GeneratedCatalog {
  siteText: string;
  lists: Record<string, string[]>;
  builds: GeneratedBuild[];
  manifests: ManifestFile[];
}

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });

/** Platform part of a file name and the Android version it means (only pairs with a known API level). */
const PLATFORMS: [string, string][] = [
  ['n', '7'],
  ['p', '9'],
  ['q', '10'],
  ['r', '11'],
  ['s', '12'],
  ['t', '13'],
  ['u', '14'],
  ['a14', '14'],
  ['a15', '15'],
  ['a16', '16'],
];

const CHANNEL_POOL = ['stable', 'official', 'dev', 'community', 'nightly', 'beta_2', 'x'];

/** Device code names as published (case kept), with dots, dashes and underscores; a suffix keeps them varied. */
const deviceName = fc
  .tuple(fc.constantFrom('FP4', 'starlte', 'a', 'Z9', 'dev.ice', 'x_1-y', 'sargo', 'R5x', 'q.b_c'), fc.nat(30))
  .map(([name, n]) => (n < 10 ? name : `${name}${n}`));

/** Text a maintainer may put in free fields: anything, including control characters and emoji. */
const freeText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom('', 'null', '~', 'true', '2.10', '- x', 'a: b', '#c'),
);

const timestamp = fc.integer({ min: 1230768000, max: 4102444799 });

/**
 * The lists a site gets when it names channels but no lists (README, "Site settings"): one per
 * channel, named after it, collecting the channels the interface puts in that list when declared.
 */
function listsForChannels(channels: readonly string[]): Record<string, string[]> {
  const INTERFACE_LISTS: Record<string, string[]> = { stable: ['stable', 'official'], dev: ['dev', 'community'] };
  return Object.fromEntries(channels.map((c) => [c, (INTERFACE_LISTS[c] ?? [c]).filter((m) => channels.includes(m))]));
}

/** Site settings: some channels, and lists that each collect some of them (or the default lists). */
const siteArbitrary = fc
  .record({
    channels: fc.shuffledSubarray(CHANNEL_POOL, { minLength: 1 }),
    listNames: fc.uniqueArray(fc.constantFrom('stable', 'official', 'dev', 'community', 'nightly', 'all', 'l-2'), {
      minLength: 1,
      maxLength: 4,
    }),
    seed: fc.array(fc.boolean(), { minLength: 28, maxLength: 28 }),
    base: fc.constantFrom(
      'https://dl.example.org',
      'https://dl.example.org/builds/full/',
      'http://mirror.example.net/a_b-c',
    ),
    cache: fc.option(fc.constantFrom('no-cache', 'public, max-age=60'), { nil: undefined }),
    defaults: fc.boolean(),
    omitLists: fc.boolean(),
  })
  .map(({ channels, listNames, seed, base, cache, defaults, omitLists }) => {
    if (defaults) {
      const lists = {
        stable: ['stable', 'official'],
        official: ['official'],
        dev: ['dev', 'community'],
        community: ['community'],
      };
      return {
        channels: ['stable', 'official', 'dev', 'community'],
        lists: lists as Record<string, string[]>,
        text: `download_base_url: ${base}\n`,
      };
    }
    if (omitLists)
      return {
        channels,
        lists: listsForChannels(channels),
        text: new Document({ download_base_url: base, channels }).toString(),
      };
    const lists: Record<string, string[]> = {};
    listNames.forEach((name, i) => (lists[name] = channels.filter((_, j) => seed[(i * 7 + j) % seed.length])));
    const doc = { download_base_url: base, channels, lists, ...(cache && { cache_control: cache }) };
    return { channels, lists, text: new Document(doc).toString() };
  });

function buildArbitrary(device: string, channels: string[], listNames: string[]): fc.Arbitrary<GeneratedBuild> {
  const common = {
    // Now and then a major number beyond Java's int, which the v2 updater cannot read.
    version: fc
      .tuple(
        fc.oneof(
          { arbitrary: fc.nat(99), weight: 19 },
          { arbitrary: fc.integer({ min: 2 ** 31, max: 2 ** 40 }), weight: 1 },
        ),
        fc.nat(99),
        fc.option(fc.nat(9), { nil: undefined }),
      )
      .map(([a, b, c]) => `${a}.${b}${c === undefined ? '' : `.${c}`}`),
    channel: fc.constantFrom(...channels),
    timestamp,
    platform: fc.constantFrom(...PLATFORMS),
    lists: fc.option(fc.shuffledSubarray(listNames), { nil: undefined }),
    changes: fc.option(freeText, { nil: undefined }),
    is_upgrade_supported: fc.option(fc.boolean(), { nil: undefined }),
    display_version: fc.option(
      freeText.filter((t) => t.length > 0),
      { nil: undefined },
    ),
  };
  const pkg = fc
    .record({
      ...common,
      date: fc.integer({ min: 20090101, max: 20991231 }),
      number: fc.stringMatching(/^\d{0,6}$/),
      disabled: fc.boolean(),
      incremental: fc.oneof(fc.constant(''), timestamp.map(String), fc.constant('eng.root.20241108.123456'), timestamp),
      md5sum: hex(32),
      id: hex(64),
      size: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 42 })),
      url: fc.option(
        fc.constantFrom('https://github.com/o/r/releases/download/v1/a.zip', 'http://x.example/%20a?b=c#d'),
        { nil: undefined },
      ),
      ota_type: fc.option(fc.constantFrom('AB', 'BLOCK'), { nil: undefined }),
      os_patch_level: fc.option(fc.constant('2024-11-05'), { nil: undefined }),
    })
    .map(({ platform: [platform, android], date, number, disabled, ...f }) => ({
      device,
      placeholder: false,
      fields: prune({
        filename: `e-${f.version}-${platform}-${date}${number}-${f.channel}-${device}${disabled ? '.disabled' : ''}.zip`,
        version: f.version,
        channel: f.channel,
        timestamp: f.timestamp,
        android_version: android,
        incremental: f.incremental,
        md5sum: f.md5sum,
        id: f.id,
        size: f.size,
        // One address, one file: each build's own (the two shapes kept, named after its id).
        url: f.url?.replace(/\/(%20)?a(?=\.zip|\?)/, (_, space = '') => `/${space}${f.id.slice(0, 12)}`),
        display_version: f.display_version,
        changes: f.changes,
        is_upgrade_supported: f.is_upgrade_supported,
        lists: f.lists,
        ota_type: f.ota_type,
        os_patch_level: f.os_patch_level,
      }),
    }));
  const placeholder = fc
    .record({ ...common, md5sum: fc.option(hex(32), { nil: undefined }), emptyPackageFields: fc.boolean() })
    .map(({ platform: [, android], md5sum, emptyPackageFields, ...f }) => ({
      device,
      placeholder: true,
      fields: prune({
        placeholder: true,
        version: f.version,
        channel: f.channel,
        timestamp: f.timestamp,
        android_version: android,
        display_version: f.display_version ?? `${f.version}-placeholder`,
        md5sum,
        changes: f.changes,
        lists: f.lists,
        ...(emptyPackageFields && { filename: '', id: '', size: '' }),
      }),
    }));
  return fc.oneof({ arbitrary: pkg, weight: 4 }, { arbitrary: placeholder, weight: 1 });
}

/** Valid catalogs: 1–3 devices (names unique ignoring case) with 0–4 builds each, unique ids and file names. */
export const catalogArbitrary: fc.Arbitrary<GeneratedCatalog> = siteArbitrary.chain((site) => {
  const listNames = Object.keys(site.lists);
  const collected = site.channels.filter((c) => listNames.some((l) => site.lists[l].includes(c)));
  return fc
    .uniqueArray(deviceName, { minLength: 1, maxLength: 3, selector: (d) => d.toLowerCase() })
    .chain((devices) =>
      fc.tuple(
        ...devices.map((device) => fc.array(buildArbitrary(device, site.channels, listNames), { maxLength: 4 })),
      ),
    )
    .chain((perDevice) => {
      const builds = dedupe(perDevice.flat()).map((b) =>
        // A build whose channel no list collects needs `lists` of its own, or no phone would see it.
        !b.fields.lists && !collected.includes(String(b.fields.channel))
          ? { ...b, fields: { ...b.fields, lists: [] } }
          : b,
      );
      return fc
        .array(fc.tuple(yamlStyleArbitrary, fc.nat()), { minLength: builds.length, maxLength: builds.length })
        .map((styles) => {
          const manifests = builds.map((b, i) => ({
            file: `content/${b.device}/m${i}.yaml`,
            device: b.device,
            bytes: Buffer.from(writeYaml(b.fields, styles[i][0], styles[i][1])),
          }));
          return { siteText: site.text, lists: site.lists, builds, manifests };
        });
    });
});

/** The content a build would read for a generated catalog, manifests in the given order. */
export function contentOf(catalog: GeneratedCatalog, manifests = catalog.manifests): Content {
  return {
    site: Buffer.from(catalog.siteText),
    manifests,
    devices: [...new Set(catalog.manifests.map((m) => m.device))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    problems: [],
  };
}

/** How a maintainer might write the same fields: quoting, key order, line endings, a BOM. */
interface YamlStyle {
  quote: 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';
  crlf: boolean;
  bom: boolean;
  flowLists: boolean;
  comment: boolean;
}

const yamlStyleArbitrary: fc.Arbitrary<YamlStyle> = fc.record({
  quote: fc.constantFrom('PLAIN' as const, 'QUOTE_DOUBLE' as const, 'QUOTE_SINGLE' as const),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  flowLists: fc.boolean(),
  comment: fc.boolean(),
});

function writeYaml(fields: Record<string, unknown>, style: YamlStyle, order: number): string {
  const keys = Object.keys(fields);
  const rotated = [...keys.slice(order % keys.length), ...keys.slice(0, order % keys.length)];
  const doc = new Document(Object.fromEntries(rotated.map((k) => [k, fields[k]])));
  let text = doc.toString({
    defaultStringType: style.quote,
    defaultKeyType: 'PLAIN',
    collectionStyle: style.flowLists ? 'flow' : 'any',
    lineWidth: 0,
  });
  if (style.comment) text = `# generated build\n${text}`;
  if (style.crlf) text = text.replace(/\n/g, '\r\n');
  return style.bom ? `\ufeff${text}` : text;
}

/**
 * Keeps the first build of each id and of each file name per device, as a real catalog must, and
 * the first placeholder of each display_version (what tells placeholders apart, e.g. on import).
 */
function dedupe(builds: GeneratedBuild[]): GeneratedBuild[] {
  const seen = new Set<string>();
  return builds.filter((b) => {
    const keys = b.placeholder
      ? [`placeholder ${b.device} ${b.fields.display_version}`]
      : [`id ${b.device} ${b.fields.id}`, `file ${b.device} ${b.fields.filename}`];
    if (keys.some((k) => seen.has(k))) return false;
    keys.forEach((k) => seen.add(k));
    return true;
  });
}

function prune(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

// --- hostile text ---

/** Pieces of YAML syntax that mutations insert: indicators, anchors, tags, document markers. */
const YAML_BITS = [
  ':',
  ': ',
  '-',
  '- ',
  '[',
  ']',
  '{',
  '}',
  '&a ',
  '*a',
  '!!binary ',
  '!x ',
  '#',
  '"',
  "'",
  '\t',
  '\n',
  '\r\n',
  '---\n',
  '...\n',
  '? ',
  '|',
  '>',
  '%YAML 1.1\n',
  '\ufeff',
  '\u0000',
  '<<: *a\n',
  '__proto__: ',
  'constructor: ',
];

/** A valid manifest changed by a few random edits: inserted syntax, deleted ranges, repeated lines. */
export const mutatedManifest: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        text: fc.oneof(fc.constantFrom(...YAML_BITS), fc.string({ maxLength: 4 })),
      }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
      fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((edits) => {
    let text = VALID_MANIFEST;
    for (const edit of edits) {
      const at = edit.at % (text.length + 1);
      if (edit.kind === 'insert') text = text.slice(0, at) + edit.text + text.slice(at);
      else if (edit.kind === 'delete') text = text.slice(0, at) + text.slice(at + edit.length);
      else {
        const lines = text.split('\n');
        const i = edit.at % lines.length;
        lines.splice(i, 0, lines[i]);
        text = lines.join('\n');
      }
    }
    return text;
  });

/** Arbitrary YAML documents: any JSON-like value, and mappings of manifest keys to values of any type. */
export const randomYaml: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => new Document(v).toString()),
  fc
    .dictionary(
      fc.constantFrom(
        'filename',
        'version',
        'channel',
        'timestamp',
        'android_version',
        'incremental',
        'md5sum',
        'id',
        'size',
        'url',
        'lists',
        'placeholder',
        'display_version',
        'api_level',
        'datetime',
        'changes',
        'is_upgrade_supported',
        'ota_type',
        'x',
      ),
      fc.oneof(
        fc.jsonValue({ maxDepth: 1 }),
        fc.constantFrom('2.10', '1731067200', '', 'yes', '0123456789abcdef0123456789abcdef'),
      ),
    )
    .map((v) => new Document(v).toString()),
);
