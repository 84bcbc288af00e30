// Runs Cloudflare's own Pages runtime (`wrangler pages dev`, workerd inside) on a built dist/,
// offline, on a free loopback port, in its own process group so that stopping it stops npx, node
// and workerd together, whatever happened in the tests.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startGroupServer, type GroupServer } from './process-group.js';

/** workerd 1.20260426 in wrangler 4.86.0 accepts dates up to 2026-05-03; a fixed one keeps runs comparable. */
const COMPATIBILITY_DATE = '2025-01-01';
const READY_WITHIN_MS = 90_000;

/** A running `wrangler pages dev`. */
export type Wrangler = GroupServer;

export async function startWrangler(distDir: string): Promise<Wrangler> {
  const port = await freePort();
  // wrangler keeps state in .wrangler/ of its working folder and picks up functions/ from there.
  const cwd = mkdtempSync(path.join(tmpdir(), 'otapress-wrangler-'));
  const bin = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
  // XDG_CONFIG_HOME keeps wrangler's logs, metrics settings and dev registry in the temp folder.
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    CI: 'true',
    NO_COLOR: '1',
    XDG_CONFIG_HOME: cwd,
  };
  return startGroupServer({
    name: 'wrangler',
    command: process.execPath,
    args: [
      bin,
      'pages',
      'dev',
      distDir,
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--compatibility-date',
      COMPATIBILITY_DATE,
      '--show-interactive-dev-session=false',
    ],
    folder: cwd,
    env,
    port,
    readyWithinMs: READY_WITHIN_MS,
  });
}
