/**
 * Which builds a device's v2 answer (v2.ts) may list, before any byte is counted: the builds the v2
 * updater can read and download, and a notice for each kind it cannot.
 */
import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import { compareNewestFirst, type Listing } from '../catalog/plan.js';
import { compareStrings, type Problem } from '../catalog/problems.js';

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
    if (!/^[+-]?\d+$/.test(part))
      return `${part === '' ? 'an empty part' : `\`${part}\``} is not a whole number (the updater reads the first two parts as numbers, as in 2.6 or 2.6.3)`;
    if (Math.abs(Number(part)) > JAVA_INT_MAX + (part.startsWith('-') ? 1 : 0))
      return `${part} is larger than the updater can read (at most ${JAVA_INT_MAX})`;
  }
  return undefined;
}

/** A build and list that may go into the v2 answer, and the rank of its list (the lower first at one time). */
export interface V2Candidate {
  build: Build;
  list: string;
  rank: number;
}

/**
 * The entries renderV2 (v2.ts) may write, newest first, and a notice for each kind of build it
 * leaves out before counting bytes: unreadable versions (one notice per build), and withdrawn,
 * size 0 and http builds (one notice per device each, at the newest such build).
 */
export function v2Candidates(
  device: string,
  url: string,
  listings: readonly Listing[],
): { candidates: V2Candidate[]; notices: Problem[] } {
  const notices: Problem[] = [];
  const candidates: V2Candidate[] = [];
  const unreadable = new Map<Build, { why: string; lists: string[] }>();
  const withdrawn = new Set<Build>();
  const sizeless = new Set<Build>();
  const cleartext = new Set<Build>();
  // Why each version cannot be read, once per version: a device's builds share a few dozen versions,
  // and each build is met once per list it is in.
  const whyOf = new Map<string, string | undefined>();
  listings.forEach((listing, rank) => {
    for (const build of listing.builds) {
      if (build.placeholder) continue;
      if (isWithdrawn(build)) withdrawn.add(build);
      else if (build.size === 0) sizeless.add(build);
      else if (!build.url!.startsWith('https://')) cleartext.add(build);
      else {
        let why = whyOf.get(build.version);
        if (why === undefined && !whyOf.has(build.version))
          whyOf.set(build.version, (why = unreadableV2Version(build.version)));
        if (why !== undefined)
          unreadable.set(build, { why, lists: [...(unreadable.get(build)?.lists ?? []), listing.list] });
        else candidates.push({ build, list: listing.list, rank });
      }
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
  // One notice per device for each of these, at the newest build: a long history would otherwise
  // print a line for every old build on every run.
  if (withdrawn.size > 0) {
    const [newest, ...older] = [...withdrawn].sort(compareNewestFirst);
    notices.push({
      file: newest.source,
      ...newest.at.filename,
      field: 'filename',
      message: `left out of ${url}${andOlder(older.length, `withdrawn ${device}`, '')}: a \`.disabled.zip\` file is withdrawn, and a v2 entry cannot say so (phones would offer ${older.length > 0 ? 'them' : 'it'} for install); v1 still lists ${older.length > 0 ? 'them' : 'it'}, marked by the name`,
    });
  }
  if (sizeless.size > 0) {
    const [newest, ...older] = [...sizeless].sort(compareNewestFirst);
    notices.push({
      file: newest.source,
      ...newest.at.size,
      field: 'size',
      message: `left out of ${url}${andOlder(older.length, device, ' of size 0')}: v2 phones check the download against \`size\` and some refuse a size that is not positive; write the zip's size in bytes (stat -c %s FILE) to offer ${older.length > 0 ? 'them' : 'it'}; v1 still lists ${older.length > 0 ? 'them' : 'it'}`,
    });
  }
  if (cleartext.size > 0) {
    const [newest, ...older] = [...cleartext].sort(compareNewestFirst);
    notices.push({
      file: newest.source,
      ...(newest.at.url ?? newest.at.file),
      field: 'url',
      message: `left out of ${url}${andOlder(older.length, device, ' downloaded over http')}: the download address ${newest.url} is not https, and the v2 updater offers it, then fails the download (the app permits no cleartext traffic); serve ${older.length > 0 ? 'them' : 'it'} over https (\`url\`, or download_base_url in content/site.yaml); v1 still lists ${older.length > 0 ? 'them' : 'it'}`,
    });
  }
  candidates.sort(
    (a, b) =>
      b.build.timestamp - a.build.timestamp || a.rank - b.rank || compareStrings(a.build.filename, b.build.filename),
  );

  return { candidates, notices };
}

// --- internal ---

/** The largest number Java's `Integer.parseInt` reads; the v2 updater parses versions with it. */
const JAVA_INT_MAX = 2 ** 31 - 1;

/** ` with N older <kind> build(s)<suffix>`, or nothing when there are none. */
function andOlder(count: number, kind: string, suffix: string): string {
  return count === 0 ? '' : ` with ${count} older ${kind} build${count === 1 ? '' : 's'}${suffix}`;
}
