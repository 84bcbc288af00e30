/**
 * What each updater app does with an answer and a download, as data: how it fetches (redirects,
 * content type, body cap, time), how it decodes, and what it needs of a download. Every rule names
 * the upstream file and commit it was read from; `probe` applies them to a live site. Pure.
 */
import type { FormatFamily } from '../catalog/formats.js';
import { V2_MAX_BYTES } from '../render/v2.js';

/** The answers a site publishes: the LineageOS v1 and v2 ones, and each dialect of `formats`. */
export type AnswerKind = 'v1' | 'v2' | FormatFamily;

/**
 * How a client treats a 3xx: `refused` (OkHttp or ktor with `followRedirects(false)`: the 3xx is not
 * a success); `same-protocol` (java.net.HttpURLConnection's default: followed, up to 20, never from
 * https to http or back); `once-same-protocol` (the LineageOS Java `HttpURLConnectionClient`
 * downloading with duplicate links: one redirect, same protocol, then a 2xx); `followed` (not read
 * upstream: followed like a browser, so only the final answer is judged).
 */
export type RedirectRule = 'refused' | 'same-protocol' | 'once-same-protocol' | 'followed';

/**
 * How the decoder treats a record it cannot read: `record` (org.json, record by record: dropped)
 * or `answer` (kotlinx: the whole answer fails).
 */
export type Strictness = 'record' | 'answer';

/** Where the download facts are in a record, by key. */
export interface RecordKeys {
  url: string;
  size: string;
  filename: string;
  sha256?: string;
  md5?: string;
  /** `ota_property_files`: with it, an A/B phone streams the package by HTTP ranges. */
  propertyFiles?: string;
}

/** One updater's reading of one answer kind. */
export interface Updater {
  /** How lines and the table name it. */
  title: string;
  /** What the probe asks: the listing's redirects, content type, bytes and time. */
  fetch: {
    redirects: RedirectRule;
    /** The Content-Type it accepts (parameters ignored); any when absent. */
    contentType?: RegExp;
    contentTypeName?: string;
    maxBytes?: number;
    /** The client's own limit for the whole request, in seconds. */
    timeoutS?: number;
  };
  /** The shape: `{response: [...]}`, `{updates: [...]}`, a bare array, one object, or GrapheneOS's one line. */
  wrapper: 'response' | 'updates' | 'array' | 'object' | 'line';
  strictness: Strictness;
  /** Keys a record must have (a JSON string, or any value for `record` strictness) to be read. */
  strings: readonly string[];
  /** Keys read as a Long: a JSON integer (org.json and kotlinx also take a numeric string). */
  longs: readonly string[];
  /** Every value a string (AOSPA): a number is a numeric string. */
  allText?: true;
  /** A record's one file is `files[0]` (v2, PixelOS's feed), not the record itself. */
  files?: true;
  keys: RecordKeys;
  /** How it downloads a package. */
  download: { redirects: RedirectRule };
  /** The upstream code each rule comes from. */
  source: string;
}

const ORG_JSON_V1 = {
  strings: ['filename', 'id', 'romtype', 'url', 'version'],
  longs: ['datetime', 'size'],
} as const;

/**
 * The LineageOS Java updater's clients (LineageOS/android_packages_apps_Updater branch lineage-22.0
 * at 3cb130d40a24e337d2bd11f33bf1ff091c48ab53): the listing through `DownloadClient` without
 * duplicate links, so HttpURLConnection follows redirects itself (`UpdatesCheckReceiver.java`,
 * `UpdatesActivity.java`); a package with duplicate links (`UpdaterController.java`), where
 * `HttpURLConnectionClient.handleDuplicateLinks` takes one `Location`, refuses a protocol change
 * ("Protocol changes are not allowed") and needs a 2xx from it. crDroid 11.0–14.0 and Matrixx keep
 * the same client (`download/HttpURLConnectionClient.java` of crdroidandroid/android_packages_apps_Updater
 * at 08d557b59fde267e6c4fc60090bb9572b3a2b40d, of ProjectMatrixx/android_packages_apps_Updater at
 * 707cdc1a3437657da31de7b9cffabea640eebaf2).
 */
const JAVA_CLIENT = {
  fetch: { redirects: 'same-protocol' },
  download: { redirects: 'once-same-protocol' },
} as const;

/**
 * The Kotlin forks' `UpdatesNetworkDataSource.kt`: OkHttp with `followRedirects(false)` and
 * `callTimeout(10, SECONDS)`, an https URI required.
 */
const KOTLIN_CLIENT = { redirects: 'refused', timeoutS: 10 } as const;

/** Every updater the probe knows, by the answer it reads. */
export const UPDATERS: Record<AnswerKind, Updater> = {
  v1: {
    title: 'LineageOS v1',
    ...JAVA_CLIENT,
    wrapper: 'response',
    strictness: 'record',
    ...ORG_JSON_V1,
    keys: { url: 'url', size: 'size', filename: 'filename', md5: 'md5sum' },
    source:
      'LineageOS/android_packages_apps_Updater lineage-22.0 misc/Utils.java parseJsonUpdate, download/HttpURLConnectionClient.java at 3cb130d4',
  },
  v2: {
    title: 'LineageOS 23.2+ v2',
    // followRedirects = false, requestTimeoutMillis 10 s, ContentType.Application.Json only:
    // data/source/network/UpdatesNetworkDataSource.kt at a973e5b3e16535f592a0ca43c452c625e7b24dfe;
    // the 32 KiB cap of the state otapress answers (render/v2.ts).
    fetch: {
      redirects: 'refused',
      contentType: /^application\/json$/i,
      contentTypeName: 'application/json',
      maxBytes: V2_MAX_BYTES,
      timeoutS: 10,
    },
    wrapper: 'array',
    strictness: 'answer',
    strings: ['type', 'version'],
    longs: ['datetime'],
    files: true,
    keys: {
      url: 'url',
      size: 'size',
      filename: 'filename',
      sha256: 'sha256',
      propertyFiles: 'ota_property_files',
    },
    download: { redirects: 'followed' },
    source:
      'LineageOS/android_packages_apps_Updater data/source/network/UpdatesNetworkDataSource.kt at a973e5b3, NetworkUpdate.kt at 022b56cb',
  },
  crdroid: {
    title: 'crDroid (Kotlin)',
    fetch: KOTLIN_CLIENT,
    wrapper: 'response',
    strictness: 'answer',
    strings: ['filename', 'download', 'sha256', 'version'],
    longs: ['timestamp', 'size'],
    keys: {
      url: 'download',
      size: 'size',
      filename: 'filename',
      sha256: 'sha256',
      md5: 'md5',
      propertyFiles: 'ota_property_files',
    },
    download: { redirects: 'followed' },
    source:
      'crdroidandroid/android_packages_apps_Updater data/source/network/UpdatesNetworkDataSource.kt at 11ad4a9f, NetworkUpdate.kt at 743402ae',
  },
  'crdroid-java': {
    title: 'crDroid Java',
    ...JAVA_CLIENT,
    wrapper: 'response',
    strictness: 'record',
    strings: ['filename', 'md5', 'download', 'version'],
    longs: ['timestamp', 'size'],
    keys: { url: 'download', size: 'size', filename: 'filename', md5: 'md5', sha256: 'sha256' },
    source: 'crdroidandroid/android_packages_apps_Updater 14.0 misc/Utils.java at 86c1d231',
  },
  'md5-six': {
    title: 'six-field md5',
    ...JAVA_CLIENT,
    wrapper: 'response',
    strictness: 'record',
    strings: ['filename', 'md5', 'download', 'version'],
    longs: ['timestamp', 'size'],
    keys: { url: 'download', size: 'size', filename: 'filename', md5: 'md5' },
    source: 'ProjectMatrixx/android_packages_apps_Updater 14.0 misc/Utils.java at b58b479a',
  },
  'lineage-v1': {
    title: 'DerpFest (LineageOS v1 static)',
    fetch: KOTLIN_CLIENT,
    wrapper: 'response',
    strictness: 'answer',
    ...ORG_JSON_V1,
    strings: ['filename', 'id', 'url', 'version'],
    keys: { url: 'url', size: 'size', filename: 'filename', md5: 'md5sum' },
    download: { redirects: 'followed' },
    source:
      'DerpFest-AOSP/android_packages_apps_Updater data/source/network/UpdatesNetworkDataSource.kt, NetworkUpdate.kt at 73064e65',
  },
  pixelos15: {
    title: 'PixelOS 15',
    // A Java-era reader of a downloaded file (HttpURLConnection's own redirects); its download client not read.
    ...JAVA_CLIENT,
    download: { redirects: 'followed' },
    wrapper: 'response',
    strictness: 'record',
    strings: ['filename', 'id', 'url', 'version'],
    longs: ['datetime', 'size'],
    keys: { url: 'url', size: 'size', filename: 'filename' },
    source: 'PixelOS-AOSP/android_packages_apps_Updater misc/Utils.kt parseJson at dfdc3297',
  },
  'pixelos-feed': {
    title: 'PixelOS feed',
    // callTimeout 10 s, followRedirects(false), MAX_RESPONSE_BYTES 1 MiB.
    fetch: { ...KOTLIN_CLIENT, maxBytes: 1024 * 1024 },
    wrapper: 'array',
    strictness: 'answer',
    strings: ['version'],
    longs: ['datetime'],
    files: true,
    keys: {
      url: 'url',
      size: 'size',
      filename: 'filename',
      sha256: 'sha256',
      propertyFiles: 'ota_property_files',
    },
    download: { redirects: 'followed' },
    source:
      'PixelOS-AOSP/android_packages_apps_Updater data/source/network/UpdatesNetworkDataSource.kt at a7eae754, NetworkUpdate.kt at 6ed86e23',
  },
  pixelexperience: {
    title: 'PixelExperience',
    // HttpURLConnection (download/HttpURLConnectionClient.java at d58615bd); its redirect handling not read.
    ...JAVA_CLIENT,
    download: { redirects: 'followed' },
    wrapper: 'object',
    strictness: 'answer',
    strings: ['filename', 'id', 'url', 'version', 'filehash'],
    longs: ['datetime', 'size'],
    keys: { url: 'url', size: 'size', filename: 'filename', md5: 'filehash' },
    source: 'PixelExperience/packages_apps_Updates thirteen misc/Utils.java at ede7af50',
  },
  aospa: {
    title: 'AOSPA hub',
    // The Compose Hub's ktor ContentNegotiation is registered for ContentType.Text.Any only.
    fetch: { redirects: 'followed', contentType: /^text\/[^;\s]+$/i, contentTypeName: 'text/*' },
    wrapper: 'updates',
    strictness: 'answer',
    strings: ['filename', 'url', 'id', 'size'],
    longs: [],
    allText: true,
    keys: { url: 'url', size: 'size', filename: 'filename' },
    download: { redirects: 'followed' },
    source: 'Herna1994/ComposeParanoidHub data/api/ApiClient.kt at a53e1ec6; AOSPA ParanoidHub uvite at bfde35e6',
  },
  grapheneos: {
    title: 'GrapheneOS',
    // Service.java opens the URLs with HttpURLConnection: https redirects to https are followed.
    fetch: { redirects: 'same-protocol' },
    wrapper: 'line',
    strictness: 'answer',
    strings: [],
    longs: [],
    keys: { url: 'url', size: 'size', filename: 'filename' },
    download: { redirects: 'same-protocol' },
    source: 'GrapheneOS/platform_packages_apps_Updater src/app/seamlessupdate/client/Service.java at 24cdeac0',
  },
};
