// Starts `otapress serve` as a real process for the tests that need one (signals, sockets, the
// watcher), in a process group of its own, and stops whatever is left of it after each test.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import { ROOT } from './helpers.js';

const started: ChildProcess[] = [];
afterEach(() => {
  // Whatever a failed test left behind: the group of the process this test started, and nothing else.
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A started preview: the process, its port, and everything it printed so far. */
export interface ServeProcess {
  child: ChildProcess;
  port: number;
  printed(): string;
}

/** Starts `command` in a process group of its own and waits for the preview's address. */
export async function startServe(command: string, args: string[]): Promise<ServeProcess> {
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  started.push(child);
  let printed = '';
  const read = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed in 45 s: ${printed}`)), 45_000);
    const look = () => {
      const match = /serving content\/ at http:\/\/127\.0\.0\.1:(\d+)\//.exec(printed);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before serving: ${printed}`)));
  });
  return { child, port, printed: () => printed };
}

/** Polls `check` until it holds or `ms` pass; true when it held. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
