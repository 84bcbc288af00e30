/**
 * One record of a saved v1 listing: its shape and types checked, and the manifest values it stands
 * for. Problems and normalisations go to the caller's context, located at the record's fields.
 */
import { displayVersionOf, parseBuildFilename } from '../catalog/filename.js';
import { androidVersionOf, API_LEVELS } from '../catalog/api-levels.js';
import { DOWNLOAD_KEY, SHA256 } from '../catalog/download-key.js';
import { foreignKey } from '../catalog/foreign-keys.js';
import { V1_RECORD_KEYS } from '../catalog/fields.js';
import type { ManifestValues } from '../catalog/manifest-text.js';
import type { Site } from '../catalog/site.js';
import { deriveAndroidVersion } from '../catalog/name-families.js';
import { isCrDroidRecord, isPixelExperienceRecord, mapCrDroidRecord, mapPixelExperienceRecord } from './other-formats.js';

/** The keys of a v1 record in the order the /e/ OTA server writes them (and every listing otapress writes): the field table's. */
export const RECORD_KEYS = V1_RECORD_KEYS;

/**
 * The fields a LineageOS v1 updater reads: it drops a record that lacks any of them. Every other
 * field of the interface is only the /e/ updater's, so a record without it is still importable.
 */
export const PHONE_KEYS = ['datetime', 'filename', 'id', 'romtype', 'size', 'url', 'version'] as const;

/** Where a record is read: the site, the device and list it is imported into, and where messages go. */
export interface RecordContext {
  site: Site;
  device: string;
  list: string;
  /** `--android-version`: for records that neither api_level nor the file name tells it of. */
  androidVersion?: string;
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
}

/** The forms of a value the import publishes differently, reported once per listing. */
export const NORMALISED = {
  datetime_text: 'is text in {count}; phones read it with getLong, which takes a number in text, so it is published as the number',
  timestamp_text: 'is text in {count}; published as the number, equal to datetime',
  size_text: 'is text in {count}; phones read it with getLong, which takes a number in text, so it is published as the number',
  id_key: "is not a SHA-256 in {count}; phones use it only as the download key, so it is published as written (pages and feeds do not call it a SHA-256)",
  romtype_list: 'is not the list imported into in {count}; published as the list, which phones compare with their release type (ignoring case)',
  crdroid: 'is read as the v1 key in {count} (crDroid / Evolution X listing)',
  pixelexperience: 'is read as the v1 key in {count} (PixelExperience / PixelOS / Project Elixir answer)',
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
  android_version_unknown: 'left out: neither api_level nor the file name tells it, and no phone needs it to offer the build (the build notes how each answer shows it; --android-version N sets it)',
  romtype: 'set to the list imported into',
  api_level: 'derived from android_version by the same pairing, as the build does',
  display_version: 'derived from the file name, as the build does',
  incremental: 'published as ""',
  md5sum: 'published as "" (LineageOS phones never read it; the build notes each package without one)',
  changes: 'published as ""',
  pre_version: 'published as ""',
  is_upgrade_supported: 'published as false',
} as const;

/** A field the import may fill in; see {@link FILLED}. */
export type FilledField = keyof typeof FILLED;

/** Fields the interface types as strings that servers also send as JSON numbers. */
const NUMERIC_TEXT = new Set(['incremental', 'api_level', 'android_version']);

/** Checks one record's shape and types; returns the manifest values it stands for. */
export function readRecord(record: unknown, c: RecordContext): (ManifestValues & { placeholder?: true }) | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    c.problem(undefined, `expected a record (a JSON object), found ${record === null ? 'null' : Array.isArray(record) ? 'an array' : typeof record}`);
    return undefined;
  }
  const r = { ...(record as Record<string, unknown>) };
  // crDroid's shape: its build keys become the v1 ones, the others describe the device.
  const crDroid = isCrDroidRecord(r);
  const renamed = crDroid ? mapCrDroidRecord(r) : new Map<string, string>();
  for (const [ours, theirs] of renamed) c.normalised('crdroid', theirs, `${theirs} → ${ours}`);
  if (crDroid && r.romtype === undefined) r.romtype = c.list;
  // PixelExperience's single object: its build keys become the v1 ones, the others describe the device.
  const pixelExperience = !crDroid && isPixelExperienceRecord(r);
  if (pixelExperience) {
    for (const [ours, theirs] of mapPixelExperienceRecord(r, c.deviceField)) {
      renamed.set(ours, theirs);
      c.normalised('pixelexperience', theirs, `${theirs} → ${ours}`);
    }
  }
  // Build facts of the crDroid family beyond the v1 record, which manifests hold too (checked there).
  const buildExtras: Pick<ManifestValues, 'os_patch_level' | 'ota_property_files'> = {};
  for (const key of ['os_patch_level', 'ota_property_files'] as const) {
    if (typeof r[key] === 'string' && r[key] !== '') buildExtras[key] = r[key] as string;
    if (r[key] !== undefined && buildExtras[key] === undefined) c.note(key, `\`${key}\` is ${JSON.stringify(r[key])}, not text the build can publish; it is left out`);
    delete r[key];
  }
  if (r.os_sdk_level !== undefined && r.api_level === undefined && typeof r.os_sdk_level === 'number' && Number.isSafeInteger(r.os_sdk_level)) {
    r.api_level = String(r.os_sdk_level);
    c.normalised(pixelExperience ? 'pixelexperience' : 'crdroid', 'os_sdk_level', 'os_sdk_level → api_level');
  }
  delete r.os_sdk_level;
  // Importing into a list gives every record its romtype: the list's.
  if (r.romtype === undefined) {
    r.romtype = c.list;
    c.filled('romtype');
  }
  // Messages name the key the file has (`sha256`, not `id`).
  if (renamed.size > 0) {
    const c0 = c;
    c = { ...c0, problem: (field, message) => c0.problem(field && (renamed.get(field) ?? field), message), note: (field, message) => c0.note(field && (renamed.get(field) ?? field), message) };
  }
  const placeholder = r.url === undefined && r.filename === '';
  for (const key of Object.keys(r)) {
    if ((RECORD_KEYS as readonly string[]).includes(key)) continue;
    if (crDroid || pixelExperience) c.deviceField(key, r[key]);
    else {
      const foreign = foreignKey(key);
      c.note(key, `\`${key}\` is not a field of the v1 interface; it is left out${foreign ? ` (${key} is ${foreign.what}; v1 calls it \`${foreign.ours === 'channel' ? 'romtype' : foreign.ours}\`)` : ''}`);
    }
  }
  // What a phone needs must be there: a LineageOS phone drops a record without it, so it is not a
  // build it offers. A placeholder (no url, filename "") is dropped by phones anyway and lacks only the url.
  for (const key of PHONE_KEYS) {
    if (r[key] === undefined && !(key === 'url' && placeholder)) {
      const name = renamed.get(key) ?? (crDroid ? CRDROID_NAMES[key] ?? key : key);
      c.problem(key, crDroid
        ? `missing \`${name}\`; the build needs it to publish the v1 \`${key}\` that phones read`
        : `missing${key === 'url' ? ' (only a placeholder, with filename, id and size "", has no url)' : ''}; LineageOS phones drop a record without ${key}`);
    }
  }
  fillMissing(r, placeholder, c);
  const text = (key: string): string | undefined => {
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
    if (typeof v !== 'string') {
      c.problem(key, `expected text for ${key}, found ${describe(v)}`);
      return undefined;
    }
    return v;
  };
  const seconds = (key: 'datetime' | 'timestamp'): number | undefined => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    // org.json's getLong reads a number written as text, as many hand-made listings have it.
    if (typeof v === 'string' && /^\d{1,15}$/.test(v)) {
      // A timestamp filled in from datetime is datetime's note already.
      if (key === 'datetime' || (record as Record<string, unknown>).timestamp !== undefined) c.normalised(`${key}_text`, renamed.get(key) ?? key, JSON.stringify(v));
      return Number(v);
    }
    if (key === 'timestamp' && (record as Record<string, unknown>).timestamp === undefined) return undefined; // Filled from datetime: its problem says it.
    if (typeof v === 'number') {
      c.problem(key, `expected Unix seconds as a JSON number, e.g. 1731067200, found ${describe(v)}`);
      return undefined;
    }
    c.problem(
      key,
      key === 'datetime' || r.datetime === undefined
        ? `${describe(v)} is not Unix seconds; LineageOS phones drop a record whose datetime is not a number (they read it with getLong): write the build time, e.g. ${typeof v === 'string' ? `date -u -d '${v.replace(/'/g, '')}' +%s, or ` : ''}ro.build.date.utc of the build`
        : `expected Unix seconds, like datetime, found ${describe(v)}`,
    );
    return undefined;
  };
  /** The id: a SHA-256 (lower-cased), or any other download key phones already know, published as written. */
  const downloadKey = (): string | undefined => {
    const v = text('id');
    if (v === undefined || v === '' || /^[0-9a-fA-F]{64}$/.test(v)) return v === undefined || v === '' ? v : hex('id', 64);
    if (!DOWNLOAD_KEY.test(v)) {
      c.problem('id', `${describe(v)} is not a download key otapress can publish unchanged: it needs 1 to 255 letters, digits and \`. _ ~ - + = : /\` (phones key downloads by it, and pages and feeds link it)`);
      return undefined;
    }
    if (!SHA256.test(v)) c.normalised('id_key', renamed.get('id') ?? 'id', v.length > 40 ? `${v.slice(0, 40)}…` : v);
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

  const values = {
    incremental: text('incremental'),
    api_level: text('api_level'),
    timestamp: seconds('timestamp'),
    datetime: seconds('datetime'),
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
  let size: number | '' | undefined;
  const rawSize = r.size;
  if (typeof rawSize === 'number' && Number.isSafeInteger(rawSize) && rawSize >= 0) size = rawSize;
  else if (typeof rawSize === 'string' && /^\d{1,15}$/.test(rawSize)) {
    size = Number(rawSize);
    c.normalised('size_text', 'size', JSON.stringify(rawSize));
  } else if (rawSize === '' && placeholder) size = '';
  else if (rawSize !== undefined) {
    c.problem('size', `expected the size in bytes as a whole number${placeholder ? ', or "" in a placeholder' : ''}, found ${describe(rawSize)}${placeholder || typeof rawSize === 'number' ? '' : '; LineageOS phones drop a record whose size is not a number'}`);
  }
  const upgrade = r.is_upgrade_supported;
  if (upgrade !== undefined && typeof upgrade !== 'boolean') c.problem('is_upgrade_supported', `expected true or false, found ${describe(upgrade)}`);

  if (values.datetime !== undefined && values.timestamp !== undefined && values.datetime !== values.timestamp) {
    c.problem('datetime', `datetime ${values.datetime} differs from timestamp ${values.timestamp}; phones compare datetime with their build time, so otapress publishes one build time: make them equal`);
  }
  if (values.romtype !== undefined && values.romtype !== c.list) {
    c.normalised('romtype_list', renamed.get('romtype') ?? 'romtype', `${values.romtype} → ${c.list}`);
  }
  if (!placeholder && values.id === '') c.problem('id', 'id is empty; phones key each download by it (records with the same id collapse into one): give the build its own, e.g. the SHA-256 of the zip');
  if (placeholder) {
    if (values.id !== '' && values.id !== undefined) c.problem('id', 'a placeholder (no url, filename "") has id ""; a phone would otherwise treat it as a download');
    if (size !== '' && size !== undefined) c.problem('size', 'a placeholder (no url, filename "") has size ""; a numeric size would make a phone offer it');
  } else if (r.url !== undefined && r.filename === '') {
    c.problem('filename', 'a record with a url needs its file name; a placeholder has neither');
  }
  if (Object.values(values).some((v) => v === undefined) || size === undefined || upgrade === undefined || (!placeholder && url === undefined)) {
    c.partial?.({ ...values, android_version: values.android_version || undefined, api_level: values.api_level || undefined, md5sum: values.md5sum || undefined, size: size === '' ? undefined : size, url, ...(placeholder && { placeholder: true }) });
    return undefined;
  }
  const v = values as { [K in keyof typeof values]-?: NonNullable<(typeof values)[K]> };
  // Keep only what the build would not derive by itself, as a maintainer would write it.
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
    api_level: v.api_level === API_LEVELS[v.android_version] || (v.api_level === '' && v.android_version === '') ? undefined : v.api_level,
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

/** What a record, valid or not, says about which build it is. */
export function rawIdentity(r: Record<string, unknown>): { placeholder: boolean; id: unknown; filename: unknown; display_version: unknown } {
  return { placeholder: r.url === undefined && r.filename === '', id: typeof r.id === 'string' ? r.id.toLowerCase() : r.id, filename: r.filename, display_version: r.display_version };
}

/** Whether the record's known keys come in the interface's order. */
export function sameOrder(keys: string[]): boolean {
  const known = keys.filter((k) => (RECORD_KEYS as readonly string[]).includes(k));
  const expected = RECORD_KEYS.filter((k) => known.includes(k));
  return known.join() === expected.join();
}

// --- internal ---

/** The crDroid key a missing v1 phone key stands for, for messages. */
const CRDROID_NAMES: Record<string, string> = { url: 'download', datetime: 'timestamp', id: 'sha256', romtype: 'buildtype' };

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
    const fromLevel = androidVersionOf(typeof r.api_level === 'number' ? String(r.api_level) : (r.api_level as string | undefined));
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
  if (r.api_level === undefined) fill('api_level', placeholder ? '' : API_LEVELS[String(r.android_version)] ?? '');
  if (r.display_version === undefined && typeof r.filename === 'string' && r.filename !== '') fill('display_version', displayVersionOf(r.filename));
  if (r.display_version === undefined) c.problem('display_version', 'missing `display_version`, which names a placeholder (it has no file name to derive it from); add it');
  if (r.md5sum === undefined) fill('md5sum', '');
  for (const [key, value] of [['incremental', ''], ['changes', ''], ['pre_version', ''], ['is_upgrade_supported', false]] as const) {
    if (r[key] === undefined) fill(key, value);
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `${v}`;
  return Array.isArray(v) ? 'an array' : 'an object';
}
