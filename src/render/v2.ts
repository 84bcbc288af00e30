import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';
import { compareStrings, type Problem } from '../catalog/problems.js';
import { API_FILES, fill, URLS } from './urls.js';
import type { OutputFile } from './output.js';

/** The LineageOS v2 updater rejects a longer body, so no v2 answer may exceed it. */
export const V2_MAX_BYTES = 32768;

/** The largest number Java's `Integer.parseInt` reads; the v2 updater parses versions with it. */
const JAVA_INT_MAX = 2 ** 31 - 1;

/**
 * Why the v2 updater cannot read `version`, or `undefined` when it can. The 23.2-era client
 * (`Utils.compareVersions`) splits it on `.` (Java's `split`, which drops trailing empty parts)
 * and parses only the first two parts with `Integer.parseInt`; an out-of-bounds part or a
 * `NumberFormatException` refuses the build. So `2.6.3` reads as 2.6 and is taken, `2` and
 * `2.5-beta` are not.
 */
export function unreadableV2Version(version: string): string | undefined {
  const parts = version.split('.');
  while (parts.length > 0 && parts.at(-1) === '') parts.pop();
  if (parts.length < 2) return 'it has no minor number (the updater needs two, as in 2.6)';
  for (const part of parts.slice(0, 2)) {
    if (!/^[+-]?\d+$/.test(part)) return `${part === '' ? 'an empty part' : `\`${part}\``} is not a whole number (the updater reads the first two parts as numbers, as in 2.6 or 2.6.3)`;
    if (Math.abs(Number(part)) > JAVA_INT_MAX + (part.startsWith('-') ? 1 : 0)) return `${part} is larger than the updater can read (at most ${JAVA_INT_MAX})`;
  }
  return undefined;
}

/**
 * One build as the official server answers it (lineageos-infra/updater, api_v2.py and
 * api_common.py at ad9188930d83e7f4d9be1c5d91c9c8bb3523fe87); the v2 updater uses `files[0]` only,
 * and `sha256` is its download key. Keys in the server's order: Flask's `jsonify` sorts them.
 */
export interface V2Build {
  /** The UTC day of `datetime`, `YYYY-MM-DD`. */
  date: string;
  datetime: number;
  files: [V2Package, ...V2File[]];
  type: string;
  version: string;
}

/** A file of a v2 build; the download portal (lineageos-infra/updater-client) keys a build's files by `sha1`. */
export interface V2File {
  filename: string;
  /** The download address's path under `download_base_url`: the server's `url` is its base plus this. */
  filepath: string;
  /** Left out only for a zip whose hand-written manifest has no `sha1`. */
  sha1?: string;
  sha256: string;
  size: number;
  url: string;
}

/** The build's zip, `files[0]`, with the copies of the build's facts the server puts on it; the optional keys appear only when the manifest has the value. */
export interface V2Package extends V2File {
  date: string;
  datetime: number;
  os_patch_level?: string;
  os_sdk_level?: number;
  ota_property_files?: string;
  type: string;
}

/** What {@link renderV2} produces: the device's file, and what was left out and why. */
export interface RenderedV2 {
  file: OutputFile;
  /**
   * Builds that v1 lists but the v2 answer leaves out: one notice per unreadable version, and one
   * per device for the withdrawn builds, for the builds of size 0 and for the size cut.
   */
  notices: Problem[];
}

/**
 * The v2 answer of a device (`/api/v2/devices/<device>/builds`), from the same listings as v1: one
 * entry per build and list it is in (`type` is the list, which v2 phones compare with their release
 * type), newest first, `version` as written. Placeholders are never listed (v2 has no shape a phone
 * would skip). Nothing in a v2 entry can mark a build withdrawn or its size unknown, and the phone
 * offers every entry it can read, so these are left out: `.disabled.zip` builds, builds of size 0
 * (the phone checks the download against it; a PixelOS fork refuses it) and versions the updater
 * cannot read ({@link unreadableV2Version}). When the entries would pass {@link V2_MAX_BYTES}, the
 * oldest are dropped. All are notices, not problems: v1 still lists those builds.
 */
export function renderV2(device: string, listings: readonly Listing[]): RenderedV2 {
  const notices: Problem[] = [];
  const url = URLS.v2Builds(device);
  const candidates: { build: Build; list: string; rank: number }[] = [];
  const unreadable = new Map<Build, { why: string; lists: string[] }>();
  const withdrawn = new Set<Build>();
  const sizeless = new Set<Build>();
  listings.forEach((listing, rank) => {
    for (const build of listing.builds) {
      if (build.placeholder) continue;
      const why = unreadableV2Version(build.version);
      if (isWithdrawn(build)) withdrawn.add(build);
      else if (build.size === 0) sizeless.add(build);
      else if (why !== undefined) unreadable.set(build, { why, lists: [...(unreadable.get(build)?.lists ?? []), listing.list] });
      else candidates.push({ build, list: listing.list, rank });
    }
  });
  for (const [build, { why, lists }] of unreadable) {
    notices.push({
      file: build.source,
      ...build.at.version,
      field: 'version',
      message: `LineageOS v2 updaters cannot read \`${build.version}\`: ${why}; so ${url} leaves this build out; v1 still lists it (${lists.join(', ')})`,
    });
  }
  const newestFirst = (a: Build, b: Build) => b.timestamp - a.timestamp || compareStrings(a.filename, b.filename);
  // One notice per device for each of these, at the newest build: a long history would otherwise
  // print a line for every old build on every run.
  if (withdrawn.size > 0) {
    const [newest, ...older] = [...withdrawn].sort(newestFirst);
    notices.push({
      file: newest.source,
      ...newest.at.filename,
      field: 'filename',
      message: `left out of ${url}${andOlder(older.length, `withdrawn ${device}`, '')}: a \`.disabled.zip\` file is withdrawn, and a v2 entry cannot say so (phones would offer ${older.length > 0 ? 'them' : 'it'} for install); v1 still lists ${older.length > 0 ? 'them' : 'it'}, marked by the name`,
    });
  }
  if (sizeless.size > 0) {
    const [newest, ...older] = [...sizeless].sort(newestFirst);
    notices.push({
      file: newest.source,
      ...newest.at.size,
      field: 'size',
      message: `left out of ${url}${andOlder(older.length, device, ' of size 0')}: v2 phones check the download against \`size\` and some refuse a size that is not positive; write the zip's size in bytes (stat -c %s FILE) to offer ${older.length > 0 ? 'them' : 'it'}; v1 still lists ${older.length > 0 ? 'them' : 'it'}`,
    });
  }
  candidates.sort(
    (a, b) => b.build.timestamp - a.build.timestamp || a.rank - b.rank || compareStrings(a.build.filename, b.build.filename),
  );

  const bodies: string[] = [];
  let bytes = 2; // "[" and "]"
  let kept = 0;
  for (const { build, list } of candidates) {
    const body = JSON.stringify(renderV2Build(build, list));
    const size = Buffer.byteLength(body) + (bodies.length > 0 ? 1 : 0);
    if (bytes + size > V2_MAX_BYTES) break;
    bodies.push(body);
    bytes += size;
    kept++;
  }
  // A build with one list's entry kept is not left out (its entries differ only in `type`).
  const keptBuilds = new Set(candidates.slice(0, kept).map((c) => c.build));
  const dropped = [...new Set(candidates.slice(kept).map((c) => c.build))].filter((b) => !keptBuilds.has(b));
  if (dropped.length > 0) {
    const [newest] = dropped;
    const older = dropped.length - 1;
    notices.push({
      file: newest.source,
      ...newest.at.file,
      field: '(file)',
      message: `left out of ${url}${older > 0 ? ` with the ${older} older build${older === 1 ? '' : 's'} of ${device}` : ''}: a v2 answer may hold at most ${V2_MAX_BYTES} bytes and the ${kept} newer entries fill it; v1 still lists ${older > 0 ? 'them' : 'it'}`,
    });
  }
  return { file: { path: fill(API_FILES.v2Builds, { device }).slice(1), contents: `[${bodies.join(',')}]` }, notices };
}

/**
 * The v2 entry of a build in list `list`, shaped as the official server's (see {@link V2Build}):
 * the build's zip first, then its other files, `.zip` before `.img` before the rest, each group by
 * name (api_common.py `sorting_key`; the build's own zip stays first whatever the others are
 * called, because the updater installs `files[0]`).
 */
export function renderV2Build(build: Build, list: string): V2Build {
  const date = new Date(build.timestamp * 1000).toISOString().slice(0, 10);
  const zip: V2Package = {
    date,
    datetime: build.timestamp,
    filename: build.filename,
    filepath: build.filepath!,
    ...(build.os_patch_level !== undefined && { os_patch_level: build.os_patch_level }),
    ...(build.api_level !== '' && { os_sdk_level: Number(build.api_level) }),
    ...(build.ota_property_files !== undefined && { ota_property_files: build.ota_property_files }),
    ...(build.sha1 !== undefined && { sha1: build.sha1 }),
    sha256: build.id,
    size: build.size as number,
    type: list,
    url: build.url!,
  };
  const others = [...(build.files ?? [])]
    .sort((a, b) => fileRank(a.filename) - fileRank(b.filename) || compareStrings(a.filename, b.filename))
    .map((f): V2File => ({ filename: f.filename, filepath: f.filepath, sha1: f.sha1, sha256: f.sha256, size: f.size, url: f.url }));
  return { date, datetime: build.timestamp, files: [zip, ...others], type: list, version: build.version };
}

// --- internal ---

/** The server's file order: `.zip`, then `.img`, then the rest. */
function fileRank(filename: string): number {
  return filename.endsWith('.zip') ? 1 : filename.endsWith('.img') ? 2 : 3;
}

/** ` with N older <kind> build(s)<suffix>`, or nothing when there are none. */
function andOlder(count: number, kind: string, suffix: string): string {
  return count === 0 ? '' : ` with ${count} older ${kind} build${count === 1 ? '' : 's'}${suffix}`;
}
