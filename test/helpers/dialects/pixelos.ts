/**
 * PixelOS's two readers: the PixelOS 15 updater's `{"response": [...]}` file read record by record
 * with org.json (what the official device files of branches fifteen and sixteen are written for),
 * and the newer updater's strict feed, a bare array read with kotlinx and validated as a whole.
 */
import {
  JSONException,
  arrayGetJSONObject,
  arrayIsNull,
  getJSONArray,
  getLong,
  getString,
  has,
  joinLines,
  optBoolean,
  optLong,
  optString,
  parseJSONObject,
  type JsonArray,
} from './org-json.js';
import { SerializationException, decodeClass, kxList, parseKotlinx, type KxValue } from './kotlinx-json.js';

/** An update as the PixelOS 15 updater keeps it (`Update` after `Utils.parseJsonUpdate`). */
export interface PixelOs15Update {
  timestamp: number;
  name: string;
  downloadId: string;
  fileSize: number;
  downloadUrl: string;
  version: string;
  stream: boolean;
  streamUrl: string;
  /** From the first `payload` object: its `offset`, and every other key as `key=value`. */
  payloadOffset?: number;
  payloadProperties?: string[];
}

/**
 * The PixelOS 15 updater's `Utils.parseJson(file, false)` (PixelOS-AOSP/android_packages_apps_Updater,
 * app/src/main/java/net/pixelos/ota/misc/Utils.kt at dfdc32975e37d07c25b6bead05bff3620cd99b8f):
 * the downloaded file's lines joined, org.json, `getJSONArray("response")` (a failure there fails
 * the whole answer: `undefined`); per record `getLong("datetime")` (a numeric string is read),
 * `getString` of `filename`, `id`, `url`, `version` (a number gives its text), `getLong("size")`,
 * `optBoolean("stream", false)`, `optString("stream_url", "")`; when `payload` is present it must
 * be an array, and when not empty its first element an object whose values are read with
 * `getString`. A record that fails is dropped alone.
 */
export function decodePixelOs15(text: string): PixelOs15Update[] | undefined {
  let list: JsonArray;
  try {
    list = getJSONArray(parseJSONObject(joinLines(text)), 'response');
  } catch (error) {
    if (error instanceof JSONException) return undefined;
    throw error;
  }
  const updates: PixelOs15Update[] = [];
  for (let i = 0; i < list.length; i++) {
    if (arrayIsNull(list, i)) continue;
    try {
      const obj = arrayGetJSONObject(list, i);
      const update: PixelOs15Update = {
        timestamp: getLong(obj, 'datetime'),
        name: getString(obj, 'filename'),
        downloadId: getString(obj, 'id'),
        fileSize: getLong(obj, 'size'),
        downloadUrl: getString(obj, 'url'),
        version: getString(obj, 'version'),
        stream: optBoolean(obj, 'stream', false),
        streamUrl: optString(obj, 'stream_url', ''),
      };
      if (has(obj, 'payload')) {
        const payloadList = getJSONArray(obj, 'payload');
        if (payloadList.length > 0) {
          const payload = arrayGetJSONObject(payloadList, 0);
          update.payloadOffset = optLong(payload, 'offset', 0);
          const keys = [...payload.keys()].filter((k) => k !== 'offset');
          update.payloadProperties = keys.map((k) => `${k}=${getString(payload, k)}`);
        }
      }
      updates.push(update);
    } catch (error) {
      if (!(error instanceof JSONException)) throw error;
    }
  }
  return updates;
}

/**
 * The PixelOS 15 `isCompatible`: newer than `ro.build.date.utc`, with no downgrade switch. Its
 * first test, `SystemProperties.get(Build.VERSION.RELEASE) > update.version`, reads a property
 * named after the Android release ("15"), which no build sets: the empty string is greater than
 * no version, so `version` never matters.
 */
export function pixelOs15Offers(update: PixelOs15Update, phone: { buildDate: number }): boolean {
  return update.timestamp > phone.buildDate;
}

/** An update as the strict-feed updater keeps it (`NetworkUpdate.toUpdate()` / `toIncrementalUpdate()`). */
export interface PixelOsFeedUpdate {
  downloadId: string;
  name: string;
  timestamp: number;
  fileSize: number;
  downloadUrl: string;
  version: string;
  osPatchLevel: string;
  osSdkLevel: number;
  /** `payload_metadata.bin`, `payload.bin`, `payload_properties.txt` ranges from `ota_property_files`. */
  ranges: Record<string, { offset: number; size: number }>;
  /** Built from the entry's `incremental` file. */
  incremental: boolean;
}

/** Which code state of the strict reader: with or without the optional `incremental` file. */
export interface PixelOsFeedReader {
  readsIncremental: boolean;
}

/**
 * The state without `incremental`: NetworkUpdate.kt at 6ed86e2363e60835a84de4136dcb00b2c3084dc9,
 * UpdatesRepository.kt at fe27c094b7e1b667779f781aad72692b72a44030.
 */
export const PIXELOS_FEED: PixelOsFeedReader = { readsIncremental: false };
/**
 * The state with it: NetworkUpdate.kt at 675cb781a6215e554bbba7d83fc00f28424209cd, UpdatesRepository.kt at
 * 1e973c9c005016bc43cdd9fc9047dc7758ae9144.
 */
export const PIXELOS_FEED_INCREMENTAL: PixelOsFeedReader = { readsIncremental: true };

/** `MAX_RESPONSE_BYTES` of UpdatesNetworkDataSource.kt. */
export const PIXELOS_FEED_MAX_BYTES = 1024 * 1024;

/**
 * The strict-feed updater reading `API/updater/{device}.json` of branch `{branch}`
 * (PixelOS-AOSP/android_packages_apps_Updater, app/src/main/java/net/pixelos/ota/data/source/network/
 * UpdatesNetworkDataSource.kt at a7eae754e341bcabb5e3afb925a2377b6a928e67 and NetworkUpdate.kt at
 * the reader's commit): a body over 1 MiB is refused; the bytes are decoded as UTF-8 by
 * `decodeToString()` (a BOM stays, and kotlinx refuses it); `Json.decodeFromString<List<NetworkUpdate>>`
 * with unknown keys ignored per class; then `validate()` on each entry: `datetime` > 0, exactly one
 * `files` element (and, in the state that reads it, exactly one `incremental` one when that key is
 * present and not null), `version` not blank;
 * each file's `filename` and `os_patch_level` not blank, `os_sdk_level` > 0, `sha256` 64 lowercase
 * hex digits, `size` > 0, an `https` URL, and `ota_property_files`, when present, well-formed
 * `name:offset:size` ranges within the package that name the three payload entries. Any failure
 * is caught by `UpdatesViewModel.fetchUpdates` (`catch (e: Exception)`): the whole answer is
 * lost, `undefined`. `text` is the body as UTF-8.
 */
export function decodePixelOsFeed(text: string, reader: PixelOsFeedReader): PixelOsFeedUpdate[] | undefined {
  if (Buffer.byteLength(text, 'utf8') > PIXELOS_FEED_MAX_BYTES) return undefined;
  try {
    const entries = kxList(parseKotlinx(text, { bomConsumed: false }));
    const fileFields = {
      filename: { type: 'String' },
      os_patch_level: { type: 'String' },
      os_sdk_level: { type: 'Int' },
      ota_property_files: { type: 'String', nullable: true, optional: true },
      sha256: { type: 'String' },
      size: { type: 'Long' },
      url: { type: 'String' },
    } as const;
    const updates: PixelOsFeedUpdate[] = [];
    const decoded = entries.map((entry) => {
      const top = decodeClass(entry, { datetime: { type: 'Long' }, version: { type: 'String' } });
      const object = entry as Extract<KxValue, { kind: 'object' }>;
      const filesValue = object.entries.get('files');
      if (filesValue === undefined) throw new SerializationException("Field 'files' is required");
      const files = kxList(filesValue).map((f) => decodeClass(f, fileFields));
      const incrementalValue = reader.readsIncremental ? object.entries.get('incremental') : undefined;
      const incremental =
        incrementalValue === undefined || (incrementalValue.kind === 'literal' && incrementalValue.text === 'null')
          ? null
          : kxList(incrementalValue).map((f) => decodeClass(f, fileFields));
      return { datetime: top.datetime as number, version: top.version as string, files, incremental };
    });
    for (const entry of decoded) {
      // NetworkUpdate.validate(), entry by entry, before any is kept.
      check(entry.datetime > 0, 'datetime must be positive');
      check(entry.files.length === 1, 'Each update must contain exactly one file');
      check(!isBlank(entry.version), 'version must not be blank');
      validateFile(entry.files[0]);
      if (entry.incremental !== null) {
        check(entry.incremental.length === 1, 'Each update must contain exactly one incremental file');
        validateFile(entry.incremental[0]);
      }
    }
    for (const entry of decoded) {
      updates.push(toUpdate(entry, entry.files[0], false));
      if (entry.incremental !== null) updates.push(toUpdate(entry, entry.incremental[0], true));
    }
    return updates;
  } catch (error) {
    if (error instanceof SerializationException || error instanceof IllegalArgument) return undefined;
    throw error;
  }
}

/**
 * A strict-feed phone: `ro.build.date.utc`, `Build.VERSION.SDK_INT`, `ro.build.ab_update`, and the
 * incremental-updates preference.
 */
export interface PixelOsFeedPhone {
  buildDate: number;
  sdkLevel: number;
  isAB: boolean;
  incrementalUpdates?: boolean;
  allowDowngrading?: boolean;
}

/**
 * `UpdatesRepository.fetchUpdates` and `filterUpdates`: an incremental only when the preference is
 * on; then newer than the phone's build (unless downgrading is allowed), an incremental only on an
 * A/B phone, and an SDK level no lower than the phone's.
 */
export function pixelOsFeedOffers(updates: PixelOsFeedUpdate[], phone: PixelOsFeedPhone): PixelOsFeedUpdate[] {
  const deltaUrls = new Set(updates.filter((u) => u.incremental).map((u) => u.downloadUrl));
  return updates
    .filter((u) => !u.incremental || (phone.incrementalUpdates ?? false))
    .filter((u) => (phone.allowDowngrading ?? false) || u.timestamp > phone.buildDate)
    .filter((u) => !deltaUrls.has(u.downloadUrl) || phone.isAB)
    .filter((u) => u.osSdkLevel >= phone.sdkLevel);
}

// --- internal ---

/** Kotlin's `require` failing: an `IllegalArgumentException` (NumberFormatException is one too). */
class IllegalArgument extends Error {}

function check(condition: boolean, message: string): void {
  if (!condition) throw new IllegalArgument(message);
}

/**
 * Kotlin's `isBlank`: empty or only `Char.isWhitespace` characters (controls 9–13 and 28–31, space
 * separators, U+2028, U+2029).
 */
function isBlank(s: string): boolean {
  return /^[\t\n\u000b\f\r\u001c-\u001f\p{Zs}\u2028\u2029]*$/u.test(s);
}

type FeedFile = Record<string, string | number | null | undefined>;

const AB_PAYLOAD_PATHS = ['payload_metadata.bin', 'payload.bin', 'payload_properties.txt'];

function validateFile(file: FeedFile): void {
  check(!isBlank(file.filename as string), 'filename must not be blank');
  check(!isBlank(file.os_patch_level as string), 'os_patch_level must not be blank');
  check((file.os_sdk_level as number) > 0, 'os_sdk_level must be positive');
  check(/^[0-9a-f]{64}$/.test(file.sha256 as string), 'sha256 must be lowercase hex');
  check((file.size as number) > 0, 'size must be positive');
  check(uriScheme(file.url as string)?.toLowerCase() === 'https', 'URL must use HTTPS');
  if (typeof file.ota_property_files === 'string') {
    const ranges = packageFileRanges(file.ota_property_files, file.size as number);
    for (const path of AB_PAYLOAD_PATHS) check(path in ranges, `ota_property_files is missing ${path}`);
  }
}

/**
 * `java.net.URI(url).scheme`: `null` for a relative reference; a string with characters RFC 2396
 * does not allow (space, `"`, `<`, `>`, `\`, `^`, backquote, `{`, `|`, `}`, controls) or a `%` not
 * followed by two hex digits throws `URISyntaxException`, caught like the rest.
 */
function uriScheme(url: string): string | null {
  if (/[\u0000-\u0020"<>\\^`{|}\u007f]/.test(url) || /%(?![0-9a-fA-F]{2})/.test(url)) {
    throw new IllegalArgument('URISyntaxException');
  }
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1] ?? null;
}

/**
 * `parsePackageFileRanges`: `name:offset:size` tokens separated by commas, each within the package; a later
 * name replaces an earlier one.
 */
function packageFileRanges(value: string, packageSize: number): Record<string, { offset: number; size: number }> {
  const ranges: Record<string, { offset: number; size: number }> = {};
  for (const token of value.split(',')) {
    const parts = splitLimit(token.trim(), ':', 3);
    check(parts.length === 3, `Malformed ota_property_files entry: ${token}`);
    const name = parts[0].trim();
    const offset = kotlinToLong(parts[1].trim());
    const size = kotlinToLong(parts[2].trim());
    check(name !== '', 'Empty ota_property_files name');
    check(offset >= 0n && size > 0n && offset <= 2n ** 63n - 1n - size, `Invalid range for ${name}`);
    check(offset + size <= BigInt(packageSize), `Range for ${name} exceeds package size`);
    ranges[name] = { offset: Number(offset), size: Number(size) };
  }
  return ranges;
}

/** Kotlin's `split(delimiter, limit = n)`: at most n parts, the last one keeping the rest. */
function splitLimit(s: string, delimiter: string, limit: number): string[] {
  const parts = s.split(delimiter);
  return parts.length <= limit ? parts : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(delimiter)];
}

/** Kotlin's `String.toLong()`: an optional sign and decimal digits within 64 bits, else NumberFormatException. */
function kotlinToLong(s: string): bigint {
  check(/^[+-]?\d+$/.test(s), `For input string: "${s}"`);
  const n = BigInt(s);
  check(n >= -(2n ** 63n) && n < 2n ** 63n, `For input string: "${s}"`);
  return n;
}

function toUpdate(
  entry: { datetime: number; version: string },
  file: FeedFile,
  incremental: boolean,
): PixelOsFeedUpdate {
  const ranges =
    typeof file.ota_property_files === 'string' ? packageFileRanges(file.ota_property_files, file.size as number) : {};
  const kept = Object.fromEntries(AB_PAYLOAD_PATHS.filter((p) => p in ranges).map((p) => [p, ranges[p]]));
  return {
    downloadId: file.sha256 as string,
    name: file.filename as string,
    timestamp: entry.datetime,
    fileSize: file.size as number,
    downloadUrl: file.url as string,
    version: entry.version,
    osPatchLevel: file.os_patch_level as string,
    osSdkLevel: file.os_sdk_level as number,
    ranges: kept,
    incremental,
  };
}
