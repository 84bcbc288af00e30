/**
 * The updater families whose files `import` reads, and how its notes and refusals speak of each:
 * which updater reads the file and what its phones do with a record that lacks a key, a value
 * that is not a number, a number where they read text, and the list's key. One row per family,
 * so that a crDroid file is never described in LineageOS terms. Pure data.
 */
import { DIALECTS, dialectsNeedingSha256 } from '../render/dialects.js';
import { isAospaRecord, isCrDroidRecord, isPixelExperienceRecord, isV2Entry } from './other-formats.js';

/** How one family's phones read a file, in the words of notes and problems (`{key}`: the key as the file has it). */
export interface SourceFamily {
  /** What they do with a record that lacks a key they read. */
  missing: string;
  /** What they do with a record whose time or size is not a number. */
  notNumber: string;
  /** How they read a number written as text (`"size": "1470062969"`): a note's reason. */
  numberInText: string;
  /** The text of a whole number they read as one: org.json's getLong also trims it (Double.parseDouble), kotlinx does not. */
  numberInTextForm: RegExp;
  /**
   * A number where they read text (`"version": 4.2`): `reads`, how they read it (org.json's
   * getString gives the text Java prints); or `refused`, why no phone reads the answer.
   */
  numberForText: { reads: string } | { refused: string };
  /** What the build publishes for the key that names the record's type, when it is not the list imported into. */
  typeKey: string;
  /** What a record without its type key gets. */
  typeMissing: string;
  /** What a build without an MD5 means to these phones. */
  noMd5: string;
  /** The file's key for each v1 key it names otherwise, for the keys a record lacks. */
  fileKeys: Readonly<Record<string, string>>;
  /** Whether a record may be a placeholder (the /e/ interface's: no url, filename ""). */
  placeholders: boolean;
}

/** The families by the shape of their file; {@link familyOf} tells which a listing is. */
export type FamilyName =
  'lineage-v1' | 'lineage-v2' | 'pixelos-feed' | 'crdroid' | 'crdroid-md5' | 'pixelexperience' | 'aospa';

const AS_NUMBER = 'so it is published as the number';
/** Digits, with what `Double.parseDouble` trims around them (characters up to U+0020), as getLong reads text. */
const GET_LONG_TEXT = /^[\u0000-\u0020]*\d{1,15}[\u0000-\u0020]*$/;
/** Digits alone, as kotlinx reads a quoted Long. */
const KOTLINX_LONG_TEXT = /^\d{1,15}$/;
const JAVA_GET_STRING = 'getString, which gives the number as Java prints it (String.valueOf)';
const CRDROID_TYPE =
  "crDroid-family phones only show `buildtype`, never compare it (AlphaDroid's compare it with ro.alpha.build.package): the crDroid Java answer publishes the format's `buildtype` (site.yaml `formats: crdroid-java: buildtype:`), else the list's name, the crDroid Kotlin answer none, and LineageOS v1 the list as `romtype`";

/** Where a v2 entry (and a PixelOS feed entry) has the v1 keys. */
const V2_FILE_KEYS = {
  filename: 'files.0.filename',
  id: 'files.0.sha256',
  size: 'files.0.size',
  url: 'files.0.url',
  romtype: 'type',
};

/** Every family's words. */
export const SOURCE_FAMILIES: Record<FamilyName, SourceFamily> = {
  /** LineageOS v1 records (and the static files of PixelOS 15, DerpFest, AxionOS): Utils.parseJsonUpdate on org.json. */
  'lineage-v1': {
    missing: 'LineageOS phones drop a record without {key}',
    notNumber: 'LineageOS phones drop a record whose {key} is not a number (they read it with getLong)',
    numberInText: `phones read it with getLong, which takes a number in text, ${AS_NUMBER}`,
    numberInTextForm: GET_LONG_TEXT,
    numberForText: { reads: `LineageOS phones read it with ${JAVA_GET_STRING}` },
    typeKey: 'published as the list, which phones compare with their release type (ignoring case)',
    typeMissing: 'which phones compare with their release type',
    noMd5: 'LineageOS phones never read it; the build notes each package without one',
    fileKeys: {},
    placeholders: true,
  },
  /**
   * otapress's own v2 answer, `/api/v2/devices/<device>/builds`: LineageOS Updater 23.2 and later
   * decode every entry with kotlinx and refuse the whole answer over one they cannot
   * (NetworkUpdate.kt, test/helpers/clients.ts `v2DecodeAnswer`).
   */
  'lineage-v2': {
    missing: 'LineageOS v2 phones (Updater 23.2 and later) refuse the whole answer over an entry without `{key}`',
    notNumber: 'LineageOS v2 phones refuse the whole answer over an entry whose `{key}` is not a number (kotlinx Long)',
    numberInText: `LineageOS v2 phones read it as a Long, which kotlinx takes in quotes too, ${AS_NUMBER}`,
    numberInTextForm: KOTLINX_LONG_TEXT,
    numberForText: {
      refused: 'LineageOS v2 phones refuse the whole answer over it: kotlinx reads `{key}` only as quoted text',
    },
    typeKey:
      'it names no list of this site, so the entry goes to the list given (--list), which LineageOS v2 phones compare with their release type (ignoring case)',
    typeMissing: 'which LineageOS v2 phones compare with their release type',
    noMd5: 'LineageOS v2 phones never read it',
    fileKeys: V2_FILE_KEYS,
    placeholders: false,
  },
  /**
   * PixelOS's strict feed, the v2 shape with `type: "ci"`: kotlinx, then `validate()` on every
   * entry, and one failure loses the whole answer (test/helpers/dialects/pixelos.ts `decodePixelOsFeed`).
   */
  'pixelos-feed': {
    missing: "PixelOS's strict feed loses the whole answer over an entry without `{key}`",
    notNumber:
      "PixelOS's strict feed loses the whole answer over an entry whose `{key}` is not a number (kotlinx Long)",
    numberInText: `PixelOS's strict feed reads it as a Long, which kotlinx takes in quotes too, ${AS_NUMBER}`,
    numberInTextForm: KOTLINX_LONG_TEXT,
    numberForText: {
      refused: "PixelOS's strict feed loses the whole answer over it: kotlinx reads `{key}` only as quoted text",
    },
    typeKey:
      'PixelOS phones do not read it (its feed validator wants `ci`), so the entry goes to the list given (--list)',
    typeMissing: 'which PixelOS phones do not read',
    noMd5: 'PixelOS phones never read it',
    fileKeys: V2_FILE_KEYS,
    placeholders: false,
  },
  /**
   * crDroid's per-device file with `sha256`: crDroid's Java updater (11.0–14.0, org.json, a record
   * at a time) and its Kotlin updater (crDroid 11 and later, kotlinx, the answer as a whole) read it.
   */
  crdroid: {
    missing:
      "crDroid's Java updater drops a record without `{key}`, and its Kotlin updater (crDroid 11 and later) loses the whole answer",
    notNumber:
      "crDroid's Java updater drops a record whose `{key}` is not a number (getLong), and its Kotlin updater loses the whole answer",
    numberInText: `crDroid's Java updater reads it with getLong and its Kotlin updater as a Long: both take a number in text, ${AS_NUMBER}`,
    numberInTextForm: GET_LONG_TEXT,
    numberForText: {
      reads: `crDroid's Java updater reads it with ${JAVA_GET_STRING}, and its Kotlin updater would lose the whole answer over a number`,
    },
    typeKey: CRDROID_TYPE,
    typeMissing: 'which crDroid-family phones only show',
    noMd5:
      "crDroid's Kotlin updater never reads it; the crDroid Java and six-field md5 answers, keyed by it, leave the build out",
    fileKeys: { url: 'download', datetime: 'timestamp', id: 'sha256', romtype: 'buildtype', md5sum: 'md5' },
    placeholders: false,
  },
  /**
   * The files keyed by `md5` alone: crDroid's Java updater and the six-field readers of Matrixx,
   * Project Infinity-X and VoltageOS (test/helpers/dialects/crdroid-java.ts), a record at a time.
   */
  'crdroid-md5': {
    missing:
      'the md5-keyed Java updaters (Matrixx, Project Infinity-X, VoltageOS, crDroid) drop a record without `{key}`',
    notNumber:
      'the md5-keyed Java updaters (Matrixx, Project Infinity-X, VoltageOS, crDroid) drop a record whose `{key}` is not a number (getLong)',
    numberInText: `the md5-keyed Java updaters read it with getLong, which takes a number in text, ${AS_NUMBER}`,
    numberInTextForm: GET_LONG_TEXT,
    numberForText: { reads: `the md5-keyed Java updaters read it with ${JAVA_GET_STRING}` },
    typeKey: CRDROID_TYPE,
    typeMissing: 'which these updaters never read',
    noMd5: 'the md5-keyed Java updaters key every download by it',
    fileKeys: { url: 'download', datetime: 'timestamp', id: 'md5', romtype: 'buildtype', md5sum: 'md5' },
    placeholders: false,
  },
  /** The PixelExperience family's single object: PixelExperience/packages_apps_Updates Utils.java on org.json. */
  pixelexperience: {
    missing:
      'the PixelExperience updater offers nothing from an answer without `{key}` (the object is the whole answer)',
    notNumber: 'the PixelExperience updater offers nothing from an answer whose `{key}` is not a number (getLong)',
    numberInText: `the PixelExperience updater reads it with getLong, which takes a number in text, ${AS_NUMBER}`,
    numberInTextForm: GET_LONG_TEXT,
    numberForText: { reads: `the PixelExperience updater reads it with ${JAVA_GET_STRING}` },
    typeKey:
      'published as the list, which the PixelExperience updater does not read and LineageOS phones compare with their release type',
    typeMissing: 'which the PixelExperience updater does not read',
    noMd5: 'the PixelExperience answer needs it as `filehash` and leaves the build out',
    fileKeys: { md5sum: 'filehash' },
    placeholders: false,
  },
  /**
   * Paranoid Android's `{"updates": [...]}`, every value a string: the Java Hub (org.json) builds its
   * update from the first record only, and the Compose Hub (kotlinx, every key a String) loses the
   * whole answer over one record it cannot decode (test/helpers/dialects/aospa.ts).
   */
  aospa: {
    missing:
      "AOSPA's Java Hub offers nothing when the first record lacks `{key}`, and its Compose Hub loses the whole answer over a record without it",
    notNumber:
      "AOSPA's Java Hub offers nothing when the first record's `{key}` is not a number (getLong), and its Compose Hub cannot show the size",
    numberInText:
      "AOSPA's hubs read it as text (the Compose Hub) and with getLong (the Java Hub), so it is imported as the number, which the aospa answer writes as text again",
    numberInTextForm: GET_LONG_TEXT,
    numberForText: {
      reads:
        "AOSPA's Compose Hub reads it as the number's text (lenient kotlinx) and its Java Hub with getString, which gives the number as Java prints it (String.valueOf)",
    },
    typeKey:
      "`build_type` picks the list: the one site.yaml's `formats: aospa: buildtype:` gives it, else the list of its name in lower case, else the list given (--list)",
    typeMissing: 'which picks the list, and by which the Compose Hub shows a Beta phone the `Beta` builds only',
    noMd5: "AOSPA's hubs never read it",
    fileKeys: {
      version: 'version_code',
      romtype: 'build_type',
      display_version: 'version',
      os_patch_level: 'android_spl',
      changes: 'changelog_device',
      sha256: 'recovery_sha256',
    },
    placeholders: false,
  },
};

/**
 * The family of a listing, from its first record that is an object: a v2 entry, an AOSPA record, a crDroid-family
 * record (keyed by `md5` when no record has `sha256`), a PixelExperience object, else LineageOS v1.
 */
export function familyOf(records: readonly unknown[]): FamilyName {
  const objects = records.filter(
    (r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
  const first = objects[0];
  if (first === undefined) return 'lineage-v1';
  // PixelOS's feed validator (tools/pixelos_feed.py) requires `type: "ci"`, which no list is called.
  if (isV2Entry(first)) return first.type === 'ci' ? 'pixelos-feed' : 'lineage-v2';
  if (isAospaRecord(first)) return 'aospa';
  if (isCrDroidRecord(first))
    return objects.some((r) => r.sha256 !== undefined) || !objects.some((r) => r.md5 !== undefined)
      ? 'crdroid'
      : 'crdroid-md5';
  return isPixelExperienceRecord(first) ? 'pixelexperience' : 'lineage-v1';
}

/** `template` with `{key}` as the file's key. */
export function say(template: string, key: string): string {
  return template.replaceAll('{key}', key);
}

/**
 * The note for builds whose download key is their `md5` (no `sha256` in the file): which answers
 * publish them as they are and which cannot, from the dialect table.
 */
export function md5KeyNote(): string {
  const without = dialectsNeedingSha256().map((name) => `${DIALECTS[name].title} (\`${name}\`)`);
  return (
    'is the download key in {count}, with no `sha256` (these phones read none): imported as `id` and `md5sum`, as LineageOS v1 phones take any unique id. ' +
    `The ${without.join(' and ')} answers leave these builds out (they need the zip's SHA-256); LineageOS v2 publishes the MD5 as \`sha256\`, which its download portal shows as a SHA-256; ` +
    "every other answer publishes them as they are. Write the zip's SHA-256 as `sha256:` in each manifest (sha256sum FILE) to publish them everywhere"
  );
}
