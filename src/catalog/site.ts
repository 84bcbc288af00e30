import { z } from 'zod';
import { nearest, type Problem } from './problems.js';
import { readYamlSource } from './yaml-source.js';
import { cacheControlProblem } from './cache-control.js';
import { requestPathProblem, type RequestPath } from './request-paths.js';

/** Where the site settings live, relative to the project root. */
export const SITE_FILE = 'content/site.yaml';

/** The channel values of interface.md, used when `site.yaml` names none. */
export const DEFAULT_CHANNELS = ['stable', 'official', 'dev', 'community'] as const;

/** The request lists of interface.md and the channels each collects (list ← channels). */
export const DEFAULT_LISTS: Record<string, string[]> = {
  stable: ['stable', 'official'],
  official: ['official'],
  dev: ['dev', 'community'],
  community: ['community'],
};

/** The hosts otapress writes rule files for: Cloudflare Pages (`_redirects`, `_headers`) and Netlify (`netlify.toml`). */
export const HOSTS = ['cloudflare', 'netlify'] as const;

/** A host of {@link HOSTS}. */
export type SiteHost = (typeof HOSTS)[number];

/** The default `Cache-Control` on listings: CDNs and clients may keep them five minutes. */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=300';

/** Site-wide settings from `content/site.yaml`, with defaults applied. */
export interface Site {
  /** Base of every derived download URL, without a trailing slash. */
  downloadBaseUrl: string;
  /** Channel values a build may carry (its download folder). */
  channels: string[];
  /** Request lists, in the order written, each with the channels whose builds it collects. */
  lists: { name: string; channels: string[] }[];
  /** `Cache-Control` sent with every listing. */
  cacheControl: string;
  /**
   * Answer `OPTIONS` under `/api/` with 204 and `Allow` on Cloudflare Pages, through a generated
   * `_worker.js` (a static asset answers 405). Off by default: each request it covers is billed.
   */
  optionsHandler: boolean;
  /** The hosts the site deploys to: only their rule files are written (and `netlify.toml` checked). */
  hosts: SiteHost[];
  /** Write `dist/.htaccess` with the Apache rules, for shared hosting where only `.htaccess` is allowed. */
  apacheHtaccess: boolean;
  /** Extra request paths that answer a listing, for phones built to ask another server's paths. */
  requestPaths: RequestPath[];
}

const segment = /^[a-z0-9][a-z0-9_-]*$/;
const segmentMessage = 'use lowercase letters, digits, `-` and `_` (it becomes a URL path segment)';

const siteSchema = z.strictObject({
  download_base_url: z
    .string({ error: 'expected the https:// address under which builds are stored, e.g. https://images.example.org/builds' })
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
      error: 'expected an absolute http(s) address without query or fragment, e.g. https://images.example.org/builds',
    })
    // RFC 3986 characters only (a space is reported by the check above): quotes, <, > and non-ASCII must be percent-encoded.
    .regex(/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=% ]*$/, {
      error: 'the address holds characters that must be percent-encoded (quotes, <, >, \\, control or non-ASCII characters); write them as %XX, e.g. %22 for " and %C3%A4 for ä',
    }),
  channels: z
    .array(z.string().regex(segment, { error: segmentMessage }), { error: 'expected a list of channel names' })
    .min(1, { error: 'name at least one channel' })
    .optional(),
  lists: z
    .record(
      z.string().regex(segment, { error: segmentMessage }),
      z.array(z.string(), { error: 'expected the list of channels this request list collects, e.g. [stable, official]' }),
      { error: 'expected a mapping of request list → channels, e.g. stable: [stable, official]' },
    )
    .optional(),
  cache_control: z
    .string({ error: 'expected a Cache-Control header value' })
    // Its grammar is checked below (cacheControlProblem): it is written into every host's syntax.
    .optional(),
  options_handler: z.boolean({ error: 'expected true or false' }).optional(),
  hosts: z
    .array(z.enum(HOSTS, { error: `expected a host otapress writes rules for: ${HOSTS.join(' or ')}` }), {
      error: 'expected the list of hosts this site deploys to, e.g. [cloudflare]',
    })
    .min(1, { error: `name at least one host (${HOSTS.join(', ')})` })
    .optional(),
  apache_htaccess: z.boolean({ error: 'expected true or false' }).optional(),
  // Checked below, where the lists are known.
  request_paths: z.array(z.unknown(), { error: 'expected a list of request paths, e.g. - /api/v1/{device}_{list}' }).optional(),
});

/** The settings keys, for "did you mean" hints. */
export const SITE_KEYS = Object.keys(siteSchema.shape);

/** Parses `content/site.yaml` from its text; returns the settings or every problem found. */
export function parseSite(input: string | Uint8Array, file = SITE_FILE): { site?: Site; problems: Problem[] } {
  const source = readYamlSource(input, file);
  if (source.problems.length > 0) return { problems: source.problems };
  const problems: Problem[] = [];
  const report = (path: PropertyKey[], message: string, key = false) => {
    const { line, col } = source.locate(path, { key });
    problems.push({ file, line, col, field: path.join('.') || '(file)', message });
  };

  if (source.value === null || typeof source.value !== 'object' || Array.isArray(source.value)) {
    report([], 'expected a mapping with at least `download_base_url: https://...`');
    return { problems };
  }
  const parsed = siteSchema.safeParse(source.value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const hint = nearest(key, SITE_KEYS);
          report([...issue.path, key], `unknown setting${hint ? `; did you mean \`${hint}\`?` : `; known settings: ${SITE_KEYS.join(', ')}`}`, true);
        }
      } else {
        report(issue.path, issue.message, issue.path.length > 0 && issue.code === 'invalid_type' && issue.input === undefined);
      }
    }
    return { problems };
  }

  const settings = parsed.data;
  const channels = settings.channels ?? [...DEFAULT_CHANNELS];
  channels.forEach((channel, i) => {
    if (channels.indexOf(channel) !== i) report(['channels', i], `channel \`${channel}\` is listed twice`);
  });
  const lists = Object.entries(settings.lists ?? defaultListsOf(settings.channels)).map(([name, members]) => ({ name, channels: members }));
  if (lists.length === 0) report(['lists'], 'name at least one request list, e.g. stable: [stable, official]');
  for (const list of lists) {
    list.channels.forEach((channel, i) => {
      if (!channels.includes(channel) && lists.some((l) => l.name === channel)) {
        report(
          ['lists', list.name, i],
          `\`${channel}\` is a request list, not a channel: a list collects channels, never other lists (so no list can contain itself); name the channels of \`${channel}\` here instead`,
        );
      } else if (!channels.includes(channel)) {
        const hint = nearest(channel, channels);
        report(
          ['lists', list.name, i],
          `\`${channel}\` is not a channel of this site${hint ? `; did you mean \`${hint}\`?` : ''} (channels: ${channels.join(', ')}); add it to \`channels\` or remove it here`,
        );
      }
    });
  }
  const cacheProblem = settings.cache_control === undefined ? undefined : cacheControlProblem(settings.cache_control);
  if (cacheProblem) report(['cache_control'], cacheProblem);
  const hosts = settings.hosts ?? [...HOSTS];
  hosts.forEach((host, i) => {
    if (hosts.indexOf(host) !== i) report(['hosts', i], `host \`${host}\` is listed twice`);
  });
  if (settings.options_handler && !hosts.includes('cloudflare')) {
    report(['options_handler'], 'the OPTIONS handler is a Cloudflare Pages _worker.js, and `hosts` has no cloudflare; remove options_handler or add cloudflare to hosts');
  }
  const requestPaths: RequestPath[] = [];
  (settings.request_paths ?? []).forEach((entry, i) => {
    const names = lists.map((l) => l.name);
    const shape = 'expected a path such as /api/v1/{device}_{list}, or `path:` and `list:` for a path without {list}';
    let path: PropertyKey[] = ['request_paths', i];
    let requestPath: Omit<RequestPath, 'line' | 'col'>;
    if (typeof entry === 'string') requestPath = { pattern: entry };
    else if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      const { path: pattern, list, ...rest } = entry as Record<string, unknown>;
      const extra = Object.keys(rest)[0];
      if (extra !== undefined) return report(['request_paths', i, extra], 'unknown key; a request path has `path:` and `list:`', true);
      if (typeof pattern !== 'string') return report(['request_paths', i, 'path'], shape, pattern === undefined);
      if (typeof list !== 'string') return report(['request_paths', i, 'list'], `expected the list this path answers (${names.join(', ')})`, list === undefined);
      if (!names.includes(list)) return report(['request_paths', i, 'list'], `\`${list}\` is not a list of this site (lists: ${names.join(', ')})`);
      requestPath = { pattern, list };
      path = ['request_paths', i, 'path'];
    } else return report(path, shape);
    const problem = requestPathProblem(requestPath.pattern, { lists: names, fixedList: requestPath.list, earlier: requestPaths.map((r) => r.pattern) });
    if (problem) return report(path, problem);
    requestPaths.push({ ...requestPath, ...source.locate(path, { key: false }) });
  });
  if (problems.length > 0) return { problems };
  return {
    site: {
      downloadBaseUrl: settings.download_base_url.replace(/\/+$/, ''),
      channels,
      lists,
      cacheControl: settings.cache_control ?? DEFAULT_CACHE_CONTROL,
      optionsHandler: settings.options_handler ?? false,
      hosts,
      apacheHtaccess: settings.apache_htaccess ?? false,
      requestPaths,
    },
    problems,
  };
}

/**
 * Where `content/site.yaml` names the request list `name`; for the default lists, where it names
 * the channels, or its start. For problems found once the devices are known (the output limits).
 */
export function listLocation(input: string | Uint8Array, name: string, file = SITE_FILE): { line: number; col: number } {
  const source = readYamlSource(input, file);
  const value = source.value as Record<string, unknown> | null;
  const has = (key: string) => value !== null && typeof value === 'object' && Object.hasOwn(value, key);
  if (has('lists')) return source.locate(['lists', name], { key: true });
  return source.locate(has('channels') ? ['channels'] : [], { key: true });
}

// --- internal ---

/**
 * The lists of a site that names none: the interface's lists when it names no channels either;
 * otherwise one list per channel, named after it, which also collects the channels the interface
 * puts in a list of that name when the site has them (`stable` ← `stable`, `official`), so a site
 * never gets a default list that names a channel it removed.
 */
function defaultListsOf(channels: readonly string[] | undefined): Record<string, string[]> {
  if (channels === undefined) return DEFAULT_LISTS;
  const interfaceList = (channel: string) => (Object.hasOwn(DEFAULT_LISTS, channel) ? DEFAULT_LISTS[channel] : [channel]);
  return Object.fromEntries(channels.map((channel) => [channel, interfaceList(channel).filter((member) => channels.includes(member))]));
}
