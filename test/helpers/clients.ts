/**
 * The update clients' rules, written from their documented behaviour (their public sources, and the
 * LineageOS updater's own code run on otapress output), never from otapress's code.
 * Tests use them as the oracle: what a real phone would offer from an answer.
 */

/** A phone asking for updates: its release type, build time, installed version and upgrade setting. */
export interface Phone {
  /** `ro.lineage.releasetype`, in any case (the phone lower-cases it in the URL, compares ignoring case). */
  releaseType: string;
  /** `ro.build.date.utc`, Unix seconds. */
  buildDate: number;
  /** `ro.lineage.build.version`. */
  version: string;
  /** Whether the phone allows moving to a newer major version. */
  allowMajorUpgrades: boolean;
}

/**
 * Java's `Integer.parseInt(s)`: an optional sign and decimal digits, within 32-bit range; anything
 * else throws `NumberFormatException` (returned here as `undefined`).
 */
function javaParseInt(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** Java's `s.split("\\.")`: like JavaScript's, but trailing empty strings are removed (and "" stays [""]). */
function javaSplitOnDot(s: string): string[] {
  const parts = s.split('.');
  if (s === '') return parts;
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/**
 * The 23.2-era `Utils.compareVersions`' reading of a version: the first two parts as integers, or
 * `undefined` where it catches `ArrayIndexOutOfBoundsException` or `NumberFormatException`.
 */
export function v2Version(version: string): [number, number] | undefined {
  const parts = javaSplitOnDot(version);
  if (parts.length < 2) return undefined;
  const major = javaParseInt(parts[0]);
  const minor = javaParseInt(parts[1]);
  return major === undefined || minor === undefined ? undefined : [major, minor];
}

/** One entry of a v2 answer, as the client reads it (only `files[0]`). */
export interface V2Entry {
  datetime: unknown;
  type: unknown;
  version: unknown;
  files: { filename?: unknown; sha256?: unknown; size?: unknown; url?: unknown; ota_property_files?: unknown }[];
}

/**
 * Whether a v2 phone offers this entry: its version has two readable numbers and is not older than
 * the installed one (a newer major only when the phone allows it), its type equals the phone's
 * release type ignoring case, its datetime is newer than the phone's build, and its file has a
 * positive size (one widely used fork refuses the others). The download `url` is not looked at:
 * `UpdatesRepository.kt` (LineageOS/android_packages_apps_Updater, commit
 * 2d441e8b2d45966e4306fac2689de13b2118f37f) filters on time, version and type only, and only the
 * listing address must be https (`UpdatesNetworkDataSource.kt`); an `http://` download is offered,
 * then fails ({@link downloadAllowed}).
 */
export function v2Offers(entry: V2Entry, phone: Phone): boolean {
  const file = entry.files[0];
  if (file === undefined || typeof entry.version !== 'string' || typeof entry.type !== 'string') return false;
  const offered = v2Version(entry.version);
  const installed = v2Version(phone.version);
  if (offered === undefined || installed === undefined) return false;
  const [major, minor] = offered;
  const versionOk = major > installed[0] ? phone.allowMajorUpgrades : major === installed[0] && minor >= installed[1];
  return (
    versionOk &&
    entry.type.toLowerCase() === phone.releaseType.toLowerCase() &&
    typeof entry.datetime === 'number' &&
    entry.datetime > phone.buildDate &&
    typeof file.size === 'number' &&
    file.size > 0
  );
}

/**
 * Whether the updater app may fetch a download at all: both the LineageOS v1 updater (lineage-22.0,
 * commit 3cb130d40a24e337d2bd11f33bf1ff091c48ab53) and the v2 one declare
 * `android:usesCleartextTraffic="false"` in `AndroidManifest.xml`, so only https downloads work.
 */
export function downloadAllowed(url: unknown): boolean {
  return typeof url === 'string' && url.startsWith('https://');
}

/** Kotlin's `String.toLong()`: an optional sign and decimal digits within 64 bits, else `NumberFormatException` (`undefined`). */
export function kotlinToLong(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n ? n : undefined;
}

/**
 * What the v2 client makes of a whole answer: the entries, or `undefined` when it refuses the
 * answer. `NetworkUpdate.kt` (commit 022b56cbe31073fdcf16a92e07c6b99c18a6522c) decodes every entry
 * strictly (Long `datetime` and `size`, String `filename`, `sha256`, `url`, `type`, `version`) and
 * `toUpdate()` splits `files[0].ota_property_files` on `,`, then each trimmed entry on `:`, and
 * reads parts 1 and 2 with `toLong()`; `UpdatesRepository.kt` maps every entry before filtering,
 * so one failure refuses all of them.
 */
export function v2DecodeAnswer(body: string): V2Entry[] | undefined {
  const long = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
  let entries: unknown;
  try {
    entries = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries) || Buffer.byteLength(body) > 32 * 1024) return undefined;
  for (const entry of entries as V2Entry[]) {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      !long(entry.datetime) ||
      typeof entry.type !== 'string' ||
      typeof entry.version !== 'string'
    )
      return undefined;
    if (!Array.isArray(entry.files) || entry.files.length === 0) return undefined;
    for (const file of entry.files) {
      if (
        typeof file.filename !== 'string' ||
        typeof file.sha256 !== 'string' ||
        typeof file.url !== 'string' ||
        !long(file.size)
      )
        return undefined;
    }
    const properties = (entry.files[0] as { ota_property_files?: unknown }).ota_property_files;
    if (properties === undefined) continue;
    if (typeof properties !== 'string') return undefined;
    for (const token of properties.split(',')) {
      const parts = token.trim().split(':');
      if (
        parts.length < 3 ||
        kotlinToLong(parts[1].trim()) === undefined ||
        kotlinToLong(parts[2].trim()) === undefined
      )
        return undefined;
    }
  }
  return entries as V2Entry[];
}

/** A v1 record as the LineageOS v1 client reads it (`Utils.parseJsonUpdate`). */
export interface V1Record {
  datetime: unknown;
  romtype: unknown;
  version: unknown;
  url?: unknown;
  size?: unknown;
}

/**
 * Whether a LineageOS v1 phone lists this record (`Utils.parseJsonUpdate` reads it and
 * `Utils.isCompatible` takes it, lineage-22.0, commit
 * 3cb130d40a24e337d2bd11f33bf1ff091c48ab53): `version.compareTo(installed) < 0` refuses it, a
 * comparison of the text (Java's `String.compareTo`, UTF-16 code units, as JavaScript's `<`), so
 * `1.10` is older than `1.9`; its datetime must be newer than the phone's build; its romtype equal
 * to the phone's release type ignoring case.
 */
export function v1Lists(record: V1Record, phone: Phone): boolean {
  // parseJsonUpdate: `getString("url")` and `getLong("size")` throw for a placeholder (no url, size ""), which is skipped.
  if (typeof record.version !== 'string' || typeof record.romtype !== 'string' || typeof record.url !== 'string')
    return false;
  if (!(
    typeof record.size === 'number' ||
    (typeof record.size === 'string' && record.size.trim() !== '' && Number.isFinite(Number(record.size)))
  ))
    return false;
  return (
    !(record.version < phone.version) &&
    Number(record.datetime) > phone.buildDate &&
    record.romtype.toLowerCase() === phone.releaseType.toLowerCase()
  );
}

/**
 * Whether that phone lets the user install a listed record (`Utils.canInstall`, same commit): a
 * newer build of exactly the installed version (`equalsIgnoreCase`); others show as blocked.
 */
export function v1CanInstall(record: V1Record, phone: Phone): boolean {
  return (
    v1Lists(record, phone) &&
    typeof record.version === 'string' &&
    record.version.toLowerCase() === phone.version.toLowerCase()
  );
}

/**
 * A v1 record as the LineageOS v1 updater reads it (Utils.parseJsonUpdate on org.json): `getLong`
 * for datetime and size (numbers written as text read the same), `getString` for the rest, romtype
 * compared ignoring case. Two records a phone reads alike have equal views.
 */
export function phoneView(r: Record<string, unknown>) {
  return {
    datetime: Number(r.datetime),
    filename: String(r.filename),
    id: String(r.id),
    romtype: String(r.romtype).toLowerCase(),
    size: Number(r.size),
    url: String(r.url),
    version: String(r.version),
  };
}

/** The system properties the LineageOS v1 updater builds its request URL from. */
export interface PhoneProperties {
  /** `ro.updater.next_device`, else `ro.lineage.device`. */
  device: string;
  /** `ro.lineage.releasetype`, in any case. */
  releaseType: string;
  /** `ro.build.version.incremental`: the build the phone runs. */
  incremental: string;
}

/**
 * The URL a LineageOS v1 phone asks (`Utils.getServerURL`, LineageOS/android_packages_apps_Updater
 * at commit c0b27434ff29b5065317f3466f66e2853c9fc2c0, app/src/main/java/org/lineageos/updater/misc/Utils.java):
 * the template of `lineage.updater.uri` (or the built-in `updater_server_url`) with `{device}`,
 * `{type}` lower-cased (`Locale.ROOT`) and `{incr}` replaced, each first occurrence and every other,
 * as Java's `String.replace` does.
 */
export function v1RequestUrl(template: string, phone: PhoneProperties): string {
  return template
    .replaceAll('{device}', phone.device)
    .replaceAll('{type}', phone.releaseType.toLowerCase())
    .replaceAll('{incr}', phone.incremental);
}

/**
 * The URL a LineageOS 23.2+ (v2) phone asks: `serverUrl` of UpdatesNetworkDataSource.kt
 * (LineageOS/android_packages_apps_Updater, app/src/main/java/org/lineageos/updater/data/source/network/;
 * the getter is the same in the Kotlin updater's versions, e.g. at
 * a973e5b3e16535f592a0ca43c452c625e7b24dfe, whatever shape they decode) replaces `{device}`, `{type}`
 * lower-cased and `{incr}` (`DeviceInfoUtils.buildVersionIncremental`) in the URI with Kotlin's
 * `String.replace`, every occurrence.
 */
export function v2RequestUrl(template: string, phone: PhoneProperties): string {
  return template
    .replaceAll('{device}', phone.device)
    .replaceAll('{type}', phone.releaseType.toLowerCase())
    .replaceAll('{incr}', phone.incremental);
}

/** A v2 URI with `{incr}`: what a ROM sets to have its phones answered per source build. */
export const LINEAGE_V2_INCR_TEMPLATE = 'https://download.example.org/api/v2/devices/{device}/builds/{incr}';

/** The built-in v1 template of the LineageOS updater (`updater_server_url`), with the site's host. */
export const LINEAGE_V1_TEMPLATE = 'https://download.example.org/api/v1/{device}/{type}/{incr}';
