import type * as Z from 'zod';
import { nearest, type Problem } from './problems.js';
import { lazily, zod } from './libraries.js';
import { flag, readPlain, UNSURE, type PlainCheck } from './plain.js';
import { readDocument, type DocumentKind } from './read-document.js';
import { readYamlSource, type YamlSource } from './yaml-source.js';
import { cacheControlProblem } from './cache-control.js';
import { nameLengthProblem } from './path-limits.js';
import { requestPathProblem, type RequestPath } from './request-paths.js';
import { readFormats, type OutputFormat } from './formats.js';

/** Where the site settings live, relative to the project root. */
export const SITE_FILE = 'content/site.yaml';

/** The channel values of the /e/ OTA server, used when `site.yaml` names none. */
export const DEFAULT_CHANNELS = ['stable', 'official', 'dev', 'community'] as const;

/** The request lists of the /e/ OTA server and the channels each collects (list ← channels). */
export const DEFAULT_LISTS: Record<string, string[]> = {
  stable: ['stable', 'official'],
  official: ['official'],
  dev: ['dev', 'community'],
  community: ['community'],
};

/** The hosts otapress writes rule files for: `dist/_redirects` and `dist/_headers`, in Cloudflare Pages' dialect or (with `--host netlify`) Netlify's. */
export const HOSTS = ['cloudflare', 'netlify', 'github-pages'] as const;

/** A host of {@link HOSTS}. */
export type SiteHost = (typeof HOSTS)[number];

/** The host of the `download_base_url` that `otapress init` writes, to be replaced: builds under it lead nowhere. */
const PLACEHOLDER_DOWNLOAD_HOST = 'downloads.example.org';

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
  /** The hosts the site deploys to: only their rule files are written (and `netlify.toml` by init). */
  hosts: SiteHost[];
  /** Write `dist/.htaccess` with the Apache rules, for shared hosting where only `.htaccess` is allowed. */
  apacheHtaccess: boolean;
  /** Extra request paths that answer a listing, for phones built to ask another server's paths. */
  requestPaths: RequestPath[];
  /**
   * `list`: withdrawn (`.disabled.zip`) and size-0 builds stay in the v1 lists, as the interface
   * has them; the default of a site whose channels are all the interface's ({@link DEFAULT_CHANNELS}).
   * `omit`: they are left out of every listing, for phones whose (LineageOS) updater cannot tell a
   * withdrawn build and offers a size-0 one; the default of any other site (`channels: [nightly]`).
   */
  v1Withdrawn: 'list' | 'omit';
  /** Where `download_base_url` stands in site.yaml, for notices about it. */
  downloadBaseUrlAt?: { line: number; col: number };
  /** The site's own public address (`site_url`), without a trailing slash: makes the links in `/api/v2/changes` and v1 `changes` absolute. */
  siteUrl?: string;
  /** What v1 `changes` holds: `""` as the interface shows (default), or the build's changelog page address (as LineageOTA does). */
  v1Changes: 'empty' | 'changelog_url';
  /** The other updater families' files the site publishes (formats.ts); none by default. */
  formats: OutputFormat[];
}

const segment = /^[a-z0-9][a-z0-9_-]*$/;
/** `download_base_url`: an absolute http(s) address without query or fragment, of RFC 3986 characters only. */
const DOWNLOAD_BASE_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
const URL_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=% ]*$/;
/** `site_url`: https, a host, an optional port and path. */
const SITE_URL = /^https:\/\/[A-Za-z0-9.-]+(:\d+)?(\/[A-Za-z0-9\-._~/%]*)?$/;
const segmentMessage = 'use lowercase letters, digits, `-` and `_` (it becomes a URL path segment)';

/** The zod schema of site.yaml, built the first time one is not plain ({@link plainSettings}; see libraries.ts). */
export const siteSchema = lazily(() => {
  const z = zod();
  return z.strictObject({
    download_base_url: z
      .string({
        error: 'expected the https:// address under which builds are stored, e.g. https://images.example.org/builds',
      })
      .regex(DOWNLOAD_BASE_URL, {
        error: 'expected an absolute http(s) address without query or fragment, e.g. https://images.example.org/builds',
      })
      // RFC 3986 characters only (a space is reported by the check above): quotes, <, > and non-ASCII must be percent-encoded.
      .regex(URL_CHARACTERS, {
        error:
          'the address holds characters that must be percent-encoded (quotes, <, >, \\, control or non-ASCII characters); write them as %XX, e.g. %22 for " and %C3%A4 for ä',
      })
      // What passes the patterns but no URL parser reads (a port past 65535, `[x]` as a host) would
      // stop every build that makes a download address from it.
      .refine((v) => URL.canParse(v), {
        error:
          'the host or port of this address cannot be read (a port is a number from 0 to 65535, an IPv6 host is written [2001:db8::1]); e.g. https://images.example.org/builds',
      }),
    channels: z
      .array(z.string().regex(segment, { error: segmentMessage }), { error: 'expected a list of channel names' })
      .min(1, { error: 'name at least one channel' })
      .optional(),
    lists: z
      .record(
        z.string().regex(segment, { error: segmentMessage }),
        z.array(z.string(), {
          error: 'expected the list of channels this request list collects, e.g. [stable, official]',
        }),
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
    v1_withdrawn: z
      .enum(['list', 'omit'], {
        error:
          'expected `list` (withdrawn .disabled.zip and size-0 builds stay in the v1 lists, the default for the /e/ channels) or `omit` (left out, for phones running the LineageOS updater; the default for other channels)',
      })
      .optional(),
    site_url: z
      .string({ error: 'expected the https:// address this site is served at, e.g. https://updates.example.org' })
      .regex(SITE_URL, {
        error:
          'expected the https:// address this site is served at, without query or fragment, e.g. https://updates.example.org',
      })
      .optional(),
    v1_changes: z
      .enum(['empty', 'changelog_url'], {
        error:
          'expected empty (the default: v1 `changes` is "") or changelog_url (the build\'s changelog page address)',
      })
      .optional(),
    // Checked below, where the lists are known.
    request_paths: z
      .array(z.unknown(), { error: 'expected a list of request paths, e.g. - /api/v1/{device}_{list}' })
      .optional(),
    // Checked below (formats.ts), where the lists are known.
    formats: z.unknown().optional(),
  });
});

/** The settings keys (those of {@link siteSchema}), for "did you mean" hints. */
export const SITE_KEYS = [
  'download_base_url',
  'channels',
  'lists',
  'cache_control',
  'options_handler',
  'hosts',
  'apache_htaccess',
  'v1_withdrawn',
  'site_url',
  'v1_changes',
  'request_paths',
  'formats',
];

/** The settings as {@link siteSchema} reads them. */
export type SiteSettings = Z.infer<ReturnType<typeof siteSchema>>;

const names = (v: unknown, allowed: (name: string) => boolean) =>
  Array.isArray(v) && v.length >= 1 && v.every((x) => typeof x === 'string' && allowed(x))
    ? [...(v as string[])]
    : UNSURE;

/**
 * Each setting's value as {@link siteSchema} reads it, for the values it takes, with the same
 * patterns. test/catalog/site.test.ts holds this table to the schema: whatever it takes, zod takes too,
 * with the same result.
 */
const PLAIN_SETTINGS: Record<string, PlainCheck> = {
  download_base_url: (v) =>
    typeof v === 'string' && DOWNLOAD_BASE_URL.test(v) && URL_CHARACTERS.test(v) && URL.canParse(v) ? v : UNSURE,
  channels: (v) => names(v, (name) => segment.test(name)),
  lists: plainLists,
  cache_control: (v) => (typeof v === 'string' ? v : UNSURE),
  options_handler: flag,
  hosts: (v) => names(v, (host) => (HOSTS as readonly string[]).includes(host)),
  apache_htaccess: flag,
  v1_withdrawn: (v) => (v === 'list' || v === 'omit' ? v : UNSURE),
  site_url: (v) => (typeof v === 'string' && SITE_URL.test(v) ? v : UNSURE),
  v1_changes: (v) => (v === 'empty' || v === 'changelog_url' ? v : UNSURE),
  request_paths: (v) => (Array.isArray(v) ? [...(v as unknown[])] : UNSURE),
  formats: (v) => v,
};

/** `lists`: a plain mapping of list names to lists of channel names, copied as zod's record copies it. */
function plainLists(v: unknown): Record<string, string[]> | typeof UNSURE {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype)
    return UNSURE;
  const lists: Record<string, string[]> = {};
  for (const [name, channels] of Object.entries(v)) {
    if (!segment.test(name) || !Array.isArray(channels) || !channels.every((c) => typeof c === 'string')) return UNSURE;
    lists[name] = [...(channels as string[])];
  }
  return lists;
}

/**
 * The settings as `siteSchema().safeParse` returns them, key for key and in the same order, when
 * every setting is one {@link PLAIN_SETTINGS} takes; `undefined` when any is not (or
 * `download_base_url` is missing). Building the schema and running it on cold code took 15 ms of
 * the start of every build, before any device could be compiled.
 */
export function plainSettings(raw: Record<string, unknown>): SiteSettings | undefined {
  if (!Object.hasOwn(raw, 'download_base_url')) return undefined;
  return readPlain(raw, PLAIN_SETTINGS, SITE_KEYS) as SiteSettings | undefined;
}

/** Parses `content/site.yaml` from its text; returns the settings or every problem found. */
export function parseSite(input: string | Uint8Array, file = SITE_FILE): { site?: Site; problems: Problem[] } {
  const document = readDocument(input, file, siteKind(input, file));
  const { data: settings, problems, source } = document;
  if (settings === undefined) return { problems };
  const report: SiteReport = (path, message, key = false) => document.report(path, message, { key });

  const channels = settings.channels ?? [...DEFAULT_CHANNELS];
  channels.forEach((channel, i) => {
    if (channels.indexOf(channel) !== i) report(['channels', i], `channel \`${channel}\` is listed twice`);
    else if (nameLengthProblem(channel, 'channel name'))
      report(['channels', i], nameLengthProblem(channel, 'channel name')!);
  });
  const lists = readLists(settings, channels, report);
  const cacheProblem = settings.cache_control === undefined ? undefined : cacheControlProblem(settings.cache_control);
  if (cacheProblem) report(['cache_control'], cacheProblem);
  const hosts = settings.hosts ?? [...HOSTS];
  hosts.forEach((host, i) => {
    if (hosts.indexOf(host) !== i) report(['hosts', i], `host \`${host}\` is listed twice`);
  });
  if (settings.options_handler && !hosts.includes('cloudflare')) {
    report(
      ['options_handler'],
      'the OPTIONS handler is a Cloudflare Pages _worker.js, and `hosts` has no cloudflare; remove options_handler or add cloudflare to hosts',
    );
  }
  const requestPaths = readRequestPaths(
    settings.request_paths ?? [],
    lists.map((l) => l.name),
    source,
    report,
  );
  if (settings.v1_changes === 'changelog_url' && settings.site_url === undefined) {
    report(
      ['v1_changes'],
      'v1 `changes` must be an absolute address, and otapress does not know where the site is served; add `site_url: https://...`',
    );
  }
  const formats = readFormats(
    settings.formats,
    lists.map((l) => l.name),
  );
  for (const problem of formats.problems) report(['formats', ...problem.path], problem.message, problem.key);
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
      v1Withdrawn: settings.v1_withdrawn ?? defaultV1Withdrawn(channels),
      downloadBaseUrlAt: source.locate(['download_base_url']),
      ...(settings.site_url !== undefined && { siteUrl: settings.site_url.replace(/\/+$/, '') }),
      v1Changes: settings.v1_changes ?? 'empty',
      formats: formats.formats.map((format) => {
        const given =
          (settings.formats as Record<string, { path?: unknown } | null>)[format.family]?.path !== undefined;
        return {
          ...format,
          at: source.locate(
            given
              ? ['formats', format.family, 'path', ...(format.perList ? format.lists : [])]
              : ['formats', format.family],
            { key: !given },
          ),
        };
      }),
    },
    problems,
  };
}

/**
 * `v1_withdrawn` when site.yaml does not say: `list` for an /e/ catalog (only the interface's
 * channels, whose /e/ updater reads the interface's records as they are), `omit` for any other,
 * whose phones run the LineageOS updater or a fork of it: it offers a `.disabled.zip` build for
 * install and a build of size 0, whose download can never match its size.
 */
export function defaultV1Withdrawn(channels: readonly string[]): 'list' | 'omit' {
  return channels.every((channel) => (DEFAULT_CHANNELS as readonly string[]).includes(channel)) ? 'list' : 'omit';
}

/**
 * A notice when listed downloads use the host `otapress init` writes as a placeholder: the site
 * builds, and every phone would be offered a download that leads nowhere. `urls` are the download
 * addresses the listings offer (each device's newest builds).
 */
export function placeholderHostNotice(site: Site, urls: readonly string[], file = SITE_FILE): Problem | undefined {
  const placeholder = [...new Set(urls)].filter(
    (url) => URL.canParse(url) && new URL(url).host === PLACEHOLDER_DOWNLOAD_HOST,
  );
  if (placeholder.length === 0) return undefined;
  const { line, col } = site.downloadBaseUrlAt ?? { line: 1, col: 1 };
  return {
    file,
    line,
    col,
    field: 'download_base_url',
    message: `\`${PLACEHOLDER_DOWNLOAD_HOST}\` is the placeholder host \`otapress init\` writes: ${placeholder.length === 1 ? 'a listed download leads' : `${placeholder.length} listed downloads lead`} nowhere (${placeholder[0]}); set download_base_url to the address your zips are uploaded to`,
  };
}

/**
 * Where `content/site.yaml` names the request list `name`; for the default lists, where it names
 * the channels, or its start. For problems found once the devices are known (the output limits).
 */
export function listLocation(
  input: string | Uint8Array,
  name: string,
  file = SITE_FILE,
): { line: number; col: number } {
  const source = readYamlSource(input, file);
  const value = source.value as Record<string, unknown> | null;
  const has = (key: string) => value !== null && typeof value === 'object' && Object.hasOwn(value, key);
  if (has('lists')) return source.locate(['lists', name], { key: true });
  return source.locate(has('channels') ? ['channels'] : [], { key: true });
}

// --- internal ---

/** How a site setting's problem is reported: at the value at `path`, or (`key`) at its key. */
type SiteReport = (path: PropertyKey[], message: string, key?: boolean) => void;

/**
 * How site.yaml is read (read-document.ts): its messages; a missing `download_base_url` is shown
 * where `otapress init` wrote it commented out, so the kind is made for the file's text.
 */
function siteKind(input: string | Uint8Array, file: string): DocumentKind<SiteSettings> {
  return {
    notAMapping: () => 'expected a mapping with at least `download_base_url: https://...`',
    plain: plainSettings,
    schema: siteSchema,
    unknownKey(key) {
      const hint = nearest(key, SITE_KEYS);
      return `unknown setting${hint ? `; did you mean \`${hint}\`?` : `; known settings: ${SITE_KEYS.join(', ')}`}`;
    },
    issue(issue, { raw }) {
      if (
        issue.path.length === 1 &&
        issue.path[0] === 'download_base_url' &&
        !Object.hasOwn(raw!, 'download_base_url')
      ) {
        return missingDownloadBaseUrl(typeof input === 'string' ? input : Buffer.from(input).toString('utf8'), file);
      }
      return {
        message: issue.message,
        key: issue.path.length > 0 && issue.code === 'invalid_type' && issue.input === undefined,
      };
    },
  };
}

/** The request lists, as written or by default; reports names too long and members that are not channels. */
function readLists(settings: SiteSettings, channels: readonly string[], report: SiteReport): Site['lists'] {
  const lists = Object.entries(settings.lists ?? defaultListsOf(settings.channels)).map(([name, members]) => ({
    name,
    channels: members,
  }));
  // Lists named after the channels were reported with them.
  for (const { name } of settings.lists ? lists : [])
    if (nameLengthProblem(name, 'list name')) report(['lists', name], nameLengthProblem(name, 'list name')!, true);
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
  return lists;
}

/** The extra request paths, each a pattern or `path:` and `list:`, located for the messages about them later. */
function readRequestPaths(
  entries: readonly unknown[],
  names: string[],
  source: YamlSource,
  report: SiteReport,
): RequestPath[] {
  const requestPaths: RequestPath[] = [];
  entries.forEach((entry, i) => {
    const shape = 'expected a path such as /api/v1/{device}_{list}, or `path:` and `list:` for a path without {list}';
    let path: PropertyKey[] = ['request_paths', i];
    let requestPath: Omit<RequestPath, 'line' | 'col'>;
    if (typeof entry === 'string') requestPath = { pattern: entry };
    else if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      const { path: pattern, list, ...rest } = entry as Record<string, unknown>;
      const extra = Object.keys(rest)[0];
      if (extra !== undefined)
        return report(['request_paths', i, extra], 'unknown key; a request path has `path:` and `list:`', true);
      if (typeof pattern !== 'string') return report(['request_paths', i, 'path'], shape, pattern === undefined);
      if (typeof list !== 'string')
        return report(
          ['request_paths', i, 'list'],
          `expected the list this path answers (${names.join(', ')})`,
          list === undefined,
        );
      if (!names.includes(list))
        return report(
          ['request_paths', i, 'list'],
          `\`${list}\` is not a list of this site (lists: ${names.join(', ')})`,
        );
      requestPath = { pattern, list };
      path = ['request_paths', i, 'path'];
    } else return report(path, shape);
    const problem = requestPathProblem(requestPath.pattern, {
      lists: names,
      fixedList: requestPath.list,
      earlier: requestPaths.map((r) => r.pattern),
    });
    if (problem) return report(path, problem);
    requestPaths.push({ ...requestPath, ...source.locate(path, { key: false }) });
  });
  return requestPaths;
}

/** `download_base_url` is missing: at its commented-out line when there is one (init writes it ready to edit), else at the top. */
function missingDownloadBaseUrl(text: string, file: string): Problem {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const commented = lines.findIndex((l) => /^[ \t]*#+[ \t]*download_base_url[ \t]*:/.test(l));
  if (commented >= 0) {
    return {
      file,
      line: commented + 1,
      col: lines[commented].indexOf('#') + 1,
      field: 'download_base_url',
      message:
        'download_base_url is commented out, and every build needs it for its download address; remove the `#` and set the address your zips are uploaded to, e.g. download_base_url: https://images.example.org/builds',
    };
  }
  return {
    file,
    line: 1,
    col: 1,
    field: 'download_base_url',
    message:
      'missing `download_base_url`: every build needs it for its download address; add a line download_base_url: https://... with the address your zips are uploaded to',
  };
}

/**
 * The lists of a site that names none: the interface's lists when it names no channels either;
 * otherwise one list per channel, named after it, which also collects the channels the interface
 * puts in a list of that name when the site has them (`stable` ← `stable`, `official`), so a site
 * never gets a default list that names a channel it removed.
 */
function defaultListsOf(channels: readonly string[] | undefined): Record<string, string[]> {
  if (channels === undefined) return DEFAULT_LISTS;
  const interfaceList = (channel: string) =>
    Object.hasOwn(DEFAULT_LISTS, channel) ? DEFAULT_LISTS[channel] : [channel];
  return Object.fromEntries(
    channels.map((channel) => [channel, interfaceList(channel).filter((member) => channels.includes(member))]),
  );
}
