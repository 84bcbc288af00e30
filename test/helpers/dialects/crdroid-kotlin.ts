/**
 * crDroid's Kotlin updater (crDroid 11 and later), read with kotlinx as the phone reads it: unlike
 * `decodeCrDroid` in test/helpers/format-clients.ts, a quoted number is a number here (kotlinx's
 * `consumeNumericLiteral` takes `"size": "123"`) and a BOM is consumed by OkHttp's `string()`.
 */
import {
  SerializationException,
  decodeClass,
  kxList,
  parseKotlinx,
  type KxField,
  type KxValue,
} from './kotlinx-json.js';

/** An update as `NetworkUpdate.toUpdate()` builds it, with the device fields the app shows. */
export interface CrDroidKotlinUpdate {
  downloadId: string;
  name: string;
  timestamp: number;
  type: string | null;
  fileSize: number;
  downloadUrl: string;
  version: string;
  osPatchLevel: string | null;
  osSdkLevel: number | null;
  shown: Record<string, string | null>;
}

const SHOWN = ['md5', 'maintainer', 'oem', 'device', 'forum', 'gapps', 'firmware', 'modem', 'bootloader', 'recovery'];
const OPTIONAL_STRINGS = [...SHOWN, 'buildtype', 'paypal', 'telegram', 'os_patch_level', 'ota_property_files'];

const FIELDS: Record<string, KxField> = {
  filename: { type: 'String' },
  download: { type: 'String' },
  timestamp: { type: 'Long' },
  sha256: { type: 'String' },
  size: { type: 'Long' },
  version: { type: 'String' },
  ...Object.fromEntries(OPTIONAL_STRINGS.map((k) => [k, { type: 'String', nullable: true, optional: true }])),
  os_sdk_level: { type: 'Int', nullable: true, optional: true },
};

/**
 * crdroidandroid/android_packages_apps_Updater, app/src/main/java/org/lineageos/updater/data/source/
 * network/NetworkUpdate.kt at 743402ae3909885525919330e7143a027a6f5d45 (the fields are the same at
 * 617bc8b5e9f6716039335973c11fd3dd84ebe488, which format-clients.ts cites): `NetworkUpdateResponse`
 * with `response` defaulting to `[]`, both classes `@JsonIgnoreUnknownKeys`; in each element
 * `filename`, `download`, `sha256`, `version` Strings and `timestamp`, `size` Longs, required;
 * every other field a String (`os_sdk_level` an Int) or null, and may be missing. One element that
 * fails fails the whole answer: `undefined`. The stored `UpdatesNetworkDataSource.kt` at
 * 11ad4a9f1ab5f2ddf40c15a341f17dfa9f72dbbf decodes a bare `List<NetworkUpdate>` instead: pass
 * `wrapper: false` for that state (which one phones run was not established).
 */
export function decodeCrDroidKotlin(
  text: string,
  { wrapper = true }: { wrapper?: boolean } = {},
): CrDroidKotlinUpdate[] | undefined {
  try {
    const root = parseKotlinx(text);
    let list: KxValue[];
    if (wrapper) {
      if (root.kind !== 'object') throw new SerializationException('Expected start of the object');
      const response = root.entries.get('response');
      list = response === undefined ? [] : kxList(response);
    } else list = kxList(root);
    return list.map((element) => {
      const r = decodeClass(element, FIELDS);
      const text = (k: string) => (r[k] === undefined ? null : (r[k] as string | null));
      return {
        downloadId: r.sha256 as string,
        name: r.filename as string,
        timestamp: r.timestamp as number,
        type: text('buildtype'),
        fileSize: r.size as number,
        downloadUrl: r.download as string,
        version: r.version as string,
        osPatchLevel: text('os_patch_level'),
        osSdkLevel: r.os_sdk_level === undefined ? null : (r.os_sdk_level as number | null),
        shown: Object.fromEntries([...SHOWN, 'paypal', 'telegram'].map((k) => [k, text(k)])),
      };
    });
  } catch (error) {
    if (error instanceof SerializationException) return undefined;
    throw error;
  }
}
