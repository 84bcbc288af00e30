// Runs Cloudflare's own Pages runtime (`wrangler pages dev`, workerd inside) on a built dist/,
// offline, on a free loopback port, in its own process group so that stopping it stops npx, node
// and workerd together, whatever happened in the tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** workerd 1.20260426 in wrangler 4.86.0 accepts dates up to 2026-05-03; a fixed one keeps runs comparable. */
const COMPATIBILITY_DATE = '2025-01-01';
const READY_WITHIN_MS = 90_000;
const LAST_RESORT_SECONDS = 900;

/** A running `wrangler pages dev`. */
export interface Wrangler {
  url: string;
  /** Everything wrangler printed, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

export async function startWrangler(distDir: string): Promise<Wrangler> {
  const port = await freePort();
  // wrangler keeps state in .wrangler/ of its working folder and picks up functions/ from there.
  const cwd = mkdtempSync(path.join(tmpdir(), 'otapress-wrangler-'));
  const bin = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
  // coreutils' timeout is a last resort should this process die without stopping the group.
  const child = spawn(
    'timeout',
    ['--kill-after=5', String(LAST_RESORT_SECONDS), process.execPath, bin, 'pages', 'dev', distDir, '--port', String(port), '--ip', '127.0.0.1', '--compatibility-date', COMPATIBILITY_DATE, '--show-interactive-dev-session=false'],
    {
      cwd,
      detached: true, // its own process group: the whole group is killed at the end
      stdio: ['ignore', 'pipe', 'pipe'],
      // XDG_CONFIG_HOME keeps wrangler's logs, metrics settings and dev registry in the temp folder.
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true', NO_COLOR: '1', XDG_CONFIG_HOME: cwd },
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // workerd may outlive its parent for a moment
    rmSync(cwd, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_WITHIN_MS;
  let alive = true;
  void exited.then(() => (alive = false));
  while (true) {
    if (!alive) {
      await stop();
      throw new Error(`wrangler exited before serving:\n${output}`);
    }
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`wrangler did not serve within ${READY_WITHIN_MS / 1000} s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, log: () => output, stop };
}

// Shared with test/servers/servers.ts.

/** Signals every process of the group `child` leads (it was spawned detached). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** A port nothing listens on at the moment, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
