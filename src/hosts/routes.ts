/**
 * Wing `hosts/`: the route table (this file; the other formats' files: format-routes.ts), the one
 * thing the hosts share. Each host is a module of its own behind one interface (host.ts):
 * Cloudflare (cloudflare.ts, its worker: cloudflare-worker.ts), Netlify (netlify.ts), and the
 * self-hosted servers nginx, Caddy and Apache (nginx.ts, caddy.ts, apache.ts, from
 * server-rules.ts); host-files.ts registers them and writes the files a build adds for them, and
 * respond.ts answers a request from a compiled tree as Cloudflare does. Pure. Imports only
 * `render/` and `catalog/`.
 */
import { API_FILES, fill } from '../render/urls.js';
import { channelDownloads, type ZipRedirect } from '../render/formats.js';
import type { Listing } from '../catalog/plan.js';
import type { Site } from '../catalog/site.js';
import { BUILT_IN_V1_PATHS, hasInSegmentPlaceholder } from '../catalog/request-paths.js';
import {
  folderType,
  formatFolders,
  formatNotFoundScopes,
  rootFormatFiles,
  type NotFoundScope,
} from './format-routes.js';

export {
  formatFiles,
  formatNotFoundScopes,
  isRootFormatFile,
  matches,
  problemAtFormat,
  type NotFoundScope,
} from './format-routes.js';

/**
 * The API's request shapes and the static file that answers each. This table is the one
 * description of the routes: Cloudflare's `_redirects`, Netlify's (netlify.ts) and the preview
 * server are all generated from it. `:device` and `:list` stand for a device and one of its lists;
 * any other `:name` is one free path segment (the incremental a phone appends).
 */
export const ENDPOINTS: readonly Endpoint[] = [
  // The LineageOS updater asks `/api/v1/{device}/{type}/{incr}` (its default lineage.updater.uri):
  // phones on a build an incremental package applies on get their own answer.
  {
    name: 'v1 listing',
    paths: BUILT_IN_V1_PATHS.map(colonForm),
    file: API_FILES.listing,
    incrementalFile: API_FILES.v1Incremental,
  },
  // The LineageOS v2 answers. The official server (lineageos-infra/updater at ad9188930d83e7f4d9be1c5d91c9c8bb3523fe87,
  // app.py: `strict_slashes = False`) takes every path with or without a trailing slash.
  {
    name: 'v2 builds',
    paths: ['/api/v2/devices/:device/builds', '/api/v2/devices/:device/builds/'],
    file: API_FILES.v2Builds,
    // api_common.py `get_device_builds`: a device it has no builds for answers `200 []`, which
    // phones show as "no updates"; a 404 would be "update check failed".
    unknownDevice: API_FILES.v2UnknownDeviceBuilds,
  },
  // LineageOS Updater 23.2+ replaces `{incr}` in its v2 URI too (UpdatesNetworkDataSource.kt of
  // LineageOS/android_packages_apps_Updater), though the default URI has none: a ROM whose URI is
  // `…/builds/{incr}` gets the answer for its build, every other build the device's v2 answer.
  {
    name: 'v2 builds per source build',
    paths: ['/api/v2/devices/:device/builds/:incremental'],
    file: API_FILES.v2Builds,
    incrementalFile: API_FILES.v2Incremental,
  },
  {
    name: 'v2 device',
    paths: ['/api/v2/devices/:device', '/api/v2/devices/:device/'],
    file: API_FILES.v2Device,
  },
  {
    name: 'v2 oems',
    paths: ['/api/v2/oems', '/api/v2/oems/'],
    file: API_FILES.v2Oems,
  },
  // The changes of every build's changelog, site-wide, all on the first page. The download portal
  // (lineageos-infra/updater-client at 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa,
  // src/components/changes-tab/ChangesTab.vue and src/services/ApiService.ts `loadMoreChanges`)
  // asks `?page=0`, `?page=1`, ... while its list is shorter than the window: any 2xx answer, `[]`
  // included, makes it ask for the next page at once; only an answer that is not 2xx ends it.
  {
    name: 'v2 changes',
    paths: ['/api/v2/changes', '/api/v2/changes/'],
    file: API_FILES.v2Changes,
    paging: { param: 'page', past: API_FILES.v2ChangesPastEnd },
  },
];

/** One API endpoint: the request paths it answers (all with 200) and the file with the body. */
export interface Endpoint {
  name: string;
  paths: string[];
  file: string;
  /**
   * A placeholder shares a path segment with fixed text (`/api/v1/:device_:list`): Cloudflare's
   * placeholder names take in the letters, digits and `_` that follow, so `_redirects` gets one rule
   * per device and list instead, and the hosts' rules match the site's list names only.
   */
  perDevice?: boolean;
  /**
   * The file that answers (with 200) a device the catalog does not have, instead of the JSON 404.
   * Cloudflare cannot fall through from a rewrite whose file is missing, so there each device gets
   * a static rule before the placeholder rule that answers this file (while they fit its limit).
   */
  unknownDevice?: string;
  /** A query parameter that pages the answer: `file` is the first page, which every host answers for the rest with 404. */
  paging?: Paging;
  /**
   * The file that answers a path with `:incremental` where it exists (the answer for phones on a
   * build an incremental package applies on); `file` answers the others. Cloudflare and Netlify
   * cannot fall through from a rewrite whose file is missing, so there each such answer gets a
   * static rule before the placeholder rule.
   */
  incrementalFile?: string;
  /** A path that fixes the list (site.yaml's `list:`): its `incrementalFile` serves that list's answers only. */
  incrementalList?: string;
}

/**
 * Paging of a static answer: `file` holds every item, so it is the first page (the parameter left
 * out, or `0`, as the official server reads a missing page); any other value (`1`, `x`, empty)
 * answers `past` with status 404, which ends a client that pages until an answer fails.
 */
export interface Paging {
  param: string;
  past: string;
}

/** Does the query `search` (`?page=1`) ask for a page after the first? The code form of {@link pastFirstPageRegex}. */
export function pastFirstPage(paging: Paging, search: string): boolean {
  return new URLSearchParams(search).getAll(paging.param).some((value) => value !== '0');
}

/**
 * {@link pastFirstPage} as a regular expression on the raw query string (without `?`), without
 * look-ahead, which Caddy's RE2 lacks: the parameter followed by the end, `&`, a character other
 * than `0`, or `0` and more.
 */
export function pastFirstPageRegex(paging: Paging): string {
  return `(^|&)${paging.param}=($|&|[^0&]|0[^&])`;
}

/** One answer for phones on one build: `/api/v1/<device>/<list>/<incremental>` (catalog/incremental.ts). */
export type IncrementalAnswer = { device: string; list: string; incremental: string };

/**
 * The route table of a site: {@link ENDPOINTS}, then the `request_paths` of site.yaml, each
 * answered by the listing of its `{list}` (or of its `list:`).
 */
export function endpoints(site: Site): Endpoint[] {
  return [
    ...ENDPOINTS,
    ...site.requestPaths.map((requestPath) => ({
      name: `request path ${requestPath.pattern}`,
      paths: [colonForm(requestPath.pattern)],
      file: requestPath.list ? fill(API_FILES.listing, { list: requestPath.list }) : API_FILES.listing,
      // {incremental} is the whole last segment of a request path (request-paths.ts), as in the built-in one.
      ...(requestPath.pattern.includes('{incremental}') && incrementalOf(requestPath.list)),
      ...(hasInSegmentPlaceholder(requestPath.pattern) && { perDevice: true }),
    })),
  ];
}

/**
 * The route table of a catalog: what every host's rules are generated from, computed once for all
 * of them from the site and what its devices compiled to. A host module reads it and nothing else.
 */
export interface RouteTable {
  site: Site;
  /** The device folders, in name order: hosts that cannot fall through take rules per device. */
  devices: readonly string[];
  /** The site's list names, in site.yaml order. */
  lists: readonly string[];
  /** {@link ENDPOINTS}, then the site's request paths ({@link endpoints}). */
  endpoints: readonly Endpoint[];
  /** The JSON 404 answers, most specific folder first, with a scope per device ({@link notFoundScopes}). */
  notFound: readonly NotFoundScope[];
  /** The JSON 404 scopes of the formats' files, which need no device ({@link formatNotFoundScopes}). */
  formatNotFound: readonly NotFoundScope[];
  /** The header rules ({@link headerRules}): `/api/*` first. */
  headerRules: readonly HeaderRule[];
  /** Headers of every answer under `/api/` ({@link apiHeaders}). */
  apiHeaders: Readonly<Record<string, string>>;
  /** The folders of the formats' files outside `/api/`, most specific first ({@link formatFolders}). */
  formatFolders: readonly string[];
  /** The patterns of the formats' files at the root (`/:device.json`), each once. */
  rootPatterns: readonly string[];
  /** The formats' files the build writes at the root (`/akita.json`), in device order. */
  rootFiles: readonly string[];
  /** The answers for phones on one build, in device order. */
  incrementals: readonly IncrementalAnswer[];
  /**
   * The zip names GrapheneOS's updater asks beside its channel files, each redirected (302) to its
   * download (render/formats.ts `channelDownloads`), in device order: a rule each where the host
   * can redirect; GitHub Pages and raw cannot (github-pages.ts says so).
   */
  redirects: readonly ZipRedirect[];
}

export type { ZipRedirect } from '../render/formats.js';

/**
 * What a build's devices add to the route table: their folders, their answers for phones on one
 * build, and the formats' files they write at the root. The self-hosted servers' rules need none.
 */
export interface CatalogRoutes {
  devices?: readonly string[];
  incrementals?: readonly IncrementalAnswer[];
  rootFiles?: readonly string[];
  redirects?: readonly ZipRedirect[];
}

/**
 * Refuses a redirect that one field of a rule file could not hold as it is: render/formats.ts
 * `channelDownloads` makes only paths of letters, digits and `._~+-/`, and only https
 * addresses of RFC 3986 characters (catalog/build-extras.ts), without the fragment.
 */
export function checkedRedirect(redirect: ZipRedirect): ZipRedirect {
  if (
    !/^\/[A-Za-z0-9._~+/-]+$/.test(redirect.from) ||
    !/^https:\/\/[\x21-\x7e]+$/.test(redirect.to) ||
    redirect.to.includes('#')
  )
    throw new Error(`cannot be written as a redirect rule: ${JSON.stringify(redirect)}`);
  return redirect;
}

/** The redirects of GrapheneOS's zip names for a compiled catalog's `listings` (a device's builds, as compiled), in device order. */
export function listingRedirects(site: Site, listings: readonly Listing[]): ZipRedirect[] {
  const devices = [...new Set(listings.map((l) => l.device))];
  return devices.flatMap(
    (device) =>
      channelDownloads(
        device,
        listings.filter((l) => l.device === device),
        site,
      ).redirects,
  );
}

/** The route table of `site` with what its devices add (none: the rules every device shares). */
export function routeTable(site: Site, catalog: CatalogRoutes = {}): RouteTable {
  const { devices = [], incrementals = [], rootFiles = [], redirects = [] } = catalog;
  return {
    site,
    devices,
    lists: site.lists.map((l) => l.name),
    endpoints: endpoints(site),
    notFound: notFoundScopes(site, devices),
    formatNotFound: formatNotFoundScopes(site),
    headerRules: headerRules(site),
    apiHeaders: apiHeaders(site),
    formatFolders: formatFolders(site),
    rootPatterns: [...new Set(rootFormatFiles(site).map((f) => f.path))],
    rootFiles,
    incrementals,
    redirects,
  };
}

/**
 * The folders whose misses answer a JSON 404, as patterns, most specific first: a miss under one
 * answers its `404.json` (Cloudflare: `404.html`, the same bytes), the nearest that exists.
 * Everything outside `/api/` keeps the HTML `404.html`. One folder for all of v2, not one per
 * device: each costs a Netlify rule per device, and v2 phones only ever ask for .../builds.
 */
export const NOT_FOUND_FOLDERS = ['/api/v1/:device/', '/api/v1/', '/api/v2/devices/', '/api/'] as const;

/**
 * JSON 404 answers, most specific folder first ({@link NOT_FOUND_FOLDERS} for the site's
 * devices): a miss under `folder` answers `message` in the v1 envelope.
 */
export function notFoundScopes(site: Site, devices: readonly string[]): NotFoundScope[] {
  const lists = site.lists.map((l) => l.name).join(', ');
  const messages: Record<(typeof NOT_FOUND_FOLDERS)[number], (device: string) => string> = {
    '/api/v1/:device/': (device) => `not found: ${device} has the lists ${lists}; ask for /api/v1/${device}/<list>/`,
    '/api/v1/': () => 'unknown device: no builds are published here for this device',
    '/api/v2/devices/': () =>
      'unknown device or path: v2 answers are /api/v2/devices/<device> and /api/v2/devices/<device>/builds for the devices in /api/v2/oems',
    '/api/': () =>
      'not found: listings are at /api/v1/<device>/<list>/ and /api/v2/devices/<device>/builds; /api/devices.json lists the devices',
  };
  return [
    ...formatNotFoundScopes(site),
    ...NOT_FOUND_FOLDERS.flatMap((folder) =>
      (folder.includes(':device') ? devices : ['']).map((device) => ({
        folder: fill(folder, { device }),
        message: messages[folder](device),
        file: fill(`${folder}404.json`, { device }),
      })),
    ),
  ];
}

/** A set of headers for every request path that matches `for` (`/api/*`: everything under `/api/`). */
export interface HeaderRule {
  for: string;
  values: Record<string, string>;
}

/**
 * The header rules of the site: both hosts' `_headers` and the preview server use them. Besides
 * `/api/*`, one per folder of the formats' files outside it (`/API/updater/*`; a text dialect's
 * folder with its content type, {@link folderType}), and one per
 * pattern of a format's file at the root (`/:device.json`): Cloudflare matches a rule's URL
 * pattern with `:device` as one segment's worth up to the `.` (wrangler 4.86.0, workers-shared
 * utils/rules-engine.ts `generateRuleRegExp`), so a page or another miss at the root keeps the HTML
 * headers, where `/*.json` (`*` takes slashes too) put the JSON type on the HTML 404 of
 * `/no/such/page.json` (measured with wrangler). One rule per pattern, not per file: a site has a
 * handful against Cloudflare's 100 (limits.ts). Netlify reads a placeholder as a whole segment,
 * and gets one rule per file there instead (netlify.ts).
 */
export function headerRules(site: Site): HeaderRule[] {
  const values = apiHeaders(site);
  return [
    { for: '/api/*', values },
    // A folder inside another (`/ota/vanilla/` in `/ota/`) is under that one's rule already:
    // Cloudflare Pages sends every matching rule's headers, joined (`*, *`: measured with wrangler).
    ...formatFolders(site)
      .filter((folder, _, all) => !all.some((outer) => outer !== folder && folder.startsWith(outer)))
      .map((folder) => ({
        for: `${folder}*`,
        values: { ...values, 'Content-Type': folderType(site, folder, values['Content-Type']) },
      })),
    ...[...new Set(rootFormatFiles(site).map((f) => f.path))].map((path) => ({ for: path, values })),
  ];
}

/** Content types by file extension, as Cloudflare sends them: the preview and the self-hosted servers use these. */
export const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  atom: 'application/atom+xml',
  rss: 'application/rss+xml',
  txt: 'text/plain; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'application/javascript',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  webmanifest: 'application/manifest+json',
};

/**
 * The answers for phones on one build that an endpoint's `incrementalFile` serves, each file once:
 * a path with a fixed list serves that list's answers only, and a file without `:list` (an answer
 * per device and build) serves one answer however many lists have it.
 */
export function answersOf(
  endpoint: Pick<Endpoint, 'incrementalFile' | 'incrementalList'>,
  incrementals: readonly IncrementalAnswer[],
): IncrementalAnswer[] {
  const files = new Set<string>();
  return incrementals.filter((answer) => {
    if (endpoint.incrementalList !== undefined && answer.list !== endpoint.incrementalList) return false;
    const file = fill(endpoint.incrementalFile!, answer);
    if (files.has(file)) return false;
    files.add(file);
    return true;
  });
}

// --- internal ---

/** Headers of every answer under `/api/`, listings and JSON 404s alike. */
function apiHeaders(site: Site): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Allow: 'GET, OPTIONS',
    Vary: 'Accept',
    'Cache-Control': site.cacheControl,
    // Public, read-only data that web clients (the LineageOS download portal, dashboards) read from
    // other origins; no credentials, so `*` is enough and no preflight is needed for a plain GET.
    'Access-Control-Allow-Origin': '*',
  };
}

/** The answers for phones on one build of a request path with `{incremental}`: of its `list`, or of the list asked. */
function incrementalOf(list: string | undefined): Pick<Endpoint, 'incrementalFile' | 'incrementalList'> {
  if (!list) return { incrementalFile: API_FILES.v1Incremental };
  return { incrementalFile: fill(API_FILES.v1Incremental, { list }), incrementalList: list };
}

/** `:name` of a `{name}` pattern (site.yaml's request paths): the route table's placeholder form. */
function colonForm(pattern: string): string {
  return pattern.replace(/\{([a-z]+)\}/g, ':$1');
}
