// The host table on the GitHub Pages look-alike (test/helpers/github-pages-server.ts): the example
// catalog with request paths, the formats outside /api/ and an incremental package, built with
// --host github-pages as a project site under /ota/, every row sent under that base path without
// following redirects. Pages has no rules, so a row answers as the table says only where the path
// asked is a file of dist/ (the formats' files, the request paths' copies, the .json addresses):
// there the body is the table's, byte for byte, with Pages' own headers. Every other row answers
// as Pages answers any path (a folder's 301 to its slash form, else the site's HTML 404), and each
// such difference is one that `check` states for this site (the notices of hosts/github-pages.ts):
// none is left unsaid.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { build, check } from '../../src/pipeline/build.js';
import { EXAMPLE } from '../helpers/helpers.js';
import {
  compileWith,
  describeProbe,
  FORMATS_OUTSIDE_API_YAML,
  hostTable,
  INCREMENTAL_EXAMPLE,
  observe,
  REQUEST_PATHS_YAML,
  writeManifests,
  type Probe,
} from '../helpers/host-table.js';
import { pagesContentType, startGitHubPagesServer, type PagesServer } from '../helpers/github-pages-server.js';

const REPOSITORY = 'ota';
const SITE_URL = `site_url: https://owner.github.io/${REPOSITORY}/`;
const EXTRA = `${REQUEST_PATHS_YAML}${FORMATS_OUTSIDE_API_YAML}`;

/** The example's site.yaml with the site on github.io, as a project site. */
const onPages = (site: Uint8Array) =>
  Buffer.from(
    Buffer.from(site)
      .toString()
      .replace(/^site_url: .*$/m, SITE_URL),
  );

const content = readContent(EXAMPLE);
const compiled = compileWith({ ...content, site: onPages(content.site!) }, EXTRA, INCREMENTAL_EXAMPLE);
const table = hostTable(compiled);

let root: string;
let server: PagesServer;
let notices: { field: string; message: string }[];
const dist = () => path.join(root, 'dist');

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-pages-table-'));
  cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
  const siteFile = path.join(root, 'content', 'site.yaml');
  writeFileSync(siteFile, onPages(readFileSync(siteFile)));
  appendFileSync(siteFile, EXTRA);
  writeManifests(root, INCREMENTAL_EXAMPLE);
  build({ root, host: 'github-pages', cache: false, threads: 1 });
  server = await startGitHubPagesServer({ root: dist(), repository: REPOSITORY });
  notices = check({ root }).notices;
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** What Pages answers for a row: the file at the path asked, a folder's redirect, or the HTML 404. */
function pagesAnswer(probe: Probe): { status: number; file?: string; location?: string } {
  const asked = decodeURIComponent(probe.path.split('?')[0]).slice(1);
  const at = (p: string) => (existsSync(path.join(dist(), p)) ? statSync(path.join(dist(), p)) : undefined);
  if (asked !== '' && !asked.endsWith('/') && at(asked)?.isFile()) return { status: 200, file: asked };
  if (asked.endsWith('/') && at(`${asked}index.html`)?.isFile()) return { status: 200, file: `${asked}index.html` };
  if (asked !== '' && !asked.endsWith('/') && at(asked)?.isDirectory())
    return {
      status: 301,
      location: `${server.origin}/${REPOSITORY}/${asked}/${probe.path.includes('?') ? `?${probe.path.split('?')[1]}` : ''}`,
    };
  return { status: 404, file: '404.html' };
}

/**
 * The notice of `check` that states why Pages answers a row otherwise than the table: a listing or
 * answer reached by a rewrite (the API's own paths, a request path with {incremental}, the answers
 * per source build, the paging), or the JSON 404 of a miss.
 */
function why(probe: Probe): RegExp {
  if (probe.status === 404) return /not a JSON 404/;
  if (probe.path.includes('?page=')) return /ignores the query string/;
  if (
    /\/eng\.root\.[^/]+$/.test(probe.path) &&
    compiled.files.some((f) => f.path === probe.file && /eng\.root/.test(f.path))
  )
    return /cannot fall back from a missing file/;
  if (probe.what.startsWith('request path')) return /has no rewrites: .* answers 404 there/;
  return /GitHub Pages serves files only/;
}

describe('the host table on GitHub Pages, as a project site under /ota/', () => {
  it('is said in check: what Pages cannot answer, each as a notice', () => {
    const pages = notices.filter((n) => n.message.includes('GitHub Pages'));
    expect(pages.map((n) => n.field).sort()).toEqual(
      ['cache_control', 'formats.aospa.path', 'hosts', 'hosts', 'hosts', 'hosts', 'request_paths.2'].sort(),
    );
  });

  it.each(table.map((probe) => ({ probe, name: describeProbe(probe) })))('$name', async ({ probe }) => {
    const expected = pagesAnswer(probe);
    const seen = await observe(server.origin, probe.method, `/${REPOSITORY}${probe.path}`);
    expect([seen.status, seen.location ?? undefined]).toEqual([expected.status, expected.location]);
    if (expected.status === 200) {
      // Where Pages answers, it answers the table's body: the same bytes, with Pages' own headers.
      const body = probe.method === 'HEAD' ? '' : readFileSync(path.join(dist(), probe.file), 'utf8');
      expect(seen.body).toBe(body);
      expect([seen.contentType, seen.cacheControl, seen.allowOrigin]).toEqual([
        pagesContentType(expected.file!),
        'max-age=600',
        '*',
      ]);
      expect(notices.some((n) => /Cache-Control: max-age=600/.test(n.message))).toBe(true);
      if (!expected.file!.endsWith('.json'))
        expect(notices.some((n) => n.field.startsWith('formats.') && /application\/octet-stream/.test(n.message))).toBe(
          true,
        );
      return;
    }
    // Elsewhere the row's answer is lost on Pages: a notice of check says so.
    if (probe.method === 'GET' && expected.status === 404)
      expect(seen.body).toBe(readFileSync(path.join(dist(), '404.html'), 'utf8'));
    expect(seen.contentType).toBe('text/html' + (expected.status === 404 ? '; charset=utf-8' : ''));
    const reason = why(probe);
    expect(notices.filter((n) => reason.test(n.message)).length, `${reason}`).toBeGreaterThan(0);
  });

  it('answers the rows whose path names a file as the table does: the formats, the request paths\u2019 copies', () => {
    const answered = table.filter((p) => p.status === 200 && pagesAnswer(p).status === 200).map((p) => p.path);
    expect(answered).toEqual(
      expect.arrayContaining(['/FP4.json', '/API/updater/FP4.json', '/aospa/updates/FP4', '/api/v1/FP4.json']),
    );
  });
});
