/**
 * The route table as the self-hosted servers need it (nginx, Caddy, Apache): every request shape
 * as a regular expression with one capture per placeholder, the folders whose misses answer a JSON
 * 404, and the headers. The rules are generic: a pattern for every device and list, so a new
 * device needs no new configuration. Pure.
 */
import {
  checkedRedirect,
  NOT_FOUND_FOLDERS,
  CONTENT_TYPES,
  pastFirstPageRegex,
  type Endpoint,
  type RouteTable,
  type ZipRedirect,
} from './routes.js';
import { ROOT_FORMAT_MISSES } from '../catalog/formats.js';
import { folderType } from './format-routes.js';

/** A request shape: the path as an anchored regular expression, and the file that answers it. */
export interface ServerRewrite {
  /** The endpoint's name, for comments. */
  name: string;
  /** The request path pattern as the route table writes it (`/api/v1/:device/:list/`). */
  shape: string;
  /** `^/api/v1/([^/]+)/([^/]+)/$`: one group per placeholder, in the order of `groups`. */
  regex: string;
  /** The placeholder names, in group order. */
  groups: string[];
  /** The answering file with its placeholders (`/api/v1/:device/:list/index.json`). */
  file: string;
  /**
   * The file that answers when `file` does not exist, instead of a 404: for a device the catalog
   * does not have, or for phones on a build no incremental package applies on (the listing). Its
   * placeholders are those of `file`.
   */
  fallback?: string;
  /** A paged answer: a query that matches `query` (the raw query string, without `?`) is answered by `past`, with 404. */
  paging?: { param: string; query: string; past: string };
  /** `file` as an anchored regular expression, one group per placeholder (`fileGroups`), to fill `fallback` from the rewritten path. */
  fileRegex: string;
  fileGroups: string[];
}

/**
 * A folder whose misses answer its `404.json`: `/api/v1/:device/` as `^/api/v1/([^/]+)/`; or the
 * pattern of a format's file at the root, whose misses answer the one of {@link ROOT_FORMAT_MISSES}.
 */
export interface ServerNotFound {
  folder: string;
  /** Matches the start of a path under the folder (or, for a file at the root, the whole path). */
  regex: string;
  groups: string[];
  /** The body of the miss, with the placeholders of `groups` (`/api/v1/:device/404.json`). */
  file: string;
}

/**
 * Request paths outside `/api/` that get the API headers, as the formats' files do there: a folder
 * of their own (`/API/updater/`, every path under it), or a file's pattern at the root, as an
 * anchored regular expression (`^/[^/]+\.json$`), so that pages and other misses keep the HTML ones.
 * A folder's `type` is the content type of its files (a text dialect's, or the API's).
 */
export type ApiScope = { prefix: string; type: string } | { regex: string };

/** Everything a server configuration is generated from. */
export interface ServerRules {
  rewrites: ServerRewrite[];
  /** Most specific first: a miss answers the first of these whose `404.json` exists. */
  notFound: ServerNotFound[];
  /** Requests under this prefix get `apiHeaders`, and 204 for OPTIONS. */
  apiPrefix: string;
  /** The same outside `apiPrefix`, for the formats' files there. */
  formatScopes: ApiScope[];
  apiHeaders: Record<string, string>;
  /** Headers of the 204 answer to OPTIONS (no body, so no Content-Type). */
  optionsHeaders: Record<string, string>;
  /** `Cache-Control` of every 404, JSON and HTML: a miss must not stick in a cache once it is published. */
  notFoundCacheControl: string;
  /** The HTML 404 page for misses outside the API. */
  notFoundPage: string;
  /** Content types by file extension (no dot). */
  types: Record<string, string>;
  /**
   * GrapheneOS's zip names, each answered with a 302 to its download, for GET and HEAD: one exact
   * rule per build, so with a `grapheneos` format the configuration is generated again for new builds.
   */
  redirects: ZipRedirect[];
}

/** The self-hosted servers' view of the route table: the same for every device, so `table` needs none. */
export function serverRules(table: RouteTable): ServerRules {
  const headers = { ...table.apiHeaders };
  const { lists } = table;
  const { 'Content-Type': _type, ...optionsHeaders } = headers;
  return {
    rewrites: table.endpoints.flatMap((endpoint) =>
      endpoint.paths.map((shape) => ({
        name: endpoint.name,
        shape,
        ...toRegex(shape, true, endpoint.perDevice ? lists : undefined),
        ...answering(endpoint, shape),
        ...(endpoint.paging && {
          paging: {
            param: endpoint.paging.param,
            query: pastFirstPageRegex(endpoint.paging),
            past: endpoint.paging.past,
          },
        }),
      })),
    ),
    // Most specific first: the formats' folders and files, then the API's folders.
    notFound: [
      ...table.formatNotFound.map(({ folder, file }) => ({ folder, ...toRegex(folder, false), file })),
      ...table.rootPatterns.map((path) => ({
        folder: '/',
        ...toRegex(path, true),
        file: `${ROOT_FORMAT_MISSES}404.json`,
      })),
      ...NOT_FOUND_FOLDERS.map((folder) => ({ folder, ...toRegex(folder, false), file: `${folder}404.json` })),
    ],
    apiPrefix: '/api/',
    formatScopes: [
      ...table.formatFolders.map((prefix) => ({
        prefix,
        type: folderType(table.site, prefix, headers['Content-Type']),
      })),
      ...table.rootPatterns.map((path) => ({ regex: toRegex(path, true).regex })),
    ],
    apiHeaders: headers,
    optionsHeaders,
    notFoundCacheControl: 'no-store',
    notFoundPage: '/404.html',
    types: CONTENT_TYPES,
    redirects: table.redirects.map(checkedRedirect),
  };
}

/** The file that answers `shape` of `endpoint`, and the one that answers when it does not exist. */
function answering(
  endpoint: Endpoint,
  shape: string,
): Pick<ServerRewrite, 'file' | 'fallback' | 'fileRegex' | 'fileGroups'> {
  const forBuild = endpoint.incrementalFile !== undefined && shape.includes(':incremental');
  const file = forBuild ? endpoint.incrementalFile! : endpoint.file;
  const fallback = forBuild ? endpoint.file : endpoint.unknownDevice;
  const { regex, groups } = toRegex(file, true);
  return { file, ...(fallback && { fallback }), fileRegex: regex, fileGroups: groups };
}

/** Fills `:name` placeholders with what `reference(i, name)` gives for group `i` (1-based). */
export function fillGroups(
  pattern: string,
  groups: readonly string[],
  reference: (index: number, name: string) => string,
): string {
  return pattern.replace(/:([a-z]+)/g, (whole, name: string) => {
    const index = groups.indexOf(name);
    return index < 0 ? whole : reference(index + 1, name);
  });
}

/** The listen address of a server: `host` undefined means every address. */
export interface ListenAddress {
  host?: string;
  port: number;
}

/** Parses `--listen`: `PORT`, `HOST:PORT` or `[IPv6]:PORT`; undefined when it is not one of those. */
export function parseListen(text: string): ListenAddress | undefined {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) return undefined;
  return { host: match[1], port: Number(match[2]) };
}

/** `host:port`, or `:port` for every address. */
export function formatListen({ host, port }: ListenAddress): string {
  return `${host ?? ''}:${port}`;
}

/**
 * A route-table pattern as a regular expression with one group per placeholder (`groups`, in
 * order); with `lists`, a `:list` matches those names only (for a placeholder beside fixed text, as
 * on Cloudflare). The preview's rewrites and the servers' rules both come from it.
 */
export function toRegex(
  pattern: string,
  anchored: boolean,
  lists?: readonly string[],
): { regex: string; groups: string[] } {
  const groups: string[] = [];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = escape(pattern).replace(/:([a-z]+)/g, (_, name: string) => {
    groups.push(name);
    return name === 'list' && lists ? `(${lists.map(escape).join('|')})` : '([^/]+)';
  });
  return { regex: `^${source}${anchored ? '$' : ''}`, groups };
}
