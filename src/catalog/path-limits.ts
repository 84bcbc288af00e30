/**
 * How long the names that become output paths may be. A device folder name and a list or channel
 * name of site.yaml become folder and file names of the output (`api/v1/<device>/<list>/index.json`,
 * `devices/<device>/<list>.xml`), and file systems take at most 255 bytes per name (NAME_MAX on
 * Linux's ext4, XFS, btrfs and tmpfs, and on macOS's APFS) and 4096 per whole path (PATH_MAX). A
 * name that breaks them would pass every check and make the build fail while writing; these limits
 * refuse it first, at its line. Pure.
 */

/** Longest device, list or channel name: code names run to a few dozen characters, and the rest of a path component (`.xml`, `.json`) fits beside it. */
export const MAX_NAME_LENGTH = 100;

/** Longest name of one file or folder the build writes (NAME_MAX). */
const MAX_PATH_COMPONENT_BYTES = 255;

/**
 * Longest path of a file inside the output folder. The names above keep every path the build
 * writes under 300 bytes; 1024 leaves 3 KiB of PATH_MAX (4096) for where the output folder lives.
 */
const MAX_OUTPUT_PATH_BYTES = 1024;

/** Why a device, list or channel name is too long to become part of the output's paths, or `undefined`. */
export function nameLengthProblem(
  name: string,
  what: 'device code name' | 'list name' | 'channel name',
): string | undefined {
  if (name.length <= MAX_NAME_LENGTH) return undefined;
  return `the ${what} is ${name.length} characters long, over the limit of ${MAX_NAME_LENGTH}: it becomes a folder or file name of the site (${what === 'device code name' ? 'api/v1/<device>/' : 'devices/<device>/<list>.xml'}), and file systems take at most ${MAX_PATH_COMPONENT_BYTES} bytes per name; shorten it`;
}

/** Why an output path (relative, `/`-separated) cannot be written on every file system, or `undefined`. */
export function outputPathProblem(file: string): string | undefined {
  const bytes = Buffer.byteLength(file);
  if (bytes > MAX_OUTPUT_PATH_BYTES)
    return `the path is ${bytes} bytes long, over the ${MAX_OUTPUT_PATH_BYTES}-byte limit for a file of the output`;
  const long = file.split('/').find((part) => Buffer.byteLength(part) > MAX_PATH_COMPONENT_BYTES);
  if (long !== undefined)
    return `the name ${JSON.stringify(long.slice(0, 40) + '…')} is ${Buffer.byteLength(long)} bytes long, over the ${MAX_PATH_COMPONENT_BYTES} bytes a file system takes`;
  return undefined;
}

/**
 * The output paths (relative, `/`-separated) that another one equals ignoring case, each with the
 * first one: on a case-insensitive disk (macOS's and Windows' defaults), where a site is often
 * built before its upload, the two are one file, and phones get another answer than theirs, or a
 * 404. Files and the folders on their way are compared alike (`API/x.json` meets `api/`).
 */
export function caseClashes(paths: readonly string[]): { path: string; other: string }[] {
  const seen = new Map<string, string>();
  const clashes: { path: string; other: string }[] = [];
  for (const file of paths) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      const key = prefix.toLowerCase();
      const other = seen.get(key);
      if (other === undefined) seen.set(key, prefix);
      else if (other !== prefix) {
        clashes.push({ path: file, other });
        break;
      }
    }
  }
  return clashes;
}
