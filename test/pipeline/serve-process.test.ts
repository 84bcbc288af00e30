// `otapress serve` as a real process tree: stopping what started it stops the server and frees its
// port. `npx otapress serve` runs node under `sh -c`, and npm passes a SIGTERM only to that shell.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempProject } from '../helpers/helpers.js';
import { eventually, startServe } from '../helpers/serve-run.js';

/** The process ids below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended while we looked
    }
  }
  const below: number[] = [];
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    below.push(...frontier);
  }
  return below;
}

/** Running: it exists and is not a zombie (an exited process whose parent has not reaped it yet). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const commandLine = (pid: number) =>
  existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') : [];

/** Whether 127.0.0.1:`port` can be listened on again. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('stopping otapress serve', () => {
  it(
    'SIGTERM to `npx otapress serve` ends the server process under it and frees the port',
    { timeout: 90_000 },
    async () => {
      const root = tempProject({ withContent: true });
      const { child: npx, port } = await startServe('npx', ['otapress', 'serve', '--port', '0', '--root', root]);
      const tree = descendants(npx.pid!);
      const server = tree.filter(
        (pid) =>
          commandLine(pid).some((arg) => /otapress|bin\.mjs/.test(arg)) &&
          commandLine(pid).includes('serve') &&
          path.basename(commandLine(pid)[0]) === 'node',
      );
      expect(
        server,
        `the node process under npx (${tree.map((p) => commandLine(p).join(' ')).join('; ')})`,
      ).toHaveLength(1);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/FP4/stable/`)).status).toBe(200);

      process.kill(npx.pid!, 'SIGTERM');
      expect(
        await eventually(() => !running(server[0])),
        `pid ${server[0]} (${commandLine(server[0]).join(' ')}) still running`,
      ).toBe(true);
      expect(await eventually(() => tree.every((pid) => !running(pid))), 'every process under npx ends').toBe(true);
      expect(await eventually(() => portFree(port)), `port ${port} free`).toBe(true);
    },
  );

  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    '%s to the serve process ends it with status 0 and frees the port',
    { timeout: 60_000 },
    async (signal) => {
      const root = tempProject({ withContent: true });
      const { child, port } = await startServe(process.execPath, [
        path.join(ROOT, 'src', 'bin.mjs'),
        'serve',
        '--port',
        '0',
        '--root',
        root,
      ]);
      const exited = new Promise<[number | null, string | null]>((resolve) =>
        child.once('exit', (code, sig) => resolve([code, sig])),
      );
      child.kill(signal);
      expect(await exited).toEqual([0, null]);
      expect(await eventually(() => portFree(port)), `port ${port} free`).toBe(true);
    },
  );
});
