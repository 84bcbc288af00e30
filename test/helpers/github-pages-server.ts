// A look-alike of GitHub Pages serving a deployed folder (a built dist/), for tests: there is no local
// GitHub Pages. Each rule below names the documentation page, issue or observed answer it comes from.
// What none of them settles is left out rather than guessed, and listed at the end of this comment.
//
// - Project sites live under `/<repository>/` (docs.github.com, "About GitHub Pages", Types of sites:
//   `http(s)://<owner>.github.io/<repository>`); a request for `/<repository>` without its slash is
//   redirected to the slash form (slorber/trailing-slash-guide#16); everything outside the prefix
//   belongs to another site, here GitHub's own 404 page.
// - The content type is the file extension's in the mime-db table ("About GitHub Pages", MIME types:
//   "generated from the mime-db project"; github/pages-gem#612, jshttp/mime-db#41). No file
//   can change it (orgs/community discussion 22863), and an extension the table does not know, or
//   none, is `application/octet-stream` (jshttp/mime-db pull 159: an unknown `.sieve` was served so;
//   social-web-foundation/jekyll-activitypub-static#13: an extensionless `.well-known/webfinger`).
// - Observed answers carry `; charset=utf-8` on `text/html` and on `application/json` (the curl
//   transcripts in gitlab-org/gitlab-pages#66 and in ALCops/rulebook-engine
//   docs/reference/spikes/a-hosts-and-skeleton-include.md, "the spike" below): jshttp/mime-types'
//   `contentType` rule over mime-db (the type's `charset`, else UTF-8 for `text/*`, in lower case),
//   which this module applies to every type.
// - Files are found as slorber/trailing-slash-guide measured GitHub Pages: `/file` serves `file.html`,
//   `/folder` answers 301 to `/folder/` (also jekyll/jekyll#4920, isaacs/github#289, the
//   query string kept: social-web-foundation/jekyll-activitypub-static#13), `/folder/` serves `folder/index.html`, and
//   `/file/` is a 404, as is a folder without `index.html` (isaacs/github#289). When both
//   `both.html` and `both/` exist, `/both` serves `both.html` (the guide's table; jekyll/jekyll#4920
//   saw a 301 there in 2016, before it).
// - No rewrites, no redirects but the folder one, no custom headers: the site has no way to add any
//   (orgs/community discussions 54257 and 13309; `_redirects`, `_headers` and `.htaccess` are plain
//   files here, served as such).
// - Every answer carries `Access-Control-Allow-Origin: *` (orgs/community discussion 22399: "Pages
//   allows CORS"; the transcripts above, on a 404 too). A file answer and the folder redirect carry
//   `Cache-Control: max-age=600` with the matching `Expires` (the transcripts; jekyll/jekyll#4920 for
//   the 301), `Last-Modified`, and an ETag of the nginx form `"<mtime hex>-<size hex>"` (the spike's
//   `etag: "6ac1e0a0-4c"` for a 76-byte file), all after `Server: GitHub.com` (every transcript). A
//   matching `If-None-Match` or `If-Modified-Since` answers 304 without a body (RFC 9110 section 13;
//   public code revalidating Pages files counts on those 304s).
// - A miss shows the site's `404.html` with status 404 ("Creating a custom 404 page for your GitHub
//   Pages site": a `404.html` at the site's root), as `text/html; charset=utf-8` (the spike's 404);
//   without one, GitHub's own 404 page.
// - HEAD answers GET's status and headers without the body.
// Left out: `Accept-Ranges` (ranges are not served here), the CDN's headers (`Via`, `X-Cache`,
// `X-GitHub-Request-Id`, `X-Fastly-Request-ID`, `Age`), compression, and methods other than GET and HEAD
// (no source says what Pages answers; 405 here, so a test that relies on one fails visibly).
import { readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { httpDate, serveOnLoopback, type HostAnswer, type HostRequest } from './loopback-server.js';

/** A deployed Pages site: the folder the artifact held, and the repository of a project site (none for a user site). */
export interface PagesSite {
  /** The folder served at the site's root (what `actions/upload-pages-artifact` uploaded). */
  root: string;
  /** A project site's repository name: the site lives under `/<repository>/`. */
  repository?: string;
}

/** A running look-alike: its origin, the site's base URL (with its trailing slash) and close. */
export interface PagesServer {
  origin: string;
  /** `<origin>/<repository>/` for a project site, `<origin>/` for a user site. */
  base: string;
  close(): Promise<void>;
}

/** Starts the look-alike of GitHub Pages serving `site` on 127.0.0.1. */
export async function startGitHubPagesServer(site: PagesSite): Promise<PagesServer> {
  const server = await serveOnLoopback((request, origin) => githubPagesAnswer(site, request, origin));
  return { ...server, base: `${server.origin}${sitePrefix(site)}` };
}

/** What GitHub Pages answers to `request` for `site`, reached at `origin` (absolute redirects name it). */
function githubPagesAnswer(site: PagesSite, request: HostRequest, origin: string): HostAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD') return notAllowed();
  const { pathname, search } = new URL(request.url, origin);
  const prefix = sitePrefix(site);
  if (pathname === prefix.slice(0, -1)) return redirect(`${origin}${prefix}${search}`);
  if (!pathname.startsWith(prefix)) return githubNotFound();
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    return notFound(site);
  }
  // A path that climbs out of the site (`%2e%2e/`) is a miss, as on any static host.
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) return notFound(site);
  if (relative === '' || relative.endsWith('/')) {
    return fileAnswer(request, join(site.root, `${relative}index.html`)) ?? notFound(site);
  }
  const file = join(site.root, relative);
  const answer = fileAnswer(request, file) ?? fileAnswer(request, `${file}.html`);
  if (answer) return answer;
  if (statOf(file)?.isDirectory()) return redirect(`${origin}${prefix}${encodePath(relative)}/${search}`);
  return notFound(site);
}

/** The `Content-Type` GitHub Pages sends for a file of this name: mime-db's type, with mime-types' charset rule. */
export function pagesContentType(fileName: string): string {
  const extension = path.extname(fileName).slice(1).toLowerCase();
  const type = MIME_DB[extension];
  if (!type) return 'application/octet-stream';
  const charset = type.charset ?? (type.name.startsWith('text/') ? 'UTF-8' : undefined);
  return charset ? `${type.name}; charset=${charset.toLowerCase()}` : type.name;
}

// --- internal ---

/**
 * The entries of mime-db (jshttp/mime-db db.json, v1.54.0) for the extensions an otapress site
 * has, transcribed because mime-db is not installed here. Where two types claim an extension, the
 * one mime-types' `populateMaps` keeps: the IANA one over Apache's and over those without a source
 * (`.js`: `text/javascript` over `application/javascript`; `.zip`: `application/zip` over
 * `application/x-zip-compressed`), the `application/` one between two of IANA's (`.xml`:
 * `application/xml` over `text/xml`). `charset` is the entry's own; mime-types adds UTF-8 to `text/*`.
 */
const MIME_DB: Record<string, { name: string; charset?: string }> = {
  json: { name: 'application/json', charset: 'UTF-8' },
  map: { name: 'application/json', charset: 'UTF-8' },
  webmanifest: { name: 'application/manifest+json', charset: 'UTF-8' },
  html: { name: 'text/html' },
  htm: { name: 'text/html' },
  xml: { name: 'application/xml' },
  rss: { name: 'application/rss+xml' },
  atom: { name: 'application/atom+xml' },
  txt: { name: 'text/plain' },
  md: { name: 'text/markdown' },
  csv: { name: 'text/csv' },
  css: { name: 'text/css', charset: 'UTF-8' },
  js: { name: 'text/javascript', charset: 'UTF-8' },
  mjs: { name: 'text/javascript', charset: 'UTF-8' },
  svg: { name: 'image/svg+xml' },
  png: { name: 'image/png' },
  ico: { name: 'image/vnd.microsoft.icon' },
  zip: { name: 'application/zip' },
  pdf: { name: 'application/pdf' },
};

/** `/<repository>/` for a project site, `/` for a user site. */
function sitePrefix(site: PagesSite): string {
  return site.repository ? `/${site.repository}/` : '/';
}

function join(root: string, relative: string): string {
  return path.join(root, ...relative.split('/'));
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** The 200 (or 304) for `file`, or undefined when it is not a file. */
function fileAnswer(request: HostRequest, file: string): HostAnswer | undefined {
  const stat = statOf(file);
  if (!stat?.isFile()) return undefined;
  const etag = `"${Math.floor(stat.mtimeMs / 1000).toString(16)}-${stat.size.toString(16)}"`;
  const lastModified = httpDate(stat.mtimeMs);
  const cache = cacheHeaders();
  if (notModified(request, etag, stat.mtimeMs)) {
    const headers: [string, string][] = [
      ['Server', 'GitHub.com'],
      ['Last-Modified', lastModified],
    ];
    headers.push(['Access-Control-Allow-Origin', '*'], ['ETag', etag], ...cache);
    return { status: 304, headers, body: Buffer.alloc(0) };
  }
  const body = readFileSync(file);
  return {
    status: 200,
    headers: [
      ['Server', 'GitHub.com'],
      ['Content-Type', pagesContentType(file)],
      ['Last-Modified', lastModified],
      ['Access-Control-Allow-Origin', '*'],
      ['ETag', etag],
      ...cache,
      ['Content-Length', String(body.length)],
    ],
    body,
  };
}

/** Whether the client's copy is current: `If-None-Match` when sent, else `If-Modified-Since` (RFC 9110 13.2.2). */
function notModified(request: HostRequest, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

function cacheHeaders(): [string, string][] {
  return [
    ['Expires', httpDate(Date.now() + 600_000)],
    ['Cache-Control', 'max-age=600'],
  ];
}

function redirect(location: string): HostAnswer {
  const title = '301 Moved Permanently';
  const body = Buffer.from(`<html>\n<head><title>${title}</title></head>\n<body><h1>${title}</h1></body>\n</html>\n`);
  return {
    status: 301,
    headers: [
      ['Server', 'GitHub.com'],
      ['Content-Type', 'text/html'],
      ['Location', location],
      ['Access-Control-Allow-Origin', '*'],
      ...cacheHeaders(),
      ['Content-Length', String(body.length)],
    ],
    body,
  };
}

/** The site's `404.html` with status 404, else GitHub's own page. */
function notFound(site: PagesSite): HostAnswer {
  const stat = statOf(path.join(site.root, '404.html'));
  if (!stat?.isFile()) return githubNotFound();
  return htmlError(404, readFileSync(path.join(site.root, '404.html')));
}

/** Stands for GitHub's own "404 File not found" page: a page of GitHub's, not the site's. */
function githubNotFound(): HostAnswer {
  const head = '<head><title>Page not found · GitHub Pages</title></head>';
  const body = '<body><h1>404</h1><p><strong>File not found</strong></p></body>';
  return htmlError(404, Buffer.from(`<!DOCTYPE html>\n<html>${head}\n${body}</html>\n`));
}

function notAllowed(): HostAnswer {
  return htmlError(405, Buffer.from('<html><head><title>405 Not Allowed</title></head></html>\n'));
}

function htmlError(status: number, body: Buffer): HostAnswer {
  return {
    status,
    headers: [
      ['Server', 'GitHub.com'],
      ['Content-Type', 'text/html; charset=utf-8'],
      ['Access-Control-Allow-Origin', '*'],
      ['Content-Length', String(body.length)],
    ],
    body,
  };
}

/** A site path as it goes into a `Location`: each segment percent-encoded, the slashes kept. */
function encodePath(relative: string): string {
  return relative.split('/').map(encodeURIComponent).join('/');
}
