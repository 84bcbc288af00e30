// nginx, Caddy and Apache, the real servers: the example catalog built into a temp folder, the
// configuration `otapress hosting` prints for each, and every row of the host table sent as a
// phone or a browser would, without following redirects, with site.yaml's request paths declared. Apache runs twice: with the rules in its
// configuration, and with them read from the dist/.htaccess that `apache_htaccess: true` writes.
import { request } from 'node:http';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { main } from '../../src/cli.js';
import { renderApacheConfig } from '../../src/hosts/apache.js';
import { CONTENT_TYPES } from '../../src/hosts/routes.js';
import { EXAMPLE } from '../helpers/helpers.js';
import {
  compileWith,
  describeProbe,
  expectedAnswer,
  hostTable,
  INCREMENTAL_EXAMPLE,
  LISTING_CACHE_CONTROL,
  observe,
  optionsProbes,
  REQUEST_PATHS_YAML,
  FORMATS_OUTSIDE_API_YAML,
  writeManifests,
  type Seen,
} from '../helpers/host-table.js';
import { startServer, tempFolder, type RunningServer, type ServerKind } from './servers.js';
import { freePort } from '../helpers/process-group.js';

// The example with site.yaml's request paths: the table then holds the example's rows and theirs.
const EXTRA = `\napache_htaccess: true\n${REQUEST_PATHS_YAML}${FORMATS_OUTSIDE_API_YAML}`;
const compiled = compileWith(readContent(EXAMPLE), EXTRA, INCREMENTAL_EXAMPLE);
const table = hostTable(compiled);
const SECRET = 'otapress-test-secret-outside-dist';

/** Prints the configuration the way a maintainer gets it: through the CLI. */
async function hostingConfig(args: string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['hosting', ...args], { out: (l) => out.push(l), err: (l) => err.push(l) });
  if (code !== 0) throw new Error(`otapress hosting ${args.join(' ')} exited ${code}:\n${err.join('\n')}`);
  return `${out.join('\n')}\n`;
}

/** Sends a path exactly as written (fetch would resolve `..` and re-encode it first). */
function rawGet(baseUrl: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SERVERS: { name: string; kind: ServerKind; htaccess?: boolean }[] = [
  { name: 'nginx', kind: 'nginx' },
  { name: 'Caddy', kind: 'caddy' },
  { name: 'Apache, rules in httpd.conf', kind: 'apache' },
  { name: 'Apache, rules from dist/.htaccess', kind: 'apache', htaccess: true },
];

describe.each(SERVERS)('$name', ({ kind, htaccess }) => {
  let root: string;
  let server: RunningServer | undefined;
  const dist = () => path.join(root, 'dist');

  beforeAll(async () => {
    root = tempFolder('otapress-self-hosted-');
    cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), EXTRA);
    writeManifests(root, INCREMENTAL_EXAMPLE);
    build({ root });
    // Beside dist/, never to be served.
    writeFileSync(path.join(root, 'secret.txt'), SECRET);
    const port = await freePort();
    const prefix = tempFolder(`otapress-${kind}-`);
    const args = [kind, '--root', root, '--listen', `127.0.0.1:${port}`, '--prefix', prefix];
    let config = await hostingConfig(args);
    if (htaccess) {
      const site = compileSite(readContent(root)).site!;
      const options = { dist: dist(), listen: { host: '127.0.0.1', port }, prefix };
      // The printed configuration is the one with the rules inline; only the Directory block differs.
      expect(config).toBe(renderApacheConfig(site, options));
      config = renderApacheConfig(site, options, { rulesIn: 'htaccess' });
    }
    server = await startServer(kind, config, { port, prefix });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it.each(table.map((probe) => ({ probe, name: describeProbe(probe) })))('$name', async ({ probe }) => {
    const seen = await observe(server!.url, probe.method, probe.path);
    const file = readFileSync(path.join(dist(), probe.file), 'utf8');
    // As on Cloudflare, every 404 is Cache-Control: no-store: a miss must not stay in a cache.
    expect(seen, server!.log()).toEqual(expectedAnswer(probe, file, { json: 'no-store', html: 'no-store' }));
  });

  it.each(optionsProbes(compiled))('OPTIONS $path', async ({ path: sent, api }) => {
    const seen = await observe(server!.url, 'OPTIONS', sent);
    if (api) {
      // What Cloudflare answers with options_handler: true; these servers need no code for it.
      expect(seen).toEqual({
        status: 204,
        contentType: null,
        allow: 'GET, OPTIONS',
        vary: 'Accept',
        cacheControl: LISTING_CACHE_CONTROL,
        allowOrigin: '*',
        location: null,
        body: '',
      } satisfies Seen);
    } else {
      expect(seen.status).toBe(405);
    }
  });

  // The formats' files outside /api/ answer OPTIONS as the API does; a page at the root does not.
  it.each(table.filter((p) => p.atItsPath && p.method === 'GET' && !p.path.startsWith('/api/')).map((p) => p.path))(
    "OPTIONS %s, a format's file outside /api/",
    async (sent) => {
      const seen = await observe(server!.url, 'OPTIONS', sent);
      expect(seen).toEqual({
        status: 204,
        contentType: null,
        allow: 'GET, OPTIONS',
        vary: 'Accept',
        cacheControl: LISTING_CACHE_CONTROL,
        allowOrigin: '*',
        location: null,
        body: '',
      } satisfies Seen);
    },
  );

  it.each(['POST', 'PUT', 'DELETE'])('refuses %s on a listing and on a page with 405', async (method) => {
    const listing = table.find((p) => p.status === 200)!;
    expect((await observe(server!.url, method, listing.path)).status).toBe(405);
    expect((await observe(server!.url, method, '/')).status).toBe(405);
  });

  it.each([
    ['/', 'index.html'],
    ['/devices/FP4/', 'devices/FP4/index.html'],
    ['/devices/FP4/stable.xml', 'devices/FP4/stable.xml'],
    ['/api/devices.json', 'api/devices.json'],
  ])('serves the page or feed %s', async (sent, file) => {
    const seen = await observe(server!.url, 'GET', sent);
    expect(seen.status).toBe(200);
    expect(seen.contentType).toBe(CONTENT_TYPES[path.extname(file).slice(1)]);
    expect(seen.body).toBe(readFileSync(path.join(dist(), file), 'utf8'));
  });

  // /API/ is another folder than /api/ (Caddy's `path` matcher would take them for one): an
  // /api/ file asked in upper case is a miss outside the API, the HTML 404 without its headers.
  it.each(['/API/devices.json', '/API/v1/FP4/stable/', '/Api/no/such/path'])(
    'answers %s as a miss outside the API',
    async (sent) => {
      const seen = await observe(server!.url, 'GET', sent);
      expect(seen, server!.log()).toEqual({
        status: 404,
        contentType: CONTENT_TYPES.html,
        allow: null,
        vary: null,
        cacheControl: 'no-store',
        allowOrigin: null,
        location: null,
        body: readFileSync(path.join(dist(), '404.html'), 'utf8'),
      } satisfies Seen);
    },
  );

  it('redirects a page folder without its slash to the slash form', async () => {
    const seen = await observe(server!.url, 'GET', '/devices/FP4');
    expect([301, 308]).toContain(seen.status);
    expect(new URL(seen.location!, server!.url).pathname).toBe('/devices/FP4/');
  });

  it.each([
    '/api/',
    '/api/v1/',
    '/api/v1/FP4/',
    '/api/v1/FP4/stable/../',
    '/devices/',
    '/api/v2/',
    '/api/v2/devices/',
    '/API/updater/',
  ])('never lists the files of a folder: %s', async (sent) => {
    const seen = await observe(server!.url, 'GET', sent);
    expect(seen.status).toBe(404);
    expect(seen.body).not.toMatch(/Index of|index\.json|404\.json/);
  });

  it.each([
    '/../secret.txt',
    '/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2E%2E/secret.txt',
    '/api/v1/%2e%2e/%2e%2e/%2e%2e/secret.txt',
    '/api/v1/FP4/..%2f..%2f..%2f..%2fsecret.txt',
    '/..%2fsecret.txt',
    '/api%2f..%2f..%2fsecret.txt',
    '/.htaccess',
    '/%2ehtaccess',
    '/api/v1/.htaccess',
  ])('serves nothing outside dist/ and no dotfile: %s', async (sent) => {
    const { status, body } = await rawGet(server!.url, sent);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain('RewriteEngine');
  });
});
