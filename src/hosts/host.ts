/**
 * What a host is to otapress: one module per host (cloudflare.ts, netlify.ts, github-pages.ts,
 * nginx.ts, caddy.ts, apache.ts), each generating its rules from the route table (routes.ts `RouteTable`) and nothing
 * else, registered in host-files.ts `HOSTS`. Adding a host is one module and one line there. Pure.
 */
import type { Problem } from '../catalog/problems.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from '../render/output.js';
import type { RouteTable, ZipRedirect } from './routes.js';
import type { ListenAddress } from './server-rules.js';
import type { OutputLimits } from './limit-check.js';

/**
 * Which host a build is for: `all` writes Cloudflare's rule files; `netlify` writes Netlify's in
 * their place; `github-pages` writes neither (Pages reads no rule file), only what Pages needs.
 */
export type Host = 'all' | 'netlify' | 'github-pages';

/** One host: the rule files a build writes for it, the limits they keep to, how it answers where rules cannot. */
export interface HostModule {
  /** Its name, as site.yaml's `hosts` or `otapress hosting` spells it. */
  name: string;
  /**
   * Does a build for `target` write this host's rule files into the output? Cloudflare's and
   * Netlify's share their names (`_redirects`, `_headers`), so a build writes one host's.
   */
  writes(site: Site, target: Host): boolean;
  /** The files of its rules in the published folder (none for a server configured from outside it). */
  ruleFiles(table: RouteTable): OutputFile[];
  /** Its documented limits on what the rules may hold, by name (each module says where it is documented). */
  limits: Readonly<Record<string, number>>;
  /** The rules of `table` past {@link limits}, each at the setting that makes them: a build with one writes nothing. */
  limitProblems(table: RouteTable): Problem[];
  /**
   * The limits a site's output would pass, known from the settings and the device folders alone
   * (limits.ts runs it, before anything is compiled, for a host site.yaml's `hosts` names).
   */
  outputLimitProblems(limits: OutputLimits): Problem[];
  /** Where its answers differ from the route table's because its rules cannot say what the table does. */
  answers: HostAnswers;
  /** A self-hosted server: its whole configuration (`otapress hosting <name>`), serving the built `dist/`. */
  serverConfig?(site: Site, options: ServerConfigOptions): string;
}

/**
 * The module of a self-hosted server: it has no documented rule limits, and its rules (a fallback
 * rewrite and the nearest JSON 404 of each folder) answer as the route table says. It writes rule
 * files only where `writes` says so (Apache's `.htaccess`).
 */
export function selfHostedServer(
  server: Pick<HostModule, 'name' | 'serverConfig'> & Partial<Pick<HostModule, 'writes' | 'ruleFiles'>>,
): HostModule {
  return {
    writes: () => false,
    ruleFiles: () => [],
    limits: {},
    limitProblems: () => [],
    outputLimitProblems: () => [],
    answers: { rootFormatMiss: 'json', notFoundCacheControl: 'no-store' },
    ...server,
  };
}

/**
 * How a host answers where its rules cannot follow the route table (the host table's tests expect
 * these of each host's engine). Where they can, a module writes rules that answer as the table says.
 */
interface HostAnswers {
  /**
   * A miss of a format's file at the root (`/no-such-device.json`): `json`, the JSON 404 of
   * ROOT_FORMAT_MISSES; `html`, the HTML 404 page, where a rule cannot tell it from other misses at the root.
   */
  rootFormatMiss: 'json' | 'html';
  /** `Cache-Control` of a 404: `no-store` (the host's, or written so), or `rules` where the header rules apply. */
  notFoundCacheControl: 'no-store' | 'rules';
}

/** What a generated server configuration needs besides the site. */
export interface ServerConfigOptions {
  /** Absolute path of the built `dist/`. */
  dist: string;
  /** Undefined: port 80 on every address (Caddy: automatic HTTPS when there is a server name). */
  listen?: ListenAddress;
  /** Absolute folder for pid, logs and temp files (and Caddy's state); undefined: the server's run-time prefix. */
  prefix?: string;
  serverName?: string;
  /** GrapheneOS's zip names and their downloads (routes.ts `RouteTable.redirects`), from the compiled catalog. */
  redirects?: readonly ZipRedirect[];
}
