/**
 * The Java `{"response": [...]}` readers keyed by `md5`: crDroid's updater before its Kotlin rewrite
 * and the forks that kept its `Utils.parseJson` / `parseJsonUpdate` (Evolution X, AlphaDroid, CherishOS,
 * and the six-field readers of Matrixx, Project Infinity-X and VoltageOS). They differ only in which
 * keys `parseJsonUpdate` reads with `getString` and in the offer rule, so each is a row of
 * {@link javaResponseReaders}.
 */
import {
  JSONException,
  arrayGetJSONObject,
  arrayIsNull,
  getJSONArray,
  getLong,
  getString,
  joinLines,
  parseJSONObject,
} from './org-json.js';

/** One Java reader: where its code is, and the keys its `parseJsonUpdate` reads besides the six build fields. */
export interface JavaResponseReader {
  /** ROM and branches it stands for. */
  readonly name: string;
  readonly repository: string;
  /** `Utils.java`, holding `parseJson`, `parseJsonUpdate` and `isCompatible`. */
  readonly path: string;
  readonly commit: string;
  /** Keys read with `getString` (a missing one drops the record) and only shown, in the order read. */
  readonly shownKeys: readonly string[];
  /** `isCompatible` also requires the record's `buildtype` to equal the phone's build type (AlphaDroid). */
  readonly sameBuildType: boolean;
  /** `isCompatible` honours the `<rom>.updater.allow_downgrading` property (Matrixx and VoltageOS do not). */
  readonly downgradeSwitch: boolean;
}

const CRDROID_SHOWN = [
  'maintainer',
  'buildtype',
  'forum',
  'telegram',
  'gapps',
  'firmware',
  'modem',
  'bootloader',
  'recovery',
  'paypal',
];

/**
 * The readers, each at the head of a branch whose phones are in use. Every one reads, in this
 * order, `getLong("timestamp")`, `getString("filename")`, `getString("md5")` (the download id),
 * `getLong("size")`, `getString("download")`, `getString("version")`, then its shown keys.
 */
export const javaResponseReaders = {
  /**
   * crDroid 7 to 10 (Android 11 to 14): crdroidandroid/android_packages_apps_Updater branch 14.0;
   * `parseJsonUpdate`, `parseJson` and `isCompatible` are the same text on branches 11.0, 12.0,
   * 12.1 and 13.0 (heads 8de06135da312447ef8c87d2bcfe0317c644cc5e, 94b024e996ac519bc0d1ad7e7fded3f3f483a4b5,
   * b04ddc8c7a133e5409b3c45c29b595cdfd9389a7, 73450151ae49c4faf797ead45d34fbddd927ca39).
   */
  crdroid: {
    name: 'crDroid 11.0–14.0 (Java)',
    repository: 'crdroidandroid/android_packages_apps_Updater',
    path: 'app/src/main/java/com/crdroid/updater/misc/Utils.java',
    commit: '86c1d231b28b9ba16a2f6ed21b58dda97f35a116',
    shownKeys: CRDROID_SHOWN,
    sameBuildType: false,
    downgradeSwitch: true,
  },
  /** Evolution X 8 and 9 (Android 14): Evolution-X/packages_apps_Updater branch udc. */
  evolutionxUdc: {
    name: 'Evolution X udc',
    repository: 'Evolution-X/packages_apps_Updater',
    path: 'app/src/main/java/org/evolution/updater/misc/Utils.java',
    commit: '21fab8e0dfcc788c6a9e3776a01c6b29af418d50',
    shownKeys: ['maintainer', 'buildtype', 'forum', 'firmware', 'paypal'],
    sameBuildType: false,
    downgradeSwitch: true,
  },
  /** Evolution X 10 (Android 15): Evolution-X/packages_apps_Updater branch vic, which no longer reads `buildtype`. */
  evolutionxVic: {
    name: 'Evolution X vic',
    repository: 'Evolution-X/packages_apps_Updater',
    path: 'app/src/main/java/org/evolution/updater/misc/Utils.java',
    commit: 'b9c87338cc3e9aaf15ff1140e79d77d7a0f96429',
    shownKeys: ['maintainer', 'forum', 'firmware', 'paypal'],
    sameBuildType: false,
    downgradeSwitch: true,
  },
  /**
   * AlphaDroid (Android 13 and 14): AlphaDroid-Project/packages_apps_Updater branch alpha-14
   * (alpha-13 at f218f3fae06d78f55cb1c5b4c3b46621f531d338 reads the same). Its `isCompatible`
   * also needs `isSameBuildType()`: the phone's `ro.alpha.build.package` non-empty and equal to
   * the `buildtype` just read (`mBuildType`, a static set by this very record).
   */
  alphadroid: {
    name: 'AlphaDroid alpha-13, alpha-14',
    repository: 'AlphaDroid-Project/packages_apps_Updater',
    path: 'src/com/alpha/updater/misc/Utils.java',
    commit: '601c662126be086ae6263e382a89b98996e191ba',
    shownKeys: CRDROID_SHOWN,
    sameBuildType: true,
    downgradeSwitch: true,
  },
  /**
   * CherishOS (Android 12 to 14): CherishOS/android_packages_apps_Updater branch udc (branches tiramisu and
   * twelve-one, heads d082cfc3a159c529e29336d46087c339f205a835 and 0c8818a3f664f4d432a84fc732c01192d9928489, read
   * the same; Utils.java last changed in 47e6ec079f0172bfd5baad76f84acbdff140f40c).
   */
  cherishos: {
    name: 'CherishOS udc',
    repository: 'CherishOS/android_packages_apps_Updater',
    path: 'src/com/cherish/updater/misc/Utils.java',
    commit: '41ad88e4d3a692801b829899c64deb987666c930',
    shownKeys: CRDROID_SHOWN,
    sameBuildType: false,
    downgradeSwitch: true,
  },
  /**
   * Matrixx (Android 14): ProjectMatrixx/android_packages_apps_Updater branch 14.0 reads the six
   * build fields only, and its `isCompatible` has no downgrade switch.
   */
  matrixx: {
    name: 'Matrixx 14.0',
    repository: 'ProjectMatrixx/android_packages_apps_Updater',
    path: 'app/src/main/java/com/matrixx/updater/misc/Utils.java',
    commit: 'b58b479af49f7b20845f423676e00a71f0c42319',
    shownKeys: [],
    sameBuildType: false,
    downgradeSwitch: false,
  },
  /**
   * Project Infinity-X (Android 14 and 15): ProjectInfinity-X/packages_apps_Updater branch 15 (QPR3 at
   * 1535162e5e36f90263a212d2fde2a5a48596a67f, where Utils.java last changed, reads the same six fields).
   */
  infinityx: {
    name: 'Project Infinity-X 15',
    repository: 'ProjectInfinity-X/packages_apps_Updater',
    path: 'app/src/main/java/com/infinity/updater/misc/Utils.java',
    commit: '23a27bfaf20cb781ccffc19c1915d2b796034eba',
    shownKeys: [],
    sameBuildType: false,
    downgradeSwitch: false,
  },
  /**
   * VoltageOS (Android 12 to 14): VoltageOS/packages_apps_Updater branch 14 (branches 12, 12l and
   * 13, heads 152bba2663c4a36bb03350d0565858600dde18be, b984004f366d46d89527b68588d7ef384b025951 and
   * 7f85d444d205658aab58ab3832b196e6deafdd5e, read the same six fields).
   */
  voltageos: {
    name: 'VoltageOS 12–14',
    repository: 'VoltageOS/packages_apps_Updater',
    path: 'app/src/main/java/com/voltage/updater/misc/Utils.java',
    commit: '8eab0c7e8881eebb4259d2d441049da68d6485e6',
    shownKeys: [],
    sameBuildType: false,
    downgradeSwitch: false,
  },
} as const satisfies Record<string, JavaResponseReader>;

/** An update as these readers keep it (`Update` after `parseJsonUpdate`), with the shown keys' text. */
export interface JavaResponseUpdate {
  timestamp: number;
  name: string;
  /** The record's `md5`: the key downloads are kept under. */
  downloadId: string;
  fileSize: number;
  downloadUrl: string;
  version: string;
  shown: Record<string, string>;
}

/** A phone of these ROMs: `ro.build.date.utc`, the downgrade switch, and AlphaDroid's `ro.alpha.build.package`. */
export interface JavaResponsePhone {
  buildDate: number;
  allowDowngrading?: boolean;
  buildType?: string;
}

/**
 * `Utils.parseJson(file, false)` of the reader: the downloaded file read line by line and joined
 * with nothing between lines ({@link joinLines}), `new JSONObject(...)`, `getJSONArray("response")`
 * (either failing fails the whole answer: `undefined`); null elements skipped; an element that is
 * not an object, or lacks or mistypes a key the reader reads, is dropped alone (its
 * `JSONException` is caught per index). Returns the records kept, in the file's order.
 */
export function decodeJavaResponse(text: string, reader: JavaResponseReader): JavaResponseUpdate[] | undefined {
  let list;
  try {
    list = getJSONArray(parseJSONObject(joinLines(text)), 'response');
  } catch (error) {
    if (error instanceof JSONException) return undefined;
    throw error;
  }
  const updates: JavaResponseUpdate[] = [];
  for (let i = 0; i < list.length; i++) {
    if (arrayIsNull(list, i)) continue;
    try {
      const object = arrayGetJSONObject(list, i);
      const update: JavaResponseUpdate = {
        timestamp: getLong(object, 'timestamp'),
        name: getString(object, 'filename'),
        downloadId: getString(object, 'md5'),
        fileSize: getLong(object, 'size'),
        downloadUrl: getString(object, 'download'),
        version: getString(object, 'version'),
        shown: {},
      };
      for (const key of reader.shownKeys) update.shown[key] = getString(object, key);
      updates.push(update);
    } catch (error) {
      if (!(error instanceof JSONException)) throw error;
    }
  }
  return updates;
}

/**
 * What the reader's header shows after a check: `parseJsonUpdate` keeps each shown key in a static
 * field (`mMaintainer`, `mGapps`, ...) that every record overwrites, whether or not the phone is
 * offered it, and `UpdatesActivity.updateLastCheckedString` reads them once `loadUpdatesList` has
 * parsed the whole answer (crDroid 14.0 UpdatesActivity.java at
 * 86c1d231b28b9ba16a2f6ed21b58dda97f35a116, `processNewJson`): the last record's values, each key
 * set up to the first that record lacks (getString throws, the statics already set stay). A key no
 * record set is `null`; `undefined` when the whole answer fails.
 */
export function javaResponseHeader(
  text: string,
  reader: JavaResponseReader,
): Record<string, string | null> | undefined {
  let list;
  try {
    list = getJSONArray(parseJSONObject(joinLines(text)), 'response');
  } catch (error) {
    if (error instanceof JSONException) return undefined;
    throw error;
  }
  const statics: Record<string, string | null> = Object.fromEntries(reader.shownKeys.map((k) => [k, null]));
  for (let i = 0; i < list.length; i++) {
    if (arrayIsNull(list, i)) continue;
    try {
      const object = arrayGetJSONObject(list, i);
      // The six build fields are read first: a record that fails one sets no static.
      getLong(object, 'timestamp');
      for (const key of ['filename', 'md5']) getString(object, key);
      getLong(object, 'size');
      for (const key of ['download', 'version']) getString(object, key);
      for (const key of reader.shownKeys) statics[key] = getString(object, key);
    } catch (error) {
      if (!(error instanceof JSONException)) throw error;
    }
  }
  return statics;
}

/** `Utils.isCompatible` of the reader for one update: newer than the phone's build unless downgrading is allowed. */
function javaResponseIsCompatible(
  update: JavaResponseUpdate,
  phone: JavaResponsePhone,
  reader: JavaResponseReader,
): boolean {
  const newer = update.timestamp > phone.buildDate;
  if (reader.sameBuildType) {
    const sameType =
      phone.buildType !== undefined && phone.buildType !== '' && phone.buildType === update.shown.buildtype;
    return ((phone.allowDowngrading ?? false) || newer) && sameType;
  }
  return (reader.downgradeSwitch && (phone.allowDowngrading ?? false)) || newer;
}

/**
 * What the phone lists after a check (`parseJson(file, true)` then `UpdaterController.addUpdate`
 * for each): the compatible updates, one per download id; for a repeated `md5` the first record
 * is kept and only its download address is replaced by the later one's. `undefined` when the whole
 * answer fails.
 */
export function javaResponseOffers(
  text: string,
  phone: JavaResponsePhone,
  reader: JavaResponseReader,
): JavaResponseUpdate[] | undefined {
  const updates = decodeJavaResponse(text, reader);
  if (updates === undefined) return undefined;
  const byId = new Map<string, JavaResponseUpdate>();
  for (const update of updates) {
    if (!javaResponseIsCompatible(update, phone, reader)) continue;
    const kept = byId.get(update.downloadId);
    if (kept === undefined) byId.set(update.downloadId, { ...update });
    else kept.downloadUrl = update.downloadUrl;
  }
  return [...byId.values()];
}
