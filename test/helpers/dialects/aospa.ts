/**
 * Paranoid Android's updaters reading `{"updates": [...]}`, every value written as a string: the
 * official Java Hub (branch uvite, what AOSPA builds ship) and the Kotlin Compose rewrite of it.
 */
import {
  JSONException,
  arrayGetJSONObject,
  arrayIsNull,
  getJSONArray,
  getLong,
  getString,
  javaParseDouble,
  joinLines,
  parseJSONObject,
  type JsonArray,
} from './org-json.js';
import { SerializationException, decodeClass, kxList, parseKotlinx, type KxField } from './kotlinx-json.js';

/** The update component the Java Hub builds (`ComponentBuilder.buildUpdateComponent` and `buildSharedComponent`). */
export interface AospaHubUpdate {
  fileName: string;
  timestamp: number;
  fileSize: number;
  downloadUrl: string;
  androidVersion: string;
  androidSpl: string;
  deviceChangelog: string;
  version: string;
  versionNumber: string;
  buildType: string;
  id: string;
}

/**
 * The Java Hub reading `<system_update_server_url>updates/<ro.aospa.device>` (AOSPA/android_packages_apps_ParanoidHub
 * branch uvite, src/co/aospa/hub/components/ComponentBuilder.java at bfde35e68fb6d7f00000c1699cb245e445e2f6e8):
 * the file's lines joined, org.json, `getJSONArray("updates")`; for each non-null index it builds
 * the component from element 0 (`taskData.getJSONObject(0)`, whatever the index), so only the
 * first element is ever read, and a null first element followed by others reads nothing. The
 * element gives `getString` of `filename`, `url`, `android_version`, `android_spl`,
 * `changelog_device`, `version`, `version_code`, `build_type`, `id` and `getLong` of `datetime`
 * and `size` (numeric strings are read). Any failure leaves no component: `undefined`.
 */
export function decodeAospaHub(text: string): AospaHubUpdate | undefined {
  let list: JsonArray;
  try {
    list = getJSONArray(parseJSONObject(joinLines(text)), 'updates');
  } catch (error) {
    if (error instanceof JSONException) return undefined;
    throw error;
  }
  let component: AospaHubUpdate | undefined;
  for (let i = 0; i < list.length; i++) {
    if (arrayIsNull(list, i)) continue;
    try {
      const o = arrayGetJSONObject(list, 0);
      component = {
        fileName: getString(o, 'filename'),
        timestamp: getLong(o, 'datetime'),
        fileSize: getLong(o, 'size'),
        downloadUrl: getString(o, 'url'),
        androidVersion: getString(o, 'android_version'),
        androidSpl: getString(o, 'android_spl'),
        deviceChangelog: getString(o, 'changelog_device'),
        version: getString(o, 'version'),
        versionNumber: getString(o, 'version_code'),
        buildType: getString(o, 'build_type'),
        id: getString(o, 'id'),
      };
    } catch (error) {
      if (!(error instanceof JSONException)) throw error;
    }
  }
  return component;
}

/** An AOSPA phone: `ro.build.date.utc`, `ro.aospa.version.minor` (the version code), the Android version property. */
export interface AospaPhone {
  buildDate: number;
  versionNumber: string;
  androidVersion: string;
}

/**
 * The Java Hub's `Version.isUpdateAvailable` (src/co/aospa/hub/util/Version.java, same commit):
 * an Android upgrade (`Float.parseFloat(android_version)` above the phone's), or a newer
 * timestamp, or a greater `Float.parseFloat(version_code)`. Downgrades are never offered. A value
 * `Float.parseFloat` refuses throws NumberFormatException, modelled as `undefined`.
 */
export function aospaHubOffers(update: AospaHubUpdate, phone: AospaPhone): boolean | undefined {
  const updateAndroid = javaParseFloat(update.androidVersion);
  const phoneAndroid = javaParseFloat(phone.androidVersion);
  if (updateAndroid === undefined || phoneAndroid === undefined) return undefined;
  if (updateAndroid > phoneAndroid) return true;
  if (update.timestamp > phone.buildDate) return true;
  const updateCode = javaParseFloat(update.versionNumber);
  const phoneCode = javaParseFloat(phone.versionNumber);
  if (updateCode === undefined || phoneCode === undefined) return undefined;
  return updateCode > phoneCode;
}

/**
 * The fields of the Compose Hub's `GetDeviceInformationResponse.Update`: all Strings; those with a default
 * may be missing.
 */
const COMPOSE_UPDATE_FIELDS: Record<string, KxField> = {
  date: { type: 'String' },
  datetime: { type: 'String' },
  filename: { type: 'String', nullable: true },
  delta: { type: 'String', nullable: true, optional: true },
  delta_sha256: { type: 'String', nullable: true, optional: true },
  url: { type: 'String', nullable: true },
  recovery_sha256: { type: 'String', nullable: true, optional: true },
  fastboot: { type: 'String', nullable: true, optional: true },
  fastboot_sha256: { type: 'String', nullable: true, optional: true },
  mirror: { type: 'String', nullable: true, optional: true },
  telegram: { type: 'String', nullable: true, optional: true },
  id: { type: 'String', nullable: true },
  size: { type: 'String', nullable: true },
  build_type: { type: 'String' },
  version_code: { type: 'String' },
  version: { type: 'String' },
  android_version: { type: 'String' },
  android_spl: { type: 'String' },
  changelog_device: { type: 'String', nullable: true },
};

/** One `updates` element as the Compose Hub keeps it; missing defaulted fields are `""` as declared. */
export type AospaComposeUpdate = Record<string, string | null>;

/**
 * The Compose Hub (Herna1994/ComposeParanoidHub, app/src/main/java/co/aospa/hub/data/api/ApiClient.kt
 * and data/api/methods/getdeviceinformation/GetDeviceInformationResponse.kt at
 * a53e1ec6663f496ab6b2deb536df6e424f88a3c3) reading `updates/<codename>` with ktor's
 * ContentNegotiation registered for `ContentType.Text.Any` only: a response whose Content-Type is
 * not `text/*` (GitHub's raw files are `text/plain`; `application/json` is not) has no converter
 * and fails. The body is read with ktor's `DefaultJson`: `isLenient` (unquoted strings and keys),
 * unknown keys NOT ignored (one unexpected key fails the whole answer), `updates` required. Every
 * field is a String; the nullable ones without a default (`filename`, `url`, `id`, `size`,
 * `changelog_device`) must be present. Failures are caught in `searchForUpdate`: `undefined`.
 */
export function decodeAospaCompose(text: string, contentType: string): AospaComposeUpdate[] | undefined {
  if (!/^text\/[^;\s]+/i.test(contentType.trim())) return undefined;
  try {
    const root = parseKotlinx(text, { lenient: true });
    if (root.kind !== 'object') throw new SerializationException('Expected start of the object');
    for (const key of root.entries.keys()) {
      if (key !== 'updates') throw new SerializationException(`Encountered an unknown key '${key}'`);
    }
    const updates = root.entries.get('updates');
    if (updates === undefined) throw new SerializationException("Field 'updates' is required");
    return kxList(updates).map((element) => {
      const r = decodeClass(element, COMPOSE_UPDATE_FIELDS, { ignoreUnknownKeys: false, isLenient: true });
      // A defaulted field left out reads as its declared default, "".
      const withDefaults = Object.keys(COMPOSE_UPDATE_FIELDS).map((k) => [k, r[k] === undefined ? '' : r[k]]);
      return Object.fromEntries(withDefaults) as AospaComposeUpdate;
    });
  } catch (error) {
    if (error instanceof SerializationException) return undefined;
    throw error;
  }
}

/** A phone as the Compose Hub describes it (`DeviceUtils`): every value a String, compared as Strings. */
export interface AospaComposePhone {
  androidVersion: string;
  versionCode: string;
  /** `Build.TIME.toString()` (DeviceUtils.kt `getBuildDate`): `ro.build.date.utc` in milliseconds. */
  buildDate: string;
  beta: boolean;
}

/**
 * `MainActivityViewModel.searchForUpdate` (same repository and commit): on a beta phone, `Beta`
 * builds whose `android_version` and `datetime` are not below / above the phone's in String order;
 * otherwise builds of the phone's exact `android_version` with a `version_code` greater in String
 * order ("10" sorts before "9"). The one shown is the last after sorting by `version_code` as Strings.
 */
export function aospaComposeOffers(
  updates: AospaComposeUpdate[],
  phone: AospaComposePhone,
): AospaComposeUpdate | undefined {
  const matching = updates.filter((u) =>
    phone.beta
      ? u.build_type === 'Beta' &&
        (u.android_version as string) >= phone.androidVersion &&
        (u.datetime as string) > phone.buildDate
      : u.android_version === phone.androidVersion && (u.version_code as string) > phone.versionCode,
  );
  const code = (u: AospaComposeUpdate) => u.version_code as string;
  const sorted = [...matching].sort((a, b) => (code(a) < code(b) ? -1 : code(a) > code(b) ? 1 : 0));
  return sorted.at(-1);
}

// --- internal ---

/** `Float.parseFloat`: Java's double grammar, rounded to a float. */
function javaParseFloat(s: string): number | undefined {
  const d = javaParseDouble(s);
  return d === undefined ? undefined : Math.fround(d);
}
