import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';
import { compareStrings, type Problem } from '../catalog/problems.js';
import { API_FILES, fill, URLS } from './urls.js';
import type { OutputFile } from './output.js';

/** The LineageOS v2 updater rejects a longer body, so no v2 answer may exceed it. */
export const V2_MAX_BYTES = 32768;

/** `version` as the v2 updater parses it: two integers, `major.minor`. */
export const V2_VERSION = /^\d+\.\d+$/;

/** One build as the v2 updater reads it; it uses `files[0]` only, and `sha256` is its download key. */
export interface V2Build {
  datetime: number;
  type: string;
  version: string;
  files: [V2File];
}

/** The package of a v2 build; the optional keys appear only when the manifest has the value. */
export interface V2File {
  filename: string;
  sha256: string;
  size: number;
  url: string;
  os_patch_level?: string;
  os_sdk_level?: number;
  ota_property_files?: string;
}

/** What {@link renderV2} produces: the device's file, and what was left out and why. */
export interface RenderedV2 {
  file: OutputFile;
  /** Builds that v1 lists but the v2 answer leaves out: one notice per bad version, one for the size cut. */
  notices: Problem[];
}

/**
 * The v2 answer of a device (`/api/v2/devices/<device>/builds`), from the same listings as v1: one entry per build and list it is in (`type` is the list, which v2 phones compare with their
 * release type), newest first. Placeholders are never listed (v2 has no shape a phone would skip).
 * A `version` that is not `major.minor` (e.g. "2.6.3") is left out rather than shortened: "2.6"
 * would present 2.6.3 as a different, older release. When the entries would pass
 * {@link V2_MAX_BYTES}, the oldest are dropped. Both are reported as notices, not problems: v1 still
 * lists those builds. The size cut is one notice for the device, at the newest build it drops.
 */
export function renderV2(device: string, listings: readonly Listing[]): RenderedV2 {
  const notices: Problem[] = [];
  const url = URLS.v2Builds(device);
  const candidates: { build: Build; list: string; rank: number }[] = [];
  const badVersion = new Map<Build, string[]>();
  listings.forEach((listing, rank) => {
    for (const build of listing.builds) {
      if (build.placeholder) continue;
      if (V2_VERSION.test(build.version)) candidates.push({ build, list: listing.list, rank });
      else badVersion.set(build, [...(badVersion.get(build) ?? []), listing.list]);
    }
  });
  for (const [build, lists] of badVersion) {
    notices.push({
      file: build.source,
      ...build.at.version,
      field: 'version',
      message: `\`${build.version}\` is not major.minor, the only version form LineageOS v2 updaters accept, so ${url} leaves this build out; v1 still lists it (${lists.join(', ')})`,
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
  // One notice per device for the size cut, at its newest dropped build: a long history would
  // otherwise print a line for every old build on every run.
  const dropped = [...new Set(candidates.slice(kept).map((c) => c.build))];
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

/** The v2 entry of a build in list `list`. Key order follows the updater's documented shape. */
export function renderV2Build(build: Build, list: string): V2Build {
  const file: V2File = {
    filename: build.filename,
    sha256: build.id,
    size: build.size === '' ? 0 : build.size,
    url: build.url!,
    ...(build.os_patch_level !== undefined && { os_patch_level: build.os_patch_level }),
    ...(build.api_level !== '' && { os_sdk_level: Number(build.api_level) }),
    ...(build.ota_property_files !== undefined && { ota_property_files: build.ota_property_files }),
  };
  return { datetime: build.timestamp, type: list, version: build.version, files: [file] };
}
