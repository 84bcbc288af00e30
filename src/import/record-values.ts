/**
 * The values of one record of a v1 listing (read-record.ts checks its keys and shape first): each
 * in the type the interface gives it, checked against each other, and as the manifest holds them.
 */
import { displayVersionOf } from '../catalog/filename.js';
import { API_LEVELS } from '../catalog/api-levels.js';
import { DOWNLOAD_KEY, SHA256 } from '../catalog/download-key.js';
import type { ManifestValues } from '../catalog/manifest-text.js';
import { say, type SourceFamily } from './source-families.js';

/** The manifest values of a record, and whether it is a placeholder. */
export type RecordValues = ManifestValues & { placeholder?: true };

/** What reading the values needs of read-record.ts's RecordContext: where messages go, the list and the site. */
export interface ValueContext {
  site: { downloadBaseUrl: string };
  device: string;
  list: string;
  /** The updater family that reads the file: the words of every message. */
  family: SourceFamily;
  /** The text of the record's member `key` as the file writes it (`4.10`), when there is one. */
  literal?(key: string): string | undefined;
  problem(field: string | undefined, message: string): void;
  note(field: string | undefined, message: string): void;
  normalised(kind: ValueNormalisation, field: string, detail: string): void;
}

/** The normalisations of read-record.ts's NORMALISED that reading the values says. */
type ValueNormalisation =
  | 'datetime_text'
  | 'timestamp_text'
  | 'size_text'
  | 'size_fraction'
  | 'id_key'
  | 'romtype_list'
  | 'number_text'
  | 'number_text_shown';

/**
 * Each field's value in the type the interface gives it, with what a phone reads the same way
 * (numbers written as text, upper-case hex) normalised and noted; `undefined` for a value with a problem.
 */
export function readValues(
  r: Record<string, unknown>,
  record: Record<string, unknown>,
  renamed: ReadonlyMap<string, string>,
  placeholder: boolean,
  c: ValueContext,
) {
  const text = (key: string) => textOf(r, key, renamed, c);
  const seconds = (key: 'datetime' | 'timestamp'): number | undefined => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    // org.json's getLong reads a number written as text, as many hand-made listings have it.
    if (typeof v === 'string' && c.family.numberInTextForm.test(v)) {
      // A timestamp filled in from datetime is datetime's note already.
      if (key === 'datetime' || record.timestamp !== undefined)
        c.normalised(`${key}_text`, renamed.get(key) ?? key, JSON.stringify(v));
      return Number(v.trim());
    }
    if (key === 'timestamp' && record.timestamp === undefined) return undefined; // Filled from datetime: its problem says it.
    if (typeof v === 'number') {
      c.problem(key, `expected Unix seconds as a JSON number, e.g. 1731067200, found ${describe(v)}`);
      return undefined;
    }
    c.problem(
      key,
      key === 'datetime' || r.datetime === undefined
        ? `${describe(v)} is not Unix seconds; ${say(c.family.notNumber, renamed.get(key) ?? key)}: write the build time, e.g. ${typeof v === 'string' ? `date -u -d '${v.replace(/'/g, '')}' +%s, or ` : ''}ro.build.date.utc of the build`
        : `expected Unix seconds, like datetime, found ${describe(v)}`,
    );
    return undefined;
  };
  /** The id: a SHA-256 (lower-cased), or any other download key phones already know, published as written. */
  const downloadKey = (): string | undefined => {
    const v = text('id');
    if (v === undefined || v === '' || /^[0-9a-fA-F]{64}$/.test(v))
      return v === undefined || v === '' ? v : hex('id', 64);
    if (!DOWNLOAD_KEY.test(v)) {
      c.problem(
        'id',
        `${describe(v)} is not a download key otapress can publish unchanged: it needs 1 to 255 letters, digits and \`. _ ~ - + = : /\` (phones key downloads by it, and pages and feeds link it)`,
      );
      return undefined;
    }
    // An id from `md5` has its own note (read-record.ts).
    if (!SHA256.test(v) && renamed.get('id') !== 'md5')
      c.normalised('id_key', renamed.get('id') ?? 'id', v.length > 40 ? `${v.slice(0, 40)}…` : v);
    return v;
  };
  const hex = (key: string, length: number): string | undefined => {
    const v = text(key);
    if (v === undefined || v === '') return v;
    if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(v)) {
      c.problem(key, `expected ${length} hex characters for ${key}, found ${describe(v)}`);
      return undefined;
    }
    if (v !== v.toLowerCase()) c.note(key, `${key} is in upper-case hex; published in lowercase`);
    return v.toLowerCase();
  };

  const datetime = seconds('datetime');
  const values = {
    incremental: text('incremental'),
    api_level: text('api_level'),
    // crDroid's `timestamp` is the one build time, read once as datetime.
    timestamp: renamed.get('datetime') === 'timestamp' ? datetime : seconds('timestamp'),
    datetime,
    md5sum: hex('md5sum', 32),
    changes: text('changes'),
    channel: text('channel'),
    filename: text('filename'),
    romtype: text('romtype'),
    version: text('version'),
    pre_version: text('pre_version'),
    display_version: text('display_version'),
    android_version: text('android_version'),
    id: downloadKey(),
  };
  const url = placeholder ? undefined : text('url');
  const size = sizeOf(r.size, placeholder, renamed.get('size') ?? 'size', c);
  const upgrade = r.is_upgrade_supported;
  if (upgrade !== undefined && typeof upgrade !== 'boolean')
    c.problem('is_upgrade_supported', `expected true or false, found ${describe(upgrade)}`);

  return { values, url, size, upgrade };
}

/** What {@link readValues} read of a record. */
type Read = ReturnType<typeof readValues>;
/** A record read without a problem: every value there. */
export type CompleteRead = {
  values: { [K in keyof Read['values']]-?: NonNullable<Read['values'][K]> };
  url: string | undefined;
  size: number | '';
  upgrade: unknown;
};

/** The checks between fields: one build time, the id of a package or of a placeholder, the list's romtype. */
export function checkAcross(
  { values, size }: Read,
  r: Record<string, unknown>,
  placeholder: boolean,
  renamed: ReadonlyMap<string, string>,
  c: ValueContext,
): void {
  if (values.datetime !== undefined && values.timestamp !== undefined && values.datetime !== values.timestamp) {
    c.problem(
      'datetime',
      `datetime ${values.datetime} differs from timestamp ${values.timestamp}; phones compare datetime with their build time, so otapress publishes one build time: make them equal`,
    );
  }
  if (values.romtype !== undefined && values.romtype !== c.list) {
    c.normalised('romtype_list', renamed.get('romtype') ?? 'romtype', `${values.romtype} → ${c.list}`);
  }
  if (!placeholder && values.id === '')
    c.problem(
      'id',
      'id is empty; phones key each download by it (records with the same id collapse into one): give the build its own, e.g. the SHA-256 of the zip',
    );
  if (placeholder) {
    if (values.id !== '' && values.id !== undefined)
      c.problem('id', 'a placeholder (no url, filename "") has id ""; a phone would otherwise treat it as a download');
    if (size !== '' && size !== undefined)
      c.problem('size', 'a placeholder (no url, filename "") has size ""; a numeric size would make a phone offer it');
  } else if (r.url !== undefined && r.filename === '') {
    c.problem(
      'filename',
      `filename is empty, but the record has a download address: the phone would save the download under no name, so it cannot install it; write the zip's name (as in its address), or remove the record${c.family.placeholders ? ' (a placeholder has neither url nor filename)' : ''}`,
    );
  } else if (r.url === '') {
    // RisingOS's `"download": ""` (OTA/device/GAPPS/alioth.json and seven more, fifteen branch).
    c.problem(
      'url',
      'the download address is empty: phones list the build and then cannot download it; write its https address, or remove the record',
    );
  }
}

/**
 * The manifest values of a record read without a problem: only what the build would not derive by
 * itself, as a maintainer would write it.
 */
export function manifestValuesOf(
  { values: v, url, size, upgrade }: CompleteRead,
  placeholder: boolean,
  c: ValueContext,
  buildExtras: Omit<ManifestValues, 'placeholder'>,
): RecordValues {
  if (placeholder) {
    return {
      placeholder: true,
      version: v.version,
      channel: v.channel,
      timestamp: v.timestamp,
      android_version: v.android_version || undefined,
      api_level: v.api_level || undefined,
      incremental: v.incremental || undefined,
      md5sum: v.md5sum || undefined,
      display_version: v.display_version,
      changes: v.changes || undefined,
      pre_version: v.pre_version || undefined,
      is_upgrade_supported: upgrade === true ? true : undefined,
    };
  }
  const defaultUrl = `${c.site.downloadBaseUrl}/${v.channel}/${c.device}/${v.filename}`;
  return {
    filename: v.filename,
    version: v.version,
    channel: v.channel,
    timestamp: v.timestamp,
    android_version: v.android_version || undefined,
    api_level:
      v.api_level === API_LEVELS[v.android_version] || (v.api_level === '' && v.android_version === '')
        ? undefined
        : v.api_level,
    incremental: v.incremental,
    md5sum: v.md5sum || undefined,
    id: v.id,
    size: size as number,
    url: url === defaultUrl ? undefined : url,
    display_version: v.display_version === displayVersionOf(v.filename) ? undefined : v.display_version,
    changes: v.changes || undefined,
    pre_version: v.pre_version || undefined,
    is_upgrade_supported: upgrade === true ? true : undefined,
    ...buildExtras,
  };
}

// --- internal ---

/** The size in bytes (a number written as text is noted), `""` in a placeholder; `undefined` when it has a problem. */
function sizeOf(rawSize: unknown, placeholder: boolean, name: string, c: ValueContext): number | '' | undefined {
  if (typeof rawSize === 'number' && Number.isSafeInteger(rawSize) && rawSize >= 0) return rawSize;
  if (typeof rawSize === 'string' && c.family.numberInTextForm.test(rawSize)) {
    c.normalised('size_text', name, JSON.stringify(rawSize));
    return Number(rawSize.trim());
  }
  if (rawSize === '' && placeholder) return '';
  // org.json's getLong reads a number's whole part (Android libcore JSON.toLong: Number.longValue()),
  // as SuperiorOS ten's `"size": 579652812.8`; a kotlinx reader (numberForText refused) fails on it.
  const whole = typeof rawSize === 'number' ? Math.trunc(rawSize) : NaN;
  if ('reads' in c.family.numberForText && Number.isSafeInteger(whole) && whole > 0) {
    c.normalised('size_fraction', name, `${c.literal?.(name) ?? rawSize} → ${whole}`);
    return whole;
  }
  if (rawSize !== undefined) {
    c.problem(
      'size',
      `expected the size in bytes as a whole number${placeholder ? ', or "" in a placeholder' : ''}, found ${describe(rawSize)}${placeholder || typeof rawSize === 'number' ? '' : `; ${say(c.family.notNumber, name)}`}`,
    );
  }
  return undefined;
}

/** A value the interface types as text; a number as the family's phones read it; `undefined` for a problem. */
function textOf(
  r: Record<string, unknown>,
  key: string,
  renamed: ReadonlyMap<string, string>,
  c: ValueContext,
): string | undefined {
  const v = r[key];
  if (v === undefined) return undefined;
  if (v === null) {
    c.problem(key, `${key} is JSON null; phones read it as the text "null"; write the value, or "" for none`);
    return undefined;
  }
  if (typeof v === 'number' && NUMERIC_TEXT.has(key) && Number.isSafeInteger(v) && v >= 0) {
    c.note(key, `${key} is the number ${v}; published as the text "${v}", as the interface types it`);
    return String(v);
  }
  if (typeof v === 'number') return numberAsText(key, v, renamed.get(key) ?? key, c);
  if (typeof v !== 'string') {
    c.problem(key, `expected text for ${key}, found ${describe(v)}`);
    return undefined;
  }
  return v;
}

/**
 * A number where phones read text (CherishOS's `"version": 4.2`): org.json's getString gives the
 * text Java prints for the number the tokener made of the literal (Android libcore
 * json/src/main/java/org/json/JSONTokener.java `readLiteral`, at CyanogenMod/android_libcore
 * 5501a3d4b3d7657c183ed5446fe67fa011fbf70b: no `.` and within a Long, an Integer or Long, else a
 * Double; JSON.java `toString` → `String.valueOf`), so `4.10` shows as "4.1" and `16` as "16".
 * A family whose parser reads no number as text (kotlinx) refuses the answer: a problem.
 */
function numberAsText(key: string, v: number, name: string, c: ValueContext): string | undefined {
  if ('refused' in c.family.numberForText) {
    c.problem(key, `expected text for ${name}, found ${describe(v)}; ${say(c.family.numberForText.refused, name)}`);
    return undefined;
  }
  const written = c.literal?.(name) ?? String(v);
  const shown = javaNumberText(written, v);
  c.normalised(shown === written ? 'number_text' : 'number_text_shown', name, `${written} → "${shown}"`);
  return shown;
}

/** The text Java's String.valueOf gives for the number org.json reads from the literal `written` (of value `v`). */
function javaNumberText(written: string, v: number): string {
  if (!written.includes('.')) {
    // readLiteral: `0x` hexadecimal, a leading `0` octal, else decimal, as Long.parseLong reads them.
    const [digits, radix]: [string, 8 | 10 | 16] = /^0[xX]/.test(written)
      ? [written.slice(2), 16]
      : written.startsWith('0') && written.length > 1
        ? [written.slice(1), 8]
        : [written, 10];
    const n = javaLong(digits, radix);
    if (n !== undefined) return n.toString();
  }
  // Double.toString: plain decimals in [10^-3, 10^7), else `1.0E10`; always a digit after the point.
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(v);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = v.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** Java's `Long.parseLong(s, radix)`: an optional sign and digits of the radix within 64 bits, else `undefined`. */
function javaLong(s: string, radix: 8 | 10 | 16): bigint | undefined {
  const digits = { 8: '[0-7]', 10: '[0-9]', 16: '[0-9a-fA-F]' }[radix];
  const match = new RegExp(`^([+-]?)(${digits}+)$`).exec(s);
  if (!match) return undefined;
  const magnitude = BigInt(`${{ 8: '0o', 10: '', 16: '0x' }[radix]}${match[2]}`);
  const n = match[1] === '-' ? -magnitude : magnitude;
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/** Fields the interface types as strings that servers also send as JSON numbers. */
const NUMERIC_TEXT = new Set(['incremental', 'api_level', 'android_version']);

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `${v}`;
  return Array.isArray(v) ? 'an array' : 'an object';
}
