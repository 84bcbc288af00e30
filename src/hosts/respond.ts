import { fill } from '../render/urls.js';
import { renderEnvelope } from '../render/v1.js';
import { CONTENT_TYPES, isRootFormatFile, matches, pastFirstPage, routeTable } from './routes.js';
import type { HeaderRule, Paging, RouteTable, ZipRedirect } from './routes.js';
import { optionsAnswers } from './cloudflare-worker.js';
import { ROOT_FORMAT_MISSES } from '../catalog/formats.js';
import { toRegex } from './server-rules.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from '../render/output.js';

/**
 * A compiled site as the preview server serves it: the output files by URL path (`/api/...`) and
 * the settings the routes depend on. How it was produced (a full build, an incremental one) does
 * not matter to {@link respond}.
 */
export interface ServedTree {
  site: Site;
  /** Output files keyed by URL path with a leading slash. Cloudflare's rule files are not served. */
  files: ReadonlyMap<string, string | Uint8Array>;
  /** GrapheneOS's zip names, each to its download (routes.ts `RouteTable.redirects`), as `_redirects` sends them. */
  redirects?: ReadonlyMap<string, string>;
}

/** One HTTP answer: status, headers (names as the hosts spell them) and body (empty for HEAD). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** Makes a {@link ServedTree} from the files of a compiled site. */
export function servedTree(
  site: Site,
  files: readonly OutputFile[],
  redirects: readonly ZipRedirect[] = [],
): ServedTree {
  const served = new Map<string, string | Uint8Array>();
  for (const file of files) if (!HOST_CONTROL_FILES.has(file.path)) served.set(`/${file.path}`, file.contents);
  return { site, files: served, redirects: new Map(redirects.map((r) => [r.from, r.to])) };
}

/**
 * Answers a request the way Cloudflare Pages serves the built `dist/` (its asset server, as
 * measured with wrangler): the route table's rewrites first (no fall-through, no redirect), then
 * the method check (405 for anything but GET and HEAD, unless `options_handler` answers OPTIONS),
 * then the file, then the nearest `404.html` above the rewritten path. Headers come from the same
 * header rules as `_headers`, matched against the requested path; every 404 gets
 * `Cache-Control: no-store`, as Cloudflare forces. Netlify gives the same answers for the API's
 * paths (see the README, "Verified on the hosts' engines").
 */
export function respond(tree: ServedTree, method: string, url: string): Answer {
  const target = requestTarget(url);
  if (!target)
    return errorAnswer(
      400,
      method,
      'bad request: the request target is not a path; ask for one such as /api/v1/<device>/<list>/',
    );
  const { pathname: requested, search } = target;
  const table = tableOf(tree.site);
  const rules = table.headerRules;
  const finish = (
    status: number,
    body: string | Uint8Array,
    type?: string,
    extra: Record<string, string> = {},
  ): Answer => {
    // Cloudflare Pages sends Access-Control-Allow-Origin: * on every static asset (measured with wrangler).
    const headers: Record<string, string> = {
      ...(type && { 'Content-Type': type }),
      ...extra,
      'Access-Control-Allow-Origin': '*',
    };
    if (status === 200 && type) headers['Cache-Control'] = 'public, max-age=0, must-revalidate';
    Object.assign(headers, headersFor(rules, requested));
    if (status === 404) headers['Cache-Control'] = 'no-store';
    return { status, headers, body: method === 'HEAD' ? '' : body };
  };
  const redirect = (location: string): Answer => finish(308, '', undefined, { Location: location });

  if (method === 'OPTIONS') {
    const answer = optionsAnswers(table).find((a) => matches(a.for, requested));
    if (answer) return { status: 204, headers: { ...answer.headers }, body: '' };
  }
  // A redirect of `_redirects` (GrapheneOS's zip names), which Cloudflare follows before any file,
  // sending the address as a URL parser writes it (`'` in a query as %27: measured with wrangler).
  const download = tree.redirects?.get(requested);
  if (download !== undefined && (method === 'GET' || method === 'HEAD'))
    return { status: 302, headers: { Location: new URL(download).href }, body: '' };
  const rewritten = rewrite(tree, requested, search);
  let pathname = rewritten?.target ?? requested;
  if (method !== 'GET' && method !== 'HEAD') return finish(405, '');
  pathname = safeDecode(pathname);

  const file = (p: string) => tree.files.get(p);
  // A page after the first of a paged answer (Cloudflare's worker): its past-the-end file, with 404.
  if (rewritten?.past && file(rewritten.past) !== undefined)
    return finish(404, file(rewritten.past)!, contentType(rewritten.past));
  const serve = (p: string) => finish(200, file(p)!, contentType(p));
  const notFound = (): Answer => {
    for (let dir = pathname; dir;) {
      dir = dir.slice(0, dir.lastIndexOf('/'));
      const page = `${dir}/404.html`;
      if (file(page) !== undefined) return finish(404, file(page)!, contentType(page));
    }
    // No 404.html anywhere: Cloudflare treats the site as a single-page app.
    if (file('/index.html') !== undefined) return serve('/index.html');
    return finish(404, '');
  };

  if (pathname.endsWith('/')) {
    if (file(`${pathname}index.html`) !== undefined) return serve(`${pathname}index.html`);
    if (pathname !== '/' && file(`${pathname.slice(0, -1)}.html`) !== undefined)
      return redirect(`${pathname.slice(0, -1)}${search}`);
    return notFound();
  }
  if (file(pathname) !== undefined) {
    if (!pathname.endsWith('.html')) return serve(pathname);
    const extensionless = pathname.slice(0, -'.html'.length);
    if (extensionless.endsWith('/index')) return redirect(`${extensionless.slice(0, -'index'.length)}${search}`);
    if (file(extensionless) !== undefined) return serve(pathname);
    return redirect(`${extensionless}${search}`);
  }
  if (file(`${pathname}.html`) !== undefined) return serve(`${pathname}.html`);
  if (file(`${pathname}/index.html`) !== undefined) return redirect(`${pathname}/${search}`);
  return notFound();
}

/**
 * An error answer of the preview itself: `status` with the JSON envelope the API's errors have,
 * `message` as its `error`, never cached. A request target that is not a path answers 400
 * through it: nothing a client sends may stop the preview.
 */
export function errorAnswer(status: number, method: string, message: string): Answer {
  return {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    body: method === 'HEAD' ? '' : renderEnvelope([], message),
  };
}

// --- internal ---

/**
 * The path and query of a request target (RFC 9112 §3.2), normalised as the hosts do (`..`
 * segments resolved, characters percent-encoded): an origin-form target (`/path?query`) is read
 * as a path under a fixed host, so a `//` at its start is never taken for an authority (`//%5B`
 * made `new URL(target, base)` throw); an absolute-form one (`http://host/path`) must be a valid
 * URL. Anything else (`*`, `host:port`, a broken absolute URL) is undefined: a 400.
 */
function requestTarget(url: string): { pathname: string; search: string } | undefined {
  try {
    if (url.startsWith('/')) {
      const { pathname, search } = new URL(`http://preview.invalid${url}`);
      return { pathname, search };
    }
    if (/^https?:\/\//i.test(url)) {
      const { pathname, search } = new URL(url);
      return { pathname, search };
    }
  } catch {
    // An absolute-form target that is not a URL: a 400 below.
  }
  return undefined;
}

/** Files that steer the host and are never served (Cloudflare does not publish them either). */
const HOST_CONTROL_FILES = new Set(['_redirects', '_headers', '_worker.js', '_routes.json']);

/** The route table as matchers, in the order `_redirects` lists them: the first match wins. */
function rewrites(site: Site): Rewrite[] {
  let cached = REWRITES.get(site);
  if (!cached) {
    const { lists, endpoints } = tableOf(site);
    cached = endpoints.flatMap((endpoint) =>
      endpoint.paths.map((path) => {
        // Cloudflare has a static rule per device and list for these: only list names match.
        const { regex, groups } = toRegex(path, true, endpoint.perDevice ? lists : undefined);
        const forBuild = endpoint.incrementalFile !== undefined && path.includes(':incremental');
        const file = forBuild ? endpoint.incrementalFile! : endpoint.file;
        return {
          pattern: new RegExp(regex),
          names: groups,
          file,
          perDevice: endpoint.perDevice ?? false,
          unknownDevice: endpoint.unknownDevice,
          paging: endpoint.paging,
          ...(forBuild && { fallback: endpoint.file }),
        };
      }),
    );
    REWRITES.set(site, cached);
  }
  return cached;
}

interface Rewrite {
  pattern: RegExp;
  names: string[];
  file: string;
  perDevice: boolean;
  unknownDevice?: string;
  paging?: Paging;
  fallback?: string;
}

const REWRITES = new WeakMap<Site, Rewrite[]>();

/** The route table of a served site, made once per site (no devices: the tree's files say which exist). */
function tableOf(site: Site): RouteTable {
  let table = TABLES.get(site);
  if (!table) TABLES.set(site, (table = routeTable(site)));
  return table;
}

const TABLES = new WeakMap<Site, RouteTable>();

/** The file a request path is rewritten to, and for a page past the first of a paged answer, the file that answers it with 404. */
function rewrite(tree: ServedTree, pathname: string, search: string): { target: string; past?: string } | undefined {
  // A format's file at the root: Cloudflare has a rule to itself for each one written, and one
  // for any other path of its shape to ROOT_FORMAT_MISSES, whose 404.html is the JSON 404
  // (cloudflare.ts `cloudflareRules`).
  if (isRootFormatFile(tree.site, pathname))
    return { target: tree.files.has(pathname) ? pathname : `${ROOT_FORMAT_MISSES}missing` };
  for (const { pattern, names, file, perDevice, unknownDevice, paging, fallback } of rewrites(tree.site)) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, match[i + 1]]));
    const target = fill(file, params);
    // Cloudflare has a static rule for each answer of one build before the rule to the listing.
    if (fallback && !tree.files.has(target)) return { target: fill(fallback, params) };
    // A static rule exists only for the devices that have the listing.
    if (perDevice && !tree.files.has(target)) continue;
    // Cloudflare has a static rule per device before the one that answers the others.
    if (unknownDevice && !tree.files.has(target)) return { target: unknownDevice };
    return { target, ...(paging && pastFirstPage(paging, search) && { past: paging.past }) };
  }
  return undefined;
}

/** `_headers` semantics: every rule whose pattern matches the requested path, later ones winning. */
function headersFor(rules: readonly HeaderRule[], pathname: string): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => matches(rule.for, pathname)).map((rule) => rule.values));
}

function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function contentType(pathname: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
