/**
 * Which updaters read a listing of each shape, and with which parser: the table `import` goes by
 * when a listing is not strict JSON. The shape is found by reading the text as leniently as any
 * phone does; the file is then read by every reader of that shape whose file the site publishes
 * (all of them when it publishes none), and the import takes the strictest one's reading (each
 * shape's first), so that what it accepts every phone it serves reads as the import does, and says
 * where the others differ. Pure.
 */
import { isCrDroidRecord } from './other-formats.js';
import { isSingleBuild } from './source-shapes.js';
import { readLenientJson, type JsonReader, type KxType, type LenientRead } from './lenient-json.js';
import type { JsonLocator } from './locate-json.js';

/** What reading a listing that JSON.parse refused gives: the value and a note, or a refusal; each at its line and column. */
export type ListingText =
  | { ok: true; value: unknown; locate: JsonLocator; note?: { line: number; col: number; message: string } }
  | { ok: false; line: number; col: number; message: string };

/**
 * Reads a listing that is not strict JSON (`text` without its byte order mark; `bom` whether it
 * had one) as the strictest reader of its shape does. A file of no shape a phone reads comes back
 * as read, for the import to say what it is.
 */
export function readListingText(text: string, bom: boolean, published: readonly string[] = []): ListingText {
  const shape = findShape(text, bom);
  if (shape.kind === undefined) {
    if (shape.read.ok) return { ok: true, value: shape.read.value, locate: shape.read.locate };
    const { line, col, reason } = shape.read;
    return {
      ok: false,
      line,
      col,
      message: `not JSON that any updater reads: ${reason}; org.json, the most lenient parser phones use, fails here too, so phones get nothing from this file: correct it and import again`,
    };
  }
  const { name, readers } = SHAPES[shape.kind];
  // The readers of the file otapress will publish in this shape: a site that writes its crDroid-family
  // file only for the Java updaters (`crdroid-java`) need not refuse what crDroid's Kotlin updater alone refuses.
  const theSites = readers.filter((r) => r.dialects.some((d) => d === 'v1' || published.includes(d)));
  return readAsShape(text, bom, { name, readers: theSites.length > 0 ? theSites : readers });
}

// --- internal ---

/**
 * Reads the file as the shape's strictest reader does, then each other one in turn, keeping only
 * whether it reads the file and where it reads a value otherwise (a 4 MiB listing makes a tree of
 * hundreds of megabytes: two at a time at most).
 */
function readAsShape(
  text: string,
  bom: boolean,
  { name, readers }: { name: string; readers: ShapeReader[] },
): ListingText {
  const [first, ...others] = readers;
  const strictest = readLenientJson(text, first.reader, bom);
  if (!strictest.ok) {
    const readBy = others.filter((o) => readLenientJson(text, o.reader, bom, false).ok).map((o) => o.name);
    const also =
      readBy.length > 0
        ? ` (${readBy.join('; ')} read it, but the import goes by the strictest reader of ${name}, so that every phone reads what it publishes)`
        : '';
    const { line, col, reason } = strictest;
    return {
      ok: false,
      line,
      col,
      message: `not strict JSON, and ${first.name} fails here too: ${reason}; so its phones get nothing from this file: correct it and import again${also}`,
    };
  }
  const { value, locate, leniencies, leniencyCount } = strictest;
  const listed = leniencies.slice(0, 10).map((l) => `${l.line}:${l.col} ${l.what}`);
  if (leniencyCount > 10) listed.push(`and ${leniencyCount - 10} more`);
  const how = `${PARSER_NAMES[first.reader.parser]}${others.length > 0 ? `, the strictest reader of ${name}` : ''}`;
  const differences = others.flatMap((o) =>
    difference(o.name, readLenientJson(text, o.reader, bom, false), value, locate),
  );
  const at = leniencies[0] ?? { line: 1, col: 1 };
  const message = `not strict JSON; read as ${first.name} reads it (${how}): ${listed.join('; ')}${differences.map((d) => `; ${d}`).join('')}. The build publishes strict JSON`;
  return { ok: true, value, locate, note: { line: at.line, col: at.col, message } };
}

type ShapeKind = 'v1' | 'crdroid' | 'pixelexperience' | 'array';

interface ShapeReader {
  /** The updaters, as a maintainer knows them. */
  name: string;
  reader: JsonReader;
  /** The `formats` dialects published for these readers (`v1`: the LineageOS listing, always published). */
  dialects: readonly string[];
}

const PARSER_NAMES = { 'org-json': 'org.json', kotlinx: 'kotlinx.serialization' } as const;

/** The Java updaters: each reads the downloaded file's lines appended with nothing between them, then `new JSONObject`. */
const JAVA: JsonReader = { parser: 'org-json', joinsLines: true };

/** A v1 record's build fields as the Kotlin updaters declare them. */
const V1_RECORD: KxType = {
  fields: {
    datetime: 'Long',
    filename: 'String',
    id: 'String',
    romtype: 'String',
    size: 'Long',
    url: 'String',
    version: 'String',
  },
};

const CRDROID_TEXT = [
  'md5',
  'maintainer',
  'oem',
  'device',
  'forum',
  'gapps',
  'firmware',
  'modem',
  'bootloader',
  'recovery',
  'buildtype',
  'paypal',
  'telegram',
  'os_patch_level',
  'ota_property_files',
];

/**
 * Each shape's readers that phones run, the strictest first (a kotlinx reader refuses what
 * org.json reads: unquoted text, comments, single quotes, `;`).
 */
const SHAPES: Record<ShapeKind, { name: string; readers: ShapeReader[] }> = {
  v1: {
    name: 'a v1 listing',
    readers: [
      {
        // DerpFest-AOSP/android_packages_apps_Updater, UpdatesNetworkDataSource.kt at
        // 73064e65c7773891fe2cb841f60a50409f610f62: `Json { ignoreUnknownKeys = true }` (not
        // isLenient) on OkHttp's `body.string()`; NetworkUpdate.kt declares the record.
        name: "DerpFest's updater",
        dialects: ['lineage-v1'],
        reader: {
          parser: 'kotlinx',
          isLenient: false,
          bomConsumed: true,
          root: { fields: { response: { list: V1_RECORD } } },
        },
      },
      {
        // LineageOS/android_packages_apps_Updater, misc/Utils.java `parseJson` at
        // 01516f992aa09a22fae98253c187501ed1fc40de: lines appended, `new JSONObject`, `getJSONArray("response")`.
        name: "LineageOS's updater and the Java updaters that read its listing (/e/OS, PixelOS 15, ...)",
        reader: JAVA,
        dialects: ['v1'],
      },
    ],
  },
  crdroid: {
    name: 'a crDroid-family device file',
    readers: [
      {
        // crdroidandroid/android_packages_apps_Updater, data/source/network/UpdatesNetworkDataSource.kt at
        // 11ad4a9f1ab5f2ddf40c15a341f17dfa9f72dbbf: the default `Json` (not isLenient) on `body.string()`
        // (that state decodes a bare list); NetworkUpdate.kt at 743402ae3909885525919330e7143a027a6f5d45
        // declares the `response` wrapper these files have and the record.
        name: "crDroid's Kotlin updater (crDroid 11 and later)",
        dialects: ['crdroid'],
        reader: {
          parser: 'kotlinx',
          isLenient: false,
          bomConsumed: true,
          root: {
            fields: {
              response: {
                list: {
                  fields: {
                    filename: 'String',
                    download: 'String',
                    timestamp: 'Long',
                    sha256: 'String',
                    size: 'Long',
                    version: 'String',
                    os_sdk_level: 'Int',
                    ...Object.fromEntries(CRDROID_TEXT.map((k) => [k, 'String' as const])),
                  },
                },
              },
            },
          },
        },
      },
      {
        // crdroidandroid/android_packages_apps_Updater branch 14.0, misc/Utils.java `parseJson` at
        // 86c1d231b28b9ba16a2f6ed21b58dda97f35a116, and the forks that kept it.
        name: "crDroid's Java updater (crDroid 7 to 10) and its forks (Evolution X, AlphaDroid, CherishOS, Matrixx, Infinity-X, VoltageOS)",
        reader: JAVA,
        dialects: ['crdroid-java', 'md5-six'],
      },
    ],
  },
  pixelexperience: {
    name: 'a PixelExperience-family answer',
    readers: [
      {
        // PixelExperience/packages_apps_Updates, misc/Utils.java `parseJson` at ede7af5006a9f0f1fdf3970c8994f95f81eea922.
        name: "PixelExperience's updater and its forks (PixelOS up to 14, Project Elixir)",
        reader: JAVA,
        dialects: ['pixelexperience'],
      },
    ],
  },
  array: {
    name: 'a bare array of records',
    readers: [
      {
        // PixelOS-AOSP/android_packages_apps_Updater, UpdatesNetworkDataSource.kt at
        // a7eae754e341bcabb5e3afb925a2377b6a928e67: `readByteArray().decodeToString()` keeps a byte
        // order mark, which the default `Json` refuses. Its entries are not v1 records (`files`); a bare
        // array of them is read here with the build fields every Kotlin updater declares alike.
        name: "the Kotlin updaters that read a bare array (PixelOS's feed)",
        dialects: ['pixelos-feed'],
        reader: { parser: 'kotlinx', isLenient: false, bomConsumed: false, root: { list: V1_RECORD } },
      },
    ],
  },
};

/**
 * The file's shape, from the most lenient reading any phone makes (org.json on the lines as they
 * are, else kotlinx); for no shape a phone reads, that reading, or when neither parser reads the
 * file, the Java updaters' own failure.
 */
function findShape(text: string, bom: boolean): { kind: ShapeKind } | { kind: undefined; read: LenientRead } {
  let read = readLenientJson(text, { parser: 'org-json', joinsLines: false }, bom, false);
  if (!read.ok)
    read = readLenientJson(
      text,
      { parser: 'kotlinx', isLenient: true, bomConsumed: true, root: { fields: {} } },
      bom,
      false,
    );
  if (!read.ok) return { kind: undefined, read: readLenientJson(text, JAVA, bom) };
  const json = read.value;
  if (Array.isArray(json)) return { kind: 'array' };
  const response = json !== null && typeof json === 'object' ? (json as { response?: unknown }).response : undefined;
  if (Array.isArray(response)) {
    const crDroid = response.some(
      (r) => r !== null && typeof r === 'object' && isCrDroidRecord(r as Record<string, unknown>),
    );
    return { kind: crDroid ? 'crdroid' : 'v1' };
  }
  return isSingleBuild(json) ? { kind: 'pixelexperience' } : { kind: undefined, read };
}

/** How another reader of the shape differs from the strictest one on this file: it fails, or reads a value otherwise. */
function difference(reader: string, read: LenientRead, value: unknown, locate: JsonLocator): string[] {
  if (!read.ok)
    return [
      `${reader} fails at ${read.line}:${read.col} (${read.reason}), so its phones get nothing from this file as it is, and will read what the build publishes`,
    ];
  const path = firstDifference(value, read.value, []);
  if (path === undefined) return [];
  const { line, col } = locate(path);
  return [
    `${reader} reads ${path.join('.') || 'the file'} at ${line}:${col} otherwise (${shownValue(read.value, path)}); the import takes the stricter reading`,
  ];
}

/** The first path where two values differ (numbers compared by value), or `undefined`. */
function firstDifference(a: unknown, b: unknown, path: (string | number)[]): (string | number)[] | undefined {
  if (typeof a === 'number' && typeof b === 'number')
    return a === b || (Number.isNaN(a) && Number.isNaN(b)) ? undefined : path;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? undefined : path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  const keys = Array.isArray(a)
    ? [...Array(Math.max(a.length, (b as unknown[]).length)).keys()]
    : [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const [x, y] = [(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]];
    const inA = Object.hasOwn(a, key);
    if (inA !== Object.hasOwn(b, key)) return [...path, key];
    const found = firstDifference(x, y, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function shownValue(root: unknown, path: (string | number)[]): string {
  let v = root;
  for (const step of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[step] : undefined;
  const text = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v));
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
