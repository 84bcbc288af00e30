/**
 * The fields of a manifest, one row each in {@link FIELDS}: what a field may hold (its zod schema,
 * and the plain check that reads it without zod), where it is written, whether a build needs it,
 * what the editor schema says of it and where the v1 record carries it. Every list of fields
 * otapress keeps is derived from the table, so adding a field is adding its row (and its tests).
 * manifest-schema.ts reads a manifest's fields by the table; manifest.ts checks the rules between
 * fields and derives the build; field-values.ts holds the kinds of value the rows are made of.
 */
import type * as Z from 'zod';
import { downloadUrl, extraFields, hex, isDownloadUrl, lowerHex } from './build-extras.js';
import { downloadKey, isDownloadKey } from './download-key.js';
import {
  digits,
  digitsMatching,
  digitsOrNumber,
  digitsText,
  EMPTY,
  FINGERPRINT,
  hexText,
  ID_JSON,
  INCREMENTAL,
  LOWER_HEX_JSON,
  matching,
  orEmpty,
  PATCH_DATE,
  seconds,
  SHORT_NUMBER,
  shownText,
  SOURCE_INCREMENTAL,
  text,
  textMatching,
  UNIX_SECONDS,
  unixSeconds,
  VERSION_TEXT,
  type JsonSchema,
} from './field-values.js';
import { NAME_PARTS } from './filename-checks.js';
import { PLAIN_FILENAME } from './filename.js';
import { zod } from './libraries.js';
import { flag, UNSURE, type PlainCheck } from './plain.js';
import { PROPERTY_FILES_FORMAT } from './property-files.js';
import { refuseUnpublishableText } from './published-text.js';

/** The plain check of a field that only zod reads: a manifest that has it always goes to zod. */
export const ZOD_ONLY = 'zod only';

/** One manifest field: everything otapress needs to know of it besides the rules between fields (manifest.ts). */
export interface Field {
  /** What it may hold and why not; built the first time a manifest is not plain (libraries.ts). */
  schema(): Z.ZodType;
  /**
   * Its value as {@link schema} reads it, for the values it takes, with the same patterns and
   * predicates but without zod's per-field machinery; {@link ZOD_ONLY} for a shape left to zod.
   * test/catalog/manifest-fields.test.ts holds each check to the schema.
   */
  plain: PlainCheck | typeof ZOD_ONLY;
  /** Its place among the fields a written manifest holds (manifest-text.ts), ascending; none: never written. */
  written?: number;
  /** Text written quoted even where YAML would read it unquoted, so that it can never be read as a number. */
  quoted?: true;
  /** Required of a package manifest, of a placeholder's, or of both. */
  required?: 'package' | 'placeholder' | 'always';
  /**
   * `package only`: a placeholder has no package, so it must leave the field out. `may be empty`:
   * it may leave it empty. Either way `""` in a placeholder stands for "left out", as listings show it.
   */
  placeholder?: 'package only' | 'may be empty';
  /**
   * The editor schema (json-schema.ts), where it is not what zod generates: `property`, what any
   * manifest may write (a placeholder included); `inPackage`, what a package must. Both are given
   * zod's generated property.
   */
  json?: { property?(generated: JsonSchema): JsonSchema; inPackage?(generated: JsonSchema): JsonSchema };
  /** The editor's hover text, from the manifest reference. */
  description?: string;
  /** Its place in a v1 record (render/v1.ts) and, when it is not the field's, the record's key for it. */
  record?: { at: number; as?: string };
}

/**
 * A link the crDroid Java updaters show for a build: crDroid 11.0-14.0's UpdatesActivity.java
 * (crdroidandroid/android_packages_apps_Updater at 86c1d231b28b9ba16a2f6ed21b58dda97f35a116) opens
 * each of gapps, firmware, modem, bootloader and recovery with `Uri.parse` in an ACTION_VIEW intent,
 * and hides its button when the text is empty: an address, under the rules of `url`.
 */
const shownLink = (written: number, description: string) => ({
  schema: () => downloadUrl(),
  plain: (v: unknown) => (typeof v === 'string' && isDownloadUrl(v) ? v : UNSURE),
  written,
  description,
});

/**
 * Every field a manifest may hold, in the order the reference documents them (and the zod schema
 * has them). `written` numbers the fields in the order a written manifest has them: what
 * identifies the package first (as in the hand-written manifests of the example catalog), then
 * what overrides the defaults, then the values kept for the v2 listing; `placeholder` leads, so a
 * reader sees at once there is no package. `record.at` numbers them in the v1 record's order.
 */
export const FIELDS = {
  filename: {
    schema: () =>
      zod().string({ error: 'expected the package file name, e.g. e-2.5-t-20241108446322-official-FP4.zip' }),
    plain: text,
    written: 20,
    required: 'package',
    placeholder: 'package only',
    json: { inPackage: () => ({ type: 'string', pattern: PLAIN_FILENAME.source }) },
    description:
      'Package file name, one plain name of letters, digits, -, ., _ and ~. The forms e-<version>-<platform>-<yyyymmdd><build number>-<channel>-<device>.zip (or .disabled.zip) and lineage-<version>-<yyyymmdd>-<type>-<device>[-signed].zip are checked against version, channel and the device folder.',
    record: { at: 8 },
  },
  filename_differs: {
    schema: () =>
      zod().array(zod().enum(NAME_PARTS, { error: `expected a part of the file name: ${NAME_PARTS.join(', ')}` }), {
        error: 'expected the parts in which the published file name differs from the fields, e.g. [device]',
      }),
    plain: ZOD_ONLY,
    written: 30,
    description:
      'Parts (device, version, channel, android_version) in which a file name already published differs from the folder and the fields; they are then not refused.',
  },
  version: {
    schema: () =>
      textMatching(
        VERSION_TEXT,
        'expected the release number as text, e.g. "2.5"',
        'expected the version as phones show it, e.g. "2.5", "8.1.1-Arete" or "fourteen": at most 64 letters, digits, `.`, `-`, `_` and `~`, starting with a letter or digit',
      ),
    plain: matching(VERSION_TEXT),
    written: 40,
    quoted: true,
    required: 'always',
    description:
      'The version as phones show it: "2.5", "2.6.3", "8.1.1-Arete", "fourteen". LineageOS v2 phones read only major.minor numbers; other versions are left out of that answer. Quote it: YAML reads 2.10 as the number 2.1.',
    record: { at: 11 },
  },
  channel: {
    schema: () => zod().string({ error: 'expected the channel name, e.g. official' }),
    plain: text,
    written: 50,
    required: 'always',
    description: "The build's channel (its download folder): one of the site's channels.",
    record: { at: 7 },
  },
  timestamp: {
    schema: () => unixSeconds(),
    plain: seconds,
    written: 60,
    required: 'always',
    json: { property: () => UNIX_SECONDS },
    description: 'Build time in Unix seconds (post-timestamp of the zip).',
    record: { at: 4 },
  },
  datetime: {
    schema: () => unixSeconds().optional(),
    plain: seconds,
    json: { property: () => UNIX_SECONDS },
    description: 'Always equal to timestamp; better left out.',
    record: { at: 10 },
  },
  android_version: {
    schema: () => digits('the Android major version', '"14"'),
    plain: digitsText(SHORT_NUMBER),
    written: 70,
    quoted: true,
    json: { property: (generated) => digitsOrNumber(generated, 999) },
    description: 'Platform major version, e.g. "14"; derived from the file name or api_level when left out.',
    record: { at: 14 },
  },
  api_level: {
    schema: () => digits('the platform API level', '"34"').optional(),
    plain: digitsText(SHORT_NUMBER),
    written: 80,
    quoted: true,
    placeholder: 'may be empty',
    json: {
      property: (generated) => ({ anyOf: [...digitsOrNumber(generated, 999).anyOf, EMPTY] }),
      inPackage: (generated) => digitsOrNumber(generated, 999),
    },
    description: 'Platform API level; derived from android_version when left out.',
    record: { at: 2 },
  },
  incremental: {
    schema: () =>
      digitsMatching(
        INCREMENTAL,
        'expected the build incremental as text, e.g. eng.root.20241108.123456',
        'expected letters, digits, `.`, `-` and `_` only, e.g. eng.root.20241108.123456',
      ),
    plain: digitsText(INCREMENTAL),
    written: 90,
    quoted: true,
    required: 'package',
    placeholder: 'may be empty',
    json: { property: (generated) => digitsOrNumber(generated) },
    description: 'eng.root.<yyyymmdd>.<hhmmss>, a Unix-seconds string, or "".',
    record: { at: 1 },
  },
  source_incremental: {
    schema: () =>
      digitsMatching(
        SOURCE_INCREMENTAL,
        'expected the incremental of the build the package applies on (pre-build-incremental of its metadata), e.g. eng.build.20250110',
        'expected letters, digits, `.`, `-` and `_` only (at most 128, not `index`), as pre-build-incremental of the package metadata, e.g. eng.build.20250110',
      ),
    plain: digitsText(SOURCE_INCREMENTAL),
    written: 100,
    quoted: true,
    json: { property: (generated) => digitsOrNumber(generated) },
    description:
      'An incremental package: the ro.build.version.incremental of the build it applies on (pre-build-incremental of its metadata). Phones on that build are offered it instead of the full package of the build with the same incremental field.',
  },
  source_build: {
    schema: () =>
      textMatching(
        FINGERPRINT,
        'expected the fingerprint of the build the package applies on (pre-build of its metadata)',
        'expected a build fingerprint (pre-build of the package metadata): printable characters without spaces',
      ),
    plain: matching(FINGERPRINT),
    written: 110,
    description: 'The fingerprint of the build an incremental package applies on (pre-build of its metadata).',
  },
  md5sum: {
    schema: () => hex(32, 'the MD5 of the zip'),
    plain: hexText(32),
    written: 120,
    placeholder: 'may be empty',
    json: { property: () => orEmpty(LOWER_HEX_JSON(32)), inPackage: () => LOWER_HEX_JSON(32) },
    description:
      'MD5 of the zip: 32 lowercase hex characters. Optional: LineageOS phones never read it (published as "" when left out).',
    record: { at: 5 },
  },
  id: {
    schema: () => downloadKey(),
    plain: (v: unknown) => (typeof v === 'string' && isDownloadKey(v) ? v : UNSURE),
    written: 140,
    required: 'package',
    placeholder: 'package only',
    json: { property: () => orEmpty(ID_JSON), inPackage: () => ID_JSON },
    description:
      'SHA-256 of the zip: 64 lowercase hex characters (what otapress add writes). Phones use it only as the download key, so a key an existing listing gave its phones (an MD5, a SHA-1, ...) may stay: letters, digits and . _ ~ - + = : / (at most 255).',
    record: { at: 15 },
  },
  sha256: {
    schema: () => hex(64, 'the SHA-256 of the zip (sha256sum FILE), for a build whose id is another download key'),
    plain: hexText(64),
    written: 150,
    placeholder: 'package only',
    json: { property: () => orEmpty(LOWER_HEX_JSON(64)), inPackage: () => LOWER_HEX_JSON(64) },
    description:
      'SHA-256 of the zip, 64 lowercase hex characters, for a build whose id is another download key: v2 sha256, the pages, feeds and SHA256SUMS and the crDroid-family answer carry it; v1 id stays the key. Beside an id that is a SHA-256 it must equal it (otapress check).',
  },
  size: {
    schema: () =>
      zod()
        .number({ error: 'expected the zip size in bytes as a whole number (stat -c %s FILE)' })
        .max(Number.MAX_SAFE_INTEGER, {
          error: (issue) =>
            `${String(issue.input)} bytes is more than any file holds; expected the zip size in bytes (stat -c %s FILE)`,
        })
        .int({ error: 'expected the zip size in bytes as a whole number (stat -c %s FILE)' })
        .nonnegative({ error: 'a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)' }),
    plain: (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : UNSURE),
    written: 160,
    required: 'package',
    placeholder: 'package only',
    json: { property: orEmpty, inPackage: (generated) => generated },
    description: 'Zip size in bytes.',
    record: { at: 16 },
  },
  url: {
    schema: () => downloadUrl(),
    plain: (v: unknown) => (typeof v === 'string' && isDownloadUrl(v) ? v : UNSURE),
    written: 170,
    placeholder: 'package only',
    json: { property: orEmpty, inPackage: (generated) => generated },
    description: 'Download address; default {download_base_url}/{channel}/{device}/{filename}.',
    record: { at: 3 },
  },
  gapps: shownLink(
    174,
    'Address of the Google apps package to flash with this build: the `gapps` link crDroid 7-10, AlphaDroid and CherishOS show.',
  ),
  firmware: shownLink(
    175,
    'Address of the firmware to flash before this build: the `firmware` link the crDroid Java updaters and their forks (Evolution X, AlphaDroid, CherishOS) show.',
  ),
  modem: shownLink(
    176,
    'Address of the modem (radio) firmware for this build: the `modem` link crDroid 7-10, AlphaDroid and CherishOS show.',
  ),
  bootloader: shownLink(
    177,
    'Address of the bootloader for this build: the `bootloader` link crDroid 7-10, AlphaDroid and CherishOS show.',
  ),
  recovery: shownLink(
    178,
    'Address of the recovery to install this build with: the `recovery` link crDroid 7-10, AlphaDroid and CherishOS show.',
  ),
  display_version: {
    schema: () =>
      zod()
        .string({ error: 'expected text, e.g. 2.5-t-20241108446322-official-FP4' })
        .min(1)
        .superRefine(refuseUnpublishableText),
    plain: (v: unknown) => (typeof v === 'string' && v.length >= 1 ? shownText(v) : UNSURE),
    written: 180,
    required: 'placeholder',
    description: 'Shown to users; default: the file name without e- and .zip.',
    record: { at: 13 },
  },
  changes: {
    schema: () =>
      zod().string({ error: 'expected text (shown to users as the change log)' }).superRefine(refuseUnpublishableText),
    plain: shownText,
    written: 190,
    record: { at: 6 },
  },
  pre_version: {
    schema: () => zod().string({ error: 'expected text' }).superRefine(refuseUnpublishableText),
    plain: shownText,
    written: 200,
    record: { at: 12 },
  },
  is_upgrade_supported: {
    schema: () => zod().boolean({ error: 'expected true or false' }),
    plain: flag,
    written: 210,
    description: 'true or false (default).',
    record: { at: 17 },
  },
  lists: {
    schema: () =>
      zod().array(zod().string({ error: 'expected a request list name' }), {
        error: 'expected a list of request lists, e.g. [stable, official]',
      }),
    plain: (v: unknown) =>
      Array.isArray(v) && v.every((name) => typeof name === 'string') ? [...(v as string[])] : UNSURE,
    written: 220,
    description: "Request lists this build appears in, overriding the site's membership rules; [] hides it.",
    // A v1 record's `romtype` is the request list it is published in.
    record: { at: 9, as: 'romtype' },
  },
  placeholder: {
    schema: () => zod().boolean({ error: 'expected true or false' }),
    plain: flag,
    written: 10,
    description: 'true for a build without a downloadable package: no filename, id, size or url.',
  },
  os_patch_level: {
    schema: () =>
      textMatching(
        PATCH_DATE,
        'expected the security patch date as text, e.g. "2024-11-05"',
        'expected the security patch date as yyyy-mm-dd, e.g. "2024-11-05"',
      ),
    plain: matching(PATCH_DATE),
    written: 230,
    quoted: true,
    description: 'Security patch level, yyyy-mm-dd (post-security-patch-level).',
  },
  ota_property_files: {
    schema: () =>
      textMatching(
        PROPERTY_FILES_FORMAT,
        'expected the ota-property-files value of the zip metadata',
        'expected name:offset:size entries separated by commas, as in META-INF/com/android/metadata',
      ),
    plain: matching(PROPERTY_FILES_FORMAT),
    written: 250,
    description: 'ota-property-files of the zip metadata: name:offset:size entries, comma separated.',
  },
  ota_type: {
    schema: () => zod().enum(['AB', 'BLOCK'], { error: 'expected AB or BLOCK' }),
    plain: (v: unknown) => (v === 'AB' || v === 'BLOCK' ? v : UNSURE),
    written: 240,
    description: 'AB or BLOCK (ota-type of the zip metadata).',
  },
  signer: {
    schema: () => hex(64, "the SHA-256 of the signer's public key (what otapress add writes)"),
    plain: hexText(64),
    written: 260,
    description:
      "SHA-256 of the public key (SubjectPublicKeyInfo) of the certificate in the zip's whole-file signature (otapress add reads it from the end of the zip).",
  },
  otacert: {
    schema: () =>
      zod().array(
        hex(
          64,
          'the SHA-256 of the public key of a certificate of META-INF/com/android/otacert (what otapress add writes)',
        ),
        {
          error: 'expected a list of public key SHA-256s, e.g. [0123...]',
        },
      ),
    plain: (v: unknown) =>
      Array.isArray(v) && v.every((f) => typeof f === 'string' && lowerHex(64).test(f)) ? [...(v as string[])] : UNSURE,
    written: 270,
    description:
      'SHA-256 of the public key of each certificate of META-INF/com/android/otacert: the keys this build accepts its next update from.',
  },
  test_build: {
    schema: () => zod().boolean({ error: 'expected true or false' }),
    plain: flag,
    written: 280,
    description: 'true for a build signed with, or trusting, a public AOSP test key, published knowingly.',
  },
  // The fields build-extras.ts checks: the zip's SHA-1, the build's other files, its changelog.
  sha1: {
    schema: () => extraFields().sha1,
    plain: hexText(40),
    written: 130,
    placeholder: 'package only',
  },
  files: {
    schema: () => extraFields().files,
    plain: ZOD_ONLY,
    written: 290,
  },
  changelog: {
    schema: () => extraFields().changelog,
    plain: shownText,
    written: 300,
  },
} as const satisfies Record<string, Field>;

/** The name of a manifest field. */
export type FieldName = keyof typeof FIELDS;

/** The fields a written manifest may hold (those with a place in {@link MANIFEST_ORDER}). */
export type WrittenField = { [K in FieldName]: (typeof FIELDS)[K] extends { written: number } ? K : never }[FieldName];

/** A key of a v1 record: the record's name of each field it carries. */
type RecordKey = {
  [K in FieldName]: (typeof FIELDS)[K] extends { record: { as: infer A } }
    ? A
    : (typeof FIELDS)[K] extends { record: object }
      ? K
      : never;
}[FieldName];

/** The build links (the rows made by `shownLink`), in the order the crDroid Java updaters' records write them. */
export const BUILD_LINKS = [
  'gapps',
  'firmware',
  'modem',
  'bootloader',
  'recovery',
] as const satisfies readonly FieldName[];

/** The rows of {@link FIELDS}, in its order. */
export const FIELD_ROWS = Object.entries(FIELDS) as readonly (readonly [FieldName, Field])[];

const namesOf = (keep: (field: Field) => boolean) =>
  FIELD_ROWS.filter(([, field]) => keep(field)).map(([name]) => name);

/** Every key a manifest may hold, in the order the reference documents them (and the zod schema has them). */
export const MANIFEST_KEYS: readonly string[] = namesOf(() => true);

/** The order in which a manifest's fields are written (manifest-text.ts). */
export const MANIFEST_ORDER = FIELD_ROWS.filter(([, field]) => field.written !== undefined)
  .sort(([, a], [, b]) => a.written! - b.written!)
  .map(([name]) => name as WrittenField);

/** Text fields that hand-written manifests always quote, so YAML can never read them as numbers. */
export const ALWAYS_QUOTED: ReadonlySet<string> = new Set(namesOf((field) => field.quoted === true));

/**
 * Keys a package manifest must have, and those a placeholder must have. `md5sum` is not among them:
 * LineageOS phones never read it and many listings have none (a build without one gets a notice).
 */
export const REQUIRED = namesOf((field) => field.required === 'package' || field.required === 'always');
export const REQUIRED_PLACEHOLDER = namesOf((field) => field.required === 'placeholder' || field.required === 'always');
/** Keys a placeholder must leave out (or leave empty): the ones that would make a phone offer it. */
export const PACKAGE_ONLY = namesOf((field) => field.placeholder === 'package only');
/** Keys in which a placeholder's `""` stands for "left out" (as listings show the fields it lacks). */
export const EMPTY_IN_PLACEHOLDER = namesOf((field) => field.placeholder !== undefined);

/** The keys of a v1 record in the order the /e/ OTA server writes them (and every listing otapress writes). */
export const V1_RECORD_KEYS = FIELD_ROWS.filter(([, field]) => field.record !== undefined)
  .sort(([, a], [, b]) => a.record!.at - b.record!.at)
  .map(([name, field]) => (field.record!.as ?? name) as RecordKey);
