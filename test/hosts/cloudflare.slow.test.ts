// Cloudflare Pages, its real runtime: the example catalog built into a temp folder and served by
// `wrangler pages dev` (workerd), once per value of `options_handler`. Every row of the host table
// is sent as a phone or a browser would, without following redirects.
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { cloudflare } from '../../src/hosts/cloudflare.js';
import { EXAMPLE } from '../helpers/helpers.js';
import {
  CLOUDFLARE_PAGE_ALLOW_ORIGIN,
  compileWith,
  describeProbe,
  expectedAnswer,
  hostTable,
  INCREMENTAL_EXAMPLE,
  observe,
  optionsProbes,
  REQUEST_PATHS_YAML,
  FORMATS_YAML,
  FORMATS_OUTSIDE_API_YAML,
  writeManifests,
  type Seen,
} from '../helpers/host-table.js';
import { startWrangler, type Wrangler } from '../helpers/wrangler.js';

const content = readContent(EXAMPLE);

// The second run adds site.yaml's request paths too (their rows join the table): one wrangler
// fewer, and neither setting changes what the other answers. The formats: under /api/ in the
// first run, at the root and in a folder of their own beside /api/ in the second.
describe.each([
  {
    optionsHandler: false,
    extra: FORMATS_YAML,
    manifests: {},
    setting: 'without options_handler (static assets only), formats under /api/',
  },
  {
    optionsHandler: true,
    extra: `\noptions_handler: true\n${REQUEST_PATHS_YAML}${FORMATS_OUTSIDE_API_YAML}`,
    manifests: INCREMENTAL_EXAMPLE,
    setting: 'with options_handler: true (_worker.js), request_paths, formats outside /api/ and an incremental package',
  },
])('Cloudflare Pages runtime (wrangler pages dev), $setting', ({ optionsHandler, extra, manifests }) => {
  const compiled = compileWith(content, extra, manifests);
  const table = hostTable(compiled);
  let root: string;
  let wrangler: Wrangler | undefined;
  const dist = () => path.join(root, 'dist');

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'otapress-cf-'));
    cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), extra);
    writeManifests(root, manifests);
    build({ root });
    wrangler = await startWrangler(dist());
  }, 120_000);

  afterAll(async () => {
    await wrangler?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it.each(table.map((probe) => ({ probe, name: describeProbe(probe) })))(
    '$name',
    async ({ probe }) => {
      const seen = await observe(wrangler!.url, probe.method, probe.path);
      const file = readFileSync(path.join(dist(), probe.file), 'utf8');
      // Cloudflare forces Cache-Control: no-store on every 404, whatever _headers says, as the module says.
      expect(cloudflare.answers.notFoundCacheControl).toBe('no-store');
      expect(seen).toEqual(
        expectedAnswer(probe, file, { json: 'no-store', html: 'no-store' }, CLOUDFLARE_PAGE_ALLOW_ORIGIN),
      );
    },
    30_000,
  );

  it.each(optionsProbes(compiled))(
    'OPTIONS $path',
    async ({ path: sent, api }) => {
      const seen = await observe(wrangler!.url, 'OPTIONS', sent);
      const expected: Seen =
        optionsHandler && api
          ? {
              status: 204,
              contentType: null,
              allow: 'GET, OPTIONS',
              vary: 'Accept',
              cacheControl: 'public, max-age=300',
              allowOrigin: '*',
              location: null,
              body: '',
            }
          : api
            ? // The static asset server refuses the method but still applies _headers.
              {
                status: 405,
                contentType: 'application/json',
                allow: 'GET, OPTIONS',
                vary: 'Accept',
                cacheControl: 'public, max-age=300',
                allowOrigin: '*',
                location: null,
                body: '',
              }
            : {
                status: 405,
                contentType: null,
                allow: null,
                vary: null,
                cacheControl: null,
                allowOrigin: CLOUDFLARE_PAGE_ALLOW_ORIGIN,
                location: null,
                body: '',
              };
      expect(seen).toEqual(expected);
    },
    30_000,
  );

  // Beyond the table: odd paths, answered by wrangler and by the preview's respond() from the same
  // content, compared with each other rather than with hand-written expectations.
  it.each([
    ['GET', '/'],
    ['GET', '/404.html'],
    ['GET', '/404'],
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/404.html'],
    ['GET', '/api/404'],
    ['GET', '/api/404.json'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/'],
    ['GET', '/api/v1/FP4'],
    ['GET', '/api/v1/FP4/'],
    // Not /api/v1/FP4/404.json: it rewrites to 404.json/index.json, and wrangler's local file
    // lookup then answers 502 (ENOTDIR), an artefact of the dev server, not of Cloudflare.
    ['GET', '/api/v1/FP4/stable/index.json'],
    ['GET', '/api/v1/FP4/stable//'],
    ['GET', '/API/V1/FP4/stable/'],
    ['GET', '/api/v1/FP4/st%61ble/'],
    ['GET', '/api/v1/FP4/stable/eng.root.20241108.123456?x=1'],
    ['HEAD', '/api/v1/nope/stable/'],
    ['DELETE', '/api/v1/FP4/stable/'],
    // Request paths (second run): slash forms and near misses of the declared patterns.
    ['GET', '/api/v1/FP4_stable/'],
    ['GET', '/api/v1/FP4_stable.json'],
    ['GET', '/api/v1/FP4.JSON'],
    ['GET', '/api/v1/legacy/FP4/stable/'],
    ['GET', '/api/v1/legacy/FP4/nope/1'],
    ['OPTIONS', '/no-such-page'],
    // Formats outside /api/ (second run): near misses of the root pattern and of the folder. Not
    // /FP4.json/ (wrangler's local lookup of FP4.json/index.html answers 502, ENOTDIR, as above).
    ['GET', '/FP4.json?x=1'],
    ['GET', '/FP4.JSON'],
    ['GET', '/x/FP4.json'],
    ['GET', '/API/updater/'],
    ['GET', '/API/updater'],
    ['GET', '/api/updater/FP4.json'],
    ['GET', '/API/devices.json'],
    ['GET', '/api/format-misses/missing'],
  ])(
    '%s %s: the preview answers as wrangler does',
    async (method, sent) => {
      const local = compileSite(readContent(root));
      const answer = respond(servedTree(local.site!, local.files), method, sent);
      const header = (name: string) =>
        Object.entries(answer.headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
      const fromPreview: Seen = {
        status: answer.status,
        contentType: header('content-type'),
        allow: header('allow'),
        vary: header('vary'),
        cacheControl: header('cache-control'),
        allowOrigin: header('access-control-allow-origin'),
        location: header('location'),
        body: String(answer.body),
      };
      const fromWrangler = await observe(wrangler!.url, method, sent);
      // Wrangler answers a 308 with an absolute or relative Location; compare the path.
      if (fromWrangler.location)
        fromWrangler.location =
          new URL(fromWrangler.location, wrangler!.url).pathname + new URL(fromWrangler.location, wrangler!.url).search;
      expect(fromPreview).toEqual(fromWrangler);
    },
    30_000,
  );

  it('refuses POST on a listing with 405', async () => {
    const probe = table.find((p) => p.status === 200)!;
    expect((await observe(wrangler!.url, 'POST', probe.path)).status).toBe(405);
  });
});
