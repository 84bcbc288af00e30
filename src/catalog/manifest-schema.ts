/**
 * The fields of one manifest, each on its own: the zod schema that says what each may hold and
 * why not, and {@link plainFields}, which reads the plain manifests the same way without zod.
 * manifest.ts checks the rules between fields and derives the build.
 */
import type * as Z from 'zod';
import { downloadUrl, extraFields, hex, isDownloadUrl, lowerHex } from './build-extras.js';
import { NAME_PARTS } from './filename-checks.js';
import { lazily, zod } from './libraries.js';
import { flag, readPlain, UNSURE, type PlainCheck } from './plain.js';
import { downloadKey, isDownloadKey } from './loose.js';
import { refuseUnpublishableText, textProblem } from './manifest-text.js';
import { PROPERTY_FILES_FORMAT } from './property-files.js';

/** Oldest and newest build time we accept (2009-01-01 and 2100-01-01, Unix seconds). */
export const TIMESTAMP_RANGE = [1230768000, 4102444800] as const;

/** A whole number written without quotes where text is expected (`android_version: 14`), read as its digits. */
const wholeNumberAsText = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v);
const SHORT_NUMBER = /^\d{1,3}$/;
/**
 * A version as the updaters read it: LineageOS v1 and the crDroid and PixelExperience families
 * compare or show it as text (`2.5`, `8.1.1-Arete`, `15`, `fourteen`); v2 leaves out a build whose
 * version it cannot read (render/v2.ts). Characters every output carries unchanged: URL
 * unreserved ones, starting with a letter or digit.
 */
const VERSION_TEXT = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/;
const INCREMENTAL = /^[A-Za-z0-9._-]*$/;
const PATCH_DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The phone's `ro.build.version.incremental` an incremental package applies on: one path segment
 * of the phone's request, and the name of its answer file (`<incremental>.json` beside the list's
 * `index.json`, so never `index`, `.` or `..`).
 */
export const SOURCE_INCREMENTAL = /^(?!\.{1,2}$)(?!index$)[A-Za-z0-9._-]{1,128}$/;
/** A build fingerprint as `pre-build` writes it: printable ASCII, no spaces. */
const FINGERPRINT = /^[\x21-\x7e]{1,256}$/;

const digits = (what: string, example: string) =>
  zod().preprocess(
    wholeNumberAsText,
    zod()
      .string({ error: `expected ${what} as a decimal number, e.g. ${example}` })
      .regex(SHORT_NUMBER, { error: `expected ${what} as a decimal number, e.g. ${example}` }),
  );

/** A build time the manifest may hold: whole Unix seconds in {@link TIMESTAMP_RANGE}. */
function plausibleSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= TIMESTAMP_RANGE[0] && value < TIMESTAMP_RANGE[1];
}

const unixSecondsSchema = () =>
  zod().number({ error: 'expected Unix seconds as a whole number, e.g. 1731067200 (date +%s)' }).superRefine((value, ctx) => {
    if (plausibleSeconds(value)) return;
    if (!Number.isInteger(value)) {
      ctx.addIssue({ code: 'custom', message: `expected whole Unix seconds; write ${Math.floor(value)}` });
    } else if (value >= 1e11 && value / 1000 >= TIMESTAMP_RANGE[0] && value / 1000 < TIMESTAMP_RANGE[1]) {
      ctx.addIssue({ code: 'custom', message: `${value} looks like milliseconds; write seconds: ${Math.floor(value / 1000)}` });
    } else if (value < TIMESTAMP_RANGE[0] || value >= TIMESTAMP_RANGE[1]) {
      ctx.addIssue({
        code: 'custom',
        message: `${value} is not a plausible build time; expected Unix seconds between 2009 and 2100, e.g. 1731067200`,
      });
    }
  });

/**
 * The zod schema of one manifest's fields (types and formats; cross-field rules are the RULES
 * below), built the first time a manifest is not plain ({@link plainFields}; see libraries.ts).
 */
export const manifestSchema = lazily(() => {
  const z = zod();
  const unixSeconds = unixSecondsSchema();
  return z.strictObject({
    filename: z.string({ error: 'expected the package file name, e.g. e-2.5-t-20241108446322-official-FP4.zip' }),
    filename_differs: z.array(z.enum(NAME_PARTS, { error: `expected a part of the file name: ${NAME_PARTS.join(', ')}` }), {
      error: 'expected the parts in which the published file name differs from the fields, e.g. [device]',
    }),
    version: z
      .string({ error: 'expected the release number as text, e.g. "2.5"' })
      .regex(VERSION_TEXT, { error: 'expected the version as phones show it, e.g. "2.5", "8.1.1-Arete" or "fourteen": at most 64 letters, digits, `.`, `-`, `_` and `~`, starting with a letter or digit' }),
    channel: z.string({ error: 'expected the channel name, e.g. official' }),
    timestamp: unixSeconds,
    datetime: unixSeconds.optional(),
    android_version: digits('the Android major version', '"14"'),
    api_level: digits('the platform API level', '"34"').optional(),
    incremental: z.preprocess(
      wholeNumberAsText,
      z
        .string({ error: 'expected the build incremental as text, e.g. eng.root.20241108.123456' })
        .regex(INCREMENTAL, { error: 'expected letters, digits, `.`, `-` and `_` only, e.g. eng.root.20241108.123456' }),
    ),
    source_incremental: z.preprocess(
      wholeNumberAsText,
      z
        .string({ error: 'expected the incremental of the build the package applies on (pre-build-incremental of its metadata), e.g. eng.build.20250110' })
        .regex(SOURCE_INCREMENTAL, { error: 'expected letters, digits, `.`, `-` and `_` only (at most 128, not `index`), as pre-build-incremental of the package metadata, e.g. eng.build.20250110' }),
    ),
    source_build: z
      .string({ error: 'expected the fingerprint of the build the package applies on (pre-build of its metadata)' })
      .regex(FINGERPRINT, { error: 'expected a build fingerprint (pre-build of the package metadata): printable characters without spaces' }),
    md5sum: hex(32, 'the MD5 of the zip'),
    id: downloadKey(),
    sha256: hex(64, "the SHA-256 of the zip (sha256sum FILE), for a build whose id is another download key"),
    size: z
      .number({ error: 'expected the zip size in bytes as a whole number (stat -c %s FILE)' })
      .max(Number.MAX_SAFE_INTEGER, { error: (issue) => `${String(issue.input)} bytes is more than any file holds; expected the zip size in bytes (stat -c %s FILE)` })
      .int({ error: 'expected the zip size in bytes as a whole number (stat -c %s FILE)' })
      .nonnegative({ error: 'a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)' }),
    url: downloadUrl(),
    display_version: z.string({ error: 'expected text, e.g. 2.5-t-20241108446322-official-FP4' }).min(1).superRefine(refuseUnpublishableText),
    changes: z.string({ error: 'expected text (shown to users as the change log)' }).superRefine(refuseUnpublishableText),
    pre_version: z.string({ error: 'expected text' }).superRefine(refuseUnpublishableText),
    is_upgrade_supported: z.boolean({ error: 'expected true or false' }),
    lists: z.array(z.string({ error: 'expected a request list name' }), { error: 'expected a list of request lists, e.g. [stable, official]' }),
    placeholder: z.boolean({ error: 'expected true or false' }),
    os_patch_level: z
      .string({ error: 'expected the security patch date as text, e.g. "2024-11-05"' })
      .regex(PATCH_DATE, { error: 'expected the security patch date as yyyy-mm-dd, e.g. "2024-11-05"' }),
    ota_property_files: z
      .string({ error: 'expected the ota-property-files value of the zip metadata' })
      .regex(PROPERTY_FILES_FORMAT, { error: 'expected name:offset:size entries separated by commas, as in META-INF/com/android/metadata' }),
    ota_type: z.enum(['AB', 'BLOCK'], { error: 'expected AB or BLOCK' }),
    signer: hex(64, "the SHA-256 of the signer's public key (what otapress add writes)"),
    otacert: z.array(hex(64, 'the SHA-256 of the public key of a certificate of META-INF/com/android/otacert (what otapress add writes)'), { error: 'expected a list of public key SHA-256s, e.g. [0123...]' }),
    test_build: z.boolean({ error: 'expected true or false' }),
    ...extraFields(),
  }).partial();
});

export type ManifestFields = Z.infer<ReturnType<typeof manifestSchema>>;

/**
 * Every key a manifest may hold, in the order the reference documents them: the keys of
 * {@link manifestSchema}, written out so that plain manifests are read without building it
 * (test/catalog/manifest-fields.test.ts holds the two together).
 */
export const MANIFEST_KEYS = [
  'filename',
  'filename_differs',
  'version',
  'channel',
  'timestamp',
  'datetime',
  'android_version',
  'api_level',
  'incremental',
  'source_incremental',
  'source_build',
  'md5sum',
  'id',
  'sha256',
  'size',
  'url',
  'display_version',
  'changes',
  'pre_version',
  'is_upgrade_supported',
  'lists',
  'placeholder',
  'os_patch_level',
  'ota_property_files',
  'ota_type',
  'signer',
  'otacert',
  'test_build',
  'sha1',
  'files',
  'changelog',
];

// The value checks of {@link PLAIN}: a value one cannot vouch for (UNSURE) sends the manifest to
// zod, which says what is wrong with it (or takes it, in the shapes this table leaves to it).
const text = (v: unknown) => (typeof v === 'string' ? v : UNSURE);
const shownText = (v: unknown) => (typeof v === 'string' && textProblem(v) === undefined ? v : UNSURE);
const matching = (pattern: RegExp) => (v: unknown) => (typeof v === 'string' && pattern.test(v) ? v : UNSURE);
const digitsText = (pattern: RegExp) => (v: unknown) => {
  const t = wholeNumberAsText(v);
  return typeof t === 'string' && pattern.test(t) ? t : UNSURE;
};
const seconds = (v: unknown) => (plausibleSeconds(v) ? v : UNSURE);

/**
 * Each field's value as {@link manifestSchema} reads it, for the values it takes: the same tests
 * (the same patterns and predicates), without zod's per-field machinery. Fields left out here
 * (`filename_differs`, `files`) always go to zod. test/catalog/manifest-fields.test.ts holds this table to
 * the schema: whatever it takes, zod takes too, with the same result.
 */
const PLAIN: Partial<Record<string, PlainCheck>> = {
  filename: text,
  version: matching(VERSION_TEXT),
  channel: text,
  timestamp: seconds,
  datetime: seconds,
  android_version: digitsText(SHORT_NUMBER),
  api_level: digitsText(SHORT_NUMBER),
  incremental: digitsText(INCREMENTAL),
  source_incremental: digitsText(SOURCE_INCREMENTAL),
  source_build: matching(FINGERPRINT),
  md5sum: (v) => (typeof v === 'string' && lowerHex(32).test(v) ? v : UNSURE),
  id: (v) => (typeof v === 'string' && isDownloadKey(v) ? v : UNSURE),
  sha256: (v) => (typeof v === 'string' && lowerHex(64).test(v) ? v : UNSURE),
  size: (v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : UNSURE),
  url: (v) => (typeof v === 'string' && isDownloadUrl(v) ? v : UNSURE),
  display_version: (v) => (typeof v === 'string' && v.length >= 1 ? shownText(v) : UNSURE),
  changes: shownText,
  pre_version: shownText,
  is_upgrade_supported: flag,
  lists: (v) => (Array.isArray(v) && v.every((name) => typeof name === 'string') ? [...(v as string[])] : UNSURE),
  placeholder: flag,
  os_patch_level: matching(PATCH_DATE),
  ota_property_files: matching(PROPERTY_FILES_FORMAT),
  ota_type: (v) => (v === 'AB' || v === 'BLOCK' ? v : UNSURE),
  signer: (v) => (typeof v === 'string' && lowerHex(64).test(v) ? v : UNSURE),
  otacert: (v) => (Array.isArray(v) && v.every((f) => typeof f === 'string' && lowerHex(64).test(f)) ? [...(v as string[])] : UNSURE),
  test_build: flag,
  sha1: (v) => (typeof v === 'string' && lowerHex(40).test(v) ? v : UNSURE),
  changelog: shownText,
};

/**
 * A manifest's fields as `manifestSchema.safeParse` returns them, key for key and in the same
 * order, when every field is one that {@link PLAIN} takes; `undefined` when any is not (an unknown
 * key, a wrong value, a shape left to zod). Most manifests are plain: zod's checks, run field by
 * field, were a tenth of a cold build's time (10,000 manifests: 0.91x wall without them).
 */
export function plainFields(raw: Record<string, unknown>): ManifestFields | undefined {
  return readPlain(raw, PLAIN, MANIFEST_KEYS) as ManifestFields | undefined;
}
