// Runs a real nginx, Caddy or Apache (Debian's packages; .ci/run installs them) on a generated
// configuration, on a free loopback port, with everything it writes in a temp prefix, in its own
// process group so that stopping it stops its workers too, whatever happened in the tests. A
// server that is not installed fails the suite: it is never skipped.
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { killGroup } from '../wrangler.js';

export type ServerKind = 'nginx' | 'caddy' | 'apache';

const READY_WITHIN_MS = 20_000;
const LAST_RESORT_SECONDS = 900;

/** A running server. */
export interface RunningServer {
  url: string;
  /** What the server printed and logged, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** The Debian program of each server (root's PATH has /usr/sbin; a user's may not). */
export function serverProgram(kind: ServerKind): string {
  const name = { nginx: 'nginx', caddy: 'caddy', apache: 'apache2' }[kind];
  const folders = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin'];
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(`${name} is not installed: .ci/run installs it (apt-get install ${name === 'apache2' ? 'apache2' : name}); the host table must hold on it`);
}

/**
 * Starts `kind` with `config` (a configuration `otapress hosting` printed for `port` and `prefix`).
 * `prefix` is the server's own temp folder; it is removed on stop.
 */
export async function startServer(kind: ServerKind, config: string, { port, prefix }: { port: number; prefix: string }): Promise<RunningServer> {
  const program = serverProgram(kind);
  const file = path.join(prefix, { nginx: 'nginx.conf', caddy: 'Caddyfile', apache: 'httpd.conf' }[kind]);
  writeFileSync(file, config);
  const args = {
    nginx: ['-p', `${prefix}/`, '-c', file, '-g', 'daemon off;'],
    caddy: ['run', '--config', file, '--adapter', 'caddyfile'],
    apache: ['-d', prefix, '-f', file, '-DFOREGROUND'],
  }[kind];
  // Caddy keeps its autosaved configuration and state under HOME/XDG folders: the prefix.
  const env = { ...process.env, HOME: prefix, XDG_CONFIG_HOME: prefix, XDG_DATA_HOME: prefix };
  const child = spawn('timeout', ['--kill-after=5', String(LAST_RESORT_SECONDS), program, ...args], {
    cwd: prefix,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let alive = true;
  void exited.then(() => (alive = false));
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  const log = () => {
    let errors = '';
    try {
      errors = readFileSync(path.join(prefix, 'error.log'), 'utf8');
    } catch {
      // Caddy logs to stderr only
    }
    return `${output}${errors}`;
  };

  const stop = async () => {
    process.off('exit', killOnExit);
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // workers may outlive their parent for a moment
    rmSync(prefix, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_WITHIN_MS;
  while (true) {
    if (!alive) {
      const printed = log();
      await stop();
      throw new Error(`${kind} exited before serving:\n${printed}`);
    }
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        const printed = log();
        await stop();
        throw new Error(`${kind} did not serve within ${READY_WITHIN_MS / 1000} s:\n${printed}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, log, stop };
}

/** A temp folder the server's workers can enter when it runs as root (they drop to nobody/www-data). */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}
