// `otapress hosting`: the command line and dist/.htaccess. The configurations it prints, checked
// by the servers' own config testers and served by the real servers, are test/servers/ (npm run
// test:servers, which needs Debian's nginx, caddy and apache2).
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { readContent } from '../../src/catalog/read.js';
import { renderApacheRules } from '../../src/hosts/apache.js';
import { EXAMPLE, tempProject } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('otapress hosting on the command line', () => {
  it.each([
    [['hosting'], 'name the server: nginx, caddy, apache, github-pages'],
    [['hosting', 'iis'], 'name the server: nginx, caddy, apache, github-pages, not iis'],
    [['hosting', 'nginx', 'caddy'], 'one server at a time, not nginx caddy'],
    [
      ['hosting', 'nginx', '--listen', '80x'],
      '--listen is PORT, HOST:PORT or [IPv6]:PORT with a port from 1 to 65535, not 80x',
    ],
    [
      ['hosting', 'nginx', '--listen', '127.0.0.1:70000'],
      '--listen is PORT, HOST:PORT or [IPv6]:PORT with a port from 1 to 65535, not 127.0.0.1:70000',
    ],
    [
      ['hosting', 'caddy', '--server-name', 'updates example'],
      '--server-name is a host name such as updates.example.org, not updates example',
    ],
    [
      ['hosting', 'apache', '--dist', '/srv/my site'],
      '--dist must be a path without spaces, quotes or ;{}$#\\ characters, not /srv/my site',
    ],
    [
      ['hosting', 'nginx', '--prefix', '/srv/ota;x'],
      '--prefix must be a path without spaces, quotes or ;{}$#\\ characters, not /srv/ota;x',
    ],
  ])('%j is wrong usage (exit 2)', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe(message);
  });

  it('exits 1 with the problems of an invalid site.yaml', async () => {
    const root = tempProject({ withContent: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), '\nrequest_paths:\n  - /{device}.json\n');
    const { code, err } = await run(['hosting', 'nginx', '--root', root]);
    expect(code).toBe(1);
    expect(err.split('\n')[0]).toMatch(
      /^content\/site\.yaml:\d+:5  request_paths\.0  a request path starts with \/api\/v1\//,
    );
  });

  it('points at dist/ of --root by its absolute path', async () => {
    const root = tempProject({ withContent: true });
    const { code, out } = await run(['hosting', 'nginx', '--root', root]);
    expect(code).toBe(0);
    expect(out).toContain(`root ${path.join(root, 'dist')};`);
    expect(out).toContain('listen 80;');
  });
});

describe('dist/.htaccess', () => {
  const content = readContent(EXAMPLE);
  it('is written with the Apache rules when site.yaml says apache_htaccess: true, and not otherwise', () => {
    const on = compileWith(content, '\napache_htaccess: true\n');
    expect(on.files.find((f) => f.path === '.htaccess')?.contents).toBe(renderApacheRules(on.site!));
    expect(compileWith(content, '').files.some((f) => f.path === '.htaccess')).toBe(false);
  });
});
