/**
 * Reading an answer as one updater does ({@link Updater}): the downloads it offers, or why it refuses
 * the whole answer. Only what a probe needs of a record: its download, size, hashes and ranges. Pure.
 */
import type { Updater } from './updaters.js';

/** One download an answer offers. */
export interface Offered {
  url: string;
  size: number;
  filename: string;
  sha256?: string;
  md5?: string;
  /** `ota_property_files`: the phone streams the package by ranges. */
  propertyFiles?: string;
}

/** The downloads an updater reads from `text`, or the reason it refuses the answer. */
export type Decoded = { offered: Offered[] } | { refused: string };

/**
 * Decodes `text` as `updater` reads it. `base` is the answer's own URL: GrapheneOS's package lies
 * beside its channel file (`<base><device>-ota_update-<incremental>.zip`).
 */
export function decodeAnswer(updater: Updater, text: string, base: string): Decoded {
  // OkHttp's `string()` and org.json's tokener skip a leading BOM (test/helpers/dialects/kotlinx-json.ts).
  const body = text.replace(/^\uFEFF/, '');
  if (updater.wrapper === 'line') return decodeLine(body, base);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return { refused: `the answer is not JSON (${(error as Error).message})` };
  }
  const records = recordsOf(updater, json);
  if (typeof records === 'string') return { refused: records };
  const offered: Offered[] = [];
  for (const [i, record] of records.entries()) {
    const read = readRecord(updater, record);
    if (typeof read !== 'string') offered.push(read);
    else if (updater.strictness === 'answer') return { refused: `record ${i}: ${read}, which fails the whole answer` };
  }
  return { offered };
}

// --- internal ---

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The records of the wrapper, or what is wrong with it. */
function recordsOf(updater: Updater, json: unknown): unknown[] | string {
  switch (updater.wrapper) {
    case 'array':
      return Array.isArray(json) ? json : 'the answer is not a JSON array';
    case 'object':
      return isObject(json) ? [json] : 'the answer is not a JSON object';
    default: {
      const key = updater.wrapper;
      if (!isObject(json)) return 'the answer is not a JSON object';
      const list = json[key];
      return Array.isArray(list) ? list : `\`${key}\` is not an array`;
    }
  }
}

/** A Long as org.json's `getLong` and kotlinx read it: an integer, or the text of one. */
function long(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d{1,18}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

/** A text value: kotlinx takes a JSON string only; org.json's `getString` any non-null value. */
function text(updater: Updater, v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (updater.strictness === 'record' && v !== null && v !== undefined && typeof v !== 'object') return String(v);
  return undefined;
}

/** One record's download, or the first key the updater cannot read. */
function readRecord(updater: Updater, record: unknown): Offered | string {
  if (!isObject(record)) return 'not an object';
  for (const key of updater.strings) {
    const ok = updater.allText ? typeof record[key] === 'string' : text(updater, record[key]) !== undefined;
    if (!ok) return `\`${key}\` is missing or not text`;
  }
  for (const key of updater.longs) if (long(record[key]) === undefined) return `\`${key}\` is missing or not a number`;
  let file: Record<string, unknown> = record;
  if (updater.files) {
    const files = record.files;
    if (!Array.isArray(files) || files.length === 0 || !isObject(files[0])) return '`files` has no file';
    file = files[0];
  }
  const { keys } = updater;
  const url = text(updater, file[keys.url]);
  const size = long(file[keys.size]);
  const filename = text(updater, file[keys.filename]);
  if (url === undefined) return `\`${keys.url}\` is missing or not text`;
  if (size === undefined) return `\`${keys.size}\` is missing or not a number`;
  if (filename === undefined) return `\`${keys.filename}\` is missing or not text`;
  const optional = (key: string | undefined) => (key === undefined ? undefined : text(updater, file[key]));
  const propertyFiles = optional(keys.propertyFiles);
  return {
    url,
    size,
    filename,
    ...(optional(keys.sha256) !== undefined && { sha256: optional(keys.sha256)!.toLowerCase() }),
    ...(optional(keys.md5) !== undefined && { md5: optional(keys.md5)!.toLowerCase() }),
    ...(propertyFiles !== undefined && propertyFiles !== '' && { propertyFiles }),
  };
}

/**
 * GrapheneOS's channel file: its first line `<incremental> <timestamp> <device> <channel>`
 * (`Service.onHandleIntent`: `String.split(" ")`, `Long.parseLong` of the timestamp), and the full
 * package beside it, whose size the file does not say (-1: not compared).
 */
function decodeLine(body: string, base: string): Decoded {
  const fields = (/^[^\r\n]*/.exec(body)?.[0] ?? '').split(' ');
  if (fields.length < 4 || long(fields[1]) === undefined || fields[0] === '')
    return { refused: 'the first line is not `<incremental> <timestamp> <device> <channel>`' };
  const filename = `${fields[2]}-ota_update-${fields[0]}.zip`;
  if (!URL.canParse(filename, base)) return { refused: `the package ${filename} has no address beside ${base}` };
  return { offered: [{ url: new URL(filename, base).href, size: -1, filename }] };
}
