import { FILENAME_FORMS, nameFitsDevice, parseBuildFilename, type FilenameFacts } from '../catalog/filename.js';
import { androidVersionOf } from '../catalog/api-levels.js';
import { NAME_FAMILIES, readNameFamily } from '../catalog/name-families.js';

/** The build facts `add` needs, as manifest field values. */
export interface BuildFacts {
  device?: string;
  filename?: string;
  version?: string;
  channel?: string;
  /** As given (digits, unchecked): add-checks.ts says where an implausible one came from. */
  timestamp?: string;
  android_version?: string;
  api_level?: string;
  incremental?: string;
  os_patch_level?: string;
  ota_type?: 'AB' | 'BLOCK';
  ota_property_files?: string;
}

/** Values the maintainer gave on the command line; they win over the zip and its name. */
export type FactOptions = Partial<
  Record<
    'device' | 'filename' | 'version' | 'channel' | 'timestamp' | 'android_version' | 'api_level' | 'incremental',
    string
  >
>;

/** The facts of one package and where each came from (`metadata post-timestamp`, `the file name`, `--channel`). */
export interface DerivedFacts {
  facts: BuildFacts;
  origins: { field: keyof BuildFacts; value: string; from: string }[];
  /** Facts nothing supplied, as the options that would: `--version`, `--channel`, ... */
  missing: string[];
  /** Why the missing ones could not be found, for the message. */
  notes: string[];
  /** What the file name says, when it is of a form we read. */
  name?: FilenameFacts;
  /** The devices of the metadata's `pre-device` (the package installs on these only). */
  preDevices: string[];
}

/** Reads `META-INF/com/android/metadata`: one `key=value` per line. */
export function parseOtaMetadata(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    entries.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return entries;
}

/** Option name of each fact, for messages. */
export const FACT_OPTIONS: Record<keyof FactOptions, string> = {
  device: '--device',
  filename: '--filename',
  version: '--version',
  channel: '--channel',
  timestamp: '--timestamp',
  android_version: '--android-version',
  api_level: '--api-level',
  incremental: '--incremental',
};

/**
 * Combines the command-line options, the zip's metadata and its file name into the build facts,
 * in that order of precedence, and records where each value came from. Pure.
 */
export function deriveBuildFacts(
  zipName: string,
  metadata: Map<string, string> | undefined,
  options: FactOptions,
  defaultChannel?: string,
): DerivedFacts {
  const facts: BuildFacts = {};
  const origins: DerivedFacts['origins'] = [];
  const notes: string[] = [];
  const set = <K extends keyof BuildFacts>(field: K, value: BuildFacts[K] | undefined, from: string) => {
    if (value === undefined || facts[field] !== undefined) return;
    facts[field] = value;
    origins.push({ field, value: String(value), from });
  };
  const meta = (key: string) => {
    const v = metadata?.get(key);
    return v === undefined || v === '' ? undefined : v;
  };

  const filename = options.filename ?? zipName;
  set('filename', filename, options.filename !== undefined ? '--filename' : 'the zip');
  const name: FilenameFacts | undefined = parseBuildFilename(filename);
  // Any ROM's name may be published; these forms and families tell version, device and more.
  const family = name ? undefined : readNameFamily(filename);
  if (!name && !family) {
    notes.push(
      `\`${filename}\` is in none of the name forms otapress reads, so it tells nothing (${FILENAME_FORMS}; or as ${NAME_FAMILIES.map((f) => f.example).join(', ')})`,
    );
  }
  if (metadata === undefined) notes.push('the zip has no META-INF/com/android/metadata');

  for (const key of [
    'device',
    'version',
    'channel',
    'timestamp',
    'android_version',
    'api_level',
    'incremental',
  ] as const)
    set(key, options[key], FACT_OPTIONS[key]);

  // Taken as written: a value that is not plausible Unix seconds is refused naming the metadata.
  set('timestamp', meta('post-timestamp'), 'metadata post-timestamp');
  const fingerprint = parseFingerprint(meta('post-build'));
  set('android_version', fingerprint?.androidVersion, 'metadata post-build');
  set('incremental', meta('post-build-incremental'), 'metadata post-build-incremental');
  set('incremental', fingerprint?.incremental, 'metadata post-build');
  set('api_level', meta('post-sdk-level'), 'metadata post-sdk-level');
  set('android_version', androidVersionOf(meta('post-sdk-level')), 'metadata post-sdk-level');
  const preDevices =
    meta('pre-device')
      ?.split(',')
      .map((d) => d.trim())
      .filter(Boolean) ?? [];
  // The one the name is for (`Linux4-beyond1lte` is for beyond1lte), else the first.
  if (preDevices.length > 0)
    set(
      'device',
      preDevices.find((d) => name !== undefined && nameFitsDevice(name.device, d)) ?? preDevices[0],
      'metadata pre-device',
    );
  set('os_patch_level', meta('post-security-patch-level'), 'metadata post-security-patch-level');
  const otaType = meta('ota-type');
  if (otaType === 'AB' || otaType === 'BLOCK') set('ota_type', otaType, 'metadata ota-type');
  set('ota_property_files', meta('ota-property-files'), 'metadata ota-property-files');

  if (name) {
    set('device', name.device, 'the file name');
    set('version', name.version, 'the file name');
    set('channel', name.channel, 'the file name');
    set('android_version', name.androidVersion, 'the file name');
  }
  if (family) {
    set('device', family.device, 'the file name');
    set('version', family.version, 'the file name');
    set('channel', family.releaseType, 'the file name');
    set('android_version', family.androidVersion, 'the file name');
    // crDroid's and PixelOS's updaters ask for no release type, and their names state none.
    set('channel', defaultChannel, `the site's first channel (a ${family.family} name states no release type)`);
  }

  // The Android version is no phone's need: derived when something tells it, else left out.
  const missing = (['device', 'version', 'channel', 'timestamp', 'incremental'] as const)
    .filter((key) => facts[key] === undefined)
    .map((key) => FACT_OPTIONS[key]);
  if (missing.includes('--timestamp') && metadata !== undefined) {
    notes.push(
      'the metadata has no post-timestamp (a file name carries only the day, not the build time phones compare)',
    );
  }
  return { facts, origins, missing, notes, ...(name && { name }), preDevices };
}

// --- internal ---

/** `brand/product/device:14/UP1A.231005.007/eng.root.20241108.123456:user/release-keys`. */
function parseFingerprint(
  fingerprint: string | undefined,
): { androidVersion?: string; incremental?: string } | undefined {
  if (fingerprint === undefined) return undefined;
  const colon = fingerprint.indexOf(':');
  if (colon < 0) return undefined;
  const [release, , incremental] = fingerprint
    .slice(colon + 1)
    .split(':')[0]
    .split('/');
  const major = /^(\d+)/.exec(release ?? '')?.[1];
  return { androidVersion: major, incremental: incremental || undefined };
}
