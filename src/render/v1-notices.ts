import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import { compareNewestFirst, type Listing } from '../catalog/plan.js';
import { compareStrings, type Problem } from '../catalog/problems.js';

// The notices about a device's v1 listings (v1.ts renders them): what LineageOS v1 phones will do
// with them that a maintainer may not expect. A notice never changes a listing.

/**
 * What LineageOS v1 phones will do with the device's listings that the maintainer may not expect, as
 * notices (one per device or list, never per build, so a long history stays quiet): withdrawn
 * builds offered for install, release numbers phones compare as text, and http downloads.
 *
 * Read from LineageOS/android_packages_apps_Updater at lineage-22.0 (commit
 * 3cb130d40a24e337d2bd11f33bf1ff091c48ab53): `Utils.isCompatible` lists a record only when
 * `version.compareTo(installed) >= 0` (Java's `String.compareTo`: text, so "1.10" < "1.9"), its
 * `datetime` is newer than the phone's build and `romtype` equals its release type ignoring case;
 * `Utils.canInstall` offers it for install when its version equals the installed one; nothing reads
 * `.disabled` in the file name; `AndroidManifest.xml` sets `usesCleartextTraffic="false"`.
 */
export function v1Notices(device: string, listings: readonly Listing[]): Problem[] {
  const notices: Problem[] = [];
  const newestOf = (builds: Build[]) => [...builds].sort(compareNewestFirst)[0];
  // The withdrawn and the cleartext packages, each with the lists it is in (in list order), in one
  // pass over the lists.
  const withdrawn = new Map<Build, string[]>();
  const cleartext = new Map<Build, string[]>();
  for (const { list, builds } of listings) {
    for (const build of builds) {
      if (build.placeholder) continue;
      if (isWithdrawn(build)) addList(withdrawn, build, list);
      if (!build.url!.startsWith('https://')) addList(cleartext, build, list);
    }
  }

  if (withdrawn.size > 0) {
    const newest = newestOf([...withdrawn.keys()]);
    const named = [...withdrawn]
      .sort(([a], [b]) => compareNewestFirst(a, b))
      .map(([b, lists]) => `${b.version} (${lists.join(', ')})`);
    notices.push({
      file: newest.source,
      ...newest.at.filename,
      field: 'filename',
      message: `the v1 lists of ${device} hold withdrawn builds, and LineageOS v1 updaters cannot tell a \`.disabled.zip\` file is withdrawn: they offer it for install to phones on its version, with an older build, of the release types that list it: ${few(named, 'more')}; for sites whose phones run the LineageOS updater, \`v1_withdrawn: omit\` in content/site.yaml leaves withdrawn builds out of v1`,
    });
  }

  const places = versionPlaces(listings);
  for (const listing of listings) {
    const notice = textOrderNotice(device, listing, places);
    if (notice) notices.push(notice);
  }

  if (cleartext.size > 0) {
    const newest = newestOf([...cleartext.keys()]);
    const more = cleartext.size - 1;
    notices.push({
      file: newest.source,
      ...(newest.at.url ?? newest.at.file),
      field: 'url',
      message: `the v1 lists of ${device} offer ${cleartext.size === 1 ? 'a build' : `${cleartext.size} builds`} downloaded over http (${newest.url}${more > 0 ? ` and ${more} more` : ''}): LineageOS updaters permit no cleartext traffic, so phones list ${more > 0 ? 'them' : 'it'} and fail the download; serve ${more > 0 ? 'them' : 'it'} over https (\`url\`, or download_base_url in content/site.yaml)`,
    });
  }

  // One notice per device: nothing stated or implied the Android version of these builds.
  const unknownAndroid = [...new Set(listings.flatMap((l) => l.builds))].filter((b) => b.android_version === '');
  if (unknownAndroid.length > 0) {
    const newest = newestOf(unknownAndroid);
    const more = unknownAndroid.length - 1;
    notices.push({
      file: newest.source,
      ...newest.at.file,
      field: 'android_version',
      message: `${more > 0 ? `${unknownAndroid.length} builds of ${device} (the newest here) have` : 'this build has'} no Android version: the manifest states none, and neither the file name nor api_level implies one; no updater needs it to offer a build, so every answer publishes ${more > 0 ? 'them' : 'it'}: v1 with \`android_version\` and \`api_level\` "" (the /e/ updater shows them blank), sorted after the builds of a known version, v2 without \`os_sdk_level\`; add \`android_version: "NN"\` to show it`,
    });
  }
  return notices;
}

/**
 * A text that sorts (as text) in release order, the order a maintainer means and the v2 updater's:
 * each dot-separated part compared as a whole number, a missing part as 0 (so 1.10 > 1.9 and 2.6.3
 * < 2.10); equal for equal releases (2.10 and 2.10.0). It holds each part's value (its digits
 * without leading zeros, at any length; none for a part that is not all ASCII digits, which counts
 * as 0) after its length in two characters, without the trailing parts that are 0: a shorter
 * number sorts first by its length, numbers of one length by their digits, and a version whose
 * parts run out first is the smaller, as its missing parts are 0.
 */
export function releaseKey(version: string): string {
  let key = '';
  let kept = 0;
  for (let from = 0; from <= version.length;) {
    const end = partEnd(version, from);
    const start = numberStart(version, from, end);
    key += String.fromCharCode((end - start) >>> 16, (end - start) & 0xffff) + version.slice(start, end);
    if (end > start) kept = key.length;
    from = end + 1;
  }
  return key.slice(0, kept);
}

// --- internal ---

/** Where the dot-separated part of `version` at `from` ends (`from` itself past the end: a missing part). */
function partEnd(version: string, from: number): number {
  if (from >= version.length) return from;
  const dot = version.indexOf('.', from);
  return dot === -1 ? version.length : dot;
}

/**
 * Where the significant digits of the part `[from, end)` start: after its leading zeros when it is
 * all ASCII digits; `end` (no digits: 0) when it is not a number.
 */
function numberStart(version: string, from: number, end: number): number {
  let start = -1;
  for (let k = from; k < end; k++) {
    const c = version.charCodeAt(k);
    if (c < 0x30 || c > 0x39) return end;
    if (start === -1 && c !== 0x30) start = k;
  }
  return start === -1 ? end : start;
}

/**
 * The device's versions, each once, in text order (`versions[text]`), with each one's place in
 * release order (`release[text]`: equal releases, such as 2.10 and 2.10.0, share the place of the
 * first of them); `text` is a version's place in text order, as v1 phones compare them (no two
 * versions are the same text). Made once per device for {@link textOrderNotice}, which only
 * compares places: places among all the device's versions compare as they would among one list's.
 */
interface VersionPlaces {
  text: Map<string, number>;
  versions: string[];
  release: Int32Array;
}

function versionPlaces(listings: readonly Listing[]): VersionPlaces {
  const seen = new Set<string>();
  for (const { builds } of listings) for (const build of builds) seen.add(build.version);
  const versions = [...seen].sort();
  const text = new Map<string, number>();
  for (let i = 0; i < versions.length; i++) text.set(versions[i], i);
  // Release order by each version's key (releaseKey), in the order the versions were met when
  // keys are equal (a comparison that parsed both versions of each pair took 0.3 ms a device of
  // 200 builds).
  const inOrder = [...seen].map((version) => ({ version, key: releaseKey(version) }));
  inOrder.sort((a, b) => compareStrings(a.key, b.key));
  const release = new Int32Array(versions.length);
  let place = 0;
  for (let i = 0; i < inOrder.length; i++) {
    if (i > 0 && inOrder[i - 1].key !== inOrder[i].key) place = i;
    release[text.get(inOrder[i].version)!] = place;
  }
  return { text, versions, release };
}

/**
 * One notice for a list where phones compare versions as text and get another order than the
 * numbers': a phone on version A (any build of the list, placeholders too) with a build older than
 * some build of version B misses B when B is a newer release but sorts before A as text, and lists B
 * as an update when it is an older release that sorts after A.
 *
 * The pairs (a phone's version, a build it misses or wrongly lists) are found per version, in the
 * order the list meets them, against the versions offered in release order, so that each phone
 * version's pairs come out in the order the message names them; only the phone versions are then
 * sorted. Collecting every pair and sorting them all (up to 2,500 in a list of 50 versions), with
 * maps of objects per version, took 1.3 ms a device of 200 builds, 6 % of a cold 100k build.
 */
function textOrderNotice(device: string, listing: Listing, places: VersionPlaces): Problem | undefined {
  const { release, versions } = places;
  // Per version (by text place): its oldest build (the oldest phone on it) and its newest
  // downloadable build, and the versions in the order the list first has them.
  const since = new Float64Array(versions.length);
  const newest: (Build | undefined)[] = new Array(versions.length).fill(undefined);
  const met = new Uint8Array(versions.length);
  const installs: number[] = [];
  const offered: number[] = [];
  for (const build of listing.builds) {
    const text = places.text.get(build.version)!;
    if (met[text] === 0) {
      met[text] = 1;
      installs.push(text);
      since[text] = build.timestamp;
    } else if (build.timestamp < since[text]) since[text] = build.timestamp;
    if (build.placeholder) continue;
    const seen = newest[text];
    if (seen === undefined) {
      newest[text] = build;
      offered.push(text);
    } else if (build.timestamp > seen.timestamp) newest[text] = build;
  }
  // The offered versions by release, then in the order the list has them.
  const order = offered.map((_, n) => n).sort((a, b) => release[offered[a]] - release[offered[b]] || a - b);
  const offers: Offers = {
    text: new Int32Array(order.length),
    release: new Int32Array(order.length),
    time: new Float64Array(order.length),
    order: new Int32Array(order),
  };
  for (let n = 0; n < order.length; n++) {
    const text = offered[order[n]];
    offers.text[n] = text;
    offers.release[n] = release[text];
    offers.time[n] = newest[text]!.timestamp;
  }
  const { missed, older, firstMissed, firstOlder } = phonePairs(installs, offers, since, release);
  if (missed.length === 0 && older.length === 0) return undefined;
  // The first pair in release order (missed before older): the first of each kind's first version.
  const first =
    missed.length === 0 || (older.length > 0 && compareFirstPairs(older[0], missed[0], release) < 0)
      ? older[0]
      : missed[0];
  const [low, high] = [versions[first.install], versions[first.offers[0]]].sort();
  // Where to point: the newest build of the versions phones miss (or else of the older releases
  // they list); of two with the same time and name, the one whose first pair comes first (by phone
  // version, then offered version, in the list's order).
  const firsts = missed.length > 0 ? firstMissed : firstOlder;
  let at: Build | undefined;
  let atFound = 0;
  for (let n = 0; n < firsts.length; n++) {
    if (firsts[n] < 0) continue;
    const build = newest[offers.text[n]]!;
    const found = firsts[n] * firsts.length + offers.order[n];
    const name = at === undefined ? 0 : compareStrings(build.filename, at.filename);
    if (
      at === undefined ||
      build.timestamp > at.timestamp ||
      (build.timestamp === at.timestamp && (name < 0 || (name === 0 && found < atFound)))
    ) {
      at = build;
      atFound = found;
    }
  }
  const say = (pairs: PhonePairs[], verb: string) =>
    few(
      pairs.map(
        ({ install, offers: those }) =>
          `phones on ${versions[install]} ${verb} ${few(
            those.map((text) => versions[text]),
            'more',
            ' or ',
          )}`,
      ),
      'more versions',
      '; ',
    );
  const parts = [
    missed.length > 0 && say(missed, 'are never offered'),
    older.length > 0 && say(older, 'list the older release'),
  ].filter(Boolean);
  return {
    file: at!.source,
    ...at!.at.version,
    field: 'version',
    message: `list \`${listing.list}\` of ${device}: LineageOS v1 updaters compare \`version\` as text, where "${low}" comes before "${high}", so ${parts.join('; and ')}${older.length > 0 ? ' (as an update they cannot install)' : ''}; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating`,
  };
}

/** The versions a list offers (their newest downloadable builds), in release order, then in the list's order. */
interface Offers {
  /** Each one's text place (see VersionPlaces). */
  text: Int32Array;
  release: Int32Array;
  /** The `timestamp` of its newest downloadable build. */
  time: Float64Array;
  /** Its place in the list's order of offered versions. */
  order: Int32Array;
}

/** A phone version (by text place) and the versions of its pairs of one kind, in release order. */
interface PhonePairs {
  install: number;
  offers: number[];
}

/**
 * The pairs of {@link textOrderNotice}, by phone version: of a phone on each version of `installs`
 * and the newest build of each version of `offers` newer than the phone's build, the ones
 * text order hides (`missed`: a newer or equal release that sorts before) and the ones it shows as
 * updates (`older`: an older release that sorts after). The phone versions of each kind come in
 * release order, then by the release of their first pair, then in the order the list has them: the
 * order of their first pairs had every pair been sorted by the releases of both versions.
 * `firstMissed` and `firstOlder` say, per offered version, the place in `installs` of the first
 * phone version it pairs with in that kind (-1: none).
 */
function phonePairs(
  installs: readonly number[],
  offers: Offers,
  since: Float64Array,
  release: Int32Array,
): { missed: PhonePairs[]; older: PhonePairs[]; firstMissed: Int32Array; firstOlder: Int32Array } {
  const missed: PhonePairs[] = [];
  const older: PhonePairs[] = [];
  const { text, release: offered, time } = offers;
  const firstMissed = new Int32Array(text.length).fill(-1);
  const firstOlder = new Int32Array(text.length).fill(-1);
  for (let i = 0; i < installs.length; i++) {
    const install = installs[i];
    const phone = since[install];
    const placed = release[install];
    let hidden: number[] | undefined;
    let listed: number[] | undefined;
    for (let n = 0; n < text.length; n++) {
      if (time[n] <= phone || text[n] === install) continue;
      if (offered[n] >= placed) {
        if (text[n] < install) {
          (hidden ??= []).push(text[n]);
          if (firstMissed[n] < 0) firstMissed[n] = i;
        }
      } else if (text[n] > install) {
        (listed ??= []).push(text[n]);
        if (firstOlder[n] < 0) firstOlder[n] = i;
      }
    }
    if (hidden) missed.push({ install, offers: hidden });
    if (listed) older.push({ install, offers: listed });
  }
  const byRelease = (a: PhonePairs, b: PhonePairs) => compareFirstPairs(a, b, release);
  return { missed: missed.sort(byRelease), older: older.sort(byRelease), firstMissed, firstOlder };
}

/** The order of the first pairs of `a` and `b` by release: the phone versions', then the offered ones'. */
function compareFirstPairs(a: PhonePairs, b: PhonePairs, release: Int32Array): number {
  return release[a.install] - release[b.install] || release[a.offers[0]] - release[b.offers[0]];
}

/** Adds `list` to the lists of `build` in `lists`. */
function addList(lists: Map<Build, string[]>, build: Build, list: string): void {
  const those = lists.get(build);
  if (those) those.push(list);
  else lists.set(build, [list]);
}

/** Up to four items joined, then how many more there are. */
function few(items: string[], more: string, separator = ', '): string {
  return items.length <= 4
    ? items.join(separator)
    : `${items.slice(0, 4).join(separator)}${separator}${items.length - 4} ${more}`;
}
