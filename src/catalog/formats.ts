/**
 * The output formats of other updater families (`formats` in site.yaml): each names the request
 * lists it publishes and the path of its file per device, so that phones running that family's
 * updater find their answer where they already look. This file reads the setting and holds the
 * path rules; render/formats.ts writes the files and hosts/routes.ts serves them. Pure.
 */
import { DIALECT_SETTINGS, type DialectSetting } from './dialects.js';
import { patternsMeet } from './request-paths.js';

/**
 * The updater dialects otapress writes a file for, beside the /e/ and LineageOS answers, by the
 * name site.yaml gives them (catalog/dialects.ts). `crdroid` and `pixelexperience`, once called
 * families, keep their names and their files.
 */
export const FORMAT_FAMILIES = Object.keys(DIALECT_SETTINGS) as (keyof typeof DIALECT_SETTINGS)[];

/** A dialect of {@link FORMAT_FAMILIES}. */
export type FormatFamily = keyof typeof DIALECT_SETTINGS;

/**
 * Where each dialect's file lives when site.yaml gives no `path`: in a folder of its own under
 * `/api/`, where every host already sends the API headers (JSON type, CORS, Cache-Control) and the
 * JSON 404s.
 */
const DEFAULT_FORMAT_PATHS = Object.fromEntries(
  FORMAT_FAMILIES.map((name) => [name, DIALECT_SETTINGS[name].paths]),
) as Record<FormatFamily, { oneList: string; lists: string }>;

/** One output format of a site: the dialect, the lists it publishes, the path of each device's file. */
export interface OutputFormat {
  /** The dialect (the name it had when there were only two families). */
  family: FormatFamily;
  /** The request lists published in this format, in the order written. */
  lists: string[];
  /**
   * The file of a device and list: `/api/crdroid/{device}.json`, with `{list}` (or `{LIST}`, the
   * list's name in capitals) when `lists` has more than one.
   */
  path: string;
  /**
   * Where the changelog of a device and list lies, for the updaters that fetch one of their own
   * (`/changelogs/{device}.txt`), when site.yaml gives `changelog`; without `{list}` or `{LIST}`,
   * one file per device for every list of the format (RisingOS's `OTA/changelogs/{device}.txt`).
   */
  changelog?: string;
  /**
   * The `buildtype` of crdroid-java records, AOSPA's `build_type` and lineage-v1's `romtype` (`buildtype:` in site.yaml);
   * the list's name without it. AlphaDroid offers a build only when it equals the phone's `ro.alpha.build.package`, and
   * LineageOS phones when `romtype` equals their release type (ignoring case), whatever list folder the file lies in.
   */
  buildtype?: string;
  /**
   * aospa only: each list's `build_type` (`buildtype: { stable: Stable, beta: Beta }` in site.yaml),
   * a list not named there keeping the list's name. The Compose Hub offers a beta phone the
   * `Beta` builds only (test/helpers/dialects/aospa.ts `aospaComposeOffers`).
   */
  buildtypes?: Readonly<Record<string, string>>;
  /**
   * lineage-v1 only: where DerpFest's updater reads the site's one device list (`device_info:`,
   * `/info/device-info.json`), the banner's device name, maintainer and support group.
   */
  deviceInfo?: string;
  /**
   * The path is one of a mapping of list → path (`path: { gapps: /{device}.json, vanilla:
   * /vanilla/{device}.json }`), read as a format of its one list: Project Infinity-X, SuperiorOS and
   * Matrixx keep one dialect's lists at paths that differ by a folder, not by the list's name.
   */
  perList?: true;
  /** Where site.yaml sets its `path` (or names the family), for problems found once the devices are known. */
  at?: { line: number; col: number };
}

/** The field of site.yaml that sets `format`'s path: `formats.crdroid-java.path`, `formats.crdroid-java.path.vanilla`. */
export function formatPathField(format: OutputFormat): string {
  return `formats.${format.family}.path${format.perList ? `.${format.lists[0]}` : ''}`;
}

/** The path of `format`'s file for `device` and `list`, as a URL path (`/api/crdroid/akita.json`). */
export function formatPath(format: OutputFormat, device: string, list: string): string {
  return fillPath(format.path, device, list);
}

/**
 * Whether `format` writes the builds of all its lists in one file: an aospa path without `{list}`
 * (AOSPA keeps a device's Stable, Beta and Alpha builds in `updates/<device>`, each with its own
 * `build_type`). Every other format with several lists has a file per list.
 */
export function oneFileForLists(format: OutputFormat): boolean {
  return format.lists.length > 1 && !/\{list\}/i.test(format.path);
}

/** The `build_type` (aospa), `buildtype` (crdroid-java) or `romtype` (lineage-v1) of `format`'s records of `list`. */
export function buildTypeOf(format: OutputFormat, list: string): string {
  return format.buildtypes?.[list] ?? format.buildtype ?? list;
}

/** The path of `format`'s changelog for `device` and `list`, when it has one (`/changelogs/akita.txt`). */
export function changelogPath(format: OutputFormat, device: string, list: string): string | undefined {
  return format.changelog === undefined ? undefined : fillPath(format.changelog, device, list);
}

/**
 * Whether a format's path names the list: `{list}`, or `{LIST}`, the list's name in capitals, for
 * the ROM projects whose phones ask a folder per variant so (RisingOS's
 * `OTA/device/GAPPS/{device}.json` and `OTA/device/VANILLA/{device}.json`).
 */
export function namesList(pattern: string): boolean {
  return pattern.includes('{list}') || pattern.includes('{LIST}');
}

/** A problem of the `formats` setting: where (a path below `formats`) and what. */
export interface FormatProblem {
  path: PropertyKey[];
  message: string;
  /** The problem is about a key (an unknown one), not its value. */
  key?: boolean;
}

/**
 * Reads `formats` of site.yaml (already parsed YAML): a mapping of family → `{ lists, path }`, both
 * optional (every list of the site; {@link DEFAULT_FORMAT_PATHS}). `lists` are the site's list
 * names. Returns the formats, or every problem found.
 */
export function readFormats(
  value: unknown,
  lists: readonly string[],
): { formats: OutputFormat[]; problems: FormatProblem[] } {
  const problems: FormatProblem[] = [];
  const formats: OutputFormat[] = [];
  // `formats:` with nothing under it names no format yet.
  if (value === undefined || value === null) return { formats, problems };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const message = 'expected a mapping of updater dialect → settings, e.g. crdroid: { lists: [stable] }; dialects: ';
    problems.push({ path: [], message: message + FORMAT_FAMILIES.join(', ') });
    return { formats, problems };
  }
  for (const [family, settings] of Object.entries(value as Record<string, unknown>)) {
    if (!Object.hasOwn(DIALECT_SETTINGS, family)) {
      const names = `${FORMAT_FAMILIES.slice(0, -1).join(', ')} and ${FORMAT_FAMILIES[FORMAT_FAMILIES.length - 1]}`;
      const message =
        `unknown updater dialect; otapress writes the formats of ${names} ` +
        '(besides the /e/ and LineageOS answers, which every site has)';
      problems.push({ path: [family], key: true, message });
      continue;
    }
    formats.push(...readFormat(family as FormatFamily, settings ?? {}, lists, problems));
  }
  // Each format's and list's file, by the {device} pattern: two that can name one path for some
  // device (`/ota/{device}.json` and `/ota/pe-{device}.json` for a device `pe-x`), or a file and a
  // folder (`/{device}.json` and `/x.json/{device}.json`), would overwrite each other in dist/.
  const seen: { file: string; what: string }[] = [];
  const files = formats.flatMap((format) =>
    format.lists.flatMap((list) => [
      { format, list, file: formatPath(format, '{device}', list), key: 'path' },
      // A changelog without the list is one file for all of them, checked once.
      ...(format.changelog === undefined || (list !== format.lists[0] && !namesList(format.changelog))
        ? []
        : [{ format, list, file: changelogPath(format, '{device}', list)!, key: 'changelog' }]),
    ]),
  );
  for (const { format, list, file, key } of files) {
    // The lists of one file (aospa without {list}) share it by design.
    if (key === 'path' && oneFileForLists(format) && list !== format.lists[0]) continue;
    const earlier =
      seen.find((other) => other.file === file) ?? seen.find((other) => patternsMeet(other.file, file, lists));
    // A mapping's problem lies at the list's key (`path: { vanilla: ... }`).
    const given = (value as Record<string, Record<string, unknown> | null>)[format.family]?.[key];
    const at = [format.family, key, ...(isMapping(given) ? [list] : [])];
    const what = `${format.family}${key === 'path' ? '' : ` ${key}`}, list ${list}`;
    if (earlier === undefined) seen.push({ file, what });
    else if (earlier.file === file) {
      const message = `${file} is also the file of ${earlier.what}; give each format and list its own path`;
      problems.push({ path: at, message });
    } else {
      const message =
        `${file} can name the same file or folder as ${earlier.file} (${earlier.what}) for some device; ` +
        'make them differ by a fixed part, e.g. a folder of each its own';
      problems.push({ path: at, message });
    }
  }
  return problems.length > 0 ? { formats: [], problems } : { formats, problems };
}

/**
 * The names otapress writes at the top of `dist/` (besides those starting with `_` or `.`, which
 * {@link formatPathProblem} refuses anywhere): a format's folder must not be one of them.
 */
const ROOT_NAMES = ['api', 'devices', 'index.html', '404.html'];

/** What otapress writes directly in `/api/`: a format's folder under it must have another name. */
const API_NAMES = ['v1', 'v2', 'devices.json', '404.json', '404.html'];

/**
 * The folder whose `404.html` and `404.json` answer a miss of a format at the root
 * (`/no-such-device.json`): Cloudflare Pages serves the nearest `404.html` above the path a
 * `_redirects` rule rewrote to (hosts/routes.ts), and the root's own is the HTML page.
 */
export const ROOT_FORMAT_MISSES = '/api/format-misses/';

/**
 * The folder of its own a format's file lives in: its leading segments up to the first one with a
 * placeholder (`/API/updater/` of `/API/updater/{device}.json`, `/ota/` of
 * `/ota/{list}/{device}.json`); `undefined` for a file at the root (`/{device}.json`). `pattern`
 * is one {@link formatPathProblem} accepts.
 */
export function formatFolder(pattern: string): string | undefined {
  const segments = pattern.slice(1).split('/');
  const first = segments.findIndex((segment) => segment.includes('{'));
  const fixed = segments.slice(0, Math.min(first, segments.length - 1));
  return fixed.length === 0 ? undefined : `/${fixed.join('/')}/`;
}

/** Why `pattern` cannot be the path of a format's file, or `undefined`. `oneList`: the format publishes one list. */
function formatPathProblem(
  pattern: string,
  oneList: boolean,
  file: DialectSetting['file'] = 'json',
  /** Whether the hosts write rules for the file (a format's, for its headers); a changelog is served by its name alone. */
  ruled = true,
): string | undefined {
  const examples = '/api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json';
  if (!pattern.startsWith('/')) return `a format's path starts with /, e.g. ${examples}`;
  // Its folder becomes a rule of Cloudflare's _routes.json with options_handler, at most 100
  // characters long (developers.cloudflare.com/pages/functions/routing/, "Limits").
  if (pattern.length > 100)
    return `a format's path has at most 100 characters (this one has ${pattern.length}): Cloudflare Pages takes no longer rule for its folder`;
  if (file === 'channel') {
    // The updater asks `<base><device>-<channel>`: only the base is the site's to choose.
    const channel = 'the GrapheneOS updater asks <base><device>-<channel>';
    const example = 'e.g. /releases/{device}-{list}';
    if (!pattern.endsWith('/{device}-{list}')) return `${channel}: the path ends in /{device}-{list}, ${example}`;
    if (formatFolder(pattern) === undefined) return `${channel}: put the files in a folder of their own, ${example}`;
  } else if (file === 'updates') {
    // The hub asks `<system_update_server_url>updates/<device>`; its folder's header rule sends text.
    const hub = 'the AOSPA hub asks <base>updates/<device>';
    const example = 'e.g. /aospa/updates/{device} or /aospa/{list}/updates/{device}';
    if (!pattern.endsWith('/updates/{device}')) return `${hub}: the path ends in /updates/{device}, ${example}`;
    if (formatFolder(pattern) === undefined || pattern.startsWith('/api/'))
      return `${hub} and reads only text/plain answers, and /api/ sends JSON: put the files in a folder of their own outside /api/, ${example}`;
  } else if (!pattern.endsWith('.json')) {
    return `a format's path ends in .json, e.g. ${examples}: every host sends the JSON content type by the name`;
  }
  const unknown = /\{([^}]*)\}/.exec(pattern.replace(PLACEHOLDERS, ''));
  if (unknown)
    return `unknown placeholder {${unknown[1]}}; use {device}, and {list} or {LIST} (the list's name in capitals)`;
  const bad = /[^A-Za-z0-9._~/-]/.exec(pattern.replace(PLACEHOLDERS, ''));
  if (bad)
    return `\`${bad[0]}\` cannot be part of a path; use letters, digits, \`.\`, \`_\`, \`~\`, \`-\` and \`/\` besides {device} and {list}`;
  const segments = pattern.slice(1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'a path has no empty, `.` or `..` segments';
  // Names starting with `_` are where the hosts look for their own files (`_headers`,
  // `_redirects`, Cloudflare's `_worker.js` and `_routes.json`: developers.cloudflare.com/pages/
  // configuration/headers/ and .../functions/routing/); one starting with `.` is a dotfile, which
  // every server configuration here answers with 404.
  const hidden = segments.find((s) => s.startsWith('_') || s.startsWith('.'));
  if (hidden !== undefined)
    return `\`${hidden}\` starts with \`${hidden[0]}\`: such names are the hosts' own (_headers, _redirects, dotfiles); pick a name that starts with a letter or digit`;
  const count = (name: string) => pattern.split(`{${name}}`).length - 1;
  if (count('device') !== 1) return "a format's path has {device} exactly once";
  if (count('list') + count('LIST') > 1) return "a format's path has {list} or {LIST} at most once";
  if (count('list') + count('LIST') === 0 && !oneList && file !== 'updates')
    return `the format publishes several lists, and each needs its own file: put {list} (or {LIST}, the name in capitals) in the path, e.g. /api/crdroid/{list}/{device}.json, /OTA/device/{LIST}/{device}.json or /{list}-{device}.json`;
  if (pattern.includes('}{'))
    return 'two placeholders next to each other cannot be told apart; put a character between them';
  const folder = formatFolder(pattern);
  if (folder === undefined) {
    // At the root the file is all there is: a folder per device or list there could be any name.
    if (segments.length > 1)
      return `a format's file lies directly at the root (/{device}.json) or in a folder of its own whose name has no placeholder (/ota/{list}/{device}.json), not in a folder named after a device or list`;
    // Cloudflare's _headers and _redirects read a placeholder's name as the letters, digits and
    // `_` after its colon (`:device_x` is one name; wrangler's rules engine, workers-shared
    // utils/rules-engine.ts `PLACEHOLDER_REGEX`), and the root file is matched by placeholders there.
    const glued = /\}[A-Za-z0-9_]/.exec(pattern);
    if (glued && ruled)
      return `at the root, a placeholder is followed by \`.\`, \`-\` or \`~\` (Cloudflare Pages reads letters, digits and \`_\` after it as part of its name), e.g. /{device}.json or /{list}-{device}.json`;
    return undefined;
  }
  const [top, second] = folder.slice(1, -1).split('/');
  if (top === 'api') {
    if (second === undefined)
      return `a format's file lives in a folder of its own, e.g. ${examples}: the files directly in /api/ are otapress's own`;
    if (second === 'v1' || second === 'v2')
      return `/api/${second}/ holds the LineageOS and /e/ answers; put the format in a folder of its own, e.g. ${examples}`;
    if (API_NAMES.includes(second) || `/api/${second}/` === ROOT_FORMAT_MISSES)
      return `otapress writes /api/${second} itself; put the format in a folder of its own, e.g. ${examples}`;
  } else if (ROOT_NAMES.includes(top)) {
    return `otapress writes /${top}${top.includes('.') ? '' : '/'} itself (the site's pages and answers); put the format in a folder of its own, e.g. ${examples}`;
  }
  return undefined;
}

// --- internal ---

/** The placeholders of a format's path. */
const PLACEHOLDERS = /\{(device|list|LIST)\}/g;

/** `pattern` with the device and the list filled in (`{LIST}`: the list's name in capitals). */
function fillPath(pattern: string, device: string, list: string): string {
  return pattern.replace('{device}', device).replace('{list}', list).replace('{LIST}', list.toUpperCase());
}

function readFormat(
  family: FormatFamily,
  settings: unknown,
  siteLists: readonly string[],
  problems: FormatProblem[],
): OutputFormat[] {
  if (typeof settings !== 'object' || Array.isArray(settings)) {
    problems.push({
      path: [family],
      message: `expected the settings of the ${family} format, e.g. lists: [stable]; or {} for every list at the default path`,
    });
    return [];
  }
  const {
    lists: listsValue,
    path: pathValue,
    changelog: changelogValue,
    buildtype,
    device_info: deviceInfo,
    ...rest
  } = settings as Record<string, unknown>;
  const before = problems.length;
  const keys =
    'a format has `lists:`, `path:` and `changelog:` (crdroid-java, aospa and lineage-v1 also `buildtype:`, lineage-v1 `device_info:`)';
  const infoProblem = deviceInfo === undefined ? undefined : deviceInfoProblem(family, deviceInfo);
  if (infoProblem) problems.push({ path: [family, 'device_info'], key: family !== 'lineage-v1', message: infoProblem });
  if (buildtype !== undefined && family !== 'crdroid-java' && family !== 'aospa' && family !== 'lineage-v1') {
    problems.push({ path: [family, 'buildtype'], key: true, message: `unknown key; ${keys}` });
  } else if (family === 'aospa' && buildtype !== null && typeof buildtype === 'object' && !Array.isArray(buildtype)) {
    // Checked against the lists below.
  } else if (buildtype !== undefined && !(typeof buildtype === 'string' && ONE_LINE.test(buildtype))) {
    const message =
      family === 'aospa'
        ? "expected each list's build_type, e.g. { stable: Stable, beta: Beta, alpha: Alpha }, or one for every list (on one line, at most 100 characters)"
        : 'expected the build type phones compare, e.g. Official (on one line, at most 100 characters)';
    problems.push({ path: [family, 'buildtype'], message });
  }
  for (const key of Object.keys(rest)) {
    problems.push({ path: [family, key], key: true, message: `unknown key; ${keys}` });
  }
  let lists = readLists(family, listsValue, siteLists, problems);
  const paths = isMapping(pathValue)
    ? readPathMap(family, pathValue, listsValue === undefined ? undefined : lists, siteLists, problems)
    : undefined;
  if (paths !== undefined) lists = Object.keys(paths);
  const defaults = DEFAULT_FORMAT_PATHS[family];
  let path = lists.length === 1 ? defaults.oneList : defaults.lists;
  if (pathValue !== undefined && !isMapping(pathValue)) {
    const problem =
      typeof pathValue === 'string'
        ? formatPathProblem(pathValue, lists.length === 1, DIALECT_SETTINGS[family].file)
        : `expected the path of each device's file, e.g. ${defaults.oneList}, or of each list's, e.g. { gapps: /{device}.json, vanilla: /vanilla/{device}.json }`;
    if (problem) problems.push({ path: [family, 'path'], message: problem });
    else path = pathValue as string;
  }
  const changelog = readChangelog(family, changelogValue, paths, problems);
  const mapping =
    family === 'aospa' && buildtype !== null && typeof buildtype === 'object' && !Array.isArray(buildtype);
  const buildtypes = mapping ? readBuildTypes(buildtype, lists, problems) : undefined;
  if (problems.length > before) return [];
  const common = {
    family,
    ...(typeof buildtype === 'string' && { buildtype }),
    ...(buildtypes !== undefined && { buildtypes }),
  };
  if (paths === undefined)
    return [
      {
        ...common,
        lists,
        path,
        ...(typeof changelog === 'string' && { changelog }),
        ...(typeof deviceInfo === 'string' && { deviceInfo }),
      },
    ];
  // A format per list; the site's one device list (lineage-v1) is written once, by the first.
  return Object.entries(paths).map(([list, own], i) => {
    const log = typeof changelog === 'string' ? changelog : changelog?.[list];
    return {
      ...common,
      lists: [list],
      path: own,
      perList: true as const,
      ...(log !== undefined && { changelog: log }),
      ...(typeof deviceInfo === 'string' && i === 0 && { deviceInfo }),
    };
  });
}

/** A format's `lists:`, each one of the site's lists (`siteLists`, all of them when not given). */
function readLists(
  family: FormatFamily,
  listsValue: unknown,
  siteLists: readonly string[],
  problems: FormatProblem[],
): string[] {
  let lists = [...siteLists];
  if (listsValue !== undefined) {
    if (!Array.isArray(listsValue) || listsValue.length === 0 || !listsValue.every((l) => typeof l === 'string')) {
      problems.push({
        path: [family, 'lists'],
        message: `expected the request lists this format publishes, e.g. [${siteLists[0] ?? 'stable'}] (lists: ${siteLists.join(', ')})`,
      });
    } else {
      lists = listsValue as string[];
      lists.forEach((list, i) => {
        if (!siteLists.includes(list))
          problems.push({
            path: [family, 'lists', i],
            message: `\`${list}\` is not a list of this site (lists: ${siteLists.join(', ')}); add it to \`lists\` or name one of those`,
          });
        else if (lists.indexOf(list) !== i)
          problems.push({ path: [family, 'lists', i], message: `list \`${list}\` is named twice` });
      });
    }
  }
  return lists;
}

/** Whether a setting's value is a YAML mapping (`{ gapps: ..., vanilla: ... }`). */
function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A format's `path:` as a mapping of list → path: each key one of the site's lists (and of
 * `lists`, when given, which must name the same), each path one a format of one list takes. The
 * GrapheneOS updater builds the list into its request itself, so its path stays one.
 */
function readPathMap(
  family: FormatFamily,
  value: Record<string, unknown>,
  lists: readonly string[] | undefined,
  siteLists: readonly string[],
  problems: FormatProblem[],
): Record<string, string> | undefined {
  const before = problems.length;
  const keys = Object.keys(value);
  const { file } = DIALECT_SETTINGS[family];
  if (file === 'channel' || keys.length === 0) {
    const message =
      file === 'channel'
        ? 'the GrapheneOS updater asks <base><device>-<channel>, the list in the name: one path, e.g. /releases/{device}-{list}'
        : `expected each list's path, e.g. { ${siteLists[0] ?? 'gapps'}: /{device}.json }`;
    problems.push({ path: [family, 'path'], message });
    return undefined;
  }
  for (const [list, path] of Object.entries(value)) {
    const problem = !siteLists.includes(list)
      ? `\`${list}\` is not a list of this site (lists: ${siteLists.join(', ')}); add it to \`lists\` or name one of those`
      : typeof path === 'string'
        ? formatPathProblem(path, true, file)
        : `expected the path of list ${list}'s file for each device, e.g. /${list}/{device}.json`;
    if (problem) problems.push({ path: [family, 'path', list], key: !siteLists.includes(list), message: problem });
  }
  if (lists !== undefined && (lists.length !== keys.length || !lists.every((l) => keys.includes(l))))
    problems.push({
      path: [family, 'lists'],
      message: `with a path per list, the format publishes the lists \`path\` names (${keys.join(', ')}); write lists: [${keys.join(', ')}], or leave \`lists\` out`,
    });
  return problems.length > before ? undefined : (value as Record<string, string>);
}

/**
 * A format's `changelog:`: one path, or (with a path per list) a mapping of the same lists → path.
 * With a path per list, one path names the list: each list's format writes its own changelogs.
 */
function readChangelog(
  family: FormatFamily,
  value: unknown,
  paths: Record<string, string> | undefined,
  problems: FormatProblem[],
): string | Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const example = "expected the path of each device's changelog, e.g. /changelogs/{device}.txt";
  if (isMapping(value) && paths !== undefined) {
    const before = problems.length;
    for (const list of new Set([...Object.keys(paths), ...Object.keys(value)])) {
      const one = value[list];
      const problem = !(list in paths)
        ? `\`${list}\` has no path; name the lists of \`path\` (${Object.keys(paths).join(', ')})`
        : one === undefined
          ? `list ${list} has a path but no changelog; add ${list}: /changelogs/${list}/{device}.txt`
          : typeof one === 'string'
            ? changelogPathProblem(one)
            : example;
      if (problem) problems.push({ path: [family, 'changelog', list], key: !(list in paths), message: problem });
    }
    return problems.length > before ? undefined : (value as Record<string, string>);
  }
  const problem =
    typeof value !== 'string'
      ? example
      : (changelogPathProblem(value) ??
        (paths !== undefined && Object.keys(paths).length > 1 && !namesList(value)
          ? "with a path per list, each list's changelog is a file of its own: put {list} in the path, e.g. /changelogs/{list}/{device}.txt, or give a path per list"
          : undefined));
  if (problem) problems.push({ path: [family, 'changelog'], message: problem });
  return problem === undefined ? (value as string) : undefined;
}

/**
 * aospa's `buildtype:` as a mapping (already known to be one): each key one of the format's
 * lists, each value the `build_type` its builds carry, on one line.
 */
function readBuildTypes(
  value: object,
  lists: readonly string[],
  problems: FormatProblem[],
): Record<string, string> | undefined {
  const before = problems.length;
  for (const [list, type] of Object.entries(value)) {
    if (!lists.includes(list))
      problems.push({
        path: ['aospa', 'buildtype', list],
        key: true,
        message: `\`${list}\` is not a list of this format (lists: ${lists.join(', ')}); name one of those`,
      });
    else if (!(typeof type === 'string' && ONE_LINE.test(type)))
      problems.push({
        path: ['aospa', 'buildtype', list],
        message: `expected the build_type of list ${list}, e.g. Stable or Beta (on one line, at most 100 characters)`,
      });
  }
  return problems.length > before ? undefined : (value as Record<string, string>);
}

/**
 * Why `value` cannot be lineage-v1's `device_info:` (or `family` has none): one JSON file, no
 * placeholder, in a folder of its own (a file at the root could be a device's `/{device}.json`).
 */
function deviceInfoProblem(family: FormatFamily, value: unknown): string | undefined {
  if (family !== 'lineage-v1')
    return 'unknown key; only lineage-v1 has `device_info:` (the device list DerpFest reads)';
  const example = 'e.g. /info/device-info.json';
  if (typeof value !== 'string' || /[{}]/.test(value) || !value.endsWith('.json'))
    return `expected the path of the site's one device list, a .json file without placeholders, ${example}`;
  if (value.startsWith('/') && formatFolder(value) === undefined)
    return `the device list lies in a folder of its own (a file at the root could be a device's), ${example}`;
  return formatPathProblem(value.replace(/\.json$/, '/{device}.json'), true)?.replace(
    /a format's path/g,
    "the device list's path",
  );
}

/** Text on one line, 1 to 100 characters, without leading or trailing blanks. */
const ONE_LINE = /^\S(?:[^\n\r]{0,98}\S)?$/;

/**
 * Why `pattern` cannot be the path of a format's changelog: a text or Markdown file (`.txt`,
 * `.md`, which every host serves as text by the name, so no host needs a rule for it), at the
 * root as crDroid's `/{device}_changelog.txt` and DerpFest's `/changelog_{device}.txt` lie, or in
 * a folder of its own; otherwise the rules of a format's path. The list is not needed: without
 * it a device's one file holds every list's builds.
 */
function changelogPathProblem(pattern: string): string | undefined {
  const example = 'e.g. /changelogs/{device}.txt, /{device}_changelog.txt or /API/updater/changelogs/{device}.md';
  if (!/\.(txt|md)$/.test(pattern)) return `a changelog's path ends in .txt or .md, ${example}`;
  return formatPathProblem(`${pattern}.json`, true, 'json', false)?.replace(/a format's path/g, "a changelog's path");
}
