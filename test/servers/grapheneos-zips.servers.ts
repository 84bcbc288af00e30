// GrapheneOS's zip names on the real nginx, Caddy and Apache (its configuration and its .htaccess):
// the example catalog with a `grapheneos` format and an incremental package, the configuration that
// `otapress hosting` prints (which compiles the catalog for these rules), and every zip name asked as
// the updater asks it, GET and HEAD, without following the redirect: a 302 to the build's url, as on
// Cloudflare and Netlify (test/hosts/grapheneos-zips.slow.test.ts). A name no build has is a miss.
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { main } from '../../src/cli.js';
import { renderApacheConfig } from '../../src/hosts/apache.js';
import { listingRedirects } from '../../src/hosts/routes.js';
import { build, compileSite } from '../../src/pipeline/build.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { INCREMENTAL_EXAMPLE, observe, writeManifests } from '../helpers/host-table.js';
import { freePort } from '../helpers/process-group.js';
import { startServer, tempFolder, type RunningServer, type ServerKind } from './servers.js';

const EXTRA = '\napache_htaccess: true\nformats:\n  grapheneos: {}\n';

/**
 * The incremental package's download at an address of every character a URL may hold that a rule
 * syntax reads ($ nginx's variables and Apache's back-references, % Apache's, quotes, ; and = and &,
 * parentheses, *): each server must send it as it is.
 */
const HOSTILE_URL = "https://dl.example.org/a$1/b'c;d%20e(f)g*h!i,j=k&l+m~n@o:p.zip?x=1&y=$z%1";
const MANIFESTS = Object.fromEntries(
  Object.entries(INCREMENTAL_EXAMPLE).map(([file, text]) => [file, `${text}url: "${HOSTILE_URL}"\n`]),
);

const SERVERS: { name: string; kind: ServerKind; htaccess?: boolean }[] = [
  { name: 'nginx', kind: 'nginx' },
  { name: 'Caddy', kind: 'caddy' },
  { name: 'Apache, rules in httpd.conf', kind: 'apache' },
  { name: 'Apache, rules from dist/.htaccess', kind: 'apache', htaccess: true },
];

describe.each(SERVERS)("GrapheneOS's zip names on $name", ({ kind, htaccess }) => {
  let root: string;
  let server: RunningServer | undefined;
  let redirects: { from: string; to: string }[] = [];

  beforeAll(async () => {
    root = tempFolder('otapress-grapheneos-servers-');
    cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), EXTRA);
    writeManifests(root, MANIFESTS);
    build({ root });
    const compiled = compileSite(readContent(root));
    redirects = listingRedirects(compiled.site!, compiled.listings);
    const port = await freePort();
    const prefix = tempFolder(`otapress-${kind}-`);
    const out: string[] = [];
    const err: string[] = [];
    const args = ['hosting', kind, '--root', root, '--listen', `127.0.0.1:${port}`, '--prefix', prefix];
    const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code, err.join('\n')).toBe(0);
    let config = `${out.join('\n')}\n`;
    if (htaccess) {
      const options = { dist: path.join(root, 'dist'), listen: { host: '127.0.0.1', port }, prefix, redirects };
      expect(config).toBe(renderApacheConfig(compiled.site!, options));
      config = renderApacheConfig(compiled.site!, options, { rulesIn: 'htaccess' });
    }
    server = await startServer(kind, config, { port, prefix });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it('has the redirects of the incremental package and of every build a channel file can name', () => {
    expect(redirects.length).toBeGreaterThan(10);
    expect(redirects).toContainEqual({
      from: '/api/grapheneos/FP4-incremental-eng.root.20241108.123456-eng.root.20241220.110000.zip',
      to: HOSTILE_URL,
    });
  });

  it('answers every zip name, GET and HEAD, with a 302 to its download', async () => {
    for (const { from, to } of redirects) {
      for (const method of ['GET', 'HEAD']) {
        const seen = await observe(server!.url, method, from);
        expect([seen.status, seen.location], `${method} ${from}\n${server!.log()}`).toEqual([302, to]);
      }
    }
  });

  it('answers the channel file with 200, and a zip name no build has with 404', async () => {
    expect((await observe(server!.url, 'GET', '/api/grapheneos/FP4-official')).status).toBe(200);
    const miss = await observe(server!.url, 'GET', '/api/grapheneos/FP4-incremental-x-eng.root.20241220.110000.zip');
    expect(miss.status).toBe(404);
  });
});
