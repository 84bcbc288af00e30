// A look-alike of raw.githubusercontent.com serving one branch of one repository from a folder (the
// branch's checkout), for tests. Each rule below names the issue or observed answer it comes from;
// what none of them settles is left out rather than guessed, and listed at the end of this comment.
//
// - Paths are `/<owner>/<repo>/<branch>/<path>` and `/<owner>/<repo>/refs/heads/<branch>/<path>`
//   (adobe/git-server#9 lists raw URLs of the first form; orgs/community discussion 144037 and
//   aquaproj/aqua-registry#39883 use `refs/heads/<branch>` and `refs/tags/<tag>`).
// - Every file is `text/plain; charset=utf-8`, whatever its extension (curl/curl pull 900 for an
//   `.svg`; ALCops/rulebook-engine docs/reference/spikes/a-hosts-and-skeleton-include.md, "the spike"
//   below, for a `.json`; orgs/community discussion 144037 asks for real types and has none), with
//   `X-Content-Type-Options: nosniff` (curl pull 900) and the sandboxing
//   `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; sandbox` (a 2017 capture
//   of a raw `.json` answer's headers in a public Python requests tutorial).
// - `Cache-Control: max-age=300`, a fixed five minutes (the spike; the 2017 capture, with `Expires`
//   five minutes after `Date`; bigfoott/ScrapedDuck's wiki, "Rate Limits": raw files are cached for 5
//   minutes), and `Access-Control-Allow-Origin: *` (the 2017 capture).
// - A strong ETag of hex digits (the spike: 64 of them; 40 in 2017). What GitHub hashes is not
//   documented; this look-alike uses the SHA-256 of the bytes. A matching `If-None-Match` answers 304.
// - No rewrites, no index file, no redirect: a folder, the branch root, another branch or repository,
//   and any missing file answer 404 with the plain-text body `404: Not Found` (aquaproj/aqua-registry#39883;
//   the spike's 404 is `text/plain; charset=utf-8`, the one header of it observed).
// - HEAD answers GET's status and headers without the body.
// Left out: the rate limit for clients without a token (the GitHub changelog of 2025-05-08, "Updated
// rate limits for unauthenticated requests"; orgs/community discussion 159123), `Strict-Transport-Security`
// and `X-Frame-Options` (HTTPS only), the CDN's headers, compression, ranges, and methods other than GET
// and HEAD (405 here, so a test that relies on one fails visibly).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { httpDate, serveOnLoopback, type HostAnswer, type HostRequest } from './loopback-server.js';

/** One branch of one repository, as raw.githubusercontent.com serves it. */
export interface RawBranch {
  owner: string;
  repo: string;
  branch: string;
  /** The folder holding the branch's files (its checkout, without `.git`). */
  root: string;
}

/** A running look-alike: its origin, the branch's base URL (`<origin>/<owner>/<repo>/<branch>/`) and close. */
export interface RawServer {
  origin: string;
  base: string;
  close(): Promise<void>;
}

/** Starts the look-alike of raw.githubusercontent.com serving `branch` on 127.0.0.1. */
export async function startRawGitHubServer(branch: RawBranch): Promise<RawServer> {
  const server = await serveOnLoopback((request) => rawGitHubAnswer(branch, request));
  return { ...server, base: `${server.origin}/${branch.owner}/${branch.repo}/${branch.branch}/` };
}

/** What raw.githubusercontent.com answers to `request` for `branch`. */
function rawGitHubAnswer(branch: RawBranch, request: HostRequest): HostAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, '405: Method Not Allowed');
  const { pathname } = new URL(request.url, 'https://raw.githubusercontent.com');
  const repository = `/${branch.owner}/${branch.repo}/`;
  if (!pathname.startsWith(repository)) return notFound();
  const rest = pathname.slice(repository.length);
  const ref = [`${branch.branch}/`, `refs/heads/${branch.branch}/`].find((form) => rest.startsWith(form));
  if (!ref) return notFound();
  let relative: string;
  try {
    relative = decodeURIComponent(rest.slice(ref.length));
  } catch {
    return notFound();
  }
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return notFound();
  const file = path.join(branch.root, ...segments);
  let body: Buffer;
  try {
    if (!statSync(file).isFile()) return notFound();
    body = readFileSync(file);
  } catch {
    return notFound();
  }
  const etag = `"${createHash('sha256').update(body).digest('hex')}"`;
  const ifNoneMatch = request.headers['if-none-match'];
  const current = ifNoneMatch?.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
  const headers: [string, string][] = [
    ['Cache-Control', 'max-age=300'],
    ['Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox"],
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['ETag', etag],
    ['X-Content-Type-Options', 'nosniff'],
    ['Access-Control-Allow-Origin', '*'],
    ['Expires', httpDate(Date.now() + 300_000)],
  ];
  if (current) return { status: 304, headers, body: Buffer.alloc(0) };
  return { status: 200, headers: [...headers, ['Content-Length', String(body.length)]], body };
}

// --- internal ---

function notFound(): HostAnswer {
  return plain(404, '404: Not Found');
}

/** An error answer: only the content type is observed (the spike's 404), so only it is sent. */
function plain(status: number, text: string): HostAnswer {
  const body = Buffer.from(text);
  const headers: [string, string][] = [['Content-Type', 'text/plain; charset=utf-8']];
  return { status, headers: [...headers, ['Content-Length', String(body.length)]], body };
}
