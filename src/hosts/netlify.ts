/**
 * Netlify's rule files, from the route table (routes.ts): `dist/_redirects` and `dist/_headers`,
 * which a `--host netlify` build writes, and the `netlify.toml` that `otapress init` writes once,
 * which holds only what no device, list or site setting changes. Netlify reads the publish folder's
 * `_redirects` before `netlify.toml`'s `[[redirects]]` (docs.netlify.com/routing/redirects), so
 * the rules there need no commit when a device is added. Pure.
 */
import { answersOf, checkedRedirect, type Endpoint, type IncrementalAnswer, type RouteTable } from './routes.js';
import { checkHeaderRules } from './cloudflare.js';
import { problemAtFormat } from './format-routes.js';
import type { HostModule } from './host.js';
import { thousands, type OutputLimits } from './limit-check.js';
import { fill } from '../render/urls.js';
import type { Problem } from '../catalog/problems.js';

/** The first line of the `netlify.toml` otapress writes: a file without it is the maintainer's. */
export const NETLIFY_TOML_HEADER =
  '# Written by `otapress init`. The routes and headers are not here: the build writes them into';

/**
 * `netlify.toml`: the build command and the publish folder, the same for every catalog. The
 * command passes `--host netlify`, so that dist/ gets Netlify's rule files, not Cloudflare's.
 */
export const NETLIFY_TOML = `${NETLIFY_TOML_HEADER}
# dist/_redirects and dist/_headers from content/, so adding a device or a list changes nothing here.
[build]
command = "npm run build -- --host netlify"
publish = "dist"

[build.environment]
NODE_VERSION = "20"
`;

/**
 * Netlify's documented limits: no limit on files per deploy, but 54,000 files per folder
 * (docs.netlify.com/site-deploys/overview, "Files per directory limit"); redirect rules are
 * serialized for the deploy, which "might fail" when that is too large, and from 10,000 rules on
 * Netlify asks for placeholders instead (docs.netlify.com/routing/redirects). Its `_redirects`
 * takes one rule per device and list: past 10,000 rules, lists beyond the interface's four are
 * refused (they multiply the rules); devices are not (each adds its dozen). {@link netlifyOutputProblems}
 * checks both before anything is compiled, {@link netlifyRedirectProblems} GrapheneOS's zip names after.
 */
const NETLIFY_LIMITS = { filesPerFolder: 54_000, rules: 10_000 } as const;

/**
 * Netlify: a `--host netlify` build writes its rule files in place of Cloudflare's, for a site
 * whose `hosts` has it. Its rules cannot fall through from a rewrite whose file is missing either,
 * so a device gets a rule of its own per request shape; a placeholder there is a whole path
 * segment, so no rule can tell a miss of a format's file at the root from other misses there.
 */
export const netlify: HostModule = {
  name: 'netlify',
  writes: (site, target) => target === 'netlify' && site.hosts.includes('netlify'),
  ruleFiles: (table) => [
    { path: '_redirects', contents: renderNetlifyRedirects(table) },
    { path: '_headers', contents: renderNetlifyHeaders(table) },
  ],
  limits: NETLIFY_LIMITS,
  // Its limits depend on the devices and lists, checked before anything is compiled, and on
  // GrapheneOS's zip names, known once the catalog is.
  limitProblems: netlifyRedirectProblems,
  outputLimitProblems: netlifyOutputProblems,
  // Its header rules apply to 404s as to every answer.
  answers: { rootFormatMiss: 'html', notFoundCacheControl: 'rules' },
};

/** One Netlify redirect rule: `status` 200 rewrites (forced when `force`), 404 serves `to` with status 404, 302 redirects to `to` (an address); `query` matches one query parameter by value, or any value as `:name`. */
export interface NetlifyRule {
  from: string;
  to: string;
  status: 200 | 302 | 404;
  force: boolean;
  query?: [string, string];
}

/**
 * The rules in order: one forced rewrite per device, list and request shape (the engine does not
 * fall through from a rewrite whose file is missing, so placeholders would turn an unknown device
 * into the HTML 404), then each endpoint's unknown-device answer, then the JSON 404 rules from the
 * most to the least specific folder. One Netlify rule matches both slash forms, so trailing-slash
 * paths need no rule; query strings pass through.
 */
export function netlifyRules({
  endpoints,
  devices,
  lists,
  incrementals,
  notFound,
  redirects,
}: RouteTable): NetlifyRule[] {
  // GrapheneOS's zip names, each to its download; not forced, so a zip uploaded under its name is served.
  const out: NetlifyRule[] = redirects
    .map(checkedRedirect)
    .map(({ from, to }) => ({ from, to, status: 302, force: false }));
  const rewrite = (from: string, to: string) => out.push({ from, to, status: 200, force: true });
  const unslashed = (endpoint: Endpoint) => endpoint.paths.filter((p) => !p.endsWith('/'));
  for (const endpoint of endpoints.filter((e) => !e.paths[0].includes(':device'))) {
    for (const p of unslashed(endpoint)) {
      // A paged endpoint: its first page (no parameter, or `0`) answers everything, every other
      // value the past-the-end 404 that ends a client paging until an answer fails.
      if (endpoint.paging) {
        const { param, past } = endpoint.paging;
        out.push({ from: p, to: endpoint.file, status: 200, force: true, query: [param, '0'] });
        out.push({ from: p, to: past, status: 404, force: true, query: [param, `:${param}`] });
      }
      rewrite(p, endpoint.file);
    }
  }
  // The answers for phones on one build, by endpoint and device, found once (not per device and list).
  const answers = new Map<Endpoint, Map<string, IncrementalAnswer[]>>();
  const answersFor = (endpoint: Endpoint, device: string) => {
    let byDevice = answers.get(endpoint);
    if (!byDevice) {
      answers.set(endpoint, (byDevice = new Map()));
      for (const answer of answersOf(endpoint, incrementals))
        byDevice.set(answer.device, [...(byDevice.get(answer.device) ?? []), answer]);
    }
    return byDevice.get(device) ?? [];
  };
  for (const device of devices) {
    for (const endpoint of endpoints.filter((e) => e.paths[0].includes(':device'))) {
      const expansions = endpoint.paths[0].includes(':list') ? lists.map((list) => ({ device, list })) : [{ device }];
      for (const params of expansions) {
        for (const p of unslashed(endpoint)) {
          // Each answer for phones on one build before the rule that answers every other build.
          if (endpoint.incrementalFile && p.includes(':incremental')) {
            for (const answer of answersFor(endpoint, device)) {
              if (!('list' in params) || answer.list === params.list)
                rewrite(fill(p, answer), fill(endpoint.incrementalFile, answer));
            }
          }
          rewrite(fill(p, params), fill(endpoint.file, params));
        }
      }
    }
  }
  // After every device's own rule: what the other devices answer instead of the JSON 404.
  for (const endpoint of endpoints)
    if (endpoint.unknownDevice) for (const p of unslashed(endpoint)) rewrite(p, endpoint.unknownDevice);
  // A format's file at the root has no 404 rule of its own: a placeholder is a whole path segment
  // here (docs.netlify.com/manage/routing/redirects/redirect-options/, "Placeholders"), and
  // netlify-redirector 0.5.0 matches `/:device.json` against `/no-such-page` and `/index.html` too,
  // so such a rule would answer every miss at the root with JSON. Those misses keep the HTML 404.
  for (const scope of notFound) out.push({ from: `${scope.folder}*`, to: scope.file, status: 404, force: false });
  return out;
}

/**
 * Netlify's `_redirects`: `from to status`, `!` after a forced status. A path is one field of a
 * line split at white space, so a path holding white space, a control character or `#` could not be
 * written as it is; the route table's grammar never lets one through, and one is refused here.
 */
export function renderNetlifyRedirects(table: RouteTable): string {
  const lines = ['# Generated by otapress from its route table for Netlify; edit content/site.yaml, not this file.'];
  for (const rule of netlifyRules(table)) {
    for (const value of [rule.from, rule.to]) {
      if (!/^(\/|https:\/\/)[\x21-\x7e]*$/.test(value) || value.includes('#'))
        throw new Error(
          `cannot be written as one field of _redirects (white space, a control character or #): ${JSON.stringify(value)}`,
        );
    }
    const query = rule.query ? `  ${rule.query[0]}=${rule.query[1]}` : '';
    if (rule.query && !/^[A-Za-z0-9_]+=:?[A-Za-z0-9_]+$/.test(rule.query.join('=')))
      throw new Error(`cannot be written as a query match of _redirects: ${JSON.stringify(rule.query)}`);
    lines.push(`${rule.from}${query}  ${rule.to}  ${rule.status}${rule.force ? '!' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The first line of the `netlify.toml` that builds of earlier otapress versions wrote, with every route in it. */
const OLD_NETLIFY_TOML_HEADER =
  '# Generated by `npm run build` from content/: edit content/site.yaml or the manifests, not this file.';

/**
 * A `netlify.toml` an earlier otapress build wrote, with the routes and headers of the catalog as it
 * was then: Netlify reads dist/_redirects first, so its redirects are never reached, but its
 * `[[headers]]` win over dist/_headers (@netlify/headers-parser `mergeHeaders`), so a changed
 * `cache_control` would not reach Netlify. One notice, at the first table to delete; otapress does
 * not change the file, which is the maintainer's to commit.
 */
export function oldNetlifyTomlNotice(text: string): Problem | undefined {
  const lines = text.split('\n');
  if (lines[0] !== OLD_NETLIFY_TOML_HEADER) return undefined;
  const first = lines.findIndex((line) => /^\s*\[\[(redirects|headers)\]\]/.test(line));
  if (first < 0) return undefined;
  return {
    file: 'netlify.toml',
    line: first + 1,
    col: 1,
    field: '(file)',
    message:
      'written by an earlier otapress with the routes of the catalog as it was then; the build now writes them into dist/_redirects and dist/_headers (with --host netlify) and never changes netlify.toml: delete every [[redirects]] and [[headers]] table from here on, keep [build] and [build.environment], and commit it (its headers would win over a changed cache_control)',
  };
}

// --- internal ---

/** Why the rules past {@link NETLIFY_LIMITS} are refused, in every message about them. */
const TOO_MANY_RULES = `Netlify asks for placeholders instead of ${thousands(NETLIFY_LIMITS.rules)} rules or more, and may fail a deploy whose rules are too large`;

/**
 * The rules of `_redirects` past Netlify's limit once GrapheneOS's zip names are known (one rule
 * per build its channel files can name and per incremental package, render/formats.ts
 * `channelDownloads`), which the check before compiling cannot count: reported at the format.
 */
function netlifyRedirectProblems(table: RouteTable): Problem[] {
  const { redirects, site } = table;
  if (redirects.length === 0) return [];
  const total = netlifyRules(table).length;
  if (total <= NETLIFY_LIMITS.rules) return [];
  const format = site.formats.find((f) => f.family === 'grapheneos')!;
  return [
    problemAtFormat(
      format,
      `GrapheneOS's zip names (${thousands(redirects.length)}, one per build its channel files can name and per incremental package) take one Netlify redirect rule each: ${thousands(total)} Netlify redirect rules, past ${thousands(NETLIFY_LIMITS.rules)}; ${TOO_MANY_RULES}; remove the manifests of builds no phone still updates to, or remove netlify from \`hosts\``,
    ),
  ];
}

/** The redirect rules and the folders of a site's output past Netlify's limits (limit-check.ts). */
function netlifyOutputProblems({ devices, floor, check }: OutputLimits): Problem[] {
  const rules = check(
    (lists, count, requestPaths) => floor(count, lists, requestPaths).rules,
    NETLIFY_LIMITS.rules,
    'Netlify redirect rules',
    `${TOO_MANY_RULES}; use fewer lists or request paths (content/site.yaml), or remove netlify from \`hosts\``,
    // A rule per device is what keeps an unknown device on the JSON 404 there: the devices alone
    // (10 rules each with the interface's lists) may pass the advice, the lists may not multiply them.
    { devicesToo: false },
  );
  const problems = rules ? [rules] : [];
  // Every device is a folder in dist/api/v1/ and dist/devices/.
  if (devices.length > NETLIFY_LIMITS.filesPerFolder) {
    const device = devices[NETLIFY_LIMITS.filesPerFolder];
    problems.push({
      file: `content/${device}`,
      line: 1,
      col: 1,
      field: '(folder)',
      message: `${thousands(devices.length)} device folders make as many folders in dist/api/v1/, past Netlify's ${thousands(NETLIFY_LIMITS.filesPerFolder)} files per folder; split the devices over several sites`,
    });
  }
  return problems;
}

/**
 * Netlify's `_headers`: the API headers on everything under `/api/` and in the formats' folders
 * (the syntax is Cloudflare's; the values are checked there), and on each of the formats' files at
 * the root (`rootFiles`, `/akita.json`) by a rule of its own. Netlify reads `:name` as a whole path
 * segment and `*` inside one as any text, slashes too (@netlify/headers-parser `getForRegExp`, as
 * netlify-cli matches `for`): `/:device.json` would match every page at the root, `/*.json` any
 * `.json` miss at any depth; a rule per file keeps the HTML headers on every miss.
 */
function renderNetlifyHeaders(table: RouteTable): string {
  const headerRules = checkHeaderRules(table.headerRules);
  const { rootFiles } = table;
  for (const file of rootFiles)
    if (!/^\/[A-Za-z0-9._~-]+$/.test(file))
      throw new Error(`cannot be written as a path of _headers: ${JSON.stringify(file)}`);
  const patterns = headerRules.filter((rule) => !rule.for.includes(':'));
  const values = patterns[0].values;
  const rules = [...patterns, ...rootFiles.map((file) => ({ for: file, values }))].map((rule) =>
    [rule.for, ...Object.entries(rule.values).map(([name, value]) => `  ${name}: ${value}`)].join('\n'),
  );
  return `# Generated by otapress for Netlify; edit content/site.yaml, not this file.\n${rules.join('\n')}\n`;
}
