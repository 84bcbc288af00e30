// On an `init --channels nightly` catalog with three full builds, an incremental package and a key
// change, a LineageOS phone asking with its own incremental, through the v1 client and through the
// v2 transcription with `{incr}` in its URI, is offered exactly what it can install, on the preview,
// on Netlify's rule engine and on Cloudflare's runtime (wrangler): real zips, signed with keys the
// test makes. The self-hosted servers: test/servers/key-change.servers.ts.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { build, compileSite } from '../../src/pipeline/build.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { EXPECTED_OFFERS, keyChangeCatalog, offeredOn } from '../helpers/key-change-catalog.js';
import { loadNetlifySite, netlifyAnswer, type NetlifySite } from '../helpers/netlify-engine.js';
import { startWrangler, type Wrangler } from '../helpers/wrangler.js';

describe('three builds, an incremental package and a key change', { timeout: 120_000 }, () => {
  let base: string;
  let netlify: NetlifySite;
  let preview: ReturnType<typeof servedTree>;
  let wrangler: Wrangler | undefined;

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'otapress-key-change-'));
    const root = await keyChangeCatalog(base);
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    preview = servedTree(compiled.site!, compiled.files);
    build({ root, cache: false, threads: 1 });
    const cloudflareDist = path.join(base, 'dist-cloudflare');
    cpSync(path.join(root, 'dist'), cloudflareDist, { recursive: true });
    build({ root, host: 'netlify', cache: false, threads: 1 });
    netlify = await loadNetlifySite(path.join(root, 'netlify.toml'), path.join(root, 'dist'));
    wrangler = await startWrangler(cloudflareDist);
  }, 180_000);
  afterAll(async () => {
    await wrangler?.stop();
    rmSync(base, { recursive: true, force: true });
  }, 30_000);

  const hosts = {
    preview: async (url: string) => String(respond(preview, 'GET', url).body),
    netlify: async (url: string) => netlifyAnswer(netlify, url).body,
    wrangler: async (url: string) => (await fetch(`${wrangler!.url}${url}`)).text(),
  };

  it.each(Object.keys(hosts) as (keyof typeof hosts)[])(
    'on %s, each phone is offered what it can install, in v1 and in v2',
    async (host) => {
      expect(await offeredOn(hosts[host])).toEqual(EXPECTED_OFFERS);
    },
  );
});
