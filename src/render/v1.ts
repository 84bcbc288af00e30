import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';
import { compareStrings, type Problem } from '../catalog/problems.js';

/** A record exactly as a v1 phone reads it, keys in the order of interface.md's Build table. */
export interface ApiRecord {
  incremental: string;
  api_level: string;
  url?: string;
  timestamp: number;
  md5sum: string;
  changes: string;
  channel: string;
  filename: string;
  romtype: string;
  datetime: number;
  version: string;
  pre_version: string;
  display_version: string;
  android_version: string;
  id: string;
  size: number | '';
  is_upgrade_supported: boolean;
}

/** The v1 record of a build as it appears in request list `list` (`romtype` is the list). */
export function renderRecord(build: Build, list: string): ApiRecord {
  // One literal with every key, not a conditional spread of `url`, which V8 builds through its
  // runtime key by key; a placeholder's record then loses the key it has no value for.
  const record: ApiRecord = {
    incremental: build.incremental,
    api_level: build.api_level,
    url: build.url,
    timestamp: build.timestamp,
    md5sum: build.md5sum,
    changes: build.changes,
    channel: build.channel,
    filename: build.filename,
    romtype: list,
    datetime: build.timestamp,
    version: build.version,
    pre_version: build.pre_version,
    display_version: build.display_version,
    android_version: build.android_version,
    id: build.id,
    size: build.size,
    is_upgrade_supported: build.is_upgrade_supported,
  };
  if (build.placeholder) delete record.url;
  return record;
}

/**
 * The JSON bodies of a device's listings: each the envelope of its records, compact as Django REST
 * framework sends it, exactly as {@link renderEnvelope} writes it. A build in several lists has the
 * same record in each but for `romtype`: its JSON before and after that value is made once, and
 * each listing joins the parts.
 */
export function renderListings(listings: readonly Listing[]): string[] {
  const parts = new Map<Build, RecordParts>();
  return listings.map(({ builds, list }) => {
    const romtype = JSON.stringify(list);
    let body = ENVELOPE_START;
    for (let i = 0; i < builds.length; i++) {
      const build = builds[i];
      let record = parts.get(build);
      if (record === undefined) {
        record = recordParts(build);
        parts.set(build, record);
      }
      body += (i > 0 ? ',' : '') + record.before + romtype + record.after;
    }
    return body + ENVELOPE_END;
  });
}

/** `{"id":null,"response":[...],"error":...}`: the envelope of every v1 answer, success or 404. */
export function renderEnvelope(response: readonly ApiRecord[], error: string | null): string {
  return JSON.stringify({ id: null, response, error });
}

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
  const newestOf = (builds: Build[]) => [...builds].sort((a, b) => b.timestamp - a.timestamp || compareStrings(a.filename, b.filename))[0];
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
    const named = [...withdrawn].sort(([a], [b]) => b.timestamp - a.timestamp || compareStrings(a.filename, b.filename)).map(([b, lists]) => `${b.version} (${lists.join(', ')})`);
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
  return notices;
}

/**
 * Release order as numbers: each dot-separated part compared as a whole number, a missing part as 0
 * (so 1.10 > 1.9 and 2.6.3 < 2.10); the order a maintainer means, and the v2 updater's.
 */
export function compareReleaseNumbers(a: string, b: string): number {
  // Part by part, in place: a part is a whole number when it is all ASCII digits, compared without
  // its leading zeros by length and then digit by digit (so at any length), and 0 otherwise.
  for (let i = 0, j = 0; i <= a.length || j <= b.length; ) {
    const aEnd = partEnd(a, i);
    const bEnd = partEnd(b, j);
    const aFrom = numberStart(a, i, aEnd);
    const bFrom = numberStart(b, j, bEnd);
    const aLength = aEnd - aFrom;
    const bLength = bEnd - bFrom;
    if (aLength !== bLength) return aLength < bLength ? -1 : 1;
    for (let k = 0; k < aLength; k++) {
      const d = a.charCodeAt(aFrom + k) - b.charCodeAt(bFrom + k);
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    i = aEnd + 1;
    j = bEnd + 1;
  }
  return 0;
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

/** The JSON of a v1 record up to `romtype`'s value (`{..."romtype":`), and after it (`,"datetime":...}`). */
interface RecordParts {
  before: string;
  after: string;
}

function recordParts(build: Build): RecordParts {
  // The record's own JSON cut at the value of `romtype`: an empty list name is `""`, and
  // nothing before it in a record can hold the text `"romtype":""` unescaped.
  const whole = JSON.stringify(renderRecord(build, ''));
  const at = whole.indexOf(ROMTYPE_EMPTY);
  return { before: whole.slice(0, at + ROMTYPE_EMPTY.length - 2), after: whole.slice(at + ROMTYPE_EMPTY.length) };
}

const ROMTYPE_EMPTY = ',"romtype":""';

/** {@link renderEnvelope}'s text around the records of a successful answer. */
const [ENVELOPE_START, ENVELOPE_END] = renderEnvelope([], null).split('[]').map((part, i) => (i === 0 ? `${part}[` : `]${part}`));

/** A version's place among the device's versions in release order (equal releases share one) and in text order. */
interface VersionPlace {
  release: number;
  text: number;
}

/**
 * The places of every version of a device's lists, for {@link textOrderNotice}: each version is
 * parsed and placed once per device (equal releases, such as 2.10 and 2.10.0, in the same place),
 * not once per list, let alone per pair. The notice only compares places, and places among all the
 * device's versions compare as they would among one list's.
 */
function versionPlaces(listings: readonly Listing[]): Map<string, VersionPlace> {
  const versions = new Set<string>();
  for (const { builds } of listings) for (const build of builds) versions.add(build.version);
  const inOrder = [...versions].sort(compareReleaseNumbers);
  const places = new Map<string, VersionPlace>();
  let release = 0;
  inOrder.forEach((version, i) => {
    if (i > 0 && compareReleaseNumbers(inOrder[i - 1], version) !== 0) release = i;
    places.set(version, { release, text: 0 });
  });
  // And in text order, as v1 phones compare them (no two versions are the same text).
  [...versions].sort().forEach((version, i) => (places.get(version)!.text = i));
  return places;
}

/**
 * One notice for a list where phones compare versions as text and get another order than the
 * numbers': a phone on version A (any build of the list, placeholders too) with a build older than
 * some build of version B misses B when B is a newer release but sorts before A as text, and lists B
 * as an update when it is an older release that sorts after A.
 */
function textOrderNotice(device: string, listing: Listing, places: ReadonlyMap<string, VersionPlace>): Problem | undefined {
  // Per version: its oldest build (the oldest phone on it) and its newest downloadable build.
  const oldest = new Map<string, number>();
  const newest = new Map<string, Build>();
  for (const build of listing.builds) {
    const since = oldest.get(build.version);
    if (since === undefined || build.timestamp < since) oldest.set(build.version, build.timestamp);
    const seen = newest.get(build.version);
    if (!build.placeholder && (seen === undefined || build.timestamp > seen.timestamp)) newest.set(build.version, build);
  }
  const installs = [...oldest].map(([version, since]) => {
    const { release, text } = places.get(version)!;
    return { version, since, release, text };
  });
  const offers = [...newest].map(([version, build]) => {
    const { release, text } = places.get(version)!;
    return { version, build, release, text };
  });
  const { missed, older } = unexpectedPairs(installs, offers);
  if (missed.length === 0 && older.length === 0) return undefined;
  const install = (pair: number) => installs[Math.floor(pair / offers.length)];
  const offer = (pair: number) => offers[pair % offers.length];
  const byRelease = (a: number, b: number) => install(a).release - install(b).release || offer(a).release - offer(b).release;
  // The first pair in release order (missed before older, then as found, as a stable sort has it).
  let first = missed.length > 0 ? missed[0] : older[0];
  for (const pair of [missed, older].flat()) if (byRelease(pair, first) < 0) first = pair;
  const [low, high] = [install(first).version, offer(first).version].sort();
  // Where to point: the newest build of the versions phones miss (or else of the older releases they list).
  let at: Build | undefined;
  for (const pair of missed.length > 0 ? missed : older) {
    const build = offer(pair).build;
    if (at === undefined || build.timestamp > at.timestamp || (build.timestamp === at.timestamp && compareStrings(build.filename, at.filename) < 0)) at = build;
  }
  const say = (pairs: number[], verb: string) => {
    const groups = new Map<string, string[]>();
    for (const pair of pairs.sort(byRelease)) {
      const installed = install(pair).version;
      const offered = groups.get(installed);
      if (offered) offered.push(offer(pair).version);
      else groups.set(installed, [offer(pair).version]);
    }
    return few([...groups].map(([installed, offered]) => `phones on ${installed} ${verb} ${few(offered, 'more', ' or ')}`), 'more versions', '; ');
  };
  const parts = [missed.length > 0 && say(missed, 'are never offered'), older.length > 0 && say(older, 'list the older release')].filter(Boolean);
  return {
    file: at!.source,
    ...at!.at.version,
    field: 'version',
    message: `list \`${listing.list}\` of ${device}: LineageOS v1 updaters compare \`version\` as text, where "${low}" comes before "${high}", so ${parts.join('; and ')}${older.length > 0 ? ' (as an update they cannot install)' : ''}; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating`,
  };
}

/**
 * The pairs of {@link textOrderNotice}: of a phone on `installs[i]` and a build of `offers[j]`
 * newer than it, the ones text order hides (a newer release that sorts before) and the ones it
 * shows as updates (an older release that sorts after). A function of its own, apart from the
 * notice's other work: it is the only part that runs long (up to 2,500 pairs in a list of 50
 * versions), and the whole notice in one function, its sorts, maps and closures inlined, took V8's
 * optimizing compiler 170 ms per thread in a cold build of 10,000 manifests.
 */
function unexpectedPairs(
  installs: readonly { version: string; since: number; release: number; text: number }[],
  offers: readonly { version: string; build: Build; release: number; text: number }[],
): { missed: number[]; older: number[] } {
  // A pair is one number, install * offers.length + offer, in the order found: a list of 50
  // versions has up to 2,500 pairs, and tens of thousands of lists made a gigabyte of pair arrays.
  const missed: number[] = [];
  const older: number[] = [];
  for (let i = 0; i < installs.length; i++) {
    const { version, since, release, text } = installs[i];
    for (let j = 0; j < offers.length; j++) {
      const offer = offers[j];
      if (offer.build.timestamp <= since || offer.version === version) continue;
      if (offer.release >= release && offer.text < text) missed.push(i * offers.length + j);
      else if (offer.release < release && offer.text > text) older.push(i * offers.length + j);
    }
  }
  return { missed, older };
}

/** Adds `list` to the lists of `build` in `lists`. */
function addList(lists: Map<Build, string[]>, build: Build, list: string): void {
  const those = lists.get(build);
  if (those) those.push(list);
  else lists.set(build, [list]);
}

/** Up to four items joined, then how many more there are. */
function few(items: string[], more: string, separator = ', '): string {
  return items.length <= 4 ? items.join(separator) : `${items.slice(0, 4).join(separator)}${separator}${items.length - 4} ${more}`;
}
