import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSettings, groupByDevice } from '../../src/pipeline/compile-device.js';
import { compileDevices } from '../../src/pipeline/compile-devices.js';
import { startWriteback } from '../../src/pipeline/disk.js';
import { stageTree } from '../../src/pipeline/write.js';
import { readContent } from '../../src/catalog/read.js';
import { generateCatalog } from '../bench/catalog.js';
import { eventually, ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

/**
 * A build starts writing its staging folder back to disk while it compiles (`sync -f` in the
 * background, src/pipeline/disk.ts), so that the flush before the swap has little left to do. These
 * tests put a `sync` of their own first on PATH, which records how it was called and then runs the
 * real one.
 */
const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

/** A new folder for commands of a test's own, to put first on PATH. */
function binFolder(): string {
  const bin = path.join(tempProject(), 'bin');
  mkdirSync(bin);
  return bin;
}

/** Writes the shell script `name` into `bin`, executable. */
function command(bin: string, name: string, body: string): void {
  writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(path.join(bin, name), 0o755);
}

/** A folder holding a `sync` that appends its parent's pid and its arguments to `log`, then runs the system's. */
function recordingSync(log: string): string {
  const bin = binFolder();
  const real = ['/usr/bin/sync', '/bin/sync'].find((p) => existsSync(p));
  command(bin, 'sync', `echo "$PPID $@" >> '${log}'\n${real ? `exec ${real} "$@"` : 'exit 0'}`);
  return bin;
}

/** Whether process `pid` still runs. */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The lines of a log the commands above write to, none while it does not exist. */
function logLines(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

describe.runIf(process.platform === 'linux')('writing back while building', { timeout: 60_000 }, () => {
  it('syncs the staging folder as devices are written, and the tree is the same as without', async () => {
    const root = tempProject();
    generateCatalog(root, { devices: 6, builds: 10 });
    const content = readContent(root);
    const { site } = compileSettings(content);
    const compile = (writebackEveryMs?: number) => {
      const tree = stageTree(path.join(tempProject(), 'out'));
      compileDevices(groupByDevice(content), content.site!, site!, {
        threads: 1,
        writeTo: tree.staging,
        writebackEveryMs,
      });
      return tree.staging;
    };
    const log = path.join(tempProject(), 'sync.log');
    process.env.PATH = `${recordingSync(log)}${path.delimiter}${PATH}`;
    const quiet = compile(60_000);
    const eager = compile(0);
    // One as each staging folder is made, one after each device written when every device is due
    // one, and one once the last device is taken, due or not (they run in the background: wait for
    // them to have run).
    const lines = () => logLines(log);
    expect(await eventually(() => lines().length >= 10, 30_000)).toBe(true);
    const calls = lines().map((line) => line.split(' '));
    expect(calls.map(([, ...args]) => args.join(' ')).sort()).toEqual(
      [...Array(8).fill(`-f ${eager}`), ...Array(2).fill(`-f ${quiet}`)].sort(),
    );
    // Each folder's syncs are run by one helper process of its own, not started by the build each time.
    const parents = (dir: string) => new Set(calls.filter(([, , at]) => at === dir).map(([pid]) => Number(pid)));
    expect(parents(eager).size).toBe(1);
    expect(parents(quiet).size).toBe(1);
    expect([...parents(eager), ...parents(quiet)]).not.toContain(process.pid);
    expect(new Set([...parents(eager), ...parents(quiet)]).size).toBe(2);
    expect(snapshotTree(eager)).toEqual(snapshotTree(quiet));
  });

  it('starts writing back when the calling thread has no device left, and again once the workers are done', async () => {
    const root = tempProject();
    generateCatalog(root, { devices: 4, builds: 3 });
    const content = readContent(root);
    const { site } = compileSettings(content);
    const log = path.join(tempProject(), 'sync.log');
    process.env.PATH = `${recordingSync(log)}${path.delimiter}${PATH}`;
    const tree = stageTree(path.join(tempProject(), 'out'));
    // No sync is due while compiling: every one in the log is one of the three named.
    compileDevices(groupByDevice(content), content.site!, site!, {
      threads: 2,
      workersFrom: 0,
      callerCompiles: false,
      writeTo: tree.staging,
      writebackEveryMs: 60_000,
    });
    const at = (line: string) => line.endsWith(` -f ${tree.staging}`);
    // As the staging folder is made, as the calling thread finds no device left, once the worker is done.
    expect(await eventually(() => logLines(log).filter(at).length >= 3, 30_000)).toBe(true);
    // No fourth: the helper runs what it was told in order and ends once the tree is discarded, so
    // when it has ended, its log is complete.
    const helper = Number(logLines(log).find(at)!.split(' ')[0]);
    tree.discard();
    expect(await eventually(() => !runs(helper), 30_000)).toBe(true);
    expect(logLines(log).filter(at)).toHaveLength(3);
  });

  it('ends the helper once the tree is committed or discarded', async () => {
    const log = path.join(tempProject(), 'sync.log');
    process.env.PATH = `${recordingSync(log)}${path.delimiter}${PATH}`;
    const helpers: number[] = [];
    for (const end of ['commit', 'discard'] as const) {
      const tree = stageTree(path.join(tempProject(), 'out'));
      writeFileSync(path.join(tree.staging, 'a.json'), '[]');
      startWriteback(tree.staging);
      const at = (line: string) => line.endsWith(` -f ${tree.staging}`);
      expect(await eventually(() => logLines(log).filter(at).length >= 2, 30_000)).toBe(true);
      helpers.push(Number(logLines(log).find(at)!.split(' ')[0]));
      tree[end]();
    }
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(new Set(helpers).size).toBe(2);
    // Each ends once the syncs asked of it have run (it would otherwise wait on its pipe for the process's life).
    expect(await eventually(() => !helpers.some(alive), 30_000)).toBe(true);
  });

  it('flushes before the swap and removes the replaced tree from the same helper, leaving nothing behind', async () => {
    const log = path.join(tempProject(), 'sync.log');
    const bin = recordingSync(log);
    // An `rm` that records its parent's pid too.
    command(bin, 'rm', `echo "$PPID rm $@" >> '${log}'\nexec /bin/rm "$@"`);
    process.env.PATH = `${bin}${path.delimiter}${PATH}`;
    const parent = tempProject();
    const out = path.join(parent, 'out');
    const lines = () => logLines(log);
    for (const name of ['first.json', 'second.json']) {
      const before = lines().length;
      const tree = stageTree(out);
      writeFileSync(path.join(tree.staging, name), '[]');
      tree.commit();
      // The flush has run by the time commit returns: its sync is in the log, from the helper (the
      // first sync is the one every staging folder starts with).
      const flushes = lines()
        .slice(before)
        .filter((line) => line.endsWith(` -f ${tree.staging}`));
      expect(flushes).toHaveLength(2);
      expect(flushes.map((line) => Number(line.split(' ')[0]))).not.toContain(process.pid);
      expect(new Set(flushes.map((line) => line.split(' ')[0])).size).toBe(1);
      expect(readdirSync(out)).toEqual([name]);
    }
    // The first tree, set aside by the second commit, is removed in the background by the helper
    // that flushed the second; no marker is left.
    expect(await eventually(() => readdirSync(parent).length === 1, 30_000)).toBe(true);
    expect(readdirSync(parent)).toEqual(['out']);
    const removals = lines().filter((line) => line.split(' ')[1] === 'rm');
    expect(removals).toHaveLength(1);
    expect(removals[0]).toMatch(new RegExp(` rm -rf -- ${parent}/\\.out\\.trash-${process.pid}-\\d+$`));
    const lastFlush = lines()
      .filter((line) => line.endsWith(' -f ' + path.join(parent, `.out.staging-${process.pid}`)))
      .at(-1)!;
    expect(removals[0].split(' ')[0]).toBe(lastFlush.split(' ')[0]);
  });

  it('still flushes and swaps when the helper is gone or its sync fails', async () => {
    const log = path.join(tempProject(), 'sync.log');
    process.env.PATH = `${recordingSync(log)}${path.delimiter}${PATH}`;
    const out = path.join(tempProject(), 'out');
    const tree = stageTree(out);
    writeFileSync(path.join(tree.staging, 'a.json'), '[]');
    const at = (line: string) => line.endsWith(` -f ${tree.staging}`);
    const syncs = () => logLines(log).filter(at);
    expect(await eventually(() => syncs().length > 0, 30_000)).toBe(true);
    const helper = Number(syncs()[0].split(' ')[0]);
    process.kill(helper, 'SIGKILL');
    // Killed and not yet reaped (the event loop has not run): a zombie, told from /proc.
    tree.commit();
    // The flush came from a sync the build started itself.
    const builds = () => syncs().filter((line) => Number(line.split(' ')[0]) === process.pid);
    expect(builds()).toHaveLength(1);
    expect(readdirSync(out)).toEqual(['a.json']);

    // Killed and reaped: its pid may be anybody's by now, and is not looked at.
    const again = stageTree(out);
    writeFileSync(path.join(again.staging, 'c.json'), '[]');
    expect(await eventually(() => syncs().length >= 3, 30_000)).toBe(true);
    const second = Number(syncs().at(-1)!.split(' ')[0]);
    expect(second).not.toBe(process.pid);
    process.kill(second, 'SIGKILL');
    expect(await eventually(() => !existsSync(`/proc/${second}`), 30_000)).toBe(true);
    again.commit();
    expect(builds()).toHaveLength(2);
    expect(readdirSync(out)).toEqual(['c.json']);

    // A sync that fails: every file and folder is fsynced instead, and the tree is swapped in.
    const bin = binFolder();
    command(bin, 'sync', 'exit 1');
    process.env.PATH = `${bin}${path.delimiter}${PATH}`;
    const failing = stageTree(out);
    writeFileSync(path.join(failing.staging, 'b.json'), '[]');
    failing.commit();
    expect(readdirSync(out)).toEqual(['b.json']);
    expect(readdirSync(path.dirname(out)).filter((name) => name.includes('flushed'))).toEqual([]);
  });

  it('does not fail, now or later, where there is no sync to run', () => {
    // The spawn's failure arrives on the event loop, whenever that is: in a process of its own,
    // which ends once nothing is left to arrive, an unhandled one would end it with status 1.
    const dir = tempProject();
    const script = [
      `import { startWriteback } from ${JSON.stringify(path.join(ROOT, 'src', 'pipeline', 'disk.ts'))};`,
      `process.env.PATH = ${JSON.stringify(path.join(dir, 'no-such-folder'))};`,
      `startWriteback(${JSON.stringify(dir)});`,
      `process.on('exit', () => process.stdout.write('ended'));`,
    ].join('\n');
    const file = path.join(dir, 'writeback.mts');
    writeFileSync(file, script);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('ended');
    expect(result.status).toBe(0);
  });
});
