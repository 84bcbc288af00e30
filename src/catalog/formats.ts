/**
 * The output formats of other updater families (`formats` in site.yaml): each names the request
 * lists it publishes and the path of its file per device, so that phones running that family's
 * updater find their answer where they already look. This file reads the setting and holds the
 * path rules; render/formats.ts writes the files and hosts/routes.ts serves them. Pure.
 */

/** The updater families otapress writes a file for, beside the /e/ and LineageOS answers. */
export const FORMAT_FAMILIES = ['crdroid', 'pixelexperience'] as const;

/** A family of {@link FORMAT_FAMILIES}. */
export type FormatFamily = (typeof FORMAT_FAMILIES)[number];

/**
 * Where each family's file lives when site.yaml gives no `path`: in a folder of its own under
 * `/api/`, where every host already sends the API headers (JSON type, CORS, Cache-Control) and the
 * JSON 404s.
 */
export const DEFAULT_FORMAT_PATHS: Record<FormatFamily, { oneList: string; lists: string }> = {
  crdroid: { oneList: '/api/crdroid/{device}.json', lists: '/api/crdroid/{list}/{device}.json' },
  pixelexperience: { oneList: '/api/pixelexperience/{device}.json', lists: '/api/pixelexperience/{list}/{device}.json' },
};

/** One output format of a site: the family, the lists it publishes, the path of each device's file. */
export interface OutputFormat {
  family: FormatFamily;
  /** The request lists published in this format, in the order written. */
  lists: string[];
  /** The file of a device and list: `/api/crdroid/{device}.json`, with `{list}` when `lists` has more than one. */
  path: string;
}

/** The path of `format`'s file for `device` and `list`, as a URL path (`/api/crdroid/akita.json`). */
export function formatPath(format: OutputFormat, device: string, list: string): string {
  return format.path.replace('{device}', device).replace('{list}', list);
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
export function readFormats(value: unknown, lists: readonly string[]): { formats: OutputFormat[]; problems: FormatProblem[] } {
  const problems: FormatProblem[] = [];
  const formats: OutputFormat[] = [];
  // `formats:` with nothing under it names no format yet.
  if (value === undefined || value === null) return { formats, problems };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ path: [], message: `expected a mapping of updater family → settings, e.g. crdroid: { lists: [stable] }; families: ${FORMAT_FAMILIES.join(', ')}` });
    return { formats, problems };
  }
  for (const [family, settings] of Object.entries(value as Record<string, unknown>)) {
    if (!(FORMAT_FAMILIES as readonly string[]).includes(family)) {
      problems.push({ path: [family], key: true, message: `unknown updater family; otapress writes the formats of ${FORMAT_FAMILIES.join(' and ')} (besides the /e/ and LineageOS answers, which every site has)` });
      continue;
    }
    const format = readFormat(family as FormatFamily, settings ?? {}, lists, problems);
    if (format) formats.push(format);
  }
  const seen = new Map<string, string>();
  for (const format of formats) {
    for (const list of format.lists) {
      const file = formatPath(format, '{device}', list);
      const earlier = seen.get(file);
      if (earlier !== undefined) problems.push({ path: [format.family, 'path'], message: `${file} is also the file of ${earlier}; give each format and list its own path` });
      else seen.set(file, `${format.family}, list ${list}`);
    }
  }
  return problems.length > 0 ? { formats: [], problems } : { formats, problems };
}

/** Why `pattern` cannot be the path of a format's file, or `undefined`. `oneList`: the format publishes one list. */
export function formatPathProblem(pattern: string, oneList: boolean): string | undefined {
  const example = '/api/crdroid/{device}.json';
  if (!pattern.startsWith('/api/')) return `a format's path starts with /api/, e.g. ${example}: under it every host sends the JSON type, CORS and Cache-Control headers and answers a missing device with a JSON 404`;
  if (!pattern.endsWith('.json')) return `a format's path ends in .json, e.g. ${example}: every host sends the JSON content type by the name`;
  const unknown = /\{([^}]*)\}/.exec(pattern.replace(/\{(device|list)\}/g, ''));
  if (unknown) return `unknown placeholder {${unknown[1]}}; use {device} and {list}`;
  const bad = /[^A-Za-z0-9._~/-]/.exec(pattern.replace(/\{(device|list)\}/g, ''));
  if (bad) return `\`${bad[0]}\` cannot be part of a path; use letters, digits, \`.\`, \`_\`, \`~\`, \`-\` and \`/\` besides {device} and {list}`;
  const segments = pattern.slice(1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'a path has no empty, `.` or `..` segments';
  if (segments.length < 3 || segments[1].includes('{')) return `a format's file lives in a folder of its own under /api/, e.g. ${example}: the files directly in /api/ are otapress's own`;
  if (segments[1] === 'v1' || segments[1] === 'v2') return `/api/${segments[1]}/ holds the LineageOS and /e/ answers; put the format in a folder of its own, e.g. ${example}`;
  const count = (name: string) => pattern.split(`{${name}}`).length - 1;
  if (count('device') !== 1) return 'a format\'s path has {device} exactly once';
  if (count('list') > 1) return 'a format\'s path has {list} at most once';
  if (count('list') === 0 && !oneList) return `the format publishes several lists, and each needs its own file: put {list} in the path, e.g. /api/crdroid/{list}/{device}.json`;
  if (pattern.includes('}{')) return 'two placeholders next to each other cannot be told apart; put a character between them';
  return undefined;
}

// --- internal ---

function readFormat(family: FormatFamily, settings: unknown, siteLists: readonly string[], problems: FormatProblem[]): OutputFormat | undefined {
  if (typeof settings !== 'object' || Array.isArray(settings)) {
    problems.push({ path: [family], message: `expected the settings of the ${family} format, e.g. lists: [stable]; or {} for every list at the default path` });
    return undefined;
  }
  const { lists: listsValue, path: pathValue, ...rest } = settings as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(rest)) problems.push({ path: [family, key], key: true, message: 'unknown key; a format has `lists:` and `path:`' });
  let lists = [...siteLists];
  if (listsValue !== undefined) {
    if (!Array.isArray(listsValue) || listsValue.length === 0 || !listsValue.every((l) => typeof l === 'string')) {
      problems.push({ path: [family, 'lists'], message: `expected the request lists this format publishes, e.g. [${siteLists[0] ?? 'stable'}] (lists: ${siteLists.join(', ')})` });
    } else {
      lists = listsValue as string[];
      lists.forEach((list, i) => {
        if (!siteLists.includes(list)) problems.push({ path: [family, 'lists', i], message: `\`${list}\` is not a list of this site (lists: ${siteLists.join(', ')}); add it to \`lists\` or name one of those` });
        else if (lists.indexOf(list) !== i) problems.push({ path: [family, 'lists', i], message: `list \`${list}\` is named twice` });
      });
    }
  }
  const defaults = DEFAULT_FORMAT_PATHS[family];
  let path = lists.length === 1 ? defaults.oneList : defaults.lists;
  if (pathValue !== undefined) {
    const problem = typeof pathValue === 'string' ? formatPathProblem(pathValue, lists.length === 1) : `expected the path of each device's file, e.g. ${defaults.oneList}`;
    if (problem) problems.push({ path: [family, 'path'], message: problem });
    else path = pathValue as string;
  }
  return problems.length > before ? undefined : { family, lists, path };
}
