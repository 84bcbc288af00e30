/**
 * The routes of the other updater families' files (`formats` in site.yaml, catalog/formats.ts):
 * where they lie (under `/api/`, in a folder of their own beside it, or at the root), the JSON 404
 * scopes and the problems of their paths, and how Cloudflare matches a rule's path (`matches`),
 * which the preview shares. routes.ts puts them in the route table every host's rules come from. Pure.
 */
import { DIALECT_SETTINGS } from '../catalog/dialects.js';
import { formatFolder, formatPath, formatPathField, oneFileForLists, ROOT_FORMAT_MISSES } from '../catalog/formats.js';
import type { Problem } from '../catalog/problems.js';
import { SITE_FILE, type Site } from '../catalog/site.js';
import { FAMILY_NAMES } from '../render/formats.js';

/**
 * The files of the site's other updater formats (`formats` in site.yaml), as patterns (`:device`,
 * `:list` filled in where the format has one list), each with the folder of its own it lies in
 * (none at the root). Each is served at its own path, so no host needs a rewrite for it to answer;
 * under `/api/` it gets the API headers and the JSON 404 of `/api/`, in a folder of its own
 * elsewhere a header rule and a JSON 404 of that folder ({@link formatFolders}), and at the root a
 * header rule for its pattern and, where the host can tell it from other misses, the JSON 404 of
 * {@link ROOT_FORMAT_MISSES} ({@link rootFormatFiles}). The host table probes them on every engine.
 */
export function formatFiles(site: Site): { name: string; path: string; list: string; folder?: string }[] {
  return site.formats.flatMap((format) =>
    // One file for all the lists (aospa without {list}) is one pattern.
    (oneFileForLists(format) ? format.lists.slice(0, 1) : format.lists).map((list) => {
      const folder = formatFolder(format.path);
      const lists = oneFileForLists(format) ? `lists ${format.lists.join(', ')}` : `list ${list}`;
      return {
        name: `${format.family} format, ${lists}`,
        path: formatPath(format, ':device', list),
        list,
        ...(folder !== undefined && { folder }),
      };
    }),
  );
}

/**
 * The folders of the formats' files outside `/api/` (`/API/updater/`), most specific first: each
 * takes a header rule with the API headers and a JSON 404 scope, as `/api/` has. Under `/api/`
 * those of `/api/` apply already.
 */
export function formatFolders(site: Site): string[] {
  const folders = formatFiles(site).flatMap((f) =>
    f.folder !== undefined && !f.folder.startsWith('/api/') ? [f.folder] : [],
  );
  return [...new Set(folders)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** The content type of a text dialect's files (AOSPA's Compose Hub reads `text/*` only). */
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The content type of the files in `folder` (one of {@link formatFolders}): {@link TEXT_TYPE} when a
 * text dialect lies there, else `json`. A JSON dialect sharing that folder gets text too, which its
 * updater ignores: only AOSPA's Compose Hub reads the type at all.
 */
export function folderType(site: Site, folder: string, json: string): string {
  const text = site.formats.some(
    (f) => DIALECT_SETTINGS[f.family].type === 'text' && formatFolder(f.path)?.startsWith(folder),
  );
  return text ? TEXT_TYPE : json;
}

/** The formats' files at the root of the site (`/:device.json`): each pattern takes a header rule of its own. */
export function rootFormatFiles(site: Site): { name: string; path: string; list: string }[] {
  return formatFiles(site).filter((f) => f.folder === undefined);
}

/** Does `path` (`/akita.json`) have the shape of one of the formats' files at the root? */
export function isRootFormatFile(site: Site, path: string): boolean {
  let patterns = ROOT_PATTERNS.get(site);
  if (!patterns) ROOT_PATTERNS.set(site, (patterns = rootFormatFiles(site).map((f) => f.path)));
  return patterns.some((pattern) => matches(pattern, path));
}

const ROOT_PATTERNS = new WeakMap<Site, string[]>();

/**
 * The JSON 404 scopes of the formats' files ({@link formatFolders}, and {@link ROOT_FORMAT_MISSES}
 * when a format lies at the root), before those of routes.ts `NOT_FOUND_FOLDERS`. A format's folder
 * answers from its `404.html` only, never a `404.json` beside the files: a device named `404` has
 * the file `404.json` there. The hosts send the API headers with it, whatever the extension.
 */
export function formatNotFoundScopes(site: Site): NotFoundScope[] {
  const families = (test: (file: { folder?: string }) => boolean) =>
    [
      ...new Set(site.formats.filter((f) => test({ folder: formatFolder(f.path) })).map((f) => FAMILY_NAMES[f.family])),
    ].join(' and ');
  const folders = formatFolders(site).map((folder) => ({
    folder,
    message: `not found: no ${families((f) => f.folder !== undefined && f.folder.startsWith(folder))} answer here for this device and list; /api/devices.json lists the devices`,
    file: `${folder}404.html`,
  }));
  const root =
    rootFormatFiles(site).length > 0
      ? [
          {
            folder: ROOT_FORMAT_MISSES,
            message: `not found: no ${families((f) => f.folder === undefined)} answer here for this device and list; /api/devices.json lists the devices`,
            file: `${ROOT_FORMAT_MISSES}404.json`,
          },
        ]
      : [];
  return [...folders, ...root];
}

/**
 * A folder whose misses answer a JSON 404 with `message` as the envelope's `error`: Cloudflare
 * serves its `404.html`, the other hosts `file` (`404.json` beside it, or the same `404.html`).
 */
export interface NotFoundScope {
  folder: string;
  message: string;
  file: string;
}

/**
 * A `_headers`/`_routes.json` pattern as Cloudflare matches it: `*` is any text, `:name` one path
 * segment or the part of one up to fixed text (wrangler 4.86.0, workers-shared
 * asset-worker/src/utils/rules-engine.ts `generateRuleRegExp`), the rest exact.
 */
export function matches(pattern: string, pathname: string): boolean {
  let regex = PATTERNS.get(pattern);
  if (!regex) PATTERNS.set(pattern, (regex = new RegExp(toPattern(pattern))));
  return regex.test(pathname);
}

/** {@link matches}' patterns, compiled once: the preview matches every request against each header rule. */
const PATTERNS = new Map<string, RegExp>();

/** A problem of `format` at its `path` in site.yaml (or its family, when it takes the default path). */
export function problemAtFormat(format: Site['formats'][number], message: string): Problem {
  const { line, col } = format.at ?? { line: 1, col: 1 };
  return { file: SITE_FILE, line, col, field: formatPathField(format), message };
}

// --- internal ---

/** {@link matches}' regular expression: `*` any text, `:name` (letters, digits, `_`) one segment's worth, anchored. */
function toPattern(pattern: string): string {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return `^${pattern
    .split('*')
    .map((part) => escape(part).replace(/:[A-Za-z]\w*/g, '[^/]+'))
    .join('.*')}$`;
}
