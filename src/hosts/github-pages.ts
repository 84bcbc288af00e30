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
import { formatPath } from '../catalog/formats.js';
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

/** One address a ROM build must set for one updater: the setting, and its value. */
export interface UpdaterAddress {
  /** Which updaters read it (`LineageOS 23.2 and later`). */
  updaters: string;
  /** What the ROM build sets: a system property or a string resource of the updater app. */
  setting: string;
  /** The value, with the updater's own placeholders (`{device}`). */
  value: string;
  /** Where the setting lives, for the maintainer. */
  where: string;
}

/**
 * For each updater the site publishes, the value a ROM build must set for its phones to ask this
 * site on GitHub Pages, at a file that answers 200 without a redirect. `siteUrl` without its
 * trailing slash. The LineageOS updaters put `{device}`, `{type}` (the release type, lower case)
 * and `{incr}` into `lineage.updater.uri` (LineageOS/android_packages_apps_Updater `Utils.java`
 * `getServerURL`; 23.2: `UpdatesNetworkDataSource.kt`); the crDroid family reads the
 * `updater_server_url` resource with `{device}` (crdroidandroid/android_packages_apps_Updater
 * `Utils.java`) and so does PixelOS's (with `{device}` and `{version}`); PixelExperience's updater
 * formats the constant `Constants.OTA_URL` with the device and the version (`String.format`
 * ignores the version when the address has one `%s`).
 */
function updaterAddresses(site: Site, siteUrl: string): UpdaterAddress[] {
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
    for (const list of format.path.includes('{list}') ? format.lists : format.lists.slice(0, 1)) {
      const path = formatPath(format, '{device}', list);
      const listNote = format.path.includes('{list}') ? ` (list ${list})` : '';
      if (format.family === 'crdroid') {
        addresses.push({
          updaters: `crDroid, Evolution X and the other forks of crDroid's updater${listNote}`,
          setting: 'updater_server_url',
          value: `${siteUrl}${path}`,
          where:
            'a string resource of the Updater app: <string name="updater_server_url" translatable="false">' +
            ' in its res/values/strings.xml (or an overlay)',
        });
      } else {
        addresses.push({
          updaters: `PixelExperience and PixelOS up to 14${listNote}`,
          setting: 'Constants.OTA_URL',
          value: `${siteUrl}${path.replace('{device}', '%s')}`,
          where: "a constant of packages_apps_Updates (Constants.java), changed in the ROM's fork of the app",
        });
      }
    }
  }
  return addresses;
}

/** {@link updaterAddresses} as `otapress hosting github-pages` prints them: one block per updater. */
export function renderUpdaterAddresses(site: Site, siteUrl: string): string {
  const blocks = updaterAddresses(site, siteUrl).map(({ updaters, setting, value, where }) => {
    return `${updaters}\n  ${setting}=${value}\n  (${where})`;
  });
  return `# What the ROM build of each updater sets to ask this site on GitHub Pages (${siteUrl}/): every
# address is a file that \`otapress build --host github-pages\` writes and Pages answers with 200, no
# redirect, as application/json.

${blocks.join('\n\n')}
`;
}
