/**
 * Compiling one device: its manifests and the site settings in, its files, summary, notices and
 * problems out. Below both the build and the thread pool (compile-devices.ts), which call it.
 */
import { changelogAnchor, changelogUrl, uniqueChangelogAnchors } from '../catalog/changelog.js';
import { looseNotices } from '../catalog/download-key.js';
import { isDeviceFile, parseDeviceFile, type DeviceInfo } from '../catalog/device.js';
import { parseManifest, type Build } from '../catalog/manifest.js';
import { checkCatalog, planListings, type Listing } from '../catalog/plan.js';
import { incrementalTargets, planIncrementalListings, splitIncrementals } from '../catalog/incremental.js';
import { keyChangeNotices, keyChanges } from '../catalog/signing.js';
import { compareStrings, sortProblems, type Problem } from '../catalog/problems.js';
import type { Content, ContentListing, ManifestFile } from '../catalog/read.js';
import { listLocation, parseSite, type Site } from '../catalog/site.js';
import { outputLimitProblems } from '../hosts/limits.js';
import { caseClashes } from '../catalog/path-limits.js';
import { renderDevice } from '../render/device.js';
import type { OutputFile } from '../render/output.js';
import type { DeviceSummary } from '../render/summary.js';
import { API_FILES, fill } from '../render/urls.js';
import { renderListings } from '../render/v1.js';

/** What the site needs of one compiled device; worker threads and the build cache hand back exactly this. */
export interface DeviceOutput {
  device: string;
  /** The device's problems, unsorted; when there are any, `files` is empty. */
  problems: Problem[];
  /** The device's files: v1 listings, v2 answer, page, feeds. */
  files: OutputFile[];
  /** What the site-wide indexes show of the device. */
  summary?: DeviceSummary;
  notices: Problem[];
  counts: { builds: number; listings: number; records: number; files: number };
  /** The device's files as raw DEFLATE (level 1) instead of in `files`, when asked for (the preview keeps them). */
  deflated?: OutputFile[];
}

/** One device compiled on its own, with the builds and listings it was rendered from. */
export interface CompiledDevice extends DeviceOutput {
  builds: Build[];
  listings: Listing[];
}

/**
 * Validates and renders one device from its manifests. A device's listings depend only on its own
 * manifests and the site settings, so devices compile independently: in any order, on any thread,
 * or not at all when the cache already holds the result. Pure.
 */
export function compileDevice(device: string, manifests: readonly ManifestFile[], site: Site): CompiledDevice {
  const problems: Problem[] = [];
  const builds: Build[] = [];
  let info: DeviceInfo | undefined;
  for (const manifest of manifests) {
    // content/<device>/device.yaml travels with the device's manifests (same cache key, same
    // thread) but describes the device, not a build.
    if (isDeviceFile(manifest.file)) {
      const parsed = parseDeviceFile(manifest.bytes, manifest.file);
      problems.push(...parsed.problems);
      info = parsed.info;
      continue;
    }
    const parsed = parseManifest(manifest.bytes, manifest.file, device, site);
    problems.push(...parsed.problems);
    if (parsed.build) builds.push(parsed.build);
  }
  // A manifest that could not be read may be the full package an incremental one installs.
  const allRead = problems.length === 0;
  problems.push(...checkCatalog(builds, []));
  // Incremental packages are in no listing of their own: only in the answers for their source build.
  const { full, incremental } = splitIncrementals(builds);
  const { targets, problems: incrementalProblems } =
    incremental.length > 0
      ? incrementalTargets(full, incremental, allRead)
      : { targets: new Map<Build, Build>(), problems: [] };
  problems.push(...incrementalProblems);
  const counts = { builds: builds.length, listings: 0, records: 0, files: 0 };
  if (problems.length > 0) return { device, builds, listings: [], files: [], problems, notices: [], counts };
  // Builds whose anchors would be the same (placeholders of one version and time, ids sharing
  // their first characters) each get one of their own, on the pages, in the feeds and answers.
  for (const [build, anchor] of uniqueChangelogAnchors(builds)) {
    if (
      site.v1Changes === 'changelog_url' &&
      build.changes === changelogUrl(site.siteUrl, device, changelogAnchor(build))
    )
      build.changes = changelogUrl(site.siteUrl, device, anchor);
    build.anchor = anchor;
  }
  const listings = planListings(full, [device], site);
  const {
    answers,
    notices: incrementalNotices,
    published,
  } = planIncrementalListings(listings, targets, full, site.v1Withdrawn);
  // Each target's page lists the incremental packages that install it, by source incremental.
  for (const [pkg, target] of [...published].sort(([a], [b]) =>
    compareStrings(a.appliesOn!.incremental, b.appliesOn!.incremental),
  ))
    (target.incrementals ??= []).push(pkg);
  // A build the one before it does not trust: its page says so, and check tells. Among the builds
  // phones are offered: a withdrawn one left out of v1 (v1_withdrawn: omit) is no step of theirs.
  const changes = keyChanges([...new Set(listings.flatMap((l) => l.builds))]);
  for (const { build } of changes) build.cleanInstall = true;
  const rendered = renderDevice(device, listings, site, info, answers);
  if (rendered.problems.length > 0)
    return { device, builds, listings: [], files: [], problems: rendered.problems, notices: [], counts };
  const bodies = renderListings([...listings, ...answers]);
  const files = [
    ...listings.map((l, i) => ({
      path: fill(API_FILES.listing, { device: l.device, list: l.list }).slice(1),
      contents: bodies[i],
    })),
    ...answers.map((a, i) => ({
      path: fill(API_FILES.v1Incremental, { device: a.device, list: a.list, incremental: a.incremental }).slice(1),
      contents: bodies[listings.length + i],
    })),
    ...rendered.files,
  ];
  // Two API files of the device one path ignoring case (an answer for `INDEX` beside the listing's
  // `index.json`) would be one file on a case-insensitive disk: refused at the build that asks for
  // it. The formats' folders are the site's (output-case.ts), refused only on such a disk.
  const clashes = caseClashes(
    files.flatMap((f) => (f.path.startsWith('api/v1/') || f.path.startsWith('api/v2/devices/') ? [f.path] : [])),
  );
  if (clashes.length > 0)
    return {
      device,
      builds,
      listings: [],
      files: [],
      problems: clashes.map((c) => caseClashProblem(c, builds)),
      notices: [],
      counts,
    };
  counts.listings = listings.length;
  counts.records = listings.reduce((n, l) => n + l.builds.length, 0);
  counts.files = files.length;
  return {
    device,
    builds,
    listings,
    files,
    problems,
    notices: [...looseNotices(builds), ...rendered.notices, ...keyChangeNotices(changes), ...incrementalNotices],
    summary: rendered.summary,
    counts,
  };
}

/**
 * The site settings of the content, and the problems found so far (layout and settings). A site
 * whose output would pass its hosts' limits (hosts/limits.ts) has no settings to build with:
 * nothing is compiled or written for it.
 */
export function compileSettings(content: Pick<Content, 'site' | 'problems' | 'devices'>): {
  site?: Site;
  problems: Problem[];
} {
  const problems = [...content.problems];
  const { site, problems: siteProblems } = content.site ? parseSite(content.site) : { site: undefined, problems: [] };
  problems.push(...siteProblems);
  const overLimits = site
    ? outputLimitProblems(site, content.devices, (name) => listLocation(content.site!, name))
    : [];
  if (overLimits.length > 0) return { problems: sortProblems([...problems, ...overLimits]) };
  return { site, problems: site ? problems : sortProblems(problems) };
}

/** The manifests of each device folder, devices in output order (every device, even one without a readable manifest). */
export function groupByDevice(content: Content): { device: string; manifests: ManifestFile[] }[] {
  const groups = new Map<string, ManifestFile[]>(content.devices.map((d) => [d, []]));
  for (const manifest of content.manifests) groups.get(manifest.device)?.push(manifest);
  return [...groups].map(([device, manifests]) => ({ device, manifests }));
}

/**
 * The manifests to read of each device folder, devices in output order, as {@link groupByDevice}
 * without the bytes; with the folder's other entries as listed (see {@link ContentListing}).
 */
export function filesByDevice(
  listing: ContentListing,
): { device: string; files: ContentListing['files']; others: string[] }[] {
  const groups = new Map<string, ContentListing['files']>(listing.devices.map((d) => [d, []]));
  for (const file of listing.files) groups.get(file.device)?.push(file);
  return [...groups].map(([device, files]) => ({ device, files, others: listing.others.get(device) ?? [] }));
}

/** The problem of two output paths of a device that differ only by case: at the build whose incremental names the answer, else at the first build. */
function caseClashProblem({ path, other }: { path: string; other: string }, builds: readonly Build[]): Problem {
  const name = path
    .split('/')
    .pop()!
    .replace(/\.json$/, '');
  const build =
    builds.find((b) => b.appliesOn?.incremental === name) ?? builds.find((b) => b.incremental === name) ?? builds[0];
  const field = build.appliesOn?.incremental === name ? 'source_incremental' : 'incremental';
  return {
    file: build.source,
    ...(field === 'source_incremental' ? build.appliesOn!.at : build.at.file),
    field,
    message: `the output would hold ${path} beside ${other}, which differ only by case: on a case-insensitive disk (macOS, Windows) they are one file, and phones would get another answer than theirs; an incremental that differs from another path only by case cannot have an answer of its own, so publish the build under another incremental`,
  };
}
