import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputError } from '../../src/pipeline/out-dir.js';
import { withOutputLock } from '../../src/pipeline/output-lock.js';
import { tempProject } from '../helpers/helpers.js';

// The lock one build holds while it writes an output folder (src/pipeline/output-lock.ts), on its
// own; test/pipeline/interrupt.test.ts has whole builds killed and racing for it.

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** Fields of /proc/<pid>/stat: the start time (22) and the state (3). */
const statOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};
const startTicks = (pid: number) => statOf(pid)[19];
const state = (pid: number) => statOf(pid)[0];

/** A live process that is not this one, and the lock text it would have written (pid and start time). */
function liveHolder(seconds: string): { child: ChildProcess; lock: string } {
  const child = spawn('sleep', [seconds], { stdio: 'ignore' });
  started.push(child);
  return { child, lock: `${child.pid} ${startTicks(child.pid!)}\n` };
}

describe('withOutputLock', () => {
  it('holds `.<out>.lock` with its own pid while the work runs, and removes it even when the work throws', () => {
    const out = path.join(tempProject(), 'dist');
    const lock = path.join(path.dirname(out), '.dist.lock');
    let seen = '';
    expect(() =>
      withOutputLock(out, () => {
        seen = readFileSync(lock, 'utf8');
        throw new Error('the work failed');
      }),
    ).toThrow('the work failed');
    expect(seen.split(' ')[0]).toBe(String(process.pid));
    expect(existsSync(lock)).toBe(false);
    // And the next one takes it at once.
    expect(withOutputLock(out, () => 'ran', { waitMs: 0 })).toBe('ran');
  });

  it('takes over a lock whose build no longer runs', async () => {
    const out = path.join(tempProject(), 'dist');
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(path.join(path.dirname(out), '.dist.lock'), `${gone.pid}\n`);
    const told: number[] = [];
    expect(withOutputLock(out, () => 'ran', { waitMs: 0, onWait: (pid) => told.push(pid) })).toBe('ran');
    expect(told).toEqual([]);
  });

  describe.skipIf(!existsSync('/proc/self/stat'))('with a live holder (Linux: start times from /proc)', () => {
    it('refuses once `waitMs` has passed, as busy, naming the holder and the lock; says once that it waits', () => {
      const out = path.join(tempProject(), 'dist');
      const lockFile = path.join(path.dirname(out), '.dist.lock');
      const { child, lock } = liveHolder('120');
      writeFileSync(lockFile, lock);
      const told: number[] = [];
      let ran = false;
      const error = (() => {
        try {
          withOutputLock(out, () => (ran = true), { waitMs: 300, onWait: (pid) => told.push(pid) });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(OutputError);
      expect((error as OutputError).reason).toBe('busy');
      expect((error as OutputError).message).toBe(
        `another otapress build (pid ${child.pid}) is writing ${out}; run this one when it has finished ` +
          `(or pass a longer --wait). If no build is running, delete ${lockFile}`,
      );
      expect(ran).toBe(false);
      expect(told).toEqual([child.pid]);
      // The holder's lock is left as it was.
      expect(readFileSync(lockFile, 'utf8')).toBe(lock);
    });

    it('runs the work once the holder has ended, reaped or not', () => {
      // Started by a shell that ends at once, as a build started by another shell.
      const pid = Number(spawnSync('sh', ['-c', 'sleep 1 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).stdout);
      const out = path.join(tempProject(), 'dist');
      writeFileSync(path.join(path.dirname(out), '.dist.lock'), `${pid} ${startTicks(pid)}\n`);
      const told: number[] = [];
      expect(withOutputLock(out, () => 'ran', { waitMs: 60_000, onWait: (holder) => told.push(holder) })).toBe('ran');
      expect(told).toEqual([pid]);
    });

    it('takes over the lock of a build that has ended but was not reaped (a zombie), at once', () => {
      // A child of this thread's process that has exited: until the event loop runs again, Node has
      // not collected it, as an init that never reaps (some containers' process 1) never does.
      const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
      started.push(child);
      const pid = child.pid!;
      const start = startTicks(pid);
      for (const deadline = Date.now() + 30_000; state(pid) !== 'Z';) {
        if (Date.now() > deadline) throw new Error(`process ${pid} did not end`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
      const out = path.join(tempProject(), 'dist');
      writeFileSync(path.join(path.dirname(out), '.dist.lock'), `${pid} ${start}\n`);
      const told: number[] = [];
      expect(withOutputLock(out, () => 'ran', { waitMs: 2000, onWait: (holder) => told.push(holder) })).toBe('ran');
      expect(told).toEqual([]);
      expect(state(pid)).toBe('Z');
    });
  });
});
