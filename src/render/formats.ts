/**
 * The files of the updater dialects a site publishes (`formats` in site.yaml): for each format,
 * list and device, the answer that dialect's updater reads, at the format's path, written from the
 * dialect's row of render/dialects.ts. Pure.
 */
import type { Build } from '../catalog/manifest.js';
import { sha256Of } from '../catalog/download-key.js';
import { compareNewestFirst, type Listing } from '../catalog/plan.js';
import type { Problem } from '../catalog/problems.js';
import type { DeviceInfo } from '../catalog/device.js';
import {
  changelogPath,
  formatPath,
  namesList,
  oneFileForLists,
  type FormatFamily,
  type OutputFormat,
} from '../catalog/formats.js';
import { DIALECT_SETTINGS } from '../catalog/dialects.js';
import { renderDialectChangelog } from './dialect-changelog.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from './output.js';
import { deviceFields, dialectFile, dialectRecord, DIALECTS, type DeviceFields, type Dialect } from './dialects.js';

/** What each dialect is called in notices and JSON 404s. */
export const FAMILY_NAMES = Object.fromEntries(Object.entries(DIALECTS).map(([name, d]) => [name, d.title])) as Record<
  FormatFamily,
  string
>;

/** One answer of another updater the site publishes for a device: the dialect's title, the list (or lists, joined) and the path. */
export interface DialectAnswer {
  title: string;
  list: string;
  path: string;
}

/** The answers of `files` (a device's {@link renderFormats}) by updater, in site.yaml's order: what its page lists. */
export function dialectAnswers(device: string, site: Site, files: readonly OutputFile[]): DialectAnswer[] {
  const written = new Set(files.map((f) => `/${f.path}`));
  return site.formats.flatMap((format) =>
    (oneFileForLists(format) ? [format.lists.join(', ')] : format.lists)
      .map((list) => ({ title: FAMILY_NAMES[format.family], list, path: formatPath(format, device, list) }))
      .filter((answer) => written.has(answer.path)),
  );
}

/** Every format file of one device, and the notices about builds a format leaves out. */
export function renderFormats(
  device: string,
  listings: readonly Listing[],
  site: Site,
  info: DeviceInfo,
): { files: OutputFile[]; notices: Problem[] } {
  const written: OutputFile[] = [];
  const notices: Problem[] = [];
  let fields: DeviceFields | undefined;
  for (const format of site.formats) {
    const dialect = DIALECTS[format.family];
    // One file per list, or (aospa without {list}) one for all the lists, each list's builds newest
    // first in the format's order: the Java Hub reads the first record only, so every phone on it
    // is offered the first list's newest build (test/helpers/dialects/aospa.ts `decodeAospaHub`).
    const files = oneFileForLists(format) ? [format.lists] : format.lists.map((list) => [list]);
    for (const lists of files) {
      const path = formatPath(format, device, lists[0]);
      const offered: Build[] = [];
      const records: unknown[] = [];
      const left: Problem[] = [];
      for (const list of lists) {
        const builds = listings.find((l) => l.list === list)?.builds ?? [];
        const listed = offeredBuilds(format, dialect, builds, path);
        offered.push(...listed.offered);
        left.push(...listed.notices);
        fields ??= deviceFields(info);
        records.push(...listed.offered.map((b) => dialectRecord(dialect, b, fields!, list, format)));
      }
      let contents = dialectFile(dialect, records);
      // Past the most the updater reads, the oldest builds go: the newest stay offered. The most that
      // fit, found by halving (the file grows with every record kept).
      const max = dialect.maxBytes;
      if (contents !== undefined && max !== undefined && Buffer.byteLength(contents) > max) {
        let [fits, over] = [0, records.length];
        while (over - fits > 1) {
          const middle = Math.floor((fits + over) / 2);
          if (Buffer.byteLength(dialectFile(dialect, records.slice(0, middle))!) <= max) fits = middle;
          else over = middle;
        }
        contents = dialectFile(dialect, records.slice(0, fits));
        const why = `it is older than the newest builds that fit in ${max} bytes, all this updater reads`;
        left.push(leftOut(format, path, why, offered.slice(fits)));
      }
      notices.push(...left);
      if (contents !== undefined) written.push({ path: path.slice(1), contents });
    }
    written.push(...changelogFiles(format, device, listings));
  }
  return { files: written, notices };
}

/** A request path a host redirects to a download (`/api/grapheneos/akita-ota_update-2024112700.zip` → the build's `url`). */
export interface ZipRedirect {
  from: string;
  to: string;
}

/**
 * What a request path of a redirect may hold, so that every host's rules take it as it is: no
 * percent-encoding, no character any rule syntax reads (`*`, `:`, `$`, `%`, quotes, spaces).
 */
const REDIRECT_PATH = /^\/[A-Za-z0-9._~+/-]+$/;

/**
 * The zips GrapheneOS's updater downloads from the folder of its channel files
 * (GrapheneOS/platform_packages_apps_Updater src/app/seamlessupdate/client/Service.java at
 * c7d5dfc1486f1c4b799a50b620b807c2cc196585, `onHandleIntent`: `<url><DEVICE>-incremental-<INCREMENTAL>-<target>.zip`,
 * then `<url><DEVICE>-ota_update-<target>.zip`), each with the download that answers it: for every
 * build a channel file of the device can name (every list, not only the newest build: a channel file
 * cached for a few minutes still names the one before), its `url`, and for each incremental package
 * published to install it, that package's. The hosts that can redirect send them there. A name a
 * rule cannot hold as it is gets a notice instead.
 */
export function channelDownloads(
  device: string,
  listings: readonly Listing[],
  site: Site,
): { redirects: ZipRedirect[]; notices: Problem[] } {
  const redirects = new Map<string, string>();
  const seen = new Set<string>();
  const notices: Problem[] = [];
  for (const format of site.formats.filter((f) => DIALECT_SETTINGS[f.family].file === 'channel')) {
    const folder = format.path.slice(0, format.path.indexOf('{device}'));
    const dialect = DIALECTS[format.family];
    for (const list of format.lists) {
      const builds = listings.find((l) => l.list === list)?.builds ?? [];
      for (const build of [...builds].sort(compareNewestFirst)) {
        if (build.placeholder || build.url === undefined || dialect.needs.some((need) => need.lacks(build))) continue;
        const zips = [
          { name: `${device}-ota_update-${build.incremental}.zip`, url: build.url, of: build },
          ...(build.incrementals ?? []).flatMap((pkg) =>
            pkg.url === undefined || pkg.appliesOn === undefined
              ? []
              : [
                  {
                    name: `${device}-incremental-${pkg.appliesOn.incremental}-${build.incremental}.zip`,
                    url: pkg.url,
                    of: pkg,
                  },
                ],
          ),
        ];
        for (const { name, url, of } of zips) {
          const from = `${folder}${name}`;
          // A build in several lists: its names once.
          if (seen.has(from)) continue;
          seen.add(from);
          const why = !REDIRECT_PATH.test(from)
            ? 'the device or an incremental has characters other than letters, digits and ._~+-'
            : !url.startsWith('https://')
              ? // Android's HttpURLConnection follows redirects, never from one scheme to another (AOSP's
                // external/okhttp, android/main/java/com/squareup/okhttp/HttpHandler.java createHttpOkHttpClient:
                // setFollowProtocolRedirects(false); mirrored in CyanogenMod/android_external_okhttp at
                // 1714f5f70d9ec98d6df340639afa5966c84958a1); wrangler 4.86.0 refuses a rule to http.
                'its url is not https: the updater follows no redirect from https to http, and Cloudflare Pages takes none'
              : undefined;
          // A fragment is never sent to a server: the redirect leads to the same download without it.
          if (why === undefined) redirects.set(from, url.split('#')[0]);
          else
            notices.push({
              file: of.source,
              ...of.at.file,
              field: '(build)',
              message: `no host rule sends ${from} (the ${FAMILY_NAMES[format.family]} zip name) to its download: ${why}; upload the zip under that name instead`,
            });
        }
      }
    }
  }
  return { redirects: [...redirects].map(([from, to]) => ({ from, to })), notices };
}

// --- internal ---

/**
 * A format's changelog files of one device: one per list, or with a path that names no list, one
 * for all of them (RisingOS's `OTA/changelogs/{device}.txt` beside `OTA/device/{LIST}/{device}.json`),
 * each build once however many lists hold it.
 */
function changelogFiles(format: OutputFormat, device: string, listings: readonly Listing[]): OutputFile[] {
  if (format.changelog === undefined) return [];
  const buildsOf = (lists: readonly string[]) =>
    listings.filter((l) => lists.includes(l.list)).flatMap((l) => l.builds);
  const files = namesList(format.changelog)
    ? format.lists.map((list) => ({ path: changelogPath(format, device, list)!, builds: buildsOf([list]) }))
    : [{ path: changelogPath(format, device, format.lists[0])!, builds: buildsOf(format.lists) }];
  return files.flatMap(({ path, builds }) => {
    const text = renderDialectChangelog(builds);
    return text === undefined ? [] : [{ path: path.slice(1), contents: text }];
  });
}

/**
 * The builds of a list the format can offer, newest first, and one notice per reason a build is
 * left out: the first of the dialect's needs it lacks. A placeholder (nothing to download) is in
 * no dialect's answer. A dialect that carries the newest build alone never offers what is older
 * than it, left out or not.
 */
function offeredBuilds(
  format: OutputFormat,
  dialect: Dialect,
  builds: readonly Build[],
  path: string,
): { offered: Build[]; notices: Problem[] } {
  const offered: Build[] = [];
  const left = new Map<string, Build[]>();
  const seen = new Set<string>();
  for (const build of [...builds].sort(compareNewestFirst)) {
    if (build.placeholder || build.url === undefined) continue;
    let why = dialect.needs.find((need) => need.lacks(build))?.why;
    // A download key twice: the Java readers keep the first record and give it the later one's URL.
    if (why === undefined) {
      const downloadKey = build[dialect.downloadKey.field] ?? sha256Of(build);
      const name = dialect.downloadKey.key;
      if (seen.has(downloadKey!)) why = `its download key (\`${name}\`) is a newer build's too; one per key is kept`;
      seen.add(downloadKey!);
    }
    if (why === undefined) offered.push(build);
    else left.set(why, [...(left.get(why) ?? []), build]);
    if (dialect.count === 'newest' && offered.length > 0) break;
  }
  return { offered, notices: [...left].map(([why, dropped]) => leftOut(format, path, why, dropped)) };
}

/** The one notice for the builds of a list left out of a format's file for one reason, at the newest of them. */
function leftOut(format: OutputFormat, path: string, why: string, [newest, ...older]: readonly Build[]): Problem {
  return {
    file: newest.source,
    ...newest.at.file,
    field: '(build)',
    message:
      `left out of ${path} (the ${FAMILY_NAMES[format.family]} answer)` +
      (older.length > 0 ? `, with ${older.length} older build${older.length === 1 ? '' : 's'} of the list` : '') +
      `: ${why}`,
  };
}
