// The GitHub Pages look-alike (test/helpers/github-pages-server.ts) does what GitHub Pages does, as
// its comments cite: real HTTP requests on 127.0.0.1 to a folder written here, served as a project
// site under /ota/ and as a user site at the root.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesContentType, startGitHubPagesServer, type PagesServer } from '../helpers/github-pages-server.js';

const FILES: Record<string, string | Buffer> = {
  'index.html': '<!doctype html><title>home</title>',
  '404.html': '<!doctype html><title>not here</title>',
  'about.html': '<!doctype html><title>about</title>',
  'both.html': '<!doctype html><title>both, the file</title>',
  'both/index.html': '<!doctype html><title>both, the folder</title>',
  'folder/index.html': '<!doctype html><title>folder</title>',
  'api/v2/devices/FP4/builds.json': '[{"datetime":1}]\n',
  'api/v1/FP4/stable/index.json': '{"response":[]}\n',
  'api/v1/FP4/stable/eng.root.20241108.123456': '{"response":[]}\n',
  'feed.xml': '<?xml version="1.0"?><rss/>',
  'SHA256SUMS.txt': 'abc  build.zip\n',
  'style.css': 'body{}',
  'app.js': 'export {};',
  'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'icon.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'build.zip': Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]),
  // Rule files of other hosts are plain files on Pages: nothing reads them.
  _redirects: '/api/v1/:device/:type  /api/v1/:device/:type/index.json  200!\n',
  _headers: '/*\n  X-Otapress: yes\n',
  '.well-known/security.txt': 'Contact: mailto:ota@example.org\n',
};
/** The headers a Pages file answer carries (Node adds Date, Connection and Keep-Alive itself). */
const FILE_HEADERS = [
  'access-control-allow-origin',
  'cache-control',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'last-modified',
  'server',
];

let root: string;
let project: PagesServer;
let user: PagesServer;
const MTIME = new Date('2026-11-01T12:00:00Z');

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-pages-'));
  for (const [name, bytes] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), bytes);
    utimesSync(path.join(root, name), MTIME, MTIME);
  }
  mkdirSync(path.join(root, 'empty'));
  project = await startGitHubPagesServer({ root, repository: 'ota' });
  user = await startGitHubPagesServer({ root });
});

afterAll(async () => {
  await Promise.all([project?.close(), user?.close()]);
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: 'manual', ...init });
const headerNames = (response: Response) =>
  [...response.headers.keys()].filter((name) => !['date', 'connection', 'keep-alive'].includes(name)).sort();

describe('GitHub Pages look-alike: content types', () => {
  it.each([
    ['api/v2/devices/FP4/builds.json', 'application/json; charset=utf-8'],
    ['index.html', 'text/html; charset=utf-8'],
    ['feed.xml', 'application/xml'],
    ['SHA256SUMS.txt', 'text/plain; charset=utf-8'],
    ['style.css', 'text/css; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
    ['logo.svg', 'image/svg+xml'],
    ['icon.png', 'image/png'],
    ['build.zip', 'application/zip'],
    ['api/v1/FP4/stable/eng.root.20241108.123456', 'application/octet-stream'],
    ['_redirects', 'application/octet-stream'],
    ['.well-known/security.txt', 'text/plain; charset=utf-8'],
  ])('/ota/%s is %s, byte for byte', async (name, type) => {
    const response = await get(`${project.base}${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(FILES[name]));
  });

  it('takes the type from the extension in any case, and knows no type for an unknown extension', () => {
    expect(pagesContentType('BUILDS.JSON')).toBe('application/json; charset=utf-8');
    expect(pagesContentType('build.zip.sha256')).toBe('application/octet-stream');
    expect(pagesContentType('webfinger')).toBe('application/octet-stream');
  });
});

describe('GitHub Pages look-alike: headers', () => {
  it('sends the fixed headers and no others on a file', async () => {
    const response = await get(`${project.base}api/v1/FP4/stable/index.json`);
    expect(headerNames(response)).toEqual(FILE_HEADERS);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('max-age=600');
    expect(response.headers.get('server')).toBe('GitHub.com');
    expect(response.headers.get('last-modified')).toBe(MTIME.toUTCString());
    const size = Buffer.byteLength(FILES['api/v1/FP4/stable/index.json']);
    expect(response.headers.get('etag')).toBe(`"${(MTIME.getTime() / 1000).toString(16)}-${size.toString(16)}"`);
    expect(response.headers.get('content-length')).toBe(String(size));
    const expires = Date.parse(response.headers.get('expires')!) - Date.parse(response.headers.get('date')!);
    expect(expires).toBeGreaterThanOrEqual(599_000);
    expect(expires).toBeLessThanOrEqual(601_000);
  });

  it('applies no _headers and no _redirects', async () => {
    const response = await get(`${project.base}index.html`);
    expect(response.headers.get('x-otapress')).toBeNull();
    const rewritten = await get(`${project.base}api/v1/FP4/nightly`);
    expect(rewritten.status).toBe(404);
  });

  it('answers HEAD with the status and headers of GET and no body', async () => {
    for (const name of ['api/v2/devices/FP4/builds.json', 'missing.json', 'folder']) {
      const head = await get(`${project.base}${name}`, { method: 'HEAD' });
      const getAnswer = await get(`${project.base}${name}`);
      expect(head.status, name).toBe(getAnswer.status);
      expect(headerNames(head), name).toEqual(headerNames(getAnswer));
      expect(head.headers.get('content-length'), name).toBe(getAnswer.headers.get('content-length'));
      expect(await head.text(), name).toBe('');
    }
  });

  it('answers 304 to a matching If-None-Match or a current If-Modified-Since, 200 otherwise', async () => {
    const url = `${project.base}api/v2/devices/FP4/builds.json`;
    const etag = (await get(url)).headers.get('etag')!;
    const byTag = await get(url, { headers: { 'If-None-Match': etag } });
    expect(byTag.status).toBe(304);
    expect(await byTag.text()).toBe('');
    expect((await get(url, { headers: { 'If-None-Match': '"0-0"' } })).status).toBe(200);
    expect((await get(url, { headers: { 'If-Modified-Since': MTIME.toUTCString() } })).status).toBe(304);
    const before = new Date(MTIME.getTime() - 1000).toUTCString();
    expect((await get(url, { headers: { 'If-Modified-Since': before } })).status).toBe(200);
  });

  it('refuses other methods', async () => {
    expect((await get(`${project.base}index.html`, { method: 'POST', body: '' })).status).toBe(405);
  });
});

describe('GitHub Pages look-alike: paths of a project site', () => {
  it('answers /ota with a 301 to /ota/, keeping the query, and /ota/ with index.html', async () => {
    const bare = await get(`${project.origin}/ota?device=FP4`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`${project.origin}/ota/?device=FP4`);
    expect(bare.headers.get('access-control-allow-origin')).toBe('*');
    expect(bare.headers.get('cache-control')).toBe('max-age=600');
    const home = await get(project.base);
    expect(home.status).toBe(200);
    expect(await home.text()).toBe(FILES['index.html']);
  });

  it('redirects a folder without its slash, keeping the query, and serves its index.html', async () => {
    const bare = await get(`${project.base}folder?x=1`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`${project.base}folder/?x=1`);
    expect(await (await get(`${project.base}folder/`)).text()).toBe(FILES['folder/index.html']);
  });

  it('redirects a folder without index.html too, then misses: index.json is no index', async () => {
    const bare = await get(`${project.base}api/v1/FP4/stable?format=api`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`${project.base}api/v1/FP4/stable/?format=api`);
    const slash = await get(`${project.base}api/v1/FP4/stable/`);
    expect(slash.status).toBe(404);
    expect(await slash.text()).toBe(FILES['404.html']);
    expect((await get(`${project.base}empty/`)).status).toBe(404);
  });

  it('serves name.html for /name, the file before the folder, and misses /name/', async () => {
    expect(await (await get(`${project.base}about`)).text()).toBe(FILES['about.html']);
    expect((await get(`${project.base}about/`)).status).toBe(404);
    expect(await (await get(`${project.base}both`)).text()).toBe(FILES['both.html']);
    expect(await (await get(`${project.base}both/`)).text()).toBe(FILES['both/index.html']);
  });

  it('shows 404.html with status 404 for a miss, as text/html with the fixed CORS header', async () => {
    // `..%2F` reaches the server undecoded (a client resolves only literal dot segments): no way out of the site.
    const misses = [
      'missing.json',
      'api/v2/devices/FP4/builds',
      'api/v2/devices/FP4/builds.json/',
      '..%2F..%2Fetc%2Fhostname',
    ];
    for (const name of misses) {
      const response = await get(`${project.base}${name}`);
      expect(response.status, name).toBe(404);
      expect(response.headers.get('content-type'), name).toBe('text/html; charset=utf-8');
      expect(response.headers.get('access-control-allow-origin'), name).toBe('*');
      expect(await response.text(), name).toBe(FILES['404.html']);
    }
  });

  it("answers nothing of the site outside /ota/: a root-relative path misses with GitHub's own page", async () => {
    for (const name of ['/index.html', '/api/v2/devices/FP4/builds.json', '/otafoo/index.html', '/']) {
      const response = await get(`${project.origin}${name}`);
      expect(response.status, name).toBe(404);
      const body = await response.text();
      expect(body, name).not.toBe(FILES['404.html']);
      expect(body, name).toContain('File not found');
    }
  });
});

describe('GitHub Pages look-alike: a user site', () => {
  it('serves the folder at the root, with the same rules', async () => {
    expect(user.base).toBe(`${user.origin}/`);
    expect(await (await get(user.base)).text()).toBe(FILES['index.html']);
    const json = await get(`${user.origin}/api/v2/devices/FP4/builds.json`);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const bare = await get(`${user.origin}/folder`);
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`${user.origin}/folder/`);
    const miss = await get(`${user.origin}/ota/index.html`);
    expect(miss.status).toBe(404);
    expect(await miss.text()).toBe(FILES['404.html']);
  });

  it("shows GitHub's own page for a miss when the site has no 404.html", async () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'otapress-pages-bare-'));
    const server = await startGitHubPagesServer({ root: bare, repository: 'ota' });
    try {
      const response = await get(`${server.base}missing.json`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('File not found');
    } finally {
      await server.close();
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
