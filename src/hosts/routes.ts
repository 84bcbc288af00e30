/**
 * Wing `hosts/`: the route table (this file; the other formats' files: format-routes.ts) with
 * Cloudflare's rule files, Netlify's (netlify.ts), the files a build adds for the hosts
 * (host-files.ts; Cloudflare's worker: cloudflare-worker.ts), the self-hosted servers'
 * configurations (nginx.ts, caddy.ts, apache.ts, from server-rules.ts), and how a host answers a
 * request from a compiled tree (respond.ts). Pure. Imports only `render/` and `catalog/`.
 */
import { API_FILES, fill } from '../render/urls.js';
import type { Site } from '../catalog/site.js';
import { BUILT_IN_V1_PATHS, hasInSegmentPlaceholder } from '../catalog/request-paths.js';
import { SITE_FILE } from '../catalog/site.js';
import type { Problem } from '../catalog/problems.js';
import { formatFolder, ROOT_FORMAT_MISSES } from '../catalog/formats.js';
import { formatFolders, formatNotFoundScopes, problemAtFormat, rootFormatFiles, type NotFoundScope } from './format-routes.js';

export { formatFiles, formatFolders, formatNotFoundScopes, isRootFormatFile, matches, problemAtFormat, rootFormatFiles, type NotFoundScope } from './format-routes.js';

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
      ...(requestPath.pattern.includes('{incremental}') && { incrementalFile: requestPath.list ? fill(API_FILES.v1Incremental, { list: requestPath.list }) : API_FILES.v1Incremental }),
      ...(hasInSegmentPlaceholder(requestPath.pattern) && { perDevice: true }),
    })),
  ];
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
    '/api/v2/devices/': () => 'unknown device or path: v2 answers are /api/v2/devices/<device> and /api/v2/devices/<device>/builds for the devices in /api/v2/oems',
    '/api/': () => 'not found: listings are at /api/v1/<device>/<list>/ and /api/v2/devices/<device>/builds; /api/devices.json lists the devices',
  };
  return [
    ...formatNotFoundScopes(site),
    ...NOT_FOUND_FOLDERS.flatMap((folder) =>
      (folder.includes(':device') ? devices : ['']).map((device) => ({ folder: fill(folder, { device }), message: messages[folder](device), file: fill(`${folder}404.json`, { device }) })),
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
 * `/api/*`, one per folder of the formats' files outside it (`/API/updater/*`), and one per
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
    ...formatFolders(site).map((folder) => ({ for: `${folder}*`, values })),
    ...[...new Set(rootFormatFiles(site).map((f) => f.path))].map((path) => ({ for: path, values })),
  ];
}

/** Headers of every answer under `/api/`, listings and JSON 404s alike. */
export function apiHeaders(site: Site): Record<string, string> {
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
 * Cloudflare Pages `_redirects`: one rewrite (status 200) per request shape, with placeholders, so
 * the rule count stays the same for any number of devices (the limit is 100 dynamic rules). A miss
 * (unknown device or list) falls to the nearest `404.html` above the requested path. A request
 * path with a placeholder inside a segment takes one static rule per device and list (limit 2000).
 */
export function renderCloudflareRedirects(site: Site, devices: readonly string[], incrementals: readonly IncrementalAnswer[] = [], rootFiles: readonly string[] = []): string {
  const lines = ['# Generated by otapress from its route table; edit content/site.yaml, not this file.'];
  for (const [from, to] of cloudflareRules(site, devices, incrementals, rootFiles)) {
    // Fields are split at white space, and `#` starts a comment (wrangler's parseRedirects).
    for (const value of [from, to]) if (!/^\/[\x21-\x7e]*$/.test(value) || value.includes('#')) throw new Error(`cannot be written as one field of _redirects: ${JSON.stringify(value)}`);
    lines.push(`${from}  ${to}  200`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The rewrites of `_redirects` in order, as `[from, to]`. An endpoint with an `unknownDevice`
 * answer takes a static rule per device, and its placeholder rule, which Cloudflare tries only
 * after every static one, points at that answer (measured with wrangler). When those static rules would pass Cloudflare's
 * limit, they are left out and the endpoint gets its one placeholder rule: unknown devices then
 * answer the JSON 404 there, which is better than known devices past the limit answering `[]`.
 */
export function cloudflareRules(site: Site, devices: readonly string[], incrementals: readonly IncrementalAnswer[] = [], rootFiles: readonly string[] = []): [string, string][] {
  const lists = site.lists.map((l) => l.name);
  const rules = (answerUnknown: boolean) => {
    // The formats' files at the root (`rootFiles`, as written: `/akita.json`) each answer by a
    // rule to itself, and any other path of their shape by a rule to a path in
    // ROOT_FORMAT_MISSES: Cloudflare follows a rule whether a file exists or not, and answers a
    // rewrite to a missing file with the nearest 404.html above the path rewritten to
    // (developers.cloudflare.com/pages/configuration/redirects/, "Redirects are always followed";
    // measured with wrangler), here the JSON 404; a miss of any other shape keeps the HTML page.
    const out: [string, string][] = rootFiles.map((file) => [file, file]);
    for (const path of new Set(rootFormatFiles(site).map((f) => f.path))) out.push([path, `${ROOT_FORMAT_MISSES}missing`]);
    for (const endpoint of endpoints(site)) {
      for (const from of endpoint.paths) {
        // Each answer for phones on one build by its own rule, before the rule for every other build.
        if (endpoint.incrementalFile && from.includes(':incremental')) {
          for (const params of answersOf(endpoint.incrementalFile, incrementals)) out.push([fill(from, params), fill(endpoint.incrementalFile, params)]);
        }
        if (endpoint.perDevice) {
          for (const device of devices) for (const params of expand(from, device, lists)) out.push([fill(from, params), fill(endpoint.file, params)]);
        } else if (endpoint.unknownDevice && answerUnknown) {
          for (const device of devices) out.push([fill(from, { device }), fill(endpoint.file, { device })]);
          out.push([from, endpoint.unknownDevice]);
        } else out.push([from, endpoint.file]);
      }
    }
    // Every rule without placeholders first, in their order, then the others in theirs. Cloudflare
    // reads a rule without placeholders as static only before the first one with them, counts
    // every later rule as dynamic and skips the rest of the file past 100 of those (wrangler
    // 4.86.0, workers-shared utils/configuration/parseRedirects.ts, `canCreateStaticRule`; "static
    // redirects should appear before dynamic redirects", developers.cloudflare.com/pages/configuration/redirects/):
    // per-device rules after a placeholder rule would each count as dynamic, and a site of a few
    // dozen devices would lose its last rules. Static rules are looked up by path before any
    // dynamic one is tried (metadata `staticRules`), so this order answers every path as meant.
    return [...out.filter(isStaticRule), ...out.filter((rule) => !isStaticRule(rule))];
  };
  const all = rules(true);
  return staticRules(all) <= CLOUDFLARE_REDIRECT_LIMITS.static ? all : rules(false);
}

/** Cloudflare Pages' limits on `_redirects`: rules without placeholders, and rules with them. */
export const CLOUDFLARE_REDIRECT_LIMITS = { static: 2000, dynamic: 100 } as const;

/**
 * The request paths that take one `_redirects` rule per device and list, when together they pass
 * Cloudflare's limit of static rules: reported at the first of them (Cloudflare would ignore the
 * rules past the limit, and phones of the devices sorted last would get 404s).
 */
export function cloudflareRuleProblems(site: Site, devices: readonly string[], incrementals: readonly IncrementalAnswer[] = [], rootFiles: readonly string[] = []): Problem[] {
  const perDevice = site.requestPaths.filter((r) => hasInSegmentPlaceholder(r.pattern));
  if (perDevice.length === 0 && incrementals.length === 0 && rootFiles.length === 0) return [];
  const rules = cloudflareRules(site, devices, incrementals, rootFiles);
  const counts = { static: staticRules(rules), dynamic: rules.length - staticRules(rules) };
  if (counts.static <= CLOUDFLARE_REDIRECT_LIMITS.static) return [];
  if (rootFiles.length > 0 && staticRules(cloudflareRules(site, devices, incrementals)) <= CLOUDFLARE_REDIRECT_LIMITS.static) {
    const format = site.formats.find((f) => formatFolder(f.path) === undefined)!;
    return [
      problemAtFormat(
        format,
        `the formats' files at the root (${rootFiles.length}, one per device and list) take one _redirects rule each on Cloudflare Pages, so that a missing one answers the JSON 404: ${counts.static} static rules, over its limit of ${CLOUDFLARE_REDIRECT_LIMITS.static}; put the format in a folder of its own, e.g. /API/updater/{device}.json, which takes no rule per device`,
      ),
    ];
  }
  if (perDevice.length === 0) {
    return [
      {
        file: SITE_FILE,
        line: 1,
        col: 1,
        field: '(incremental packages)',
        message: `the answers for phones on one build (${incrementals.length}, one per list and build an incremental package applies on) take one _redirects rule each on Cloudflare Pages: ${counts.static} static rules (with the site-wide ones), over its limit of ${CLOUDFLARE_REDIRECT_LIMITS.static}; remove the manifests of incremental packages from builds few phones still run`,
      },
    ];
  }
  const { line, col, pattern } = perDevice[0];
  const field = `request_paths.${site.requestPaths.indexOf(perDevice[0])}`;
  return [
    {
      file: SITE_FILE,
      line,
      col,
      field,
      message: `${pattern} takes one _redirects rule per device and list on Cloudflare Pages (a placeholder beside fixed text cannot be one rule there): ${counts.static} static rules for ${devices.length} devices, over its limit of ${CLOUDFLARE_REDIRECT_LIMITS.static}; use a path of whole segments such as /api/v1/legacy/{device}/{list}, which is one rule for every device`,
    },
  ];
}

/** Cloudflare Pages `_headers`: the API headers on everything under `/api/`, and on the formats' files outside it. */
export function renderCloudflareHeaders(site: Site): string {
  const rules = headerRules(site).map((rule) => [rule.for, ...Object.entries(rule.values).map(([name, value]) => `  ${name}: ${value}`)].join('\n'));
  return `# Generated by otapress; edit content/site.yaml, not this file.\n${rules.join('\n')}\n`;
}

/**
 * The answer to `OPTIONS` where a header rule declares `Allow` (`options_handler: true`): 204 with
 * that rule's headers except `Content-Type`, as there is no body. Cloudflare answers 405 for
 * `OPTIONS` on a static asset, so only code can give this answer.
 */
export function optionsAnswers(site: Site): { for: string; headers: Record<string, string> }[] {
  if (!site.optionsHandler) return [];
  // Not at the root: `_routes.json`, which sends requests to the worker, has `*` but no
  // placeholders (developers.cloudflare.com/pages/functions/routing/), and `/*` would bill every page.
  return headerRules(site)
    .filter((rule) => 'Allow' in rule.values && !rule.for.includes(':'))
    .map((rule) => ({ for: rule.for, headers: Object.fromEntries(Object.entries(rule.values).filter(([name]) => name !== 'Content-Type')) }));
}

// --- internal ---

/** `:name` of a `{name}` pattern (site.yaml's request paths): the route table's placeholder form. */
function colonForm(pattern: string): string {
  return pattern.replace(/\{([a-z]+)\}/g, ':$1');
}

function expand(pattern: string, device: string, lists: readonly string[]): Record<string, string>[] {
  return pattern.includes(':list') ? lists.map((list) => ({ device, list })) : [{ device }];
}

/**
 * The answers for phones on one build that an endpoint's `incrementalFile` serves: a request path
 * with a fixed list serves that list's answers only.
 */
/** The answers for phones on one build that `incrementalFile` (an endpoint's pattern) names. */
export function answersOf(incrementalFile: string, incrementals: readonly IncrementalAnswer[]): IncrementalAnswer[] {
  return incrementals.filter((answer) => fill(incrementalFile, answer) === fill(API_FILES.v1Incremental, answer));
}

/** Rules without placeholders, which Cloudflare counts against its static limit. */
function staticRules(rules: readonly [string, string][]): number {
  return rules.filter(isStaticRule).length;
}

/** A rule without placeholders or splats: Cloudflare counts it against its static limit. */
function isStaticRule([from]: readonly [string, string]): boolean {
  return !/[:*]/.test(from);
}
