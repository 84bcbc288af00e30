/**
 * The update clients' rules, written from their documented behaviour (/work/shared/REFERENCE.md and
 * issue 13: the LineageOS updater's own code run on otapress output), never from otapress's code.
 * Tests use them as the oracle: what a real phone would offer from an answer.
 */

/** A phone asking for updates: its release type, build time, installed version and upgrade setting. */
export interface Phone {
  /** `ro.lineage.releasetype`, in any case (the phone lower-cases it in the URL, compares ignoring case). */
  releaseType: string;
  /** `ro.build.date.utc`, Unix seconds. */
  buildDate: number;
  /** `ro.lineage.build.version`. */
  version: string;
  /** Whether the phone allows moving to a newer major version. */
  allowMajorUpgrades: boolean;
}

/**
 * Java's `Integer.parseInt(s)`: an optional sign and decimal digits, within 32-bit range; anything
 * else throws `NumberFormatException` (returned here as `undefined`).
 */
export function javaParseInt(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** Java's `s.split("\\.")`: like JavaScript's, but trailing empty strings are removed (and "" stays [""]). */
export function javaSplitOnDot(s: string): string[] {
  const parts = s.split('.');
  if (s === '') return parts;
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/**
 * The 23.2-era `Utils.compareVersions`' reading of a version: the first two parts as integers, or
 * `undefined` where it catches `ArrayIndexOutOfBoundsException` or `NumberFormatException`.
 */
export function v2Version(version: string): [number, number] | undefined {
  const parts = javaSplitOnDot(version);
  if (parts.length < 2) return undefined;
  const major = javaParseInt(parts[0]);
  const minor = javaParseInt(parts[1]);
  return major === undefined || minor === undefined ? undefined : [major, minor];
}

/** One entry of a v2 answer, as the client reads it (only `files[0]`). */
export interface V2Entry {
  datetime: unknown;
  type: unknown;
  version: unknown;
  files: { filename?: unknown; sha256?: unknown; size?: unknown; url?: unknown }[];
}

/**
 * Whether a v2 phone offers this entry: its version has two readable numbers and is not older than
 * the installed one (a newer major only when the phone allows it), its type equals the phone's
 * release type ignoring case, its datetime is newer than the phone's build, and its file has a
 * positive size and an https url.
 */
export function v2Offers(entry: V2Entry, phone: Phone): boolean {
  const file = entry.files[0];
  if (file === undefined || typeof entry.version !== 'string' || typeof entry.type !== 'string') return false;
  const offered = v2Version(entry.version);
  const installed = v2Version(phone.version);
  if (offered === undefined || installed === undefined) return false;
  const [major, minor] = offered;
  const versionOk = major > installed[0] ? phone.allowMajorUpgrades : major === installed[0] && minor >= installed[1];
  return (
    versionOk &&
    entry.type.toLowerCase() === phone.releaseType.toLowerCase() &&
    typeof entry.datetime === 'number' &&
    entry.datetime > phone.buildDate &&
    typeof file.size === 'number' &&
    file.size > 0 &&
    typeof file.url === 'string' &&
    file.url.startsWith('https://')
  );
}
