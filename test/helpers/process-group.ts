// A server for the tests (wrangler, nginx, Caddy, Apache) started on a free loopback port in its
// own process group, so that stopping it stops every process it started, whatever happened in the
// tests; coreutils' timeout is a last resort should this process die without stopping the group.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';

const LAST_RESORT_SECONDS = 900;

/** A server the tests started. */
export interface GroupServer {
  url: string;
  /** What it printed (and `logs` added), for failure messages. */
  log(): string;
  /** Stops the whole group and removes its temp folder. */
  stop(): Promise<void>;
}

/** How to start one: the command, its folder (removed on stop) and how long it may take to answer. */
export interface GroupOptions {
  name: string;
  command: string;
  args: string[];
  /** The server's temp folder: its working folder, removed on stop. */
  folder: string;
  env: NodeJS.ProcessEnv;
  port: number;
  readyWithinMs: number;
  /** Extra text for failure messages, e.g. an error log the server writes instead of printing. */
  logs?: () => string;
}

/** Starts the server and waits until `GET /` answers on its port. */
export async function startGroupServer({
  name,
  command,
  args,
  folder,
  env,
  port,
  readyWithinMs,
  logs = () => '',
}: GroupOptions): Promise<GroupServer> {
  const child = spawn('timeout', ['--kill-after=5', String(LAST_RESORT_SECONDS), command, ...args], {
    cwd: folder,
    detached: true, // its own process group: the whole group is killed at the end
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
  const log = () => `${output}${logs()}`;

  const stop = async () => {
    process.off('exit', killOnExit);
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // workers may outlive their parent for a moment
    rmSync(folder, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyWithinMs;
  while (true) {
    if (!alive) {
      const printed = log();
      await stop();
      throw new Error(`${name} exited before serving:\n${printed}`);
    }
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        const printed = log();
        await stop();
        throw new Error(`${name} did not serve within ${readyWithinMs / 1000} s:\n${printed}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, log, stop };
}

/** Signals every process of the group `child` leads (it was spawned detached). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
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
