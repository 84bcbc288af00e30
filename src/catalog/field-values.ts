/**
 * The kinds of value manifest fields hold, for the rows of fields.ts: the patterns, the zod schemas
 * made of them (built lazily, see libraries.ts), the plain checks that read the same values without
 * zod, and the editor schema's parts where zod's generated one says too little or too much.
 */
import { lowerHex } from './build-extras.js';
import { DOWNLOAD_KEY } from './download-key.js';
import { lazily, zod } from './libraries.js';
import { UNSURE } from './plain.js';
import { textProblem } from './published-text.js';

/** A JSON Schema, or a part of one, as the schema file writes it (json-schema.ts). */
export type JsonSchema = Record<string, unknown>;

/** Oldest and newest build time we accept (2009-01-01 and 2100-01-01, Unix seconds). */
export const TIMESTAMP_RANGE = [1230768000, 4102444800] as const;

/** A whole number written without quotes where text is expected (`android_version: 14`), read as its digits. */
const wholeNumberAsText = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v);
/** A short decimal number: an Android version or API level. */
export const SHORT_NUMBER = /^\d{1,3}$/;
/**
 * A version as the updaters read it: LineageOS v1 and the crDroid and PixelExperience families
 * compare or show it as text (`2.5`, `8.1.1-Arete`, `15`, `fourteen`); v2 leaves out a build whose
 * version it cannot read (render/v2.ts). Characters every output carries unchanged: URL
 * unreserved ones, starting with a letter or digit.
 */
export const VERSION_TEXT = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/;
/** A build incremental (`ro.build.version.incremental`), or "". */
export const INCREMENTAL = /^[A-Za-z0-9._-]*$/;
/** A security patch date, yyyy-mm-dd. */
export const PATCH_DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The phone's `ro.build.version.incremental` an incremental package applies on: one path segment
 * of the phone's request, and the name of its answer file (`<incremental>.json` beside the list's
 * `index.json`, so never `index`, `.` or `..`).
 */
export const SOURCE_INCREMENTAL = /^(?!\.{1,2}$)(?!index$)[A-Za-z0-9._-]{1,128}$/;
/** A build fingerprint as `pre-build` writes it: printable ASCII, no spaces. */
export const FINGERPRINT = /^[\x21-\x7e]{1,256}$/;

// The value checks of the plain path: a value one cannot vouch for (UNSURE) sends the manifest to
// zod, which says what is wrong with it (or takes it, in the shapes the checks leave to it).
export const text = (v: unknown) => (typeof v === 'string' ? v : UNSURE);
export const shownText = (v: unknown) => (typeof v === 'string' && textProblem(v) === undefined ? v : UNSURE);
export const matching = (pattern: RegExp) => (v: unknown) => (typeof v === 'string' && pattern.test(v) ? v : UNSURE);
export const digitsText = (pattern: RegExp) => (v: unknown) => {
  const t = wholeNumberAsText(v);
  return typeof t === 'string' && pattern.test(t) ? t : UNSURE;
};
export const seconds = (v: unknown) => (plausibleSeconds(v) ? v : UNSURE);
export const hexText = (length: number) => (v: unknown) =>
  typeof v === 'string' && lowerHex(length).test(v) ? v : UNSURE;

// The editor schema's parts: what zod cannot say (checks written as code) or says too narrowly
// (the build reads `android_version: 14` as "14"; a placeholder may leave a field "").
export const EMPTY: JsonSchema = { const: '' };
export const orEmpty = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, EMPTY] });
export const digitsOrNumber = (schema: JsonSchema, max?: number) => ({
  anyOf: [schema, { type: 'integer', minimum: 0, ...(max !== undefined && { maximum: max }) }],
});
export const UNIX_SECONDS: JsonSchema = {
  type: 'integer',
  minimum: TIMESTAMP_RANGE[0],
  exclusiveMaximum: TIMESTAMP_RANGE[1],
};
export const LOWER_HEX_JSON = (length: number): JsonSchema => ({ type: 'string', pattern: `^[0-9a-f]{${length}}$` });
// The SHA-256 of the zip, or another download key (a SHA-256 in capitals is neither: a slip).
export const ID_JSON: JsonSchema = {
  type: 'string',
  pattern: `^(?![0-9a-fA-F]{64}$)${DOWNLOAD_KEY.source.slice(1)}|^[0-9a-f]{64}$`,
};

/** Text that must match `pattern`; `notText` says what to write for another type, `unlike` for other text. */
export const textMatching = (pattern: RegExp, notText: string, unlike: string) =>
  zod().string({ error: notText }).regex(pattern, { error: unlike });

/** {@link textMatching}, where a whole number written without quotes is read as its digits. */
export const digitsMatching = (pattern: RegExp, notText: string, unlike: string) =>
  zod().preprocess(wholeNumberAsText, textMatching(pattern, notText, unlike));

/** A short decimal number as text (`android_version`, `api_level`). */
export const digits = (what: string, example: string) => {
  const message = `expected ${what} as a decimal number, e.g. ${example}`;
  return digitsMatching(SHORT_NUMBER, message, message);
};

/** A build time the manifest may hold: whole Unix seconds in {@link TIMESTAMP_RANGE}. */
function plausibleSeconds(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= TIMESTAMP_RANGE[0] && value < TIMESTAMP_RANGE[1]
  );
}

/** `timestamp` and `datetime`: one schema for both. */
export const unixSeconds = lazily(() =>
  zod()
    .number({ error: 'expected Unix seconds as a whole number, e.g. 1731067200 (date +%s)' })
    .superRefine((value, ctx) => {
      if (plausibleSeconds(value)) return;
      if (!Number.isInteger(value)) {
        ctx.addIssue({ code: 'custom', message: `expected whole Unix seconds; write ${Math.floor(value)}` });
      } else if (value >= 1e11 && value / 1000 >= TIMESTAMP_RANGE[0] && value / 1000 < TIMESTAMP_RANGE[1]) {
        ctx.addIssue({
          code: 'custom',
          message: `${value} looks like milliseconds; write seconds: ${Math.floor(value / 1000)}`,
        });
      } else if (value < TIMESTAMP_RANGE[0] || value >= TIMESTAMP_RANGE[1]) {
        ctx.addIssue({
          code: 'custom',
          message: `${value} is not a plausible build time; expected Unix seconds between 2009 and 2100, e.g. 1731067200`,
        });
      }
    }),
);
