// nginx, Caddy and Apache on the catalog of three full builds, an incremental package and a key
// change (key-change-catalog.ts): a LineageOS phone asking with its own incremental, through the v1
// client and the v2 transcription with `{incr}` in its URI, is offered exactly what it can install,
// from the configuration `otapress hosting` prints for each.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { runMain } from '../helpers/cli-process.js';
import { EXPECTED_OFFERS, keyChangeCatalog, offeredOn } from '../helpers/key-change-catalog.js';
import { freePort } from '../helpers/process-group.js';
import { startServer, tempFolder, type RunningServer, type ServerKind } from './servers.js';

describe.each(['nginx', 'caddy', 'apache'] as ServerKind[])('%s', (kind) => {
  let base: string;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    base = tempFolder('otapress-key-change-');
    const root = await keyChangeCatalog(base);
    build({ root, cache: false, threads: 1 });
    const port = await freePort();
    const prefix = tempFolder(`otapress-${kind}-`);
    const printed = await runMain([
      'hosting',
      kind,
      '--root',
      root,
      '--listen',
      `127.0.0.1:${port}`,
      '--prefix',
      prefix,
    ]);
    expect(printed.code, printed.err.join('\n')).toBe(0);
    server = await startServer(kind, `${printed.out.join('\n')}\n`, { port, prefix });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(base, { recursive: true, force: true });
  }, 30_000);

  it('offers each phone what it can install, in v1 and in v2', async () => {
    const get = async (url: string) => (await fetch(`${server!.url}${url}`)).text();
    expect(await offeredOn(get), server!.log()).toEqual(EXPECTED_OFFERS);
  });
});
