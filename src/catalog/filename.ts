/** What an OTA package's file name says about the build. */
export interface FilenameFacts {
  /** `e` for /e/OS names, `lineage` for LineageOS names. */
  form: 'e' | 'lineage';
  version: string;
  /** Platform letter (`t`, `u`) or `a<level>` (`a14`); absent in LineageOS names. */
  platform?: string;
  /** Android major version implied by the platform part, when it implies one. */
  androidVersion?: string;
  /** Build date, `yyyymmdd`. */
  date: string;
  /** Build number after the date (/e/ names), possibly empty. */
  buildNumber: string;
  /** Channel (/e/) or release type (LineageOS). */
  channel: string;
  device: string;
  /** `.disabled.zip`: a build withdrawn from download. */
  disabled: boolean;
}

/** The file name forms we read, for messages. */
export const FILENAME_FORMS =
  'e-<version>-<platform letter or a+level>-<yyyymmdd><build number>-<channel>-<device>.zip (or .disabled.zip), or lineage-<version>-<yyyymmdd>-<type>-<device>[-signed].zip';

const E_FORM =
  /^e-(\d+(?:\.\d+){1,2})-([a-z]|a\d{2})-(\d{8})(\d*)-([a-z0-9][a-z0-9_]*)-([A-Za-z0-9][A-Za-z0-9_.-]*?)(\.disabled)?\.zip$/;
const LINEAGE_FORM = /^lineage-(\d+(?:\.\d+){1,2})-(\d{8})-([a-z0-9][a-z0-9_]*)-([A-Za-z0-9][A-Za-z0-9_.-]*?)(-signed)?\.zip$/;

/** Platform letters of /e/ file names and the Android major version each stands for. */
export const PLATFORM_LETTERS: Record<string, string> = {
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

/** Reads an OTA file name; `undefined` when it fits none of {@link FILENAME_FORMS}. */
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
    return { form: 'lineage', version, date, buildNumber: '', channel, device, disabled: false };
  }
  return undefined;
}

/**
 * The `display_version` a file name implies: `<version>-<platform>-<date+number>-<channel>-<device>`
 * for /e/ names, the name without `.disabled.zip` for withdrawn ones (interface.md), and the name
 * without `lineage-` and `.zip` for LineageOS names.
 */
export function displayVersionOf(name: string): string {
  if (name.endsWith('.disabled.zip')) return name.slice(0, -'.disabled.zip'.length);
  const stem = name.endsWith('.zip') ? name.slice(0, -'.zip'.length) : name;
  if (stem.startsWith('e-')) return stem.slice(2);
  if (stem.startsWith('lineage-')) return stem.slice('lineage-'.length);
  return stem;
}
