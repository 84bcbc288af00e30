/**
 * GitHub Pages: a static host with no rules at all. It types a file by its extension (mime-db's
 * table; no extension is `application/octet-stream`), answers a folder without its slash with a
 * 301, serves `index.html` as a folder's only index, has no rewrites and no custom headers (but
 * always `Access-Control-Allow-Origin: *` and `Cache-Control: max-age=600`), shows the site's
 * `404.html` for every miss, and serves a project site under `/<repository>/` (docs.github.com
 * "About GitHub Pages", "Creating a custom 404 page"; the look-alike in
 * test/helpers/github-pages-server.ts cites the rest). So otapress writes no rules for it: every
 * answer a phone gets there is a file whose name ends in `.json`, the pages link to those files
 * under the site's base path (render/urls.ts linksOf), and what Pages cannot answer is said as
 * notices ({@link githubPagesNotices}) and in the addresses a ROM build must set
 * ({@link updaterAddresses}). Pure.
 */
import { DIALECT_SETTINGS } from '../catalog/dialects.js';
import { formatPath, namesList, type FormatFamily } from '../catalog/formats.js';
import type { Problem } from '../catalog/problems.js';
import { SITE_FILE, type Site } from '../catalog/site.js';
import { API_FILES, fill } from '../render/urls.js';
import type { HostModule } from './host.js';
import { rawBranchFiles, type RawFile } from './raw-branch.js';
import { problemAtFormat, type IncrementalAnswer } from './routes.js';

/**
 * GitHub Pages: a build for it (`--host github-pages`, or a site whose only host it is) writes an
 * empty `.nojekyll`, so a copy published from a branch is served as it is (Jekyll would drop the
 * files and folders starting with `_` or `.`); an Actions deploy runs no Jekyll and serves it as a
 * file. It has no rules, so none can pass a limit; its documented limits (a published site of at
 * most 1 GB, "About GitHub Pages", Usage limits) are on bytes, which `actions/upload-pages-artifact`
 * checks when it packs dist/.
 */
export const githubPages: HostModule = {
  name: 'github-pages',
  writes: (site, target) => target === 'github-pages' && site.hosts.includes('github-pages'),
  ruleFiles: () => [{ path: '.nojekyll', contents: '' }],
  limits: {},
  limitProblems: () => [],
  outputLimitProblems: () => [],
  // Every miss is the site's 404.html; a 404 carries Pages' own headers, which no file changes.
  answers: { rootFormatMiss: 'html', notFoundCacheControl: 'rules' },
};

/** What the compiled catalog has that Pages cannot answer as the route table does. */
export interface PagesCatalog {
  /** Some build has a changelog: `/api/v2/changes` lists changes. */
  changes: boolean;
  /** The answers for phones on one build (incremental packages). */
  incrementals: readonly IncrementalAnswer[];
  /** The pages link to the API's files (render/urls.ts linksOf): the site is known to be on Pages. */
  linksToFiles: boolean;
  /** The build wrote {@link pagesCopies}: the request paths that name one file answer there. */
  copies: boolean;
}

/**
 * The files a build for Pages adds, as it has no rewrites: each of the site's request paths that
 * names one file (no `{incremental}`, no trailing slash), per device and list, as a copy of the v1
 * listing it answers (the raw branch's copies: raw-branch.ts). A path without `.json` is served as
 * `application/octet-stream`, which the v1 readers, which check no type, take.
 */
export function pagesCopies(site: Site, devices: readonly string[]): RawFile[] {
  return rawBranchFiles(site, devices).filter((file) => file.path !== file.from);
}

/**
 * What GitHub Pages cannot do for this site, and what phones and the LineageOS download portal get
 * instead: notices (never problems: the site builds), each at site.yaml's `hosts`.
 */
export function githubPagesNotices(site: Site, catalog: PagesCatalog): Problem[] {
  const notice = (field: string, ...words: string[]): Problem => {
    return { file: SITE_FILE, line: 1, col: 1, field, message: words.join(' ') };
  };
  const v2 = API_FILES.v2Builds.replace(':device', '{device}');
  const v1 = API_FILES.listing.replace(':device', '{device}').replace(':list', '{type}');
  const notices = [
    notice(
      'hosts',
      'GitHub Pages serves files only: LineageOS phones find their answers there at the .json addresses',
      `\`otapress hosting github-pages\` prints (…${v2} for 23.2 and later, …${v1} before), not at the API's own`,
      'paths; the LineageOS download portal, which asks /api/v2/oems and /api/v2/devices/<device> without .json,',
      'gets 404 there',
    ),
    notice(
      'hosts',
      "GitHub Pages answers every miss with the site's 404.html (HTML, status 404), not a JSON 404: phones report",
      '"update check failed" for an unknown device or list as they do for any 404; a v2 device this site has no',
      'builds for gets that 404 too, where the official server answers [] ("no updates")',
    ),
    notice(
      'cache_control',
      `GitHub Pages sends its own headers: \`Cache-Control: max-age=600\` on every file, not \`${site.cacheControl}\`,`,
      'so a new build reaches phones up to 10 minutes late; no Allow or Vary; `Access-Control-Allow-Origin: *` as the',
      "site's other hosts send it; JSON files as `application/json; charset=utf-8`, which LineageOS 23.2 accepts",
    ),
  ];
  if (!catalog.linksToFiles) {
    notices.push(
      notice(
        'site_url',
        'the pages link to the listings by the addresses the other hosts rewrite (/api/v1/<device>/<list>/), which',
        "GitHub Pages answers with 404: set site_url to the site's github.io address, or hosts: [github-pages] when",
        'it is on a domain of its own, and the pages link to the files',
      ),
    );
  }
  if (catalog.changes) {
    notices.push(
      notice(
        'hosts',
        'GitHub Pages ignores the query string: /api/v2/changes.json?page=1 answers the first page again, so a',
        "client that pages until an answer fails (the LineageOS download portal's Changes tab) never ends; every",
        'change is on the first page',
      ),
    );
  }
  if (catalog.incrementals.length > 0) {
    const { device, list, incremental } = catalog.incrementals[0];
    const answers = catalog.incrementals.length === 1 ? 'answer' : 'answers';
    notices.push(
      notice(
        'hosts',
        'GitHub Pages cannot fall back from a missing file, so phones cannot ask …/{incr}:',
        `the ${catalog.incrementals.length} ${answers} for phones on one build`,
        `(${fill(API_FILES.v1Incremental, { device, list, incremental })} and, for LineageOS 23.2 and later,`,
        `${fill(API_FILES.v2Incremental, { device, incremental })}; an incremental package first) stay unread,`,
        'and every phone gets the full listing at …/index.json or …/builds.json, with full packages only and builds',
        'its keys may not install',
      ),
    );
  }
  notices.push(...formatNotices(site));
  // A request path is a rewrite to a listing on every other host; on Pages, a copy where it names one file.
  for (const [i, { pattern, line, col }] of site.requestPaths.entries()) {
    if (catalog.copies && !pattern.includes('{incremental}') && !pattern.endsWith('/')) continue;
    notices.push({
      ...notice(
        `request_paths.${i}`,
        `GitHub Pages has no rewrites: ${pattern} answers 404 there; phones that ask it need their ROM build pointed`,
        'at an address `otapress hosting github-pages` prints (or, on raw.githubusercontent.com, the copy',
        '`otapress raw-branch` writes)',
      ),
      line,
      col,
    });
  }
  return notices;
}

/** What Pages cannot serve of the site's formats: a text dialect's type, GrapheneOS's zip names. */
function formatNotices(site: Site): Problem[] {
  const notices: Problem[] = [];
  // Pages takes a file's type from its extension (mime-db): a text dialect's file has none.
  for (const format of site.formats.filter((f) => DIALECT_SETTINGS[f.family].type === 'text')) {
    notices.push(
      problemAtFormat(
        format,
        `GitHub Pages sends ${format.path} by its extension, and it has none: as application/octet-stream, not ` +
          "text/plain, so AOSPA's Compose Hub (which reads text/* only) gets no update there; the Java Hub AOSPA " +
          'builds ship ignores the type and reads it',
      ),
    );
  }
  // GrapheneOS's updater downloads its zips from the folder of the channel files, by names the other
  // hosts redirect to each build's url (render/formats.ts channelDownloads); Pages cannot redirect.
  for (const format of site.formats.filter((f) => DIALECT_SETTINGS[f.family].file === 'channel')) {
    notices.push(
      problemAtFormat(
        format,
        `GitHub Pages (and raw.githubusercontent.com) cannot redirect: GrapheneOS phones read ${format.path} there, then` +
          ' download <device>-ota_update-<incremental>.zip (or <device>-incremental-<from>-<to>.zip) from the same' +
          " folder, which answers 404 unless the zip is uploaded under that name; a host that redirects sends them to each build's url" +
          ' (Cloudflare Pages, Netlify, nginx, Caddy, Apache)',
      ),
    );
  }
  return notices;
}

/** One address a ROM build must set for one updater: the setting, and its value. */
export interface UpdaterAddress {
  /** Which updaters read it (`LineageOS 23.2 and later`). */
  updaters: string;
  /** The dialect of site.yaml's `formats` it asks; none for the LineageOS answers every site has. */
  family?: FormatFamily;
  /** What the ROM build sets: a system property or a string resource of the updater app. */
  setting: string;
  /** The value, with the updater's own placeholders (`{device}`). */
  value: string;
  /** Where the setting lives, for the maintainer. */
  where: string;
  /** What Pages cannot serve of this dialect, and what to use instead; none when it serves it all. */
  cannot?: string;
}

/** What one dialect's ROM build sets on Pages, from the file's address (`{device}` kept) and its folder. */
type PagesSetting = (address: string, base: string) => Omit<UpdaterAddress, 'family'>;

/** The `updater_server_url` resource of the crDroid family's updaters and of PixelOS's, with `{device}`. */
const serverUrl =
  (updaters: string): PagesSetting =>
  (address) => ({
    updaters,
    setting: 'updater_server_url',
    value: address,
    where:
      'a string resource of the Updater app: <string name="updater_server_url" translatable="false">' +
      ' in its res/values/strings.xml (or an overlay)',
  });

/**
 * Every dialect of catalog/dialects.ts, as its ROM build is pointed at a site on Pages (README
 * "Updaters and formats", the last column): a `Record`, so a new dialect does not compile without
 * its row. The crDroid family and PixelOS read `updater_server_url` with `{device}`
 * (crdroidandroid/android_packages_apps_Updater `Utils.java`); DerpFest too, and LineageOS builds
 * on static files `lineage.updater.uri`; PixelExperience formats `Constants.OTA_URL` with the
 * device (`String.format` ignores the version when the address has one `%s`); AOSPA's hub and
 * GrapheneOS's updater append to a base (`system_update_server_url`, `url`).
 */
const PAGES_SETTINGS: Record<FormatFamily, PagesSetting> = {
  crdroid: serverUrl("crDroid 11 and later (the Kotlin updater) and the forks of crDroid's updater"),
  'crdroid-java': serverUrl('crDroid 7–10, Evolution X udc/vic, AlphaDroid, CherishOS (the Java updater)'),
  'md5-six': serverUrl('Matrixx 14.0, Infinity-X 15, VoltageOS 12–14 (the six-field readers)'),
  pixelos15: serverUrl('PixelOS 15 and 16 (official_devices fifteen, sixteen)'),
  'pixelos-feed': serverUrl("PixelOS's strict feed (the newer Kotlin updater)"),
  'lineage-v1': (address) => ({
    updaters: 'DerpFest, AxionOS, SuperiorOS and LineageOS builds on static files (v1 records)',
    setting: 'updater_server_url',
    value: address,
    where: `DerpFest's updater: the updater_server_url string resource; a LineageOS build: lineage.updater.uri=${address}`,
  }),
  pixelexperience: (address) => ({
    updaters: 'PixelExperience and PixelOS up to 14',
    setting: 'Constants.OTA_URL',
    value: address.replace('{device}', '%s'),
    where: "a constant of packages_apps_Updates (Constants.java), changed in the ROM's fork of the app",
  }),
  // Pages types a file by its extension and AOSPA's file has none: application/octet-stream.
  aospa: (_, base) => ({
    updaters: "Paranoid Android's hubs (AOSPA)",
    setting: 'system_update_server_url',
    value: base,
    where: 'a string resource of the hub (an overlay); the hub appends updates/<ro.aospa.device>',
    cannot:
      'Pages sends updates/<device> as application/octet-stream (no extension), not text/plain: the Java Hub AOSPA' +
      ' builds ship reads it, the Compose Hub (text/* only) gets no update; for it, publish on Cloudflare Pages,' +
      ' Netlify or a server of your own (otapress hosting nginx|caddy|apache), which send text/plain',
  }),
  // GrapheneOS/platform_packages_apps_Updater src/app/seamlessupdate/client/Service.java at
  // c7d5dfc1486f1c4b799a50b620b807c2cc196585: the channel file is read with getInputStream and no
  // look at its type, so Pages' application/octet-stream is read; the zips are fetched from the
  // same base, and Pages cannot redirect them to the builds' url.
  grapheneos: (_, base) => ({
    updaters: 'GrapheneOS, CalyxOS, LMODroid (platform_packages_apps_Updater)',
    setting: 'url',
    value: base,
    where:
      'the url string resource of the Updater app (res/values/config.xml, or an overlay); it reads <url><device>-<channel>' +
      ' whatever its type',
    cannot:
      `the updater then downloads <url><device>-ota_update-<incremental>.zip (and <device>-incremental-<from>-<to>.zip)` +
      " from the same folder, and Pages cannot redirect them to the builds' url: upload each zip under that name" +
      ' into the folder (where it fits: a Pages site holds at most 1 GB), or publish where otapress writes those redirects (Cloudflare' +
      ' Pages, Netlify, nginx, Caddy, Apache)',
  }),
};

/**
 * For each updater the site publishes, the value a ROM build must set for its phones to ask this
 * site on GitHub Pages, at a file that answers 200 without a redirect, and what Pages cannot serve
 * of its dialect ({@link PAGES_SETTINGS}). `siteUrl` without its trailing slash. The LineageOS
 * updaters put `{device}`, `{type}` (the release type, lower case) and `{incr}` into
 * `lineage.updater.uri` (LineageOS/android_packages_apps_Updater `Utils.java` `getServerURL`;
 * 23.2: `UpdatesNetworkDataSource.kt`).
 */
export function updaterAddresses(site: Site, siteUrl: string): UpdaterAddress[] {
  const lists = site.lists.map((l) => l.name).join(', ');
  const addresses: UpdaterAddress[] = [
    {
      updaters: 'LineageOS 23.2 and later (v2)',
      setting: 'lineage.updater.uri',
      value: `${siteUrl}${API_FILES.v2Builds.replace(':device', '{device}')}`,
      where:
        'a system property of the device tree: PRODUCT_SYSTEM_EXT_PROPERTIES += lineage.updater.uri=…; not …/builds/{incr},' +
        ' the answer per build of the other hosts, which Pages cannot fall back from',
    },
    {
      updaters: 'LineageOS up to 23.1 and /e/OS (v1)',
      setting: 'lineage.updater.uri',
      value: `${siteUrl}${API_FILES.listing.replace(':device', '{device}').replace(':list', '{type}')}`,
      where: `the same property; {type} is ro.lineage.releasetype in lower case, one of the lists ${lists}`,
    },
    // PixelOS 15's updater reads the v1 listing's records one by one (a bad one is dropped alone):
    // PixelOS-AOSP/android_packages_apps_Updater Utils.kt at dfdc32975e37d07c25b6bead05bff3620cd99b8f.
    ...site.lists.map(({ name: list }) => ({
      updaters: `PixelOS 15, whose updater reads {"response": [...]} (list ${list}; not the newer strict feed)`,
      setting: 'updater_server_url',
      value: `${siteUrl}${fill(API_FILES.listing, { list }).replace(':device', '{device}')}`,
      where: 'a string resource of the Updater app (net.pixelos.ota), in its res/values/strings.xml or an overlay',
    })),
  ];
  for (const format of site.formats) {
    const { file } = DIALECT_SETTINGS[format.family];
    // A channel file names its list itself (`<device>-<channel>`): one base serves every list.
    const perList = namesList(format.path) && file !== 'channel';
    for (const list of perList ? format.lists : format.lists.slice(0, 1)) {
      const path = formatPath(format, '{device}', list);
      const base = `${siteUrl}${path.slice(0, path.lastIndexOf('/') + 1).replace(/updates\/$/, '')}`;
      const setting = PAGES_SETTINGS[format.family](`${siteUrl}${path}`, base);
      // A path per list (`path: { gapps: ..., vanilla: ... }`) is one format per list: each says its own.
      const listNote = perList || format.perList ? ` (list ${list})` : '';
      addresses.push({ ...setting, updaters: `${setting.updaters}${listNote}`, family: format.family });
    }
  }
  return addresses;
}

/** {@link updaterAddresses} as `otapress hosting github-pages` prints them: one block per updater. */
export function renderUpdaterAddresses(site: Site, siteUrl: string): string {
  const blocks = updaterAddresses(site, siteUrl).map(({ updaters, setting, value, where, cannot }) => {
    return `${updaters}\n  ${setting}=${value}\n  (${where})${cannot ? `\n  not on Pages: ${cannot}` : ''}`;
  });
  return `# What the ROM build of each updater sets to ask this site on GitHub Pages (${siteUrl}/): every
# address (or base the updater appends to) is a file that \`otapress build --host github-pages\` writes
# and Pages answers with 200, no redirect (as application/json where it ends in .json); "not on Pages"
# says what Pages cannot serve of that updater's dialect, and what to use instead.

${blocks.join('\n\n')}
`;
}
