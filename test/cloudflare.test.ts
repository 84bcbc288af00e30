// Cloudflare Pages, its real runtime: the example catalog built into a temp folder and served by
// `wrangler pages dev` (workerd), once per value of `options_handler`. Every row of the host table
// is sent as a phone or a browser would, without following redirects.
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, compileSite } from '../src/build.js';
import { readContent } from '../src/read.js';
import { ROOT } from './helpers.js';
import { describeProbe, expectedAnswer, hostTable, observe, optionsProbes, type Seen } from './host-table.js';
import { startWrangler, type Wrangler } from './wrangler.js';

const compiled = compileSite(readContent(ROOT));
const table = hostTable(compiled);

describe.each([
  { optionsHandler: false, setting: 'without options_handler (static assets only)' },
  { optionsHandler: true, setting: 'with options_handler: true (_worker.js)' },
])('Cloudflare Pages runtime (wrangler pages dev), $setting', ({ optionsHandler }) => {
  let root: string;
  let wrangler: Wrangler | undefined;
  const dist = () => path.join(root, 'dist');

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'otapress-cf-'));
    cpSync(path.join(ROOT, 'content'), path.join(root, 'content'), { recursive: true });
    if (optionsHandler) appendFileSync(path.join(root, 'content', 'site.yaml'), '\noptions_handler: true\n');
    build({ root });
    wrangler = await startWrangler(dist());
  }, 120_000);

  afterAll(async () => {
    await wrangler?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it.each(table.map((probe) => ({ probe, name: describeProbe(probe) })))('$name', async ({ probe }) => {
    const seen = await observe(wrangler!.url, probe.method, probe.path);
    const file = readFileSync(path.join(dist(), probe.file), 'utf8');
    // Cloudflare forces Cache-Control: no-store on every 404, whatever _headers says.
    expect(seen).toEqual(expectedAnswer(probe, file, { json: 'no-store', html: 'no-store' }));
  });

  it.each(optionsProbes(compiled))('OPTIONS $path', async ({ path: sent, api }) => {
    const seen = await observe(wrangler!.url, 'OPTIONS', sent);
    const expected: Seen =
      optionsHandler && api
        ? { status: 204, contentType: null, allow: 'GET, OPTIONS', vary: 'Accept', cacheControl: 'public, max-age=300', location: null, body: '' }
        : api
          ? // The static asset server refuses the method but still applies _headers.
            { status: 405, contentType: 'application/json', allow: 'GET, OPTIONS', vary: 'Accept', cacheControl: 'public, max-age=300', location: null, body: '' }
          : { status: 405, contentType: null, allow: null, vary: null, cacheControl: null, location: null, body: '' };
    expect(seen).toEqual(expected);
  });

  it('refuses POST on a listing with 405', async () => {
    const probe = table.find((p) => p.status === 200)!;
    expect((await observe(wrangler!.url, 'POST', probe.path)).status).toBe(405);
  });
});
