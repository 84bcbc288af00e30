/**
 * The other updater families' parsing, transcribed from their apps' code (never from otapress's):
 * what a phone of each family decodes from an answer and offers. Tests use them as the oracle for
 * render/formats.ts.
 */

/** A phone of either family: its build time (`ro.build.date.utc`) and, for PixelExperience, its `org.pixelexperience.version`. */
export interface FamilyPhone {
  buildDate: number;
  version?: string;
}

/** An update as crDroid's updater keeps it (`NetworkUpdate.toUpdate()`). */
export interface CrDroidUpdate {
  downloadId: string;
  name: string;
  timestamp: number;
  type: string | null;
  fileSize: number;
  downloadUrl: string;
  version: string;
  osPatchLevel: string | null;
  osSdkLevel: number | null;
}

/** The device fields crDroid's updater shows (`UpdatesRepository.fetchUpdates`: the first non-blank of each). */
export interface CrDroidDeviceMetadata {
  maintainer: string | null;
  device: string | null;
  forum: string | null;
  telegram: string | null;
  paypal: string | null;
}

class DecodeError extends Error {}

/**
 * crDroid's updater decoding an answer: kotlinx.serialization with unknown keys ignored
 * (crdroidandroid/android_packages_apps_Updater, app/src/main/java/org/lineageos/updater/data/
 * source/network/NetworkUpdate.kt at 617bc8b5e9f6716039335973c11fd3dd84ebe488). `response`
 * defaults to an empty list; in each element `filename`, `download`, `sha256`, `version` must be
 * strings, `timestamp` and `size` Longs, and they are required; the optional ones, when present,
 * must have their type (`os_sdk_level` an Int) or be null. Any failure fails the whole answer
 * (`SerializationException`): returned as `undefined`.
 */
export function decodeCrDroid(text: string): { updates: CrDroidUpdate[]; metadata: CrDroidDeviceMetadata } | undefined {
  try {
    const root: unknown = JSON.parse(text);
    if (!isObject(root)) throw new DecodeError('not an object');
    const list = root.response === undefined ? [] : root.response;
    if (!Array.isArray(list)) throw new DecodeError('response is not a list');
    const records = list.map((r: unknown) => {
      if (!isObject(r)) throw new DecodeError('element is not an object');
      const required = (key: string, kind: 'string' | 'long') => {
        if (!(key in r)) throw new DecodeError(`missing ${key}`);
        return kind === 'string' ? kotlinString(r[key]) : kotlinLong(r[key]);
      };
      const optional = (key: string, kind: 'string' | 'int') => {
        if (!(key in r) || r[key] === null) return null;
        return kind === 'string' ? kotlinString(r[key]) : kotlinInt(r[key]);
      };
      return {
        filename: required('filename', 'string') as string,
        download: required('download', 'string') as string,
        timestamp: required('timestamp', 'long') as number,
        sha256: required('sha256', 'string') as string,
        size: required('size', 'long') as number,
        version: required('version', 'string') as string,
        md5: optional('md5', 'string'),
        buildtype: optional('buildtype', 'string') as string | null,
        maintainer: optional('maintainer', 'string') as string | null,
        oem: optional('oem', 'string'),
        device: optional('device', 'string') as string | null,
        forum: optional('forum', 'string') as string | null,
        gapps: optional('gapps', 'string'),
        firmware: optional('firmware', 'string'),
        modem: optional('modem', 'string'),
        bootloader: optional('bootloader', 'string'),
        recovery: optional('recovery', 'string'),
        paypal: optional('paypal', 'string') as string | null,
        telegram: optional('telegram', 'string') as string | null,
        os_patch_level: optional('os_patch_level', 'string') as string | null,
        os_sdk_level: optional('os_sdk_level', 'int') as number | null,
        ota_property_files: optional('ota_property_files', 'string'),
      };
    });
    const first = (key: 'maintainer' | 'device' | 'forum' | 'telegram' | 'paypal') =>
      records.map((r) => r[key]).find((v) => v !== null && v.trim() !== '') ?? null;
    return {
      updates: records.map((r) => ({
        downloadId: r.sha256,
        name: r.filename,
        timestamp: r.timestamp,
        type: r.buildtype,
        fileSize: r.size,
        downloadUrl: r.download,
        version: r.version,
        osPatchLevel: r.os_patch_level,
        osSdkLevel: r.os_sdk_level,
      })),
      metadata: {
        maintainer: first('maintainer'),
        device: first('device'),
        forum: first('forum'),
        telegram: first('telegram'),
        paypal: first('paypal'),
      },
    };
  } catch (error) {
    if (error instanceof DecodeError || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** `UpdatesRepository.filterUpdates` (same repository, data/UpdatesRepository.kt at 07ab16cee4a8cddab549006fb9b89852209fdd93), downgrades not allowed: newer than the phone's build. */
export function crDroidOffers(update: CrDroidUpdate, phone: FamilyPhone): boolean {
  return update.timestamp > phone.buildDate;
}

/** An update as PixelExperience's updater keeps it (`parseJsonUpdate`). */
export interface PixelExperienceUpdate {
  timestamp: number;
  name: string;
  downloadId: string;
  fileSize: number;
  downloadUrl: string;
  version: string;
  hash: string;
  maintainers: { name?: unknown; github_username?: unknown }[];
  donateUrl: string;
  forumUrl: string;
  websiteUrl: string;
  newsUrl: string;
}

/**
 * PixelExperience's updater reading an answer (PixelExperience/packages_apps_Updates,
 * src/org/pixelexperience/ota/misc/Utils.java `parseJson` and `parseJsonUpdate` at
 * 0c6f8d923ca08fac095f5e0f4954002e30e647fc): org.json `getLong("datetime")`, `getString("filename")`,
 * `getString("id")`, `getLong("size")`, `getString("url")`, `getString("version")`,
 * `getString("filehash")`; `maintainers` through Gson, an empty list when it fails; the four links
 * `""` when null or missing. A `JSONException` there is caught: no update (`undefined`).
 */
export function decodePixelExperience(text: string): PixelExperienceUpdate | undefined {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(root)) return undefined;
  const getLong = (key: string) => orgJsonLong(root[key]);
  const getString = (key: string) => orgJsonString(root[key]);
  const optional = (key: string) => (root[key] === undefined || root[key] === null ? '' : getString(key));
  const values = {
    timestamp: getLong('datetime'),
    name: getString('filename'),
    downloadId: getString('id'),
    fileSize: getLong('size'),
    downloadUrl: getString('url'),
    version: getString('version'),
    hash: getString('filehash'),
    donateUrl: optional('donate_url'),
    forumUrl: optional('forum_url'),
    websiteUrl: optional('website_url'),
    newsUrl: optional('news_url'),
  };
  if (Object.values(values).some((v) => v === undefined)) return undefined;
  const maintainers =
    Array.isArray(root.maintainers) && root.maintainers.every(isObject)
      ? (root.maintainers as PixelExperienceUpdate['maintainers'])
      : [];
  return { ...(values as Omit<PixelExperienceUpdate, 'maintainers'>), maintainers };
}

/** `Utils.canInstall`: newer than the phone's build, and the same version as the phone's, ignoring case. */
export function pixelExperienceOffers(update: PixelExperienceUpdate, phone: FamilyPhone): boolean {
  return update.timestamp > phone.buildDate && update.version.toLowerCase() === (phone.version ?? '').toLowerCase();
}

// --- internal ---

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** kotlinx.serialization's String: a JSON string only (the default, non-lenient Json). */
function kotlinString(v: unknown): string {
  if (typeof v !== 'string') throw new DecodeError('expected a string');
  return v;
}

/** kotlinx.serialization's Long: a JSON integer within 64 bits (a quoted number is refused). */
function kotlinLong(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new DecodeError('expected a Long');
  return v;
}

function kotlinInt(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31)
    throw new DecodeError('expected an Int');
  return v;
}

/** org.json `getLong`: a number, or a string that parses as one; else `undefined` (JSONException). */
function orgJsonLong(v: unknown): number | undefined {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Math.trunc(Number(v));
  return undefined;
}

/** org.json `getString`: any present value, as text (a number becomes its text, JSON null "null"); a missing key fails. */
function orgJsonString(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (v === null) return 'null';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
