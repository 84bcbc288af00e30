/** What an OTA package's file name says about the build. */
export interface FilenameFacts {
  /** `e` for /e/OS names, `lineage` for LineageOS names. */
  form: 'e' | 'lineage';
  version: string;
  /** Platform letter (`t`, `u`) or `a<level>` (`a14`); absent in LineageOS names. */
  platform?: string;
  /** Android major version implied by the platform part (/e/) or the ROM version (LineageOS), when it implies one. */
  androidVersion?: string;
  /** Build date, `yyyymmdd`. */
  date: string;
  /** Build number after the date (/e/ names), possibly empty. */
  buildNumber: string;
  /** Channel (/e/) or release type (LineageOS, lower-cased as phones compare it: `UNOFFICIAL` reads `unofficial`). */
  channel: string;
  device: string;
  /** `.disabled.zip`: a build withdrawn from download. */
  disabled: boolean;
}

/** The file name forms we read facts from, for messages. Other names are published as they are. */
export const FILENAME_FORMS =
  'e-<version>-<platform letter or a+level>-<yyyymmdd><build number>-<channel>-<device>.zip (or .disabled.zip), or lineage-<version>-<yyyymmdd>-<type>-<device>[-signed].zip';

/**
 * A package name any ROM may use: one plain name (no folder, no `..`) of the characters a URL path
 * carries unchanged (RFC 3986 unreserved: letters, digits, `-`, `.`, `_`, `~`; first a letter, digit
 * or `_`; at most 255, what Android's file systems hold), since the default download address ends
 * with it and the phone saves the download under it.
 */
export const PLAIN_FILENAME = /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9._~-]{0,254}$/;

const E_FORM =
  /^e-(\d+(?:\.\d+){1,2})-([a-z]|a\d{2})-(\d{8})(\d*)-([a-z0-9][a-z0-9_]*)-([A-Za-z0-9][A-Za-z0-9_.-]*?)(\.disabled)?\.zip$/;
const LINEAGE_FORM =
  /^lineage-(\d+(?:\.\d+){1,2})-(\d{8})-([A-Za-z0-9][A-Za-z0-9_]*)-([A-Za-z0-9][A-Za-z0-9_.-]*?)(-signed)?\.zip$/;

/** Platform letters of /e/ file names and the Android major version each stands for. */
const PLATFORM_LETTERS: Record<string, string> = {
  n: '7',
  o: '8',
  p: '9',
  q: '10',
  r: '11',
  s: '12',
  t: '13',
  u: '14',
  v: '15',
};

/**
 * Android major version of each LineageOS release (its major.minor), as LineageOS numbers them:
 * 17.1 is Android 10, ... 21.0 is Android 14; 22.x and 23.x name the whole major.
 */
const LINEAGE_ANDROID_VERSIONS: Record<string, string> = {
  '17.1': '10',
  '18.1': '11',
  '19.1': '12',
  '20.0': '13',
  '21.0': '14',
  '22': '15',
  '23': '16',
};

/** The Android major version of a LineageOS version (`21.0` → `14`, `22.1` → `15`); `undefined` for one it does not know. */
export function androidVersionOfLineage(version: string): string | undefined {
  const [major, minor] = version.split('.');
  return (
    LINEAGE_ANDROID_VERSIONS[`${major}.${minor}`] ?? (Number(major) >= 22 ? LINEAGE_ANDROID_VERSIONS[major] : undefined)
  );
}

/** Reads an OTA file name; `undefined` when it fits none of {@link FILENAME_FORMS} (the facts then come from elsewhere). */
export function parseBuildFilename(name: string): FilenameFacts | undefined {
  const e = E_FORM.exec(name);
  if (e) {
    const [, version, platform, date, buildNumber, channel, device, disabled] = e;
    return {
      form: 'e',
      version,
      platform,
      androidVersion: platform.length > 1 ? String(Number(platform.slice(1))) : PLATFORM_LETTERS[platform],
      date,
      buildNumber,
      channel,
      device,
      disabled: disabled !== undefined,
    };
  }
  const lineage = LINEAGE_FORM.exec(name);
  if (lineage) {
    const [, version, date, channel, device] = lineage;
    // Unofficial builds spell the type in capitals (UNOFFICIAL); phones compare it ignoring case.
    const androidVersion = androidVersionOfLineage(version);
    return {
      form: 'lineage',
      version,
      ...(androidVersion && { androidVersion }),
      date,
      buildNumber: '',
      channel: channel.toLowerCase(),
      device,
      disabled: false,
    };
  }
  return undefined;
}

/**
 * The `display_version` a file name implies: `<version>-<platform>-<date+number>-<channel>-<device>`
 * for /e/ names, the name without `.disabled.zip` for withdrawn ones (as the /e/ OTA server publishes them), and the name
 * without `lineage-` and `.zip` for LineageOS names, and the name without `.zip` for any other ROM's
 * (never empty for a {@link PLAIN_FILENAME}, which the /e/ updater shows as the build's name).
 */
export function displayVersionOf(name: string): string {
  if (name.endsWith('.disabled.zip')) return name.slice(0, -'.disabled.zip'.length);
  const stem = name.endsWith('.zip') ? name.slice(0, -'.zip'.length) : name;
  // Only a name of the two forms loses its prefix: `e-.zip`, of no form, must not become "".
  // The forms of parseBuildFilename, tested without taking the name apart.
  if (E_FORM.test(name)) return stem.slice('e-'.length);
  if (LINEAGE_FORM.test(name)) return stem.slice('lineage-'.length);
  return stem;
}

/**
 * A withdrawn package: the interface's `.disabled.zip` naming. v1 keeps listing it as named; the
 * v2 answer, feeds' downloads and the device index's newest build leave it out.
 */
export function isWithdrawn(build: { filename: string }): boolean {
  return build.filename.endsWith('.disabled.zip');
}

/**
 * Whether a file name's device part names `device`: the same, or the device as whole `-`-separated
 * parts of it, as names published under another convention carry it (`Linux4-beyond1lte`, a
 * maintainer's prefix, or `beyond1lte-KSU`, a variant's suffix, both name beyond1lte). Cross-checks
 * exist to catch a zip in the wrong device's folder; a name that spells the folder's code name as a
 * part of its own is not that mistake.
 */
export function nameFitsDevice(nameDevice: string, device: string): boolean {
  return nameDevice === device || `-${nameDevice}-`.includes(`-${device}-`);
}
