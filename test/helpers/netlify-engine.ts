// Netlify's own rule engine, driven the way netlify-cli's dev server drives it: its parsers read
// netlify.toml (and _redirects/_headers from the publish folder, before netlify.toml, as Netlify
// does), netlify-redirector picks the first matching rule. Around the engine, which knows nothing
// about files, this module applies what Netlify does with the match: an existing file is served
// before a rule that is not forced; a 200 rule serves its target; a 404 rule serves its target's
// body with status 404; no rule, no file: /404.html. Method handling is not part of the engine.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAllHeaders } from '@netlify/headers-parser';
import { parseAllRedirects } from '@netlify/redirect-parser';

/** A redirect rule as @netlify/redirect-parser returns it (the fields used here). */
export interface NetlifyRedirect {
  from: string;
  to: string;
  status?: number;
  force: boolean;
  query?: Record<string, string>;
  conditions?: Record<string, unknown>;
  signed?: string;
  [key: string]: unknown;
}

interface EngineMatch {
  from: string;
  to: string;
  status: number;
  force: boolean;
}

/** A parsed site: rules, headers and the engine's matcher over a publish folder. */
export interface NetlifySite {
  distDir: string;
  redirects: NetlifyRedirect[];
  headers: { for: string; values: Record<string, string>; forRegExp: RegExp }[];
  errors: string[];
  match(pathname: string, query: string): EngineMatch | null;
}

/** What Netlify answers for one request path, with the rule that decided it. */
export interface NetlifyAnswer {
  status: number;
  rule: EngineMatch | null;
  /** The dist file whose bytes are the body, with a leading slash; null when none exists. */
  served: string | null;
  headers: Record<string, string>;
  body: string;
}

export async function loadNetlifySite(netlifyToml: string, distDir: string): Promise<NetlifySite> {
  const redirectsFiles = [path.join(distDir, '_redirects')].filter((f) => existsSync(f));
  const headersFiles = [path.join(distDir, '_headers')].filter((f) => existsSync(f));
  const parsedRedirects = await parseAllRedirects({
    redirectsFiles,
    netlifyConfigPath: netlifyToml,
    configRedirects: [],
    minimal: false,
  });
  const parsedHeaders = await parseAllHeaders({
    headersFiles,
    netlifyConfigPath: netlifyToml,
    configHeaders: [],
    minimal: false,
  });
  const redirects = parsedRedirects.redirects as NetlifyRedirect[];
  const redirector = createRequire(import.meta.url)('netlify-redirector') as {
    parseJSON(rules: string, options: object): Promise<{ match(request: object): EngineMatch | null }>;
  };
  const matcher =
    redirects.length > 0
      ? await redirector.parseJSON(JSON.stringify(redirects.map(toEngineShape)), {})
      : { match: () => null };
  return {
    distDir,
    redirects,
    headers: parsedHeaders.headers as NetlifySite['headers'],
    errors: [...parsedRedirects.errors, ...parsedHeaders.errors].map((e) => String(e?.message ?? e)),
    match: (pathname, query) =>
      matcher.match({
        scheme: 'https',
        host: 'example.org',
        path: pathname,
        query,
        getHeader: () => '',
        getCookie: () => '',
      }),
  };
}

export function netlifyAnswer(site: NetlifySite, url: string, method = 'GET'): NetlifyAnswer {
  const { pathname: encoded, search } = new URL(url, 'https://example.org');
  const pathname = decodeURIComponent(encoded);
  const match = site.match(pathname, search.slice(1));
  const file = (p: string) => {
    const absolute = path.join(site.distDir, p);
    return existsSync(absolute) && statSync(absolute).isFile() ? p : null;
  };
  const requestedFile = staticFile(file, pathname);
  let status: number;
  let served: string | null;
  if (!match) [status, served] = requestedFile ? [200, requestedFile] : [404, file('/404.html')];
  else if (requestedFile && !match.force)
    [status, served] = [200, requestedFile]; // the file shadows the rule
  else {
    const target = decodeURIComponent(new URL(match.to, 'https://example.org').pathname);
    const targetFile = file(target) ?? staticFile(file, target);
    if (match.status === 404) [status, served] = [404, targetFile ?? file('/404.html')];
    else if (targetFile) [status, served] = [match.status, targetFile];
    else [status, served] = [404, file('/404.html')]; // no fall-through to later rules
  }
  // Header rules are matched against the requested path; the last rule setting a name wins.
  const headers: Record<string, string> = served
    ? { 'Content-Type': TYPES[path.extname(served)] ?? 'application/octet-stream' }
    : {};
  for (const rule of site.headers) if (rule.forRegExp.test(pathname)) Object.assign(headers, rule.values);
  const body = served && method !== 'HEAD' ? readFileSync(path.join(site.distDir, served), 'utf8') : '';
  return { status, rule: match, served, headers, body };
}

// --- internal ---

/** Content types by extension: an emulation (Netlify's table is not in the engine), overridden by header rules. */
const TYPES: Record<string, string> = { '.json': 'application/json', '.html': 'text/html; charset=utf-8' };

/** netlify-cli's static lookup: the exact path, then the "pretty URL" forms. */
function staticFile(file: (p: string) => string | null, p: string): string | null {
  const candidates = [p];
  if (p.endsWith('/')) {
    if (p !== '/') candidates.push(`${p.slice(0, -1)}.html`);
    candidates.push(`${p}index.html`);
  } else if (!/\.(html?|png|jpg|js|css|svg|gif|ico|woff2?)$/.test(p)) candidates.push(`${p}.html`, `${p}/index.html`);
  for (const candidate of candidates) if (file(candidate)) return candidate;
  return null;
}

/** netlify-redirector wants the backend's shape (as netlify-cli maps it): from → origin, query → params. */
function toEngineShape({ conditions = {}, from, query, signed, ...rest }: NetlifyRedirect): object {
  const { country, language, role, ...others } = conditions as Record<string, unknown>;
  return {
    ...rest,
    origin: from,
    params: query,
    conditions: {
      ...others,
      ...(role ? { Role: role } : {}),
      ...(country ? { Country: country } : {}),
      ...(language ? { Language: language } : {}),
    },
    ...(signed ? { sign: { jwt_secret: signed } } : {}),
  };
}
