/**
 * Incremental packages (`ota_from_target_files -i`): a package that applies only on one source
 * build, named by the phone's own `ro.build.version.incremental`. The LineageOS updater puts that
 * value into its request path (`/api/v1/{device}/{type}/{incr}`), so a static site can answer each
 * source build with its own listing: the full listing, in which the target build's record is the
 * incremental package; so does the v2 one (23.2+) when the ROM's URI has `{incr}`. Every other phone
 * gets the full listing, which never holds one. Pure.
 */
import { isWithdrawn } from './filename.js';
import type { Build } from './manifest.js';
import { SOURCE_INCREMENTAL } from './field-values.js';
import type { Listing } from './plan.js';
import { compareStrings, type Problem } from './problems.js';
import { installableOver } from './signing.js';

/**
 * One device's listing for phones on one source build: what `GET /api/v1/<device>/<list>/<incremental>`
 * answers, and, with the device's other lists, `GET /api/v2/devices/<device>/builds/<incremental>`.
 */
export interface IncrementalListing extends Listing {
  /** The phone's `ro.build.version.incremental` this answer is for. */
  incremental: string;
  /**
   * The builds of its v2 answer: `builds`, except that an incremental package v2 leaves out (kept in
   * v1 withdrawn or of size 0 by `v1_withdrawn: list`, or not downloaded over https:
   * render/v2-candidates.ts) is its target's full package, so v2 phones on the source still get the build.
   */
  v2Builds: Build[];
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
export function incrementalTargets(
  full: readonly Build[],
  incremental: readonly Build[],
  allRead = true,
): { targets: Map<Build, Build>; problems: Problem[] } {
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
    const at = (field: string): Omit<Problem, 'message'> => ({
      file: pkg.source,
      ...(field === 'source_incremental' ? pkg.appliesOn!.at : pkg.appliesOn!.installsAt),
      field,
    });
    const candidates = byIncremental.get(pkg.incremental) ?? [];
    const target = candidates.find((b) => b.timestamp === pkg.timestamp);
    if (!target) {
      // With a manifest of the device unread, the target may be that one: its own problems say enough.
      if (!allRead && candidates.length === 0) continue;
      problems.push({
        ...at('incremental'),
        message:
          candidates.length === 0
            ? `no full package of ${pkg.device} has incremental ${pkg.incremental}, the build this incremental package installs: phones are offered it in place of that build's full package; add the full package's manifest first (otapress add <its zip>)`
            : `the full package of ${pkg.device} with incremental ${pkg.incremental} (${candidates[0].source}) was built at ${candidates[0].timestamp}, this package at ${pkg.timestamp}: it was made for another build of the same name; check post-timestamp in both zips`,
      });
      continue;
    }
    const key = `${pkg.appliesOn!.incremental}\u0000${target.source}`;
    const earlier = seen.get(key);
    if (earlier) {
      problems.push({
        ...at('source_incremental'),
        message: `${earlier.source} is already the incremental package from ${pkg.appliesOn!.incremental} to ${target.filename}; phones on that build can be offered one: remove one of the two manifests`,
      });
      continue;
    }
    seen.set(key, pkg);
    targets.set(pkg, target);
  }
  return { targets, problems };
}

/**
 * The answers for phones on one build, per list, and the notices about the incremental packages
 * they leave out. A build has an answer in a list when it is the source of an incremental package
 * whose target the list holds, or when a newer build of the list is signed with a key it does not
 * trust (a key change): its phones must not be offered what they cannot install.
 *
 * An answer is the list's builds newer than the phone's (a phone on it offers nothing older: its
 * ro.build.date.utc is the source's build time, and an answer with every older record too made the
 * v1 output of a catalog with many incremental packages several times as large), each target
 * replaced by the incremental package from that build (its file name, address, size, id and
 * digests; the target's version, build time and the rest stay), less what the phone's build cannot
 * install. An incremental package follows a full build's rules: with `v1_withdrawn: omit` a
 * withdrawn (`.disabled.zip`) or size-0 one is in no answer, and one is only in the lists it names;
 * one the source build does not trust is left out. Each left-out package gets a notice and its
 * source's phones the target's full package. Ordered by list, then incremental. `published`: the
 * packages not left out for their withdrawal, size or lists, with their targets.
 */
export function planIncrementalListings(
  listings: readonly Listing[],
  targets: ReadonlyMap<Build, Build>,
  full: readonly Build[] = [],
  withdrawn: 'list' | 'omit' = 'omit',
): { answers: IncrementalListing[]; notices: Problem[]; published: Map<Build, Build> } {
  const notices: Problem[] = [];
  const published = new Map<Build, Build>();
  for (const [pkg, target] of [...targets].sort(([a], [b]) => compareStrings(a.source, b.source))) {
    const leftOut = withdrawn === 'omit' && (isWithdrawn(pkg) || pkg.size === 0);
    if (leftOut || pkg.lists.length === 0) {
      const why = leftOut
        ? isWithdrawn(pkg)
          ? 'it is withdrawn (`.disabled.zip`)'
          : 'its size is 0'
        : 'its `lists` is empty';
      notices.push({
        file: pkg.source,
        ...(leftOut ? (isWithdrawn(pkg) ? pkg.at.filename : pkg.at.size) : pkg.at.file),
        field: leftOut ? (isWithdrawn(pkg) ? 'filename' : 'size') : 'lists',
        message: `${why}: left out of every answer, so phones on ${pkg.appliesOn!.incremental} are offered the full package ${target.filename}`,
      });
      continue;
    }
    if (isWithdrawn(pkg) || pkg.size === 0) {
      // As a full build with `v1_withdrawn: list`: kept, and said, since v1 phones offer it all the same.
      notices.push({
        file: pkg.source,
        ...(isWithdrawn(pkg) ? pkg.at.filename : pkg.at.size),
        field: isWithdrawn(pkg) ? 'filename' : 'size',
        message: `${isWithdrawn(pkg) ? 'it is withdrawn (`.disabled.zip`)' : 'its size is 0'}, and \`v1_withdrawn: list\` keeps it in the answer for phones on ${pkg.appliesOn!.incremental}, which LineageOS v1 updaters offer for install; \`v1_withdrawn: omit\` in content/site.yaml leaves it out, and offers them ${target.filename}`,
      });
    }
    published.set(pkg, target);
  }
  const answers: IncrementalListing[] = [];
  const untrusted = new Set<Build>();
  const fullByIncremental = new Map<string, Build>();
  for (const b of full)
    if (!b.placeholder && !fullByIncremental.has(b.incremental)) fullByIncremental.set(b.incremental, b);
  for (const listing of listings) {
    // What each source build's phones are offered in place of a target, in this list.
    const bySource = new Map<string, Map<Build, Build>>();
    const inList = published.size > 0 ? new Set(listing.builds) : undefined;
    for (const [pkg, target] of published) {
      if (!pkg.lists.includes(listing.list) || !inList!.has(target)) continue;
      let offered = bySource.get(pkg.appliesOn!.incremental);
      if (!offered) bySource.set(pkg.appliesOn!.incremental, (offered = new Map()));
      offered.set(target, pkg);
    }
    const before = beforeKeyChanges(listing.builds);
    for (const build of before.slice(0, MAX_KEY_CHANGE_ANSWERS))
      if (!bySource.has(build.incremental)) bySource.set(build.incremental, new Map());
    const unanswered = before.slice(MAX_KEY_CHANGE_ANSWERS).filter((b) => !bySource.has(b.incremental));
    if (unanswered.length > 0) {
      const newest = unanswered[0];
      notices.push({
        file: newest.source,
        ...newest.at.file,
        field: 'otacert',
        message: `${unanswered.length} builds of list ${listing.list} of ${listing.device} (${newest.filename} the newest) come before a key change and have no answer of their own: the ${MAX_KEY_CHANGE_ANSWERS} newer ones have, since each answer is a file and, on Cloudflare and Netlify, a rule; phones on these get the listing, with builds they cannot install; remove the manifests of builds no phone still runs`,
      });
    }
    if (bySource.size === 0) continue;
    const listed = new Map<string, Build>();
    for (const b of listing.builds) if (!b.placeholder && !listed.has(b.incremental)) listed.set(b.incremental, b);
    for (const incremental of [...bySource.keys()].sort(compareStrings)) {
      const offered = bySource.get(incremental)!;
      const source = listed.get(incremental) ?? fullByIncremental.get(incremental);
      const builds: Build[] = [];
      const v2Builds: Build[] = [];
      for (const b of listing.builds) {
        if (source && b.timestamp <= source.timestamp) continue;
        const pkg = offered.get(b);
        if (pkg && installableOver(pkg, source)) {
          builds.push(asOffered(b, pkg));
          v2Builds.push(notInV2(pkg) ? b : builds[builds.length - 1]);
          continue;
        }
        if (pkg) untrusted.add(pkg);
        if (installableOver(b, source)) {
          builds.push(b);
          v2Builds.push(b);
        }
      }
      answers.push({ device: listing.device, list: listing.list, incremental, builds, v2Builds });
    }
  }
  for (const pkg of untrusted) {
    const source = fullByIncremental.get(pkg.appliesOn!.incremental);
    notices.push({
      file: pkg.source,
      ...pkg.at.file,
      field: 'signer',
      message: `signed with a key ${source?.filename ?? pkg.appliesOn!.incremental} does not trust (its otacert): left out of the answer for phones on ${pkg.appliesOn!.incremental}, which are offered the full package ${published.get(pkg)!.filename} where they can install it; sign the incremental package with the key its source trusts`,
    });
  }
  return { answers, notices, published };
}

// --- internal ---

/**
 * The builds of a list before a key change that get an answer of their own, newest first. Each
 * answer holds the builds between its build and the key change, so a list with a long history
 * before one would make as many files and rules, of quadratic size in all (a list of 10,000 builds
 * with a key change at its 9,001st: 9,001 answers of 40 million records, 34 s); phones mostly run
 * recent builds.
 */
const MAX_KEY_CHANGE_ANSWERS = 100;

/**
 * The builds of a list whose phones cannot install a newer build of it (its signer is not in their
 * otacert), and whose incremental a phone can ask with: newest first, with the signers of the
 * builds newer than each (few: one per key).
 */
function beforeKeyChanges(builds: readonly Build[]): Build[] {
  // Most catalogs record no otacert: nothing to sort.
  if (!builds.some((b) => b.otacert !== undefined)) return [];
  const packaged = builds.filter((b) => !b.placeholder).sort((a, b) => b.timestamp - a.timestamp);
  const out: Build[] = [];
  const newerSigners = new Set<string>();
  for (let i = 0; i < packaged.length;) {
    // Builds of one build time are not newer than each other.
    let j = i;
    while (j < packaged.length && packaged[j].timestamp === packaged[i].timestamp) j++;
    for (let k = i; k < j; k++) {
      const { otacert, incremental } = packaged[k];
      if (otacert && [...newerSigners].some((s) => !otacert.includes(s)) && SOURCE_INCREMENTAL.test(incremental))
        out.push(packaged[k]);
    }
    for (let k = i; k < j; k++) if (packaged[k].signer !== undefined) newerSigners.add(packaged[k].signer!);
    i = j;
  }
  return out;
}

/** Would the v2 answer leave the package out (render/v2-candidates.ts): withdrawn, of size 0 or not over https. */
function notInV2(pkg: Build): boolean {
  return isWithdrawn(pkg) || pkg.size === 0 || !pkg.url!.startsWith('https://');
}

/** The target's record with the incremental package's download: what a phone on the source build downloads. */
function asOffered(target: Build, pkg: Build): Build {
  const offered: Build = {
    ...target,
    filename: pkg.filename,
    url: pkg.url,
    size: pkg.size,
    id: pkg.id,
    md5sum: pkg.md5sum,
  };
  if (pkg.filepath !== undefined) offered.filepath = pkg.filepath;
  if (pkg.sha1 !== undefined) offered.sha1 = pkg.sha1;
  else delete offered.sha1;
  // The package's own SHA-256 beside its key, never the full build's.
  if (pkg.sha256 !== undefined) offered.sha256 = pkg.sha256;
  else delete offered.sha256;
  // A/B phones stream `files[0]` of a v2 entry by these offsets: the package's own, or none (the
  // whole zip), never the full build's, which point elsewhere in another file.
  if (pkg.ota_property_files !== undefined) offered.ota_property_files = pkg.ota_property_files;
  else delete offered.ota_property_files;
  return offered;
}
