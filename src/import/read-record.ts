/**
 * One record of a saved v1 listing: its shape and types checked, and the manifest values it stands
 * for. Problems and normalisations go to the caller's context, located at the record's fields.
 */
import { displayVersionOf, parseBuildFilename } from '../catalog/filename.js';
import { androidVersionOf, API_LEVELS } from '../catalog/api-levels.js';
import { foreignKey } from '../catalog/foreign-keys.js';
import { V1_RECORD_KEYS } from '../catalog/fields.js';
import type { ManifestValues } from '../catalog/manifest-text.js';
import type { Site } from '../catalog/site.js';
import { deriveAndroidVersion } from '../catalog/name-families.js';
import {
  isAospaRecord,
  isCrDroidRecord,
  isPixelExperienceRecord,
  isV2Entry,
  mapAospaRecord,
  mapCrDroidRecord,
  mapPixelExperienceRecord,
  mapV2Entry,
  takeBuildLinks,
  type BuildLinks,
} from './other-formats.js';
import { md5KeyNote, say, type SourceFamily } from './source-families.js';
import { checkAcross, manifestValuesOf, readValues, type CompleteRead, type RecordValues } from './record-values.js';

/** The keys of a v1 record in the order the /e/ OTA server writes them (and every listing otapress writes): the field table's. */
export const RECORD_KEYS = V1_RECORD_KEYS;

/**
 * The fields a LineageOS v1 updater reads: it drops a record that lacks any of them. Every other
 * field of the interface is only the /e/ updater's, so a record without it is still importable.
 */
const PHONE_KEYS = ['datetime', 'filename', 'id', 'romtype', 'size', 'url', 'version'] as const;

/** Where a record is read: the site, the device and list it is imported into, and where messages go. */
export interface RecordContext {
  site: Site;
  device: string;
  list: string;
  /** `--android-version`: for records that neither api_level nor the file name tells it of. */
  androidVersion?: string;
  /** The updater family that reads the file: the words of every message. */
  family: SourceFamily;
  /** The text of the record's member `key` as the file writes it (`4.10`), when there is one. */
  literal?(key: string): string | undefined;
  problem(field: string | undefined, message: string): void;
  note(field: string | undefined, message: string): void;
  /**
   * A field the record lacks, filled in (`how` in {@link FILLED}); `detail` is what it was derived
   * from, e.g. `30 → 11`. The caller reports each field once per listing, not once per record.
   */
  filled(field: FilledField, detail?: string): void;
  /**
   * A value published in another form than the record has it (`kind` in {@link NORMALISED}), at
   * `field` (the key the record has); reported once per listing, with the first few `detail`s.
   */
  normalised(kind: NormalisedKind, field: string, detail: string): void;
  /** A key of the record that describes the device, not the build (crDroid's shape): the caller keeps the first value. */
  deviceField(key: string, value: unknown): void;
  /**
   * The values of a record that has problems, as far as they could be read: the caller checks them
   * as the build would, so that one run reports every problem of the record.
   */
  partial?(values: ManifestValues & { placeholder?: true }): void;
  /** The file's key for each v1 field of this record (`url` → `download`), so that later checks name it too. */
  fileKeys?(fileKey: (field: string) => string): void;
}

/** The forms of a value the import publishes differently, each in the words of the file's family; reported once per listing. */
export const NORMALISED = {
  datetime_text: (f: SourceFamily) => `is text in {count}; ${f.numberInText}`,
  timestamp_text: () => 'is text in {count}; published as the number, equal to datetime',
  size_text: (f: SourceFamily) => `is text in {count}; ${f.numberInText}`,
  size_fraction: () =>
    "has a fraction in {count}; org.json's getLong reads the whole part (Number.longValue), so it is published as that number",
  id_key: () =>
    'is not a SHA-256 in {count}; phones use it only as the download key, so it is published as written (pages and feeds do not call it a SHA-256)',
  md5_id: () => md5KeyNote(),
  romtype_list: (f: SourceFamily) => `is not the list imported into in {count}; ${f.typeKey}`,
  number_text: (f: SourceFamily) =>
    `is a number in {count}; ${'reads' in f.numberForText ? f.numberForText.reads : ''}, so it is published as that text`,
  number_text_shown: (f: SourceFamily) =>
    `is a number in {count} that phones show otherwise than the file writes it: ${'reads' in f.numberForText ? f.numberForText.reads : ''}; published as they show it`,
  crdroid: () => 'is read as the v1 key in {count} (crDroid-family listing)',
  pixelexperience: () => 'is read as the v1 key in {count} (PixelExperience / PixelOS / Project Elixir answer)',
  aospa: () => 'is read as the v1 key in {count} (AOSPA answer)',
  aospa_unheld: () => 'is left out in {count}: no manifest field holds it',
  // What the Compose Hub downloads for a phone on the build before (Herna1994/ComposeParanoidHub
  // MainActivityViewModel.kt `searchForUpdate` at b29981a569f919ae8888e4fc1c5c364fbf1a5b3c).
  aospa_delta: () =>
    'is left out in {count}: the Compose Hub downloads it for a phone on the build before; describe the package in the manifest\'s `incrementals` to publish it (README "Incremental updates and signing")',
} as const;

/** A kind of {@link NORMALISED} value. */
export type NormalisedKind = keyof typeof NORMALISED;

/** How the import fills each field a record may lack (the phone does not read them), for the one note per field. */
export const FILLED = {
  timestamp: 'set to datetime (the build time phones compare)',
  channel: 'set to the list imported into (the download folder of the default address)',
  channel_from_name: 'set to the channel the file name states (the download folder of the default address)',
  android_version: 'derived from api_level by the pairing of the v1 interface (README, The v1 interface)',
  android_version_from_name: 'derived from the file name',
  android_version_given: 'set to --android-version',
  android_version_unknown:
    'left out: neither api_level nor the file name tells it, and no phone needs it to offer the build (the build notes how each answer shows it; --android-version N sets it)',
  romtype: 'set to the list imported into',
  api_level: 'derived from android_version by the same pairing, as the build does',
  display_version: 'derived from the file name, as the build does',
  incremental: 'published as ""',
  md5sum: 'published as "" ({noMd5})',
  changes: 'published as ""',
  pre_version: 'published as ""',
  is_upgrade_supported: 'published as false',
} as const;

/** A field the import may fill in; see {@link FILLED}. */
export type FilledField = keyof typeof FILLED;

/** Checks one record's shape and types; returns the manifest values it stands for. */
export function readRecord(record: unknown, c: RecordContext): RecordValues | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    c.problem(
      undefined,
      `expected a record (a JSON object), found ${record === null ? 'null' : Array.isArray(record) ? 'an array' : typeof record}`,
    );
    return undefined;
  }
  const r = { ...(record as Record<string, unknown>) };
  const shape = adoptOtherShapes(r, c);
  // Messages name the key the file has (`sha256`, not `id`).
  if (shape.renamed.size > 0) {
    c = namingFileKeys(c, shape.renamed);
    c.fileKeys?.((field) => shape.renamed.get(field) ?? field);
  }
  // Only the /e/ interface has placeholders: in another family's file a record without url lacks it.
  const placeholder = c.family.placeholders && r.url === undefined && r.filename === '';
  checkKeys(r, shape, placeholder, c);
  fillMissing(r, placeholder, c);
  const read = readValues(r, record as Record<string, unknown>, shape.renamed, placeholder, c);
  checkAcross(read, r, placeholder, shape.renamed, c);
  const { values, size, url, upgrade } = read;
  if (
    Object.values(values).some((v) => v === undefined) ||
    size === undefined ||
    upgrade === undefined ||
    (!placeholder && url === undefined)
  ) {
    c.partial?.({
      ...values,
      android_version: values.android_version || undefined,
      api_level: values.api_level || undefined,
      md5sum: values.md5sum || undefined,
      size: size === '' ? undefined : size,
      url,
      ...(placeholder && { placeholder: true }),
    });
    return undefined;
  }
  return manifestValuesOf(read as CompleteRead, placeholder, c, shape.buildExtras);
}

/** What a record, valid or not, says about which build it is. */
export function rawIdentity(r: Record<string, unknown>): {
  placeholder: boolean;
  id: unknown;
  filename: unknown;
  display_version: unknown;
} {
  // A v2 entry names its build in files[0]; a crDroid record by sha256, else md5 (other-formats.ts).
  const files = Array.isArray(r.files) ? (r.files as unknown[]) : [];
  const zip = files[0] !== null && typeof files[0] === 'object' ? (files[0] as Record<string, unknown>) : undefined;
  const id = zip ? zip.sha256 : isCrDroidRecord(r) ? (r.sha256 ?? r.md5) : r.id;
  const filename = zip ? zip.filename : r.filename;
  return {
    placeholder: !zip && !isCrDroidRecord(r) && r.url === undefined && filename === '',
    id: typeof id === 'string' ? id.toLowerCase() : id,
    filename,
    display_version: r.display_version,
  };
}

/** Whether the record's known keys come in the interface's order. */
export function sameOrder(keys: string[]): boolean {
  const known = keys.filter((k) => (RECORD_KEYS as readonly string[]).includes(k));
  const expected = RECORD_KEYS.filter((k) => known.includes(k));
  return known.join() === expected.join();
}

// --- internal ---

/** What the shapes of other updaters (crDroid, PixelExperience, LineageOS v2) became in a record. */
interface Shape {
  /** The v1 key of each key the file has under another name: `id` → `sha256`. */
  renamed: Map<string, string>;
  /** The record is of another updater's shape: its keys beyond v1 describe the device. */
  foreign: boolean;
  /** Build facts beyond the v1 record (crDroid's, a v2 entry's), which manifests hold too (checked there). */
  buildExtras: Pick<ManifestValues, 'os_patch_level' | 'ota_property_files' | 'sha256' | 'sha1' | 'files'> & BuildLinks;
}

/**
 * Renames, in `r`, the build keys of a crDroid record or a PixelExperience answer to the v1 ones
 * (their other keys describe the device), and takes out the build facts beyond v1; gives the
 * record the list's romtype when it has none.
 */
function adoptOtherShapes(r: Record<string, unknown>, c: RecordContext): Shape {
  const v2 = isV2Entry(r);
  const crDroid = !v2 && isCrDroidRecord(r);
  const entry = v2 ? mapV2Entry(r) : undefined;
  const renamed = crDroid ? mapCrDroidRecord(r) : (entry?.renamed ?? new Map<string, string>());
  // A v2 entry's keys are the v2 interface's, which otapress writes itself: no note on each.
  for (const [ours, theirs] of crDroid ? renamed : []) {
    // A download key from `md5` has a note of its own, with what each answer can then publish.
    if (theirs === 'md5' && ours === 'id') c.normalised('md5_id', theirs, String(r.id));
    else c.normalised('crdroid', theirs, `${theirs} → ${ours}`);
  }
  if (crDroid && r.romtype === undefined) r.romtype = c.list;
  const aospa = !crDroid && !v2 && isAospaRecord(r);
  if (aospa) {
    const mapped = mapAospaRecord(r);
    for (const [ours, theirs] of mapped.renamed) {
      renamed.set(ours, theirs);
      c.normalised('aospa', theirs, `${theirs} → ${ours}`);
    }
    for (const [key, value] of mapped.unheld)
      c.normalised(key === 'delta' ? 'aospa_delta' : 'aospa_unheld', key, value);
    // The record's list is the one its `build_type` picked (plan-import.ts).
    r.romtype = c.list;
  }
  const pixelExperience = !crDroid && !v2 && !aospa && isPixelExperienceRecord(r);
  if (pixelExperience) {
    for (const [ours, theirs] of mapPixelExperienceRecord(r)) {
      renamed.set(ours, theirs);
      c.normalised('pixelexperience', theirs, `${theirs} → ${ours}`);
    }
  }
  const buildExtras: Shape['buildExtras'] = { ...takeBuildLinks(r, c.note), ...entry?.extras };
  // AOSPA's `recovery_sha256`, the SHA-256 the Compose Hub checks the download against.
  if (aospa && typeof r.sha256 === 'string' && r.sha256 !== '') buildExtras.sha256 = r.sha256;
  if (aospa) delete r.sha256;
  for (const key of ['os_patch_level', 'ota_property_files'] as const) {
    if (typeof r[key] === 'string' && r[key] !== '') buildExtras[key] = r[key] as string;
    if (r[key] !== undefined && buildExtras[key] === undefined)
      c.note(key, `\`${key}\` is ${JSON.stringify(r[key])}, not text the build can publish; it is left out`);
    delete r[key];
  }
  const level = r.os_sdk_level;
  if (level !== undefined && r.api_level === undefined) {
    // kotlinx reads an Int in quotes too (crDroid's Kotlin updater: `"os_sdk_level": "34"` is 34).
    const text =
      typeof level === 'number' && Number.isSafeInteger(level)
        ? String(level)
        : typeof level === 'string' && /^\d{1,9}$/.test(level)
          ? level
          : undefined;
    if (text === undefined)
      c.note('os_sdk_level', `\`os_sdk_level\` is ${JSON.stringify(level)}, not an SDK level; it is left out`);
    else {
      r.api_level = text;
      if (!v2)
        c.normalised(pixelExperience ? 'pixelexperience' : 'crdroid', 'os_sdk_level', 'os_sdk_level → api_level');
    }
  }
  delete r.os_sdk_level;
  // Importing into a list gives every record its romtype: the list's.
  if (r.romtype === undefined) {
    r.romtype = c.list;
    c.filled('romtype');
  }
  return { renamed, foreign: crDroid || pixelExperience || v2 || aospa, buildExtras };
}

/** `c`, with its problems and notes said of the key the file has (`sha256`) rather than the v1 one (`id`). */
function namingFileKeys(c: RecordContext, renamed: ReadonlyMap<string, string>): RecordContext {
  return {
    ...c,
    problem: (field, message) => c.problem(field && (renamed.get(field) ?? field), message),
    note: (field, message) => c.note(field && (renamed.get(field) ?? field), message),
  };
}

/**
 * Notes each key that is no field of the v1 interface (a foreign shape's go to the device file),
 * and reports each key a LineageOS phone needs and the record lacks: the phone drops such a
 * record, so it is not a build it offers. A placeholder (no url, filename "") lacks only the url.
 */
function checkKeys(r: Record<string, unknown>, shape: Shape, placeholder: boolean, c: RecordContext): void {
  for (const key of Object.keys(r)) {
    if ((RECORD_KEYS as readonly string[]).includes(key)) continue;
    if (shape.foreign) c.deviceField(key, r[key]);
    else {
      const foreign = foreignKey(key);
      c.note(
        key,
        `\`${key}\` is not a field of the v1 interface; it is left out${foreign ? ` (${key} is ${foreign.what}; v1 calls it \`${foreign.ours === 'channel' ? 'romtype' : foreign.ours}\`)` : ''}`,
      );
    }
  }
  for (const key of PHONE_KEYS) {
    if (r[key] === undefined && !(key === 'url' && placeholder)) {
      const name = c.family.fileKeys[key] ?? key;
      // Said at the key the file lacks, in the words of the updater that reads it.
      c.problem(
        name,
        `missing${c.family.placeholders && key === 'url' ? ' (only a placeholder, with filename, id and size "", has no url)' : ''}; ${say(c.family.missing, name)}`,
      );
    }
  }
}

/** Fills in, in `r`, the fields only the /e/ updater reads, from what the record has; reports each through `c.filled`. */
function fillMissing(r: Record<string, unknown>, placeholder: boolean, c: RecordContext): void {
  const fill = (key: FilledField, value: unknown, detail?: string) => {
    r[key] = value;
    c.filled(key, detail);
  };
  if (r.timestamp === undefined && r.datetime !== undefined) fill('timestamp', r.datetime);
  // The channel is the download folder: the one a known file name form states, else the list's.
  const named = typeof r.filename === 'string' ? parseBuildFilename(r.filename) : undefined;
  if (r.channel === undefined && named) {
    r.channel = named.channel;
    c.filled('channel_from_name');
  } else if (r.channel === undefined) fill('channel', c.list);
  if (r.android_version === undefined) {
    const fromLevel = androidVersionOf(
      typeof r.api_level === 'number' ? String(r.api_level) : (r.api_level as string | undefined),
    );
    const fromName = typeof r.filename === 'string' ? deriveAndroidVersion(r.filename, undefined) : undefined;
    if (fromLevel !== undefined) fill('android_version', fromLevel, `${String(r.api_level)} → ${fromLevel}`);
    else if (fromName !== undefined) {
      r.android_version = fromName;
      c.filled('android_version_from_name', `${String(r.filename)} → ${fromName}`);
    } else if (c.androidVersion !== undefined) {
      r.android_version = c.androidVersion;
      c.filled('android_version_given', c.androidVersion);
    } else {
      r.android_version = '';
      c.filled('android_version_unknown', typeof r.filename === 'string' ? r.filename : undefined);
    }
  }
  // The build derives api_level from android_version; "" is what a placeholder shows without it.
  if (r.api_level === undefined) fill('api_level', placeholder ? '' : (API_LEVELS[String(r.android_version)] ?? ''));
  // A number as the file name is the text phones read (record-values.ts): the name is derived from it alike.
  const name = typeof r.filename === 'number' ? String(r.filename) : r.filename;
  if (r.display_version === undefined && typeof name === 'string' && name !== '')
    fill('display_version', displayVersionOf(name));
  if (r.display_version === undefined && c.family.placeholders)
    c.problem(
      'display_version',
      'missing `display_version`, which names a placeholder (it has no file name to derive it from); add it',
    );
  if (r.md5sum === undefined) fill('md5sum', '');
  for (const [key, value] of [
    ['incremental', ''],
    ['changes', ''],
    ['pre_version', ''],
    ['is_upgrade_supported', false],
  ] as const) {
    if (r[key] === undefined) fill(key, value);
  }
}
