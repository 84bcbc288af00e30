// The table of requests every host must answer the same way (Cloudflare's runtime, Netlify's rule
// engine, the preview server, nginx, Caddy, Apache). It is generated from the route table in
// src/hosts/routes.ts (endpoints(site), with site.yaml's request paths, and notFoundScopes) and the
// compiled example catalog, so a new endpoint is probed without editing
// the tests: every device × list × request shape answers 200 with its file; unknown devices answer
// the endpoint's `unknownDevice` file with 200 where it has one (v2 builds: `[]`), else, like
// unknown lists and too-deep paths, the JSON 404 of the nearest scope; other misses, HTML. Every
// JSON answer, 404s included, carries `Access-Control-Allow-Origin: *`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileSite, type CompiledSite } from '../../src/pipeline/build.js';
import type { Content } from '../../src/catalog/read.js';
import { endpoints, formatFiles, notFoundScopes } from '../../src/hosts/routes.js';
import { DIALECT_SETTINGS } from '../../src/catalog/dialects.js';
import { formatFolder, ROOT_FORMAT_MISSES } from '../../src/catalog/formats.js';
import { fill } from '../../src/render/urls.js';

/** One request and what every host must answer. */
export interface Probe {
  method: 'GET' | 'HEAD';
  /** Path and query as sent. */
  path: string;
  /** What the row is about, for test names. */
  what: string;
  status: 200 | 404;
  /** `json`: the API headers apply; `html`: the site's HTML 404 page. */
  kind: 'json' | 'html';
  /** The dist file (relative, Cloudflare layout) whose bytes are the body. */
  file: string;
  /** For JSON 404s: the scope folder whose message answers; none for a page past a paged answer's first. */
  scope?: string;
  /** For JSON 404s: the file the hosts but Cloudflare serve for the scope (`<folder>404.json`, or a format folder's `404.html`). */
  scopeFile?: string;
  /** The Content-Type when not the API's: a text dialect's folder (AOSPA's), its misses too. */
  contentType?: string;
  /** The file is served at the path asked, by no rewrite rule (the formats' files). */
  atItsPath?: true;
  /**
   * A miss of a format's file at the root (`/no-such-device.json`): the JSON 404 of
   * ROOT_FORMAT_MISSES where the host can tell it from other misses at the root; Netlify cannot
   * (a placeholder there is a whole path segment), and answers its HTML 404 page.
   */
  rootFormat?: true;
}

/** The headers every JSON answer carries, as a phone sees them (the example catalog's settings). */
const API_HEADERS = {
  'content-type': 'application/json',
  allow: 'GET, OPTIONS',
  vary: 'Accept',
  'access-control-allow-origin': '*',
} as const;
export const LISTING_CACHE_CONTROL = 'public, max-age=300';
/** What a text dialect's files are sent as (AOSPA's Compose Hub reads `text/*` only). */
const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';

/**
 * Extra request paths for site.yaml: a placeholder beside fixed text (one static rule
 * per device and list on Cloudflare), a path without {list} that answers one list, and a path of
 * whole segments (one placeholder rule on Cloudflare). Appended to the example's site.yaml by the
 * suites that run the table with them.
 */
export const REQUEST_PATHS_YAML = `
request_paths:
  - /api/v1/{device}_{list}
  - path: /api/v1/{device}.json
    list: stable
  - /api/v1/legacy/{device}/{list}/{incremental}
`;

/**
 * The other updater families' files (site.yaml `formats`): the crDroid family's at its default
 * path, one per list, and the PixelExperience family's for one list at a path of its own, both
 * under /api/. Appended to the example's site.yaml by the suites that run the table with them.
 */
export const FORMATS_YAML = `
formats:
  crdroid: {}
  pixelexperience:
    lists: [stable]
    path: /api/updater/{device}.json
`;

/**
 * The same families' files where phones in the field look on other servers: crDroid's OTA
 * repository serves `/<device>.json` at its root, PixelOS's `/API/updater/<device>.json` (upper
 * case, beside otapress's own /api/), AOSPA's `/aospa/updates/<device>` as text, RisingOS's a folder
 * per list in capitals (`/OTA/device/GAPPS/<device>.json`: here STABLE/ and DEV/), and a path per
 * list that differ by a folder, not by the list's name, as Project Infinity-X's GAPPS and
 * `vanilla/` files do (here /builds/ and the /builds/vanilla/ inside it). Appended by the suites that
 * run the table with request paths.
 */
export const FORMATS_OUTSIDE_API_YAML = `
formats:
  crdroid:
    lists: [stable]
    path: /{device}.json
  pixelexperience:
    lists: [stable]
    path: /API/updater/{device}.json
  aospa:
    lists: [stable]
  md5-six:
    lists: [stable, dev]
    path: /OTA/device/{LIST}/{device}.json
  crdroid-java:
    path:
      stable: /builds/{device}.json
      dev: /builds/vanilla/{device}.json
`;

export function hostTable(compiled: CompiledSite): Probe[] {
  const site = compiled.site!;
  const devices = [...new Set(compiled.listings.map((l) => l.device))];
  const lists = site.lists.map((l) => l.name);
  const scopes = notFoundScopes(site, devices).sort((a, b) => b.folder.length - a.folder.length);
  const probes = new Map<string, Probe>();
  const textFolders = site.formats.flatMap((f) =>
    DIALECT_SETTINGS[f.family].type === 'text' ? [formatFolder(f.path)!] : [],
  );
  const add = (probe: Probe) => {
    const text = probe.kind === 'json' && textFolders.some((folder) => probe.path.startsWith(folder));
    probes.set(`${probe.method} ${probe.path}`, text ? { ...probe, contentType: TEXT_CONTENT_TYPE } : probe);
  };

  // The answers for phones on one build (an incremental package applies on it): their files.
  const answers = compiled.files.flatMap((f) => {
    const m = /^api\/v1\/([^/]+)\/([^/]+)\/([^/]+)\.json$/.exec(f.path);
    return m && m[3] !== 'index' ? [{ device: m[1], list: m[2], incremental: m[3] }] : [];
  });
  const hasAnswer = (device: string, incremental: string) =>
    answers.some((a) => a.device === device && a.incremental === incremental);
  // What a phone appends: a real incremental from the listing (or the device) that no incremental
  // package applies on, else a timestamp.
  const incremental = (device: string, list?: string) =>
    compiled.listings
      .find((l) => l.device === device && l.list === list)
      ?.builds.find((b) => b.incremental && !hasAnswer(device, b.incremental))?.incremental ??
    compiled.builds.find((b) => b.device === device && b.incremental && !hasAnswer(device, b.incremental))
      ?.incremental ??
    '1731067200';
  const fillAll = (pattern: string, params: Record<string, string>) =>
    fill(fill(pattern, params), { [freeName(pattern)]: incremental(params.device, params.list) });

  const table = endpoints(site);
  for (const endpoint of table) {
    for (const params of expansions(endpoint.file, devices, lists)) {
      const file = fill(endpoint.file, params).slice(1);
      for (const shape of endpoint.paths) {
        const path = fillAll(shape, params);
        for (const sent of shape.endsWith('/') ? [path, `${path}?format=api`] : [path]) {
          for (const method of ['GET', 'HEAD'] as const)
            add({ method, path: sent, what: `${endpoint.name} ${shape}`, status: 200, kind: 'json', file });
        }
      }
    }
  }

  // A phone on a build an incremental package applies on asks with its incremental and gets its
  // own answer, on every request shape that carries {incremental}: v1's of its list, v2's of its device.
  const written = new Set(compiled.files.map((f) => f.path));
  for (const endpoint of table.filter((e) => e.incrementalFile)) {
    for (const answer of answers) {
      const file = fill(endpoint.incrementalFile!, answer).slice(1);
      if (!written.has(file)) continue;
      for (const shape of endpoint.paths.filter((p) => p.includes(':incremental'))) {
        for (const method of ['GET', 'HEAD'] as const)
          add({
            method,
            path: fill(shape, answer),
            what: `${endpoint.name} ${shape} on a build an incremental package applies on`,
            status: 200,
            kind: 'json',
            file,
          });
      }
    }
  }

  // The download portal pages through /api/v2/changes with ?page=0, 1, ... until an answer is not
  // 2xx: a paged endpoint answers its file for the first page (no parameter, or 0) and its
  // past-the-end file with 404 for any other value, a number or not.
  for (const endpoint of table.filter((e) => e.paging)) {
    const { param, past } = endpoint.paging!;
    for (const shape of endpoint.paths) {
      for (const method of ['GET', 'HEAD'] as const) {
        add({
          method,
          path: `${shape}?${param}=0`,
          what: `${endpoint.name}: the first page`,
          status: 200,
          kind: 'json',
          file: endpoint.file.slice(1),
        });
        for (const value of ['1', 'x'])
          add({
            method,
            path: `${shape}?${param}=${value}`,
            what: `${endpoint.name}: past the first page`,
            status: 404,
            kind: 'json',
            file: past.slice(1),
          });
      }
    }
  }

  const notFound = (path: string, what: string, rootFormat = false) => {
    const scope = rootFormat
      ? scopes.find((s) => s.folder === ROOT_FORMAT_MISSES)
      : scopes.find((s) => path.startsWith(s.folder));
    if (rootFormat && scope)
      return add({
        method: 'GET',
        path,
        what,
        status: 404,
        kind: 'json',
        file: `${scope.folder.slice(1)}404.html`,
        scope: scope.folder,
        scopeFile: scope.file,
        rootFormat: true,
      });
    add(
      scope
        ? {
            method: 'GET',
            path,
            what,
            status: 404,
            kind: 'json',
            file: `${scope.folder.slice(1)}404.html`,
            scope: scope.folder,
            scopeFile: scope.file,
          }
        : { method: 'GET', path, what, status: 404, kind: 'html', file: '404.html' },
    );
  };
  const known = { device: devices[0], list: lists[0] };
  const builtIn = new Set(endpoints({ ...site, requestPaths: [] }));
  for (const endpoint of table) {
    for (const shape of endpoint.paths) {
      if (shape.includes(':device')) {
        const path = fillAll(shape, { ...known, device: 'no-such-device' });
        if (endpoint.unknownDevice) {
          for (const method of ['GET', 'HEAD'] as const)
            add({
              method,
              path,
              what: `${endpoint.name}: unknown device`,
              status: 200,
              kind: 'json',
              file: endpoint.unknownDevice.slice(1),
            });
        } else notFound(path, `${endpoint.name}: unknown device`);
      }
      // An unknown list on a request path of whole segments answers a JSON 404 whose message
      // differs by host (Cloudflare looks up from the listing it rewrote to, Netlify from the path
      // asked); beside fixed text the list is part of the rule and every host agrees.
      const listRow = builtIn.has(endpoint) || endpoint.perDevice;
      if (shape.includes(':list') && listRow)
        notFound(fillAll(shape, { ...known, list: 'no-such-list' }), `${endpoint.name}: unknown list`);
    }
    const depth = (shape: string) => shape.split('/').filter(Boolean).length;
    const deepest = endpoint.paths.reduce((a, b) => (depth(b) > depth(a) ? b : a));
    notFound(`${fillAll(deepest, known).replace(/\/$/, '')}/one/more`, `${endpoint.name}: deeper than a phone asks`);
  }
  // The formats' files are served at their own paths; a device without one (an unknown device, or a
  // PixelExperience-family list with no build to offer) answers the JSON 404 of its scope: its
  // folder's, or at the root ROOT_FORMAT_MISSES'. A folder outside /api/ is its own, whatever the
  // case: `/API/updater/` is not `/api/updater/`, where a file is a miss under /api/.
  for (const format of formatFiles(site)) {
    const atRoot = format.folder === undefined;
    for (const device of devices) {
      const path = fill(format.path, { device });
      if (written.has(path.slice(1)))
        for (const method of ['GET', 'HEAD'] as const)
          add({ method, path, what: format.name, status: 200, kind: 'json', file: path.slice(1), atItsPath: true });
      else notFound(path, `${format.name}: no build to offer`, atRoot);
      if (!atRoot && path.toLowerCase() !== path && written.has(path.slice(1)))
        notFound(path.toLowerCase(), `${format.name}: its path in lower case, another folder`);
    }
    notFound(fill(format.path, { device: 'no-such-device' }), `${format.name}: unknown device`, atRoot);
  }
  for (const scope of scopes) notFound(`${scope.folder}no/such/path`, `miss under ${scope.folder}`);
  notFound('/no-such-page', 'miss outside the API');
  notFound('/no/such/page.html', 'miss outside the API');
  notFound('/no/such/page.json', "miss outside the API, of no format's shape");
  return [...probes.values()];
}

/** The example catalog compiled with `extraYaml` appended to its site.yaml (as the suites do on disk), and `manifests` added. */
export function compileWith(content: Content, extraYaml: string, manifests: Record<string, string> = {}): CompiledSite {
  return compileSite(
    withManifests({ ...content, site: Buffer.concat([content.site!, Buffer.from(extraYaml)]) }, manifests),
  );
}

/**
 * An incremental package of the example catalog: FP4's 2.6.3 (Android 14) for phones on its 2.5,
 * as `content/`-relative path and text. The suites add it to run the host table over the answers
 * for phones on one build; the golden tree is the example without it.
 */
export const INCREMENTAL_EXAMPLE: Record<string, string> = {
  'FP4/e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.yaml': `filename: e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.zip
version: "2.6.3"
channel: official
timestamp: 1734692400
android_version: "14"
incremental: "eng.root.20241220.110000"
source_incremental: "eng.root.20241108.123456"
md5sum: 0f1e2d3c4b5a69788796a5b4c3d2e1f0
id: 5a3c1e9b7d5f3a1c9e7b5d3f1a9c7e5b3d1f9a7c5e3b1d9f7a5c3e1b9d7f5a3c
size: 73400320
`,
};

/** `content` with `manifests` (`content/`-relative paths) added, as readContent would read them. */
function withManifests(content: Content, manifests: Record<string, string>): Content {
  const added = Object.entries(manifests).map(([file, text]) => ({
    file: `content/${file}`,
    device: file.split('/')[0],
    bytes: Buffer.from(text),
  }));
  if (added.length === 0) return content;
  return {
    ...content,
    manifests: [...content.manifests, ...added].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
  };
}

/** Writes `manifests` into the catalog at `root` (the suites' copies of the example). */
export function writeManifests(root: string, manifests: Record<string, string>): void {
  for (const [file, text] of Object.entries(manifests)) writeFileSync(path.join(root, 'content', file), text);
}

/** A row's name in test output. */
export function describeProbe(p: Probe): string {
  return `${p.method} ${p.path} → ${p.status} (${p.what})`;
}

// --- internal ---

function expansions(file: string, devices: readonly string[], lists: readonly string[]): Record<string, string>[] {
  if (file.includes(':list')) return devices.flatMap((device) => lists.map((list) => ({ device, list })));
  if (file.includes(':device')) return devices.map((device) => ({ device }));
  return [{}];
}

/** The name of the one free placeholder of a path (not :device or :list), if any. */
function freeName(pattern: string): string {
  return [...pattern.matchAll(/:([a-z]+)/g)].map((m) => m[1]).find((n) => n !== 'device' && n !== 'list') ?? '-';
}

/** What a test compares for one answer: status, the headers a phone depends on, and the body. */
export interface Seen {
  status: number;
  contentType: string | null;
  allow: string | null;
  vary: string | null;
  cacheControl: string | null;
  /** `Access-Control-Allow-Origin`: web clients on other origins (the download portal) read the API. */
  allowOrigin: string | null;
  location: string | null;
  body: string;
}

/** `Cache-Control` of 404 answers differs by host: Cloudflare forces `no-store`, Netlify sends its header rules. */
export interface NotFoundCaching {
  json: string | null;
  html: string | null;
}

/**
 * `Access-Control-Allow-Origin` outside the API differs by host: Cloudflare Pages sends `*` on every
 * static asset by default (measured with wrangler; the preview does the same), the others nothing.
 */
export const CLOUDFLARE_PAGE_ALLOW_ORIGIN = '*';

/** What every host must answer for `probe`, given the body file's text; `pageAllowOrigin`: see {@link CLOUDFLARE_PAGE_ALLOW_ORIGIN}. */
export function expectedAnswer(
  probe: Probe,
  fileText: string,
  notFound: NotFoundCaching,
  pageAllowOrigin: string | null = null,
): Seen {
  const body = probe.method === 'HEAD' ? '' : fileText;
  if (probe.kind === 'html') {
    return {
      status: 404,
      contentType: 'text/html; charset=utf-8',
      allow: null,
      vary: null,
      cacheControl: notFound.html,
      allowOrigin: pageAllowOrigin,
      location: null,
      body,
    };
  }
  return {
    status: probe.status,
    contentType: probe.contentType ?? API_HEADERS['content-type'],
    allow: API_HEADERS.allow,
    vary: API_HEADERS.vary,
    cacheControl: probe.status === 200 ? LISTING_CACHE_CONTROL : notFound.json,
    allowOrigin: API_HEADERS['access-control-allow-origin'],
    location: null,
    body,
  };
}

/** Sends `probe` without following redirects and records what came back. */
export async function observe(baseUrl: string, method: string, path: string): Promise<Seen> {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    redirect: 'manual',
    headers: { Accept: 'application/json' },
  });
  const get = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    contentType: get('content-type'),
    allow: get('allow'),
    vary: get('vary'),
    cacheControl: get('cache-control'),
    allowOrigin: get('access-control-allow-origin'),
    location: get('location'),
    body: await response.text(),
  };
}

/**
 * OPTIONS requests: one per request shape of the first device and list, and one outside the API.
 * Without `options_handler` Cloudflare answers 405 (measured); with it, 204 and the API headers.
 */
export function optionsProbes(compiled: CompiledSite): { path: string; api: boolean }[] {
  const rows = hostTable(compiled).filter((p) => p.method === 'GET' && p.status === 200);
  const firstFile = rows[0].file;
  return [
    ...rows.filter((p) => p.file === firstFile).map((p) => ({ path: p.path, api: true })),
    { path: '/', api: false },
  ];
}
