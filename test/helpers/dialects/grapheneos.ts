/**
 * GrapheneOS's updater (app.seamlessupdate.client; CalyxOS, LMODroid and other forks kept it as
 * `platform_packages_apps_Updater`): no JSON at all. It fetches `<url><device>-<channel>`, reads
 * the first line `<incremental> <timestamp> <device> <channel>`, then downloads one of two zip
 * names from the same base and checks the zip's own metadata against that line.
 */

/**
 * A GrapheneOS phone: `Build.DEVICE`, `Build.VERSION.INCREMENTAL`, `ro.build.date.utc`, its channel,
 * `Build.FINGERPRINT`.
 */
export interface GraphenePhone {
  device: string;
  incremental: string;
  buildDate: number;
  /** `sys.update.channel`, else the channel chosen in Settings (`stable` by default). */
  channel: string;
  fingerprint?: string;
  /** `sys.update.streaming_test`: the zip names get `-streaming`. */
  streaming?: boolean;
}

/** What the phone does with a channel file. */
export type GrapheneCheck =
  /** It downloads `incrementalName` first and, when that request fails (404 among others), `fullName`. */
  | { kind: 'update'; targetIncremental: string; targetBuildDate: number; incrementalName: string; fullName: string }
  /** The target is not newer: "up to date". */
  | { kind: 'up-to-date' }
  /** A mismatch caught as GeneralSecurityException: a failure notification, retried later. */
  | { kind: 'refused'; reason: string }
  /** An exception the service does not catch (no line, too few fields, a timestamp Long.parseLong refuses). */
  | { kind: 'crash'; reason: string };

/**
 * `Service.onHandleIntent` (GrapheneOS/platform_packages_apps_Updater, src/app/seamlessupdate/client/Service.java
 * at 24cdeac02323af4b8a6024a9474ef73836067b22, branch 14): `<R.string.url><DEVICE>-<channel>`
 * (`https://releases.grapheneos.org/` by default, res/values/config.xml), its first line
 * (`BufferedReader.readLine`: up to LF, CR or CRLF) split on single spaces (`String.split(" ")`:
 * empty fields between double spaces count, trailing empty ones are dropped); field 1 parsed by
 * `Long.parseLong` and compared with `ro.build.date.utc` before fields 2 and 3 are checked
 * against the device and the channel. The channel file is written by GrapheneOS/script
 * `generate-metadata` (at af8e5e038bf33032812591ae23753f172b426c5c) as
 * `print(post-build-incremental, post-timestamp, pre-device, channel)` for each channel.
 */
export function readGrapheneChannel(text: string, phone: GraphenePhone): GrapheneCheck {
  const line = /^[^\r\n]*/.exec(text)?.[0];
  if (text === '') return { kind: 'crash', reason: 'readLine() returned null' };
  const fields = javaSplitSpace(line ?? '');
  if (fields.length < 2) return { kind: 'crash', reason: 'ArrayIndexOutOfBoundsException' };
  const targetIncremental = fields[0];
  const targetBuildDate = javaParseLong(fields[1]);
  if (targetBuildDate === undefined) return { kind: 'crash', reason: `NumberFormatException: ${fields[1]}` };
  if (targetBuildDate <= BigInt(phone.buildDate)) return { kind: 'up-to-date' };
  if (fields.length < 3) return { kind: 'crash', reason: 'ArrayIndexOutOfBoundsException' };
  if (fields[2] !== phone.device) {
    return { kind: 'refused', reason: `targetDevice: ${fields[2]} does not match device: ${phone.device}` };
  }
  if (fields.length < 4) return { kind: 'crash', reason: 'ArrayIndexOutOfBoundsException' };
  if (fields[3] !== phone.channel) {
    return { kind: 'refused', reason: `targetChannel: ${fields[3]} does not match channel: ${phone.channel}` };
  }
  const prefix = phone.streaming ? '-streaming' : '';
  return {
    kind: 'update',
    targetIncremental,
    targetBuildDate: Number(targetBuildDate),
    incrementalName: `${phone.device}${prefix}-incremental-${phone.incremental}-${targetIncremental}.zip`,
    fullName: `${phone.device}${prefix}-ota_update-${targetIncremental}.zip`,
  };
}

/**
 * `Service.onDownloadFinished`, after `RecoverySystem.verifyPackage`: the zip's
 * `META-INF/com/android/metadata`, each line split on `=` (`pair[1]` is the text up to a second
 * `=`), must have `post-timestamp` equal to the channel file's timestamp, `pre-device` equal to
 * the phone's device, no `serialno`, `ota-type=AB`, and `pre-build-incremental` / `pre-build`,
 * when present, equal to the phone's incremental / fingerprint; `ota-streaming-property-files`
 * must be there, with a readable `payload.bin` offset. Returns the first reason it refuses, or
 * `undefined` when the package is accepted.
 */
export function checkGrapheneZipMetadata(
  metadata: string,
  targetBuildDate: number,
  phone: GraphenePhone,
): string | undefined {
  const values = new Map<string, string>();
  for (const line of metadata.split(/\r\n|\r|\n/)) {
    const pair = javaSplitChar(line, '=');
    // A key the loop reads with nothing after its `=` makes pair[1] throw.
    if (pair.length < 2 && ZIP_KEYS_READ.includes(pair[0])) return 'ArrayIndexOutOfBoundsException';
    if (pair.length > 1) values.set(pair[0], pair[1]);
  }
  const timestamp = values.has('post-timestamp') ? javaParseLong(values.get('post-timestamp')!) : 0n;
  if (timestamp === undefined) return 'NumberFormatException';
  if (timestamp !== BigInt(targetBuildDate)) return 'timestamp does not match server metadata';
  if (values.get('pre-device') !== phone.device) return 'device mismatch';
  if (values.has('serialno')) return 'serialno constraint not permitted';
  if (values.get('ota-type') !== 'AB') return 'package is not an A/B update';
  const sourceIncremental = values.get('pre-build-incremental');
  if (sourceIncremental !== undefined && sourceIncremental !== phone.incremental) return 'source incremental mismatch';
  if (values.has('pre-build') && values.get('pre-build') !== phone.fingerprint) return 'source fingerprint mismatch';
  // The payload offset loop walks ota-streaming-property-files without a null check.
  const files = values.get('ota-streaming-property-files');
  if (files === undefined) return 'NullPointerException: no ota-streaming-property-files';
  for (const file of files.trim().split(',')) {
    const properties = javaSplitChar(file, ':');
    const unreadable = properties.length < 2 || javaParseLong(properties[1]) === undefined;
    if (properties[0] === 'payload.bin' && unreadable) return 'payload.bin offset unreadable';
  }
  return undefined;
}

// --- internal ---

/** The metadata keys `onDownloadFinished` reads `pair[1]` of. */
const ZIP_KEYS_READ = [
  'post-timestamp',
  'serialno',
  'pre-device',
  'ota-type',
  'ota-streaming-property-files',
  'pre-build-incremental',
  'pre-build',
];

/** `String.split(" ")`: every single space separates; trailing empty strings are removed. */
function javaSplitSpace(s: string): string[] {
  return javaSplitChar(s, ' ');
}

function javaSplitChar(s: string, c: string): string[] {
  if (!s.includes(c)) return [s];
  const parts = s.split(c);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** `Long.parseLong`: an optional sign and decimal digits within 64 bits. */
function javaParseLong(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}
