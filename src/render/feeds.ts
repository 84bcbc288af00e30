import { createHash } from 'node:crypto';
import type { DeviceInfo } from '../catalog/device.js';
import { isWithdrawn } from '../catalog/filename.js';
import { idIsSha256, sha256Of } from '../catalog/download-key.js';
import { deviceLabel } from './device-facts.js';
import type { Build } from '../catalog/manifest.js';
import { writtenAsIs } from './as-is.js';
import { asIs, escapeMarkup as x, humanSize, isoTime, readableTime } from './markup.js';
import { compareNewestFirst, type Listing } from '../catalog/plan.js';
import type { Site } from '../catalog/site.js';
import { anchorTail } from './pages.js';
import { changelogForAtom, hasChangelog } from './changelog.js';
import { fileOf, linksOf, URLS, type Links } from './urls.js';
import type { OutputFile } from './output.js';

/** How many of the newest builds a feed carries; readers only need what is new. */
export const FEED_ENTRIES = 50;

/**
 * One Atom feed per device and list, newest build first, so people and bots can follow releases.
 * Placeholders are left out: they have no package and no id, and the build that replaces one
 * appears as a new entry. A withdrawn (`.disabled.zip`) build keeps its entry, marked, without the
 * download enclosure. Nothing depends on the clock: `updated` is the newest build time. With the
 * device's device.yaml (`info`), the title names the device, its maintainers are the authors and
 * its info link is a related link.
 */
export function renderFeeds(listings: readonly Listing[], site: Site, info?: DeviceInfo): OutputFile[] {
  // An empty list's feed is as new as the device's newest build, so `updated` never needs a clock.
  const deviceUpdated = new Map<string, number>();
  for (const listing of listings) {
    for (const build of listing.builds)
      deviceUpdated.set(listing.device, Math.max(deviceUpdated.get(listing.device) ?? 0, build.timestamp));
  }
  // A build in several lists has the same entry in each feed but for its link: made once.
  const entryParts = new Map<Build, EntryParts>();
  // Feed readers resolve a root-relative link against the feed's address: under the site's base path.
  const links = linksOf(site);
  return listings.map((listing) => ({
    path: fileOf(URLS.feed(listing.device, listing.list)),
    contents: renderFeed(listing, site, deviceUpdated.get(listing.device) ?? 0, info, entryParts, links),
  }));
}

/** The Atom document of one list; `updatedIfEmpty` dates a feed without entries. */
function renderFeed(
  listing: Listing,
  site: Site,
  updatedIfEmpty: number,
  info: DeviceInfo | undefined,
  entryParts: Map<Build, EntryParts>,
  links: Links,
): string {
  const { device, list } = listing;
  const entries = listing.builds
    .filter((b) => !b.placeholder)
    .sort(compareNewestFirst)
    .slice(0, FEED_ENTRIES);
  const updated = entries.length > 0 ? entries[0].timestamp : updatedIfEmpty;
  // The list's name in the anchors of the entries' links, escaped once.
  const anchorList = x(list);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${feedId(site, device, list)}</id>`,
    `  <title>${x(deviceLabel(device, info))} ${x(list)} builds</title>`,
    `  <subtitle>New builds in the ${x(list)} list of ${x(deviceLabel(device, info))}</subtitle>`,
    `  <updated>${isoTime(updated)}</updated>`,
    ...(info && info.maintainers.length > 0
      ? info.maintainers.map(
          (m) => `  <author><name>${x(m.name)}</name>${m.url ? `<uri>${x(m.url)}</uri>` : ''}</author>`,
        )
      : [`  <author><name>${x(new URL(site.downloadBaseUrl).host)}</name></author>`]),
    `  <link rel="self" type="application/atom+xml" href="${x(links.feed(device, list))}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(links.devicePage(device))}#${x(list)}"/>`,
    ...(info?.links.info ? [`  <link rel="related" type="text/html" href="${x(info.links.info)}"/>`] : []),
    '  <generator>otapress</generator>',
    ...entries.map((build) => renderEntry(build, anchorList, entryParts, links)),
    '</feed>',
    '',
  ];
  return lines.join('\n');
}

/**
 * The entry id of a build: its SHA-256 as a Named Information URI (RFC 6920), so it stays the
 * same across rebuilds and is the same entry in every list that carries the build.
 */
function entryId(build: Build): string {
  // A download key that is not a SHA-256 (an imported listing's) is named instead, stable all the same.
  // Named by the key, not by a `sha256` the manifest adds beside it later: the entry stays the same one for feed readers.
  if (!idIsSha256(build)) return uuidV5(`otapress-build/${build.device}/${build.id}`);
  return `ni:///sha-256;${Buffer.from(build.id, 'hex').toString('base64url')}`;
}

// --- internal ---

/**
 * An entry's text before the list's name in the anchor of its link to the device page, and after
 * it (the rest of the anchor, see anchorTail): the same in every list.
 */
interface EntryParts {
  before: string;
  after: string;
}

/** The lines of a build's entry in the feed of a list, joined; `list` is the list's name escaped. */
function renderEntry(build: Build, list: string, entryParts: Map<Build, EntryParts>, links: Links): string {
  let parts = entryParts.get(build);
  if (parts === undefined) {
    parts = entryPartsOf(build, links);
    entryParts.set(build, parts);
  }
  return parts.before + list + parts.after;
}

function entryPartsOf(build: Build, links: Links): EntryParts {
  // The build's values as they are, when none of them holds a character to escape (as-is.ts).
  const e = writtenAsIs(build) ? asIs : x;
  const withdrawn = isWithdrawn(build);
  const time = isoTime(build.timestamp);
  // Escaped part by part (escaping is character by character, so the parts' escapes are the
  // whole's): the times, sizes and a SHA-256 have no character to escape, and are not scanned.
  // Plain concatenation: made as arrays of lines joined, the feeds took 1.2 times the instructions.
  let summary = `Version ${e(build.version)}${build.android_version === '' ? '' : ` for Android ${e(build.android_version)}`}, built ${readableTime(build.timestamp)}; ${humanSize(build.size as number)} (${build.size} bytes); ${hashes(build, e)}`;
  if (build.md5sum) summary += `; MD5 ${e(build.md5sum)}`;
  if (withdrawn) summary += '; withdrawn: the file is disabled';
  const before =
    `  <entry>\n    <id>${entryId(build)}</id>\n    <title>${e(build.display_version)}${withdrawn ? ' (withdrawn)' : ''}</title>\n` +
    `    <updated>${time}</updated>\n    <published>${time}</published>\n    <link rel="alternate" type="text/html" href="${e(links.devicePage(build.device))}#`;
  let after = `-${e(anchorTail(build))}"/>\n`;
  // A withdrawn file gets no enclosure: feed readers and podcast clients fetch enclosures on their own.
  if (!withdrawn)
    after += `    <link rel="enclosure" type="application/zip" length="${build.size}" href="${e(build.url!)}"/>\n`;
  after += `    <category term="${e(build.channel)}"/>\n    <summary type="text">${summary}.</summary>\n`;
  // The changelog as escaped HTML (built only from the parsed blocks, see render/changelog.ts).
  if (hasChangelog(build)) after += `    <content type="html">${changelogForAtom(build.changelog)}</content>\n`;
  return { before, after: `${after}  </entry>` };
}

/** The summary's SHA-256 of the zip, and its download id when that is another key. */
function hashes(build: Build, e: (value: string) => string): string {
  if (idIsSha256(build)) return `SHA-256 ${build.id}`;
  const sha256 = sha256Of(build);
  return sha256 === undefined ? `download id ${e(build.id)}` : `SHA-256 ${sha256}; download id ${e(build.id)}`;
}

/** A stable, globally unique feed id without a site address: a name-based UUID (RFC 9562 v5). */
function feedId(site: Site, device: string, list: string): string {
  return uuidV5(`${site.downloadBaseUrl}#otapress-feed/${device}/${list}`);
}

/** The name-based UUID (RFC 9562 v5, URL namespace) of `name`, as a URN. */
function uuidV5(name: string): string {
  const hash = createHash('sha1').update(Buffer.from(URL_NAMESPACE, 'hex')).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The RFC 9562 namespace for names that are URLs. */
const URL_NAMESPACE = '6ba7b8119dad11d180b400c04fd430c8';
