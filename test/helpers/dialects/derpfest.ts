/**
 * DerpFest's updater (a Kotlin rewrite of LineageOS's): LineageOS v1 records read from a static
 * file with kotlinx.serialization, and the device list it shows its maintainer and support group from.
 */
import { SerializationException, decodeClass, kxList, parseKotlinx, type KxValue } from './kotlinx-json.js';

/** An update as DerpFest's updater keeps it (`NetworkUpdate.toUpdate()`). */
export interface DerpFestUpdate {
  downloadId: string;
  name: string;
  timestamp: number;
  type: string | null;
  fileSize: number;
  downloadUrl: string;
  version: string;
}

/** A DerpFest phone: `ro.build.date.utc` and `derpfest.updater.allow_downgrading`. */
export interface DerpFestPhone {
  buildDate: number;
  allowDowngrading?: boolean;
}

/**
 * DerpFest's updater decoding `<updater_server_url>` with `{device}` replaced by `ro.updater.next_device`
 * or `ro.derpfest.device` (DerpFest-AOSP/android_packages_apps_Updater,
 * app/src/main/java/org/lineageos/updater/data/source/network/UpdatesNetworkDataSource.kt and
 * NetworkUpdate.kt at 73064e65c7773891fe2cb841f60a50409f610f62; NetworkUpdate.kt reads the same at
 * 68876d039afc63af5cbb18b64d7440d4c9ba5051): `Json { ignoreUnknownKeys = true
 * }.decodeFromString<NetworkUpdateResponse>`,
 * `response` a list that defaults to empty; in each record `datetime` and `size` Longs, `filename`,
 * `id`, `url`, `version` Strings, all required; `romtype` a String or null, may be missing. One
 * record that fails fails the whole answer (`SerializationException` out of
 * `UpdatesRepository.fetchUpdates`): `undefined`. A redirect is not followed
 * (`followRedirects(false)`): only a 2xx body is read.
 */
export function decodeDerpFest(text: string): DerpFestUpdate[] | undefined {
  try {
    const root = parseKotlinx(text);
    const response = field(root, 'response');
    const records = response === undefined ? [] : kxList(response);
    return records.map((record) => {
      const r = decodeClass(record, {
        datetime: { type: 'Long' },
        filename: { type: 'String' },
        id: { type: 'String' },
        romtype: { type: 'String', nullable: true, optional: true },
        size: { type: 'Long' },
        url: { type: 'String' },
        version: { type: 'String' },
      });
      return {
        downloadId: r.id as string,
        name: r.filename as string,
        timestamp: r.datetime as number,
        type: (r.romtype as string | null | undefined) ?? null,
        fileSize: r.size as number,
        downloadUrl: r.url as string,
        version: r.version as string,
      };
    });
  } catch (error) {
    if (error instanceof SerializationException) return undefined;
    throw error;
  }
}

/**
 * `UpdatesRepository.filterUpdates` (same repository, app/src/main/java/org/lineageos/updater/data/
 * UpdatesRepository.kt at 146708ce81aed81de713d5c5b1776b66e11cbb72): newer than the phone's build
 * unless downgrading is allowed. Neither `version` nor `romtype` is compared.
 */
export function derpFestOffers(update: DerpFestUpdate, phone: DerpFestPhone): boolean {
  return (phone.allowDowngrading ?? false) || update.timestamp > phone.buildDate;
}

/** What DerpFest's banner shows for the phone (`DeviceMetadata`). */
export interface DerpFestDeviceMetadata {
  maintainer: string | null;
  device: string | null;
  telegram: string | null;
}

/** `DeviceMetadata.DEFAULT_TELEGRAM`, shown when the list has no support group for the phone. */
export const DERPFEST_DEFAULT_TELEGRAM = 'https://t.me/DerpFestAOSP';

/**
 * DerpFest's updater reading `device_info_url` (`info/device-info.json` in its OTA repository)
 * (DeviceInfoNetworkDataSource.kt at 635e46a90b0d70033a196e477fbdd10621854896, NetworkDeviceInfo.kt
 * at a62acd8d67dc5d5f37b9e35d7034199298fc91ed): `{"devices": [...]}` (default empty), each entry
 * with `codename` a required String and `device_name`, `maintainer`, `support_group` Strings or
 * null; the first entry whose codename equals the phone's ignoring case gives the metadata, blank
 * values read as absent, a support group without a scheme gets `https://`. No entry: the default
 * Telegram link only. A failure (one malformed entry fails the file) is caught and logged: the
 * banner keeps its defaults, returned as `undefined`; the update check goes on either way.
 */
export function decodeDerpFestDeviceInfo(text: string, codename: string): DerpFestDeviceMetadata | undefined {
  try {
    const root = parseKotlinx(text);
    const devices = field(root, 'devices');
    const entries = (devices === undefined ? [] : kxList(devices)).map((entry) =>
      decodeClass(entry, {
        codename: { type: 'String' },
        device_name: { type: 'String', nullable: true, optional: true },
        maintainer: { type: 'String', nullable: true, optional: true },
        support_group: { type: 'String', nullable: true, optional: true },
      }),
    );
    const entry = entries.find((e) => (e.codename as string).toLowerCase() === codename.toLowerCase());
    if (entry === undefined) return { maintainer: null, device: null, telegram: DERPFEST_DEFAULT_TELEGRAM };
    const notBlank = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
    return {
      maintainer: notBlank(entry.maintainer),
      device: notBlank(entry.device_name),
      telegram: normalizeTelegramUrl(entry.support_group as string | null | undefined) ?? DERPFEST_DEFAULT_TELEGRAM,
    };
  } catch (error) {
    if (error instanceof SerializationException) return undefined;
    throw error;
  }
}

// --- internal ---

/** A top-level key of a class that ignores unknown keys: the root must be an object. */
function field(root: KxValue, name: string): KxValue | undefined {
  if (root.kind !== 'object') throw new SerializationException('Expected start of the object');
  return root.entries.get(name);
}

function normalizeTelegramUrl(url: string | null | undefined): string | null {
  if (url === null || url === undefined || url.trim() === '') return null;
  const trimmed = url.trim();
  if (trimmed.startsWith('https://') || trimmed.startsWith('http://')) return trimmed;
  if (trimmed.startsWith('t.me/') || trimmed.startsWith('telegram.me/')) return `https://${trimmed}`;
  return trimmed;
}
