// Runs a real nginx, Caddy or Apache (Debian's packages; .ci/run installs them) on a generated
// configuration, on a free loopback port, with everything it writes in a temp prefix, in its own
// process group so that stopping it stops its workers too, whatever happened in the tests. A
// server that is not installed fails the suite: it is never skipped.
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGroupServer, type GroupServer } from '../helpers/process-group.js';

export type ServerKind = 'nginx' | 'caddy' | 'apache';

const READY_WITHIN_MS = 20_000;

/** A running server. */
export type RunningServer = GroupServer;

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
  throw new Error(
    `${name} is not installed: .ci/run installs it (apt-get install ${name === 'apache2' ? 'apache2' : name}); the host table must hold on it`,
  );
}

/**
 * Starts `kind` with `config` (a configuration `otapress hosting` printed for `port` and `prefix`).
 * `prefix` is the server's own temp folder; it is removed on stop.
 */
export async function startServer(
  kind: ServerKind,
  config: string,
  { port, prefix }: { port: number; prefix: string },
): Promise<RunningServer> {
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
  return startGroupServer({
    name: kind,
    command: program,
    args,
    folder: prefix,
    env,
    port,
    readyWithinMs: READY_WITHIN_MS,
    logs: () => {
      try {
        return readFileSync(path.join(prefix, 'error.log'), 'utf8');
      } catch {
        return ''; // Caddy logs to stderr only
      }
    },
  });
}

/** A temp folder the server's workers can enter when it runs as root (they drop to nobody/www-data). */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}
