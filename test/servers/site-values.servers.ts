// site.yaml's cache_control on the real nginx, Caddy and Apache. A value the
// grammar accepts but a server would read as its own syntax (`$document_root` for nginx, `%z` for
// Apache's mod_headers) arrives at the phone literally; a value only the grammar stands in front
// of (`{env.X}` for Caddy) is escaped too, as a second line of defence; and what a syntax cannot
// hold literally is refused by the emitter rather than written.
import { request } from 'node:http';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import type { Site } from '../../src/catalog/site.js';
import { renderApacheConfig, renderApacheRules } from '../../src/hosts/apache.js';
import { renderCaddyfile } from '../../src/hosts/caddy.js';
import { renderNginxConfig } from '../../src/hosts/nginx.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { freePort } from '../helpers/process-group.js';
import { startServer, tempFolder, type ServerKind } from './servers.js';

const SECRET = 'otapress-secret-of-the-server-environment';
// Only the server's environment has it: Caddy would put it in every answer's header.
process.env.OTAPRESS_TEST_SECRET = SECRET;

/** Accepted by site.yaml's grammar (RFC 9110 tokens may hold `$` and `%`). */
const FROM_SITE_YAML = 'no-cache="$document_root, %z, $host", max-age=60';
/** Refused by the grammar; written literally all the same, should it ever get through. */
const PAST_THE_GRAMMAR =
  'max-age=60, x="{env.OTAPRESS_TEST_SECRET} {http.request.host} $uri %{HTTP_HOST}e %z ${otapress_dollar}"';

function headerOf(url: string, name: string): Promise<{ status: number; value: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, value: res.headers[name] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

let root: string;
let site: Site;
beforeAll(() => {
  root = tempFolder('otapress-site-values-');
  cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
  build({ root });
  site = compileSite(readContent(root)).site!;
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SERVERS: { name: string; kind: ServerKind; htaccess?: boolean }[] = [
  { name: 'nginx', kind: 'nginx' },
  { name: 'Caddy', kind: 'caddy' },
  { name: 'Apache, rules in httpd.conf', kind: 'apache' },
  { name: 'Apache, rules from dist/.htaccess', kind: 'apache', htaccess: true },
];

describe.each(SERVERS)('$name sends cache_control literally', ({ kind, htaccess }) => {
  it.each([
    ['from site.yaml', FROM_SITE_YAML],
    ['past the grammar', PAST_THE_GRAMMAR],
  ])('%s: %s', async (_, cacheControl) => {
    const valued: Site = { ...site, cacheControl, apacheHtaccess: htaccess ?? false };
    const port = await freePort();
    const prefix = tempFolder(`otapress-values-${kind}-`);
    const options = { dist: path.join(root, 'dist'), listen: { host: '127.0.0.1', port }, prefix };
    const config = {
      nginx: () => renderNginxConfig(valued, options),
      caddy: () => renderCaddyfile(valued, options),
      apache: () => renderApacheConfig(valued, options, { rulesIn: htaccess ? 'htaccess' : 'config' }),
    }[kind]();
    if (htaccess) writeFileSync(path.join(root, 'dist', '.htaccess'), renderApacheRules(valued));
    const server = await startServer(kind, config, { port, prefix });
    try {
      for (const sent of ['/api/v1/FP4/stable/', '/api/v2/devices/FP4/builds']) {
        const answer = await headerOf(`${server.url.replace(/\/$/, '')}${sent}`, 'cache-control');
        expect(answer, server.log()).toEqual({ status: 200, value: cacheControl });
      }
      // A miss still gets no-store, and the site still answers as before.
      expect(await headerOf(`${server.url.replace(/\/$/, '')}/api/v1/nothere/stable/`, 'cache-control')).toEqual({
        status: 404,
        value: 'no-store',
      });
    } finally {
      await server.stop();
      rmSync(path.join(root, 'dist', '.htaccess'), { force: true });
    }
  });
});

describe('what a server syntax cannot hold literally is refused, never written', () => {
  const options = () => ({ dist: path.join(root, 'dist'), listen: { host: '127.0.0.1', port: 8080 } });
  it.each([
    [
      'Caddy',
      '{$OTAPRESS_TEST_SECRET}',
      () => renderCaddyfile({ ...site, cacheControl: 'x="{$OTAPRESS_TEST_SECRET}"' }, options()),
    ],
    ['Caddy', 'a backslash', () => renderCaddyfile({ ...site, cacheControl: 'x="a\\"' }, options())],
    ['Apache', 'expr=', () => renderApacheRules({ ...site, cacheControl: 'expr=%{HTTP_HOST}' })],
    ['Apache', 'a backslash', () => renderApacheRules({ ...site, cacheControl: 'x="a\\"' })],
  ])('%s: %s', (_, __, render) => {
    expect(render).toThrow(/cannot be written literally/);
  });
});

// The other site.yaml values that reach the servers' files are list names ([a-z0-9_-]) and request
// paths (letters, digits, `.`, `_`, `~`, `-`, `/` besides the placeholders): none of their
// characters is syntax in any of them, and these are the odd ones, answered on every server.
describe.each(SERVERS)(
  '$name answers request paths with every character site.yaml allows in them',
  ({ kind, htaccess }) => {
    it.each([
      ['/api/v1/~x.FP4~l-1', 'l-1'],
      ['/api/v1/a~b/FP4/l_2/z', 'l_2'],
    ])('%s', async (sent, list) => {
      const project = tempFolder('otapress-odd-paths-');
      cpSync(path.join(EXAMPLE, 'content'), path.join(project, 'content'), { recursive: true });
      const siteYaml = path.join(project, 'content', 'site.yaml');
      writeFileSync(
        siteYaml,
        `${readFileSync(siteYaml, 'utf8').replace('  community: [community]\n', '  community: [community]\n  l-1: [stable, official]\n  l_2: [dev]\n')}${htaccess ? 'apache_htaccess: true\n' : ''}request_paths:\n  - /api/v1/~x.{device}~{list}\n  - /api/v1/a~b/{device}/{list}/z\n`,
      );
      build({ root: project });
      const oddSite = compileSite(readContent(project)).site!;
      const port = await freePort();
      const prefix = tempFolder(`otapress-odd-${kind}-`);
      const options = { dist: path.join(project, 'dist'), listen: { host: '127.0.0.1', port }, prefix };
      const config = {
        nginx: () => renderNginxConfig(oddSite, options),
        caddy: () => renderCaddyfile(oddSite, options),
        apache: () => renderApacheConfig(oddSite, options, { rulesIn: htaccess ? 'htaccess' : 'config' }),
      }[kind]();
      const server = await startServer(kind, config, { port, prefix });
      try {
        const answer = await fetch(`${server.url.replace(/\/$/, '')}${sent}`);
        expect(answer.status, server.log()).toBe(200);
        expect(await answer.text()).toBe(
          readFileSync(path.join(project, 'dist', 'api', 'v1', 'FP4', list, 'index.json'), 'utf8'),
        );
      } finally {
        await server.stop();
        rmSync(project, { recursive: true, force: true });
      }
    });
  },
);
