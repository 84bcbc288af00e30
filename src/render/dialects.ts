/**
 * What each updater dialect's file holds, as data: the wrapper, the keys in the order written with
 * where each value comes from and what a missing one becomes, the builds it can carry (and the
 * notice for those it cannot) and how many. render/formats.ts writes every dialect from this one
 * table; the oracles in test/helpers/dialects/ (each updater's own reading code, with repository,
 * file and commit) decode what it writes. Every dialect lists its builds newest first. Pure.
 */
import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import { BUILD_LINKS } from '../catalog/fields.js';
import type { DeviceInfo } from '../catalog/device.js';
import { sha256Of } from '../catalog/download-key.js';
import { buildTypeOf, type FormatFamily, type OutputFormat } from '../catalog/formats.js';
import { renderEnvelope, renderRecord, type ApiRecord } from './v1.js';

/** The device's fields the dialects show, the same for every build of the device. */
export interface DeviceFields {
  /** Every maintainer's name, joined with `, `. */
  maintainer?: string;
  oem?: string;
  /** The display name. */
  device?: string;
  forum?: string;
  /** The donation link. */
  paypal?: string;
  /** The support link, when it is a Telegram one. */
  telegram?: string;
  info: DeviceInfo;
}

/** The fields of a device.yaml that the dialects show. */
export function deviceFields(info: DeviceInfo): DeviceFields {
  const support = info.links.support;
  return {
    maintainer: info.maintainers.length > 0 ? info.maintainers.map((m) => m.name).join(', ') : undefined,
    oem: info.oem,
    device: info.name,
    forum: info.links.forum,
    paypal: info.links.donate,
    telegram: support !== undefined && /^https:\/\/(t\.me|telegram\.me)\//.test(support) ? support : undefined,
    info,
  };
}

/**
 * One key of a record: its JSON type, its value for a build (`undefined` when the catalog has
 * none), and what a missing value becomes: `required`, never missing from a build the dialect
 * carries (its needs see to that); left out (`omit`); or `""` for a key the updater reads with
 * `getString` only to show it, where a missing key would drop the record.
 */
export interface DialectKey {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'array';
  value: (build: Build, device: DeviceFields, list: string, format: OutputFormat) => unknown;
  missing: 'required' | 'omit' | '';
}

/** A build a dialect cannot carry, and the notice's reason. */
export interface DialectNeed {
  lacks: (build: Build) => boolean;
  why: string;
}

/** One dialect's file. */
export interface Dialect {
  /** How notices name its answer: "left out of /x.json (the <title> answer)". */
  title: string;
  /**
   * `response`: `{"response": [...]}`; `array`: the bare array; `object`: the newest record alone
   * (no file when nothing is offered); `v1`: the LineageOS v1 envelope `{"id":null,"response":[...],"error":null}`;
   * `line`: the newest build's values, in the order of its keys, on one line with single spaces;
   * `updates`: `{"updates": [...]}`, no file when nothing is offered (AOSPA's hub reads an empty list as a failure).
   */
  wrapper: 'response' | 'array' | 'object' | 'v1' | 'line' | 'updates';
  /** How many builds of a list it carries: every one, or the newest it can (what is older is never offered). */
  count: 'every' | 'newest';
  /** The keys of a record, in the order written; for `v1`, the LineageOS v1 record is written as the API writes it. */
  keys: readonly DialectKey[];
  /**
   * The key the updater tells downloads apart by, and the build's field it holds (`sha256`: the
   * zip's SHA-256, the `id` when it is one): a second build with the same value is left out.
   */
  downloadKey: { key: string; field: 'id' | 'md5sum' | 'sha256' | 'incremental' | 'version' };
  /** What every build it carries has; the first it lacks is the notice's reason. */
  needs: readonly DialectNeed[];
  /** The most bytes the updater reads: the oldest builds are left out, with a notice, to stay within it. */
  maxBytes?: number;
  /**
   * Keys the updater keeps one value of for the whole answer, which each record it reads overwrites
   * (the last one's shows): every record carries the newest build's, so that phones show its links.
   */
  sharedKeys?: readonly string[];
}

const WITHDRAWN: DialectNeed = {
  lacks: isWithdrawn,
  why: 'a `.disabled.zip` file is withdrawn, and this format cannot say so (phones would offer it)',
};
const SIZE: DialectNeed = {
  lacks: (b) => typeof b.size !== 'number' || b.size <= 0,
  why: "its size is 0: phones check the download against `size`; write the zip's size in bytes (stat -c %s FILE)",
};
const SHA256: DialectNeed = {
  lacks: (b) => sha256Of(b) === undefined,
  why:
    "its `id` is not a SHA-256 and it has no `sha256`, and crDroid's updater reads the download's `sha256`; " +
    'write the SHA-256 of the zip (sha256sum FILE) in `sha256` (`otapress add --force ZIP` keeps the id and writes it)',
};
const MD5_FILEHASH: DialectNeed = {
  lacks: (b) => b.md5sum === '',
  why: 'it has no `md5sum`, and the PixelExperience updater needs the `filehash`; add md5sum (md5sum FILE)',
};
const MD5_ID: DialectNeed = {
  lacks: (b) => b.md5sum === '',
  why: 'it has no `md5sum`, and this updater keys its downloads by `md5`; add md5sum (md5sum FILE)',
};

/** A key whose value is the build's field (or the device's), never missing for a build the dialect carries. */
const key = (
  name: string,
  value: DialectKey['value'],
  missing: DialectKey['missing'] = 'omit',
  type: DialectKey['type'] = 'string',
): DialectKey => ({ key: name, type, value, missing });
const required = (name: string, value: DialectKey['value'], type: DialectKey['type'] = 'string') =>
  key(name, value, 'required', type);
const filename = (name: string) => required(name, (b) => b.filename);
const url = (name: string) => required(name, (b) => b.url);
const timestamp = (name: string) => required(name, (b) => b.timestamp, 'number');
const size = required('size', (b) => b.size, 'number');
const version = required('version', (b) => b.version);
const md5 = required('md5', (b) => b.md5sum);
const shown = (name: string, value: DialectKey['value'] = () => undefined) => key(name, value, '');
const sdkLevel = (b: Build) =>
  /^\d{1,9}$/.test(b.api_level) && Number(b.api_level) > 0 ? Number(b.api_level) : undefined;

/** The `name:offset:size` ranges of the three payload entries PixelOS's strict feed requires, when all are there. */
const PAYLOAD_ENTRIES = ['payload_metadata.bin', 'payload.bin', 'payload_properties.txt'];
const payloadRanges = (b: Build) => {
  const ranges = b.ota_property_files?.split(',');
  return ranges !== undefined && PAYLOAD_ENTRIES.every((name) => ranges.some((r) => r.startsWith(`${name}:`)))
    ? b.ota_property_files
    : undefined;
};

/**
 * The maintainers as Gson reads them into `MaintainerInfo`: `name`, and the user name of a GitHub
 * address under each key a branch reads. PixelExperience twelve and PixelOS's thirteen fork read
 * `github_username`, PixelExperience thirteen `ci_username` (PixelExperience/packages_apps_Updates
 * app/src/main/java/org/pixelexperience/ota/model/MaintainerInfo.java at
 * 6bd403f231b1a57be77bf56bbe83437e3efc4e39); a card opens PixelExperience's team page of it on
 * both PixelExperience branches, and the GitHub profile on PixelOS.
 */
function maintainers(info: DeviceInfo): { name: string; github_username?: string; ci_username?: string }[] {
  return info.maintainers.map((m) => {
    const user = m.url === undefined ? undefined : /^https:\/\/github\.com\/([A-Za-z0-9-]+)\/?$/.exec(m.url)?.[1];
    return { name: m.name, ...(user !== undefined && { github_username: user, ci_username: user }) };
  });
}

/** The device keys crDroid's OTA repository writes first. */
const DEVICE_KEYS = [
  key('maintainer', (_, d) => d.maintainer),
  key('oem', (_, d) => d.oem),
  key('device', (_, d) => d.device),
];

/** A plain decimal number, which Java's `Float.parseFloat` reads: AOSPA's `version_code` and `android_version`. */
const AOSPA_NUMBER = /^\d{1,9}(\.\d{1,9})?$/;
/** A key AOSPA's hubs read as a String, the value written as text. */
const text = (name: string, value: DialectKey['value']) =>
  required(name, (b, d, l, f) => {
    const v = value(b, d, l, f);
    return v === undefined ? undefined : String(v);
  });

/** Every dialect otapress writes, by the name site.yaml gives it. */
export const DIALECTS: Record<FormatFamily, Dialect> = {
  /**
   * crDroid's Kotlin updater (crdroidandroid/android_packages_apps_Updater, NetworkUpdate.kt at
   * 617bc8b5e9f6716039335973c11fd3dd84ebe488): kotlinx, unknown keys ignored; `filename`,
   * `download`, `timestamp`, `sha256` (the download key), `size`, `version` required, one bad
   * record fails the whole answer; the device fields and the rest optional.
   */
  crdroid: {
    title: 'crDroid-family',
    wrapper: 'response',
    count: 'every',
    keys: [
      ...DEVICE_KEYS,
      filename('filename'),
      url('download'),
      timestamp('timestamp'),
      key('md5', (b) => (b.md5sum === '' ? undefined : b.md5sum)),
      required('sha256', sha256Of),
      size,
      version,
      key('forum', (_, d) => d.forum),
      key('paypal', (_, d) => d.paypal),
      key('telegram', (_, d) => d.telegram),
      key('os_patch_level', (b) => b.os_patch_level),
      key('os_sdk_level', (b) => (/^\d{1,9}$/.test(b.api_level) ? Number(b.api_level) : undefined), 'omit', 'number'),
      key('ota_property_files', (b) => b.ota_property_files),
    ],
    downloadKey: { key: 'sha256', field: 'sha256' },
    needs: [WITHDRAWN, SIZE, SHA256],
  },
  /**
   * PixelExperience's updater (PixelExperience/packages_apps_Updates, Utils.java `parseJsonUpdate`):
   * one object, org.json; `datetime`, `size` getLong, `filename`, `id` (the download key), `url`,
   * `version`, `filehash` getString; `maintainers` and the links optional.
   */
  pixelexperience: {
    title: 'PixelExperience-family',
    wrapper: 'object',
    count: 'newest',
    keys: [
      required('error', () => false, 'boolean'),
      filename('filename'),
      timestamp('datetime'),
      size,
      url('url'),
      required('filehash', (b) => b.md5sum),
      version,
      required('id', (b) => b.id),
      required('maintainers', (_, d) => maintainers(d.info), 'array'),
      key('donate_url', (_, d) => d.info.links.donate),
      key('forum_url', (_, d) => d.info.links.forum),
      key('website_url', (_, d) => d.info.links.info),
      key('news_url', (_, d) => d.info.links.news),
    ],
    downloadKey: { key: 'id', field: 'id' },
    needs: [WITHDRAWN, SIZE, MD5_FILEHASH],
  },
  /**
   * crDroid's Java updater 11.0–14.0 (`Utils.parseJsonUpdate`, org.json) and its forks: the six
   * build fields, then every key any of them reads with `getString` (crDroid's ten; Evolution X
   * udc and vic, CherishOS, AlphaDroid, Matrixx, Infinity-X and VoltageOS read a subset), `""`
   * where the catalog has no value: a missing key drops the record. `md5` is the download key.
   */
  'crdroid-java': {
    title: 'crDroid Java',
    wrapper: 'response',
    count: 'every',
    keys: [
      shown('maintainer', (_, d) => d.maintainer),
      ...DEVICE_KEYS.slice(1),
      filename('filename'),
      url('download'),
      timestamp('timestamp'),
      md5,
      key('sha256', sha256Of),
      size,
      version,
      // The format's `buildtype`, else the list, as v1's `romtype` (import takes a listing's
      // `buildtype` as the list): AlphaDroid offers a build whose `buildtype` equals the phone's
      // `ro.alpha.build.package`, which a list name in lower case may not.
      shown('buildtype', (_, __, list, format) => buildTypeOf(format, list)),
      shown('forum', (_, d) => d.forum),
      shown('telegram', (_, d) => d.telegram),
      ...BUILD_LINKS.map((link) => shown(link, (b) => b[link])),
      shown('paypal', (_, d) => d.paypal),
    ],
    downloadKey: { key: 'md5', field: 'md5sum' },
    needs: [WITHDRAWN, SIZE, MD5_ID],
    // parseJsonUpdate keeps them in static fields that UpdatesActivity shows as the header's buttons
    // once the whole answer is read (crDroid 14.0 at 86c1d231b28b9ba16a2f6ed21b58dda97f35a116): the
    // last record's would show, and records are newest first.
    sharedKeys: BUILD_LINKS,
  },
  /** Matrixx 14.0, Project Infinity-X 15, VoltageOS 12–14: the six fields alone, keyed by `md5`. */
  'md5-six': {
    title: 'six-field md5',
    wrapper: 'response',
    count: 'every',
    keys: [timestamp('timestamp'), filename('filename'), md5, size, url('download'), version],
    downloadKey: { key: 'md5', field: 'md5sum' },
    needs: [WITHDRAWN, SIZE, MD5_ID],
  },
  /**
   * LineageOS v1 records in a static file, as the API writes them: the LineageOS updater reads
   * them, and DerpFest's kotlinx reader (strict Long and String types, one bad record fails the
   * whole answer) takes every record but a placeholder, which is never written here.
   */
  'lineage-v1': {
    title: 'LineageOS v1 static',
    wrapper: 'v1',
    count: 'every',
    keys: [],
    downloadKey: { key: 'id', field: 'id' },
    needs: [WITHDRAWN, SIZE],
  },
  /** The PixelOS 15 reader (PixelOS-AOSP/android_packages_apps_Updater, Utils.kt): org.json, record by record. */
  pixelos15: {
    title: 'PixelOS 15',
    wrapper: 'response',
    count: 'every',
    keys: [timestamp('datetime'), filename('filename'), required('id', (b) => b.id), size, url('url'), version],
    downloadKey: { key: 'id', field: 'id' },
    needs: [WITHDRAWN, SIZE],
  },
  /**
   * PixelOS's strict feed (UpdatesNetworkDataSource.kt, NetworkUpdate.kt, tools/pixelos_feed.py):
   * a bare array; one file per build with a SHA-256, a patch level, an SDK level and an https URL;
   * `type: "ci"` as its validator requires; one bad entry, or more than 1 MiB, loses the whole answer.
   */
  'pixelos-feed': {
    title: 'PixelOS feed',
    wrapper: 'array',
    count: 'every',
    keys: [
      timestamp('datetime'),
      required(
        'files',
        (b) => [
          {
            filename: b.filename,
            os_patch_level: b.os_patch_level,
            os_sdk_level: sdkLevel(b),
            ...(payloadRanges(b) !== undefined && { ota_property_files: payloadRanges(b) }),
            sha256: sha256Of(b),
            size: b.size,
            url: b.url,
          },
        ],
        'array',
      ),
      required('type', () => 'ci'),
      version,
    ],
    downloadKey: { key: 'sha256', field: 'sha256' },
    needs: [
      WITHDRAWN,
      SIZE,
      SHA256,
      { lacks: (b) => !b.url!.startsWith('https://'), why: 'its URL is not https, which PixelOS refuses' },
      {
        lacks: (b) => (b.os_patch_level ?? '').trim() === '',
        why: 'it has no `os_patch_level`, which PixelOS requires of every build',
      },
      { lacks: (b) => sdkLevel(b) === undefined, why: 'it has no `api_level`, the SDK level PixelOS reads' },
      { lacks: (b) => b.version.trim() === '', why: 'its version is blank, which PixelOS refuses' },
    ],
    maxBytes: 1024 * 1024,
  },
  /**
   * Paranoid Android's hubs (test/helpers/dialects/aospa.ts): the Java Hub (AOSPA/android_packages_apps_ParanoidHub
   * uvite, ComponentBuilder.java, org.json) reads only the first element, so the newest build comes
   * first, and offers it for a newer `datetime` or a greater `Float.parseFloat(version_code)`; the
   * Compose Hub (Herna1994/ComposeParanoidHub, kotlinx) takes every element, every value a String,
   * and fails the whole answer on a key it does not declare: only its keys are written.
   */
  aospa: {
    title: 'AOSPA hub',
    wrapper: 'updates',
    count: 'every',
    keys: [
      text('date', (b) => new Date(b.timestamp * 1000).toISOString().slice(0, 10)),
      text('datetime', (b) => b.timestamp),
      filename('filename'),
      url('url'),
      // The Compose Hub checks the download against it and installs nothing on a mismatch
      // (Herna1994/ComposeParanoidHub MainActivityViewModel.kt at b29981a569f919ae8888e4fc1c5c364fbf1a5b3c).
      key('recovery_sha256', sha256Of),
      required('id', (b) => b.id),
      text('size', (b) => b.size),
      // The list's `buildtype:` of the format, else the list: the Compose Hub offers beta phones `Beta` builds only.
      text('build_type', (_, __, list, format) => buildTypeOf(format, list)),
      text('version_code', (b) => b.version),
      text('version', (b) => b.display_version || b.version),
      text('android_version', (b) => b.android_version),
      text('android_spl', (b) => b.os_patch_level ?? ''),
      text('changelog_device', (b) => b.changes),
    ],
    // The Compose Hub tells builds apart by `version_code` alone: of the builds newer than a phone's
    // code it shows the last after a stable sort by code (MainActivityViewModel.kt, searchForUpdate,
    // at a53e1ec6663f496ab6b2deb536df6e424f88a3c3), the oldest of those that share it in a file
    // written newest first, and a phone that installs it never sees the newer one of the same code
    // (not greater). One build per version code, the newest; the Java Hub reads the first alone.
    downloadKey: { key: 'version_code', field: 'version' },
    needs: [
      WITHDRAWN,
      SIZE,
      {
        lacks: (b) => !AOSPA_NUMBER.test(b.version),
        why: "its version is not a number, and AOSPA's hub compares `version_code` as one (Float.parseFloat)",
      },
      {
        lacks: (b) => !AOSPA_NUMBER.test(b.android_version),
        why: "its android_version is not a number, and AOSPA's hub compares it as one (Float.parseFloat)",
      },
    ],
  },
  /**
   * GrapheneOS's updater (GrapheneOS/platform_packages_apps_Updater, Service.java): the first line
   * split on single spaces, as GrapheneOS/script `generate-metadata` prints it: incremental,
   * timestamp, device, channel. It then downloads `<device>-ota_update-<incremental>.zip` (or the
   * incremental one) from the same base and checks the zip's metadata: `ota-type=AB`.
   */
  grapheneos: {
    title: 'GrapheneOS channel',
    wrapper: 'line',
    count: 'newest',
    keys: [
      required('incremental', (b) => b.incremental),
      timestamp('timestamp'),
      required('device', (b) => b.device),
      required('channel', (_, __, list) => list),
    ],
    downloadKey: { key: 'incremental', field: 'incremental' },
    needs: [
      WITHDRAWN,
      SIZE,
      {
        lacks: (b) => !/^[^\s]+$/.test(b.incremental),
        why: 'it has no `incremental`, which names its zip for the GrapheneOS updater',
      },
      { lacks: (b) => b.ota_type === 'BLOCK', why: 'it is a BLOCK package; GrapheneOS installs AB ones only' },
    ],
  },
};

/** The dialects, by the name site.yaml gives them, that carry only builds with the zip's SHA-256 (import names them for builds keyed by an MD5). */
export function dialectsNeedingSha256(): FormatFamily[] {
  return (Object.keys(DIALECTS) as FormatFamily[]).filter((name) => DIALECTS[name].needs.includes(SHA256));
}

/** The record of `build` in `dialect`. Built key by key: a record per build and list of a big catalog. */
export function dialectRecord(
  dialect: Dialect,
  build: Build,
  device: DeviceFields,
  list: string,
  format: OutputFormat,
): unknown {
  if (dialect.wrapper === 'v1') return renderRecord(build, buildTypeOf(format, list));
  if (dialect.wrapper === 'line') {
    return dialect.keys.map(({ value }) => String(value(build, device, list, format))).join(' ');
  }
  const record: Record<string, unknown> = {};
  for (const { key: name, value, missing } of dialect.keys) {
    const v = value(build, device, list, format);
    if (v !== undefined) record[name] = v;
    else if (missing === '') record[name] = '';
  }
  return record;
}

/** The file of `records` (newest first) in `dialect`, or `undefined` when it writes none. */
export function dialectFile(dialect: Dialect, records: readonly unknown[]): string | undefined {
  const shared = dialect.sharedKeys;
  if (shared !== undefined && records.length > 1) {
    const newest = records[0] as Record<string, unknown>;
    records = records.map((r) => ({ ...(r as object), ...Object.fromEntries(shared.map((k) => [k, newest[k]])) }));
  }
  switch (dialect.wrapper) {
    case 'response':
      return JSON.stringify({ response: records });
    case 'array':
      return JSON.stringify(records);
    case 'object':
      return records.length > 0 ? JSON.stringify(records[0]) : undefined;
    case 'updates':
      return records.length > 0 ? JSON.stringify({ updates: records }) : undefined;
    case 'line':
      return records.length > 0 ? `${String(records[0])}\n` : undefined;
    case 'v1':
      return renderEnvelope(records as ApiRecord[], null);
  }
}
