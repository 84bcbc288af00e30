import { isWithdrawn } from './filename.js';
import { idIsSha256, sha256Of } from './download-key.js';
import type { Build } from './manifest.js';
import { compareStrings, type Problem } from './problems.js';
import type { Site } from './site.js';

/** One request list of one device: what `GET /api/v1/<device>/<list>/` answers. */
export interface Listing {
  device: string;
  list: string;
  /** Builds in listing order (newest platform first, then newest build). */
  builds: Build[];
}

/** Device folder names must be safe, unambiguous URL path segments. */
export const DEVICE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?$/;

/**
 * Rules between manifests of one catalog: an `id` or `filename` used twice on a device, and device
 * folders that differ only by case (they would clash on case-insensitive disks and CDNs).
 */
export function checkCatalog(builds: readonly Build[], devices: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  const byLowerCase = new Map<string, string>();
  for (const device of [...devices].sort(compareStrings)) {
    const seen = byLowerCase.get(device.toLowerCase());
    if (seen !== undefined) {
      problems.push({
        file: `content/${device}`,
        line: 1,
        col: 1,
        field: '(folder)',
        message: `device folders \`${seen}\` and \`${device}\` differ only by case; phones ask with the exact name, keep one folder`,
      });
    } else byLowerCase.set(device.toLowerCase(), device);
  }
  // Builds with a package, in file order: a duplicate is reported at the file that sorts later.
  const packaged = builds.filter((b) => !b.placeholder).sort((a, b) => compareStrings(a.source, b.source));
  for (const field of ['id', 'filename'] as const) {
    const first = new Map<string, Build>();
    for (const build of packaged) {
      const key = `${build.device}\u0000${build[field]}`;
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, build);
        continue;
      }
      problems.push({
        file: build.source,
        ...build.at[field],
        field,
        message: `${earlier.source} has the same ${field}${field === 'id' ? ' (phones would merge the two builds into one download)' : ''}; each build of a device needs its own ${field === 'id' ? 'SHA-256 id' : 'file name'}: remove the duplicate manifest or correct the value`,
      });
    }
  }
  problems.push(...sameZip(packaged));
  problems.push(...sharedAddresses(builds));
  return problems;
}

/**
 * A `sha256` (the zip's SHA-256 beside another download key) that another build of the device
 * has too, as its `id` or its own `sha256`: the same zip published twice, under two keys that the
 * v1 answer keeps apart and the v2 answer, whose download key is the SHA-256 (render/v2.ts
 * `v2Sha256`), would merge. Only builds that write `sha256` are looked at (duplicate ids are
 * checkCatalog's), and only when there are any. `sorted`: the builds with a package, in file order.
 */
function sameZip(sorted: readonly Build[]): Problem[] {
  if (!sorted.some((b) => b.sha256 !== undefined)) return [];
  const problems: Problem[] = [];
  const bySha256 = new Map<string, Build>();
  // The ids first, so that a `sha256` is reported whichever file sorts first.
  for (const build of sorted) {
    const key = `${build.device}\u0000${build.id}`;
    if (idIsSha256(build) && !bySha256.has(key)) bySha256.set(key, build);
  }
  for (const build of sorted) {
    if (build.sha256 === undefined) continue;
    const key = `${build.device}\u0000${build.sha256}`;
    const earlier = bySha256.get(key);
    if (earlier === undefined) {
      bySha256.set(key, build);
      continue;
    }
    problems.push({
      file: build.source,
      ...(build.at.sha256 ?? build.at.file),
      field: 'sha256',
      message: `${earlier.source} publishes the same zip (its ${earlier.sha256 === build.sha256 ? '`sha256`' : '`id`'} is this SHA-256); v2 phones key downloads by it and would merge the two builds into one download: remove the duplicate manifest, or correct the value (sha256sum FILE)`,
    });
  }
  return problems;
}

/**
 * One download address, two contents: the zips and other files (`files:`) of a device's builds
 * whose addresses are the same but whose SHA-256 or size differ. Uploading the second "beside the
 * zip" would replace the first, and phones of the first build would download the wrong file. The
 * same file shared by two builds (same SHA-256 and size) is fine.
 */
function sharedAddresses(builds: readonly Build[]): Problem[] {
  const problems: Problem[] = [];
  const first = new Map<string, DownloadEntry>();
  for (const build of [...builds].sort((a, b) => compareStrings(a.source, b.source))) {
    for (const entry of downloadEntries(build)) {
      const earlier = first.get(entry.url);
      if (earlier === undefined) first.set(entry.url, entry);
      // Two zips at their derived address have the same file name, which checkCatalog reports.
      else if (entry.field === 'filename' && earlier.field === 'filename') continue;
      else if (earlier.sha256 !== entry.sha256 || earlier.size !== entry.size)
        problems.push(addressClash(entry, earlier));
    }
  }
  return problems;
}

/** A download address of a build: its zip's or one of its other files', with what it holds and where the manifest says it. */
export interface DownloadEntry {
  url: string;
  source: string;
  /** `the zip NAME` or `the file NAME`. */
  what: string;
  /** `filename` or `url` for the zip; `files.N` for another file. */
  field: string;
  at: { line: number; col: number };
  /** The file's SHA-256; for a zip without one (no SHA-256 `id`, no `sha256`), its download key, which tells the contents apart all the same. */
  sha256: string;
  size: number | '';
}

/** The download addresses of a build (none for a placeholder). */
export function downloadEntries(build: Build): DownloadEntry[] {
  if (build.placeholder || build.url === undefined) return [];
  const zip: DownloadEntry = {
    url: build.url,
    source: build.source,
    what: `the zip ${build.filename}`,
    field: build.at.url ? 'url' : 'filename',
    at: build.at.url ?? build.at.filename,
    sha256: sha256Of(build) ?? build.id,
    size: build.size,
  };
  return [
    zip,
    ...(build.files ?? []).map((file, i) => ({
      url: file.url,
      source: build.source,
      what: `the file ${file.filename}`,
      field: `files.${i}`,
      at: build.at.files?.[i] ?? build.at.file,
      sha256: file.sha256,
      size: file.size,
    })),
  ];
}

/** The problem of `entry`, whose address `earlier` already holds with other contents. */
export function addressClash(entry: DownloadEntry, earlier: DownloadEntry): Problem {
  return {
    file: entry.source,
    ...entry.at,
    field: entry.field,
    message: `${entry.url} is also the address of ${earlier.what} of ${earlier.source}, with another SHA-256 or size; one address holds one file, and the second upload would replace the first: ${
      entry.field.startsWith('files.')
        ? `give ${entry.what.replace(/^the file /, '')} another name (e.g. recovery-<version>.img), or its own \`url:\``
        : "correct this build's `url`, or the other file's name or address"
    }`,
  };
}

/**
 * Applies the membership rules and the listing order. Every device gets every list of the site,
 * empty ones included, so a phone on any channel gets a well-formed answer. With `v1_withdrawn:
 * omit`, withdrawn (`.disabled.zip`) builds and packages of size 0 are in no listing (nor in what
 * is made of them).
 */
export function planListings(builds: readonly Build[], devices: readonly string[], site: Site): Listing[] {
  const byDevice = new Map<string, Build[]>(devices.map((d) => [d, []]));
  for (const build of builds)
    if (site.v1Withdrawn === 'list' || !(isWithdrawn(build) || build.size === 0))
      byDevice.get(build.device)?.push(build);
  const listings: Listing[] = [];
  for (const device of [...byDevice.keys()].sort(compareStrings)) {
    const ordered = byDevice.get(device)!.sort(compareBuilds);
    for (const { name } of site.lists) {
      listings.push({ device, list: name, builds: ordered.filter((b) => b.lists.includes(name)) });
    }
  }
  return listings;
}

/** Newest first: build time descending, then file name (the newest build of a set is its first). */
export function compareNewestFirst(a: Build, b: Build): number {
  return b.timestamp - a.timestamp || compareStrings(a.filename, b.filename);
}

/** Listing order: Android version (numeric) descending, then build time descending, then file name. */
function compareBuilds(a: Build, b: Build): number {
  return (
    Number(b.android_version) - Number(a.android_version) ||
    b.timestamp - a.timestamp ||
    compareStrings(a.filename, b.filename) ||
    compareStrings(a.source, b.source)
  );
}
