/**
 * Incremental packages (`ota_from_target_files -i`): a package that applies only on one source
 * build, named by the phone's own `ro.build.version.incremental`. The LineageOS updater puts that
 * value into its request path (`/api/v1/{device}/{type}/{incr}`), so a static site can answer each
 * source build with its own listing: the full listing, in which the target build's record is the
 * incremental package. Every other phone gets the full listing, which never holds one. Pure.
 */
import type { Build } from './manifest.js';
import type { Listing } from './plan.js';
import { compareStrings, type Problem } from './problems.js';
import { installableOver } from './signing.js';

/** One device's listing for phones on one source build: what `GET /api/v1/<device>/<list>/<incremental>` answers. */
export interface IncrementalListing extends Listing {
  /** The phone's `ro.build.version.incremental` this answer is for. */
  incremental: string;
}

/** The full packages (and placeholders) of a device, and its incremental packages. */
export function splitIncrementals(builds: readonly Build[]): { full: Build[]; incremental: Build[] } {
  const full: Build[] = [];
  const incremental: Build[] = [];
  for (const build of builds) (build.appliesOn ? incremental : full).push(build);
  return { full, incremental };
}

/**
 * The full build each incremental package installs: the device's full package whose `incremental`
 * is the package's (its post-build-incremental). Problems for a package whose target is not
 * published as a full package, whose build time differs from the target's (the package was made
 * for another build of the same name), and for two packages from the same source to the same target.
 * `allRead`: every manifest of the device could be read (else a missing target is not reported).
 */
export function incrementalTargets(full: readonly Build[], incremental: readonly Build[], allRead = true): { targets: Map<Build, Build>; problems: Problem[] } {
  const byIncremental = new Map<string, Build[]>();
  for (const build of full) {
    if (build.placeholder || build.incremental === '') continue;
    const same = byIncremental.get(build.incremental);
    if (same) same.push(build);
    else byIncremental.set(build.incremental, [build]);
  }
  const targets = new Map<Build, Build>();
  const problems: Problem[] = [];
  const seen = new Map<string, Build>();
  for (const pkg of [...incremental].sort((a, b) => compareStrings(a.source, b.source))) {
    const at = (field: string): Omit<Problem, 'message'> => ({ file: pkg.source, ...(field === 'source_incremental' ? pkg.appliesOn!.at : pkg.appliesOn!.installsAt), field });
    const candidates = byIncremental.get(pkg.incremental) ?? [];
    const target = candidates.find((b) => b.timestamp === pkg.timestamp);
    if (!target) {
      // With a manifest of the device unread, the target may be that one: its own problems say enough.
      if (!allRead && candidates.length === 0) continue;
      problems.push({
        ...at('incremental'),
        message: candidates.length === 0
          ? `no full package of ${pkg.device} has incremental ${pkg.incremental}, the build this incremental package installs: phones are offered it in place of that build's full package; add the full package's manifest first (otapress add <its zip>)`
          : `the full package of ${pkg.device} with incremental ${pkg.incremental} (${candidates[0].source}) was built at ${candidates[0].timestamp}, this package at ${pkg.timestamp}: it was made for another build of the same name; check post-timestamp in both zips`,
      });
      continue;
    }
    const key = `${pkg.appliesOn!.incremental}\u0000${target.source}`;
    const earlier = seen.get(key);
    if (earlier) {
      problems.push({ ...at('source_incremental'), message: `${earlier.source} is already the incremental package from ${pkg.appliesOn!.incremental} to ${target.filename}; phones on that build can be offered one: remove one of the two manifests` });
      continue;
    }
    seen.set(key, pkg);
    targets.set(pkg, target);
  }
  return { targets, problems };
}

/**
 * The answers for phones on each source build, per list: the list's builds with each target
 * replaced by the incremental package from that source (its file name, address, size, id and
 * digests; the target's version, build time and the rest stay), less what phones on the source
 * build (its full package among `full`, when published) would never offer (builds not newer than
 * it) or cannot install (signed with a key it does not trust). A list without the target has
 * no answer for that source. Ordered by list, then source incremental.
 */
export function planIncrementalListings(listings: readonly Listing[], targets: ReadonlyMap<Build, Build>, full: readonly Build[] = []): IncrementalListing[] {
  const bySource = new Map<string, Map<Build, Build>>();
  for (const [pkg, target] of targets) {
    let offered = bySource.get(pkg.appliesOn!.incremental);
    if (!offered) bySource.set(pkg.appliesOn!.incremental, (offered = new Map()));
    offered.set(target, pkg);
  }
  const sources = [...bySource.keys()].sort(compareStrings);
  const answers: IncrementalListing[] = [];
  for (const listing of listings) {
    for (const incremental of sources) {
      const offered = bySource.get(incremental)!;
      if (!listing.builds.some((b) => offered.has(b))) continue;
      // What phones on the source build cannot install (signed with a key their build does not
      // trust) is left out of their answer: they would download it and fail.
      const source = full.find((b) => !b.placeholder && b.incremental === incremental);
      // Only what is newer than the source build: a phone on it offers nothing older (its
      // ro.build.date.utc is the source's build time), and an answer per source build with every
      // older record too made the v1 output of a catalog with many incremental packages several
      // times as large.
      const builds = listing.builds.flatMap((b) => {
        if (source && b.timestamp <= source.timestamp) return [];
        const pkg = offered.get(b);
        return installableOver(pkg ?? b, source) ? [pkg ? asOffered(b, pkg) : b] : [];
      });
      answers.push({ device: listing.device, list: listing.list, incremental, builds });
    }
  }
  return answers;
}

// --- internal ---

/** The target's record with the incremental package's download: what a phone on the source build downloads. */
function asOffered(target: Build, pkg: Build): Build {
  const offered: Build = { ...target, filename: pkg.filename, url: pkg.url, size: pkg.size, id: pkg.id, md5sum: pkg.md5sum };
  if (pkg.filepath !== undefined) offered.filepath = pkg.filepath;
  if (pkg.sha1 !== undefined) offered.sha1 = pkg.sha1;
  else delete offered.sha1;
  // The package's own SHA-256 beside its key, never the full build's.
  if (pkg.sha256 !== undefined) offered.sha256 = pkg.sha256;
  else delete offered.sha256;
  return offered;
}
