import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { main } from '../../src/cli.js';
import { oldTreesRemoved, ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

/**
 * Interrupted and concurrent builds, with real `otapress build` processes: killed with SIGKILL at
 * seeded points, started two at once, and left behind by a build that died between its renames.
 */
const BIN = path.join(ROOT, 'src', 'bin.mjs');
const SEED = Number(process.env.KILL_SEED ?? 7);
const TIMEOUT = 180_000;

/** A catalog large enough that writing its tree takes a while: 40 devices, 6 builds each. */
function writeCatalog(root: string, revision: number, devices = 40): void {
  rmSync(path.join(root, 'content'), { recursive: true, force: true });
  mkdirSync(path.join(root, 'content'));
  writeFileSync(path.join(root, 'content', 'site.yaml'), 'download_base_url: https://dl.example.org/builds\n');
  for (let d = 0; d < devices; d++) {
    const device = `dev${String(d).padStart(3, '0')}`;
    mkdirSync(path.join(root, 'content', device));
    for (let b = 0; b < 6; b++) {
      const version = `2.${b}`;
      const channel = ['official', 'dev', 'stable', 'community'][b % 4];
      const filename = `e-${version}-a14-2024110${b}44632${d % 10}-${channel}-${device}.zip`;
      const hex = (n: number, width: number) => n.toString(16).repeat(width).slice(0, width);
      writeFileSync(
        path.join(root, 'content', device, filename.replace(/\.zip$/, '.yaml')),
        `filename: ${filename}
version: "${version}"
channel: ${channel}
timestamp: ${1731067200 + b * 86400}
android_version: "14"
incremental: eng.root.2024110${b}.123456
md5sum: "${hex(d * 10 + b + 0xa0, 32)}"
id: "${hex(d * 10 + b + 0xb00, 64)}"
size: ${1387003904 + revision * 1000 + b}
changes: "revision ${revision}"
`,
      );
    }
  }
}

/** Builds a catalog revision in-process in a project of its own: the exact tree a build must leave. */
function expectedTree(revision: number, host: 'all' | 'netlify' = 'all'): Record<string, string> {
  const root = tempProject();
  writeCatalog(root, revision);
  build({ root, host });
  return snapshotTree(path.join(root, 'dist'));
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the build's staging folder existed when it was killed. */
  killedWhileStaging?: boolean;
}

/** Runs the real CLI; `kill` decides when to send SIGKILL (after a delay, or once staging starts). */
function runBuild(root: string, args: string[] = [], kill?: { afterMs: number; once?: 'staging' }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'build', '--root', root, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = { code: null, signal: null, stdout: '', stderr: '' };
    child.stdout.on('data', (d) => (run.stdout += d));
    child.stderr.on('data', (d) => (run.stderr += d));
    const staging = () => existsSync(path.join(root, `.dist.staging-${child.pid}`));
    const killNow = () => {
      run.killedWhileStaging = staging();
      child.kill('SIGKILL');
    };
    let poll: NodeJS.Timeout | undefined;
    if (kill?.once === 'staging') {
      poll = setInterval(() => {
        if (!staging()) return;
        clearInterval(poll);
        setTimeout(killNow, kill.afterMs);
      }, 1);
    } else if (kill) setTimeout(killNow, kill.afterMs);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      Object.assign(run, { code, signal });
      resolve(run);
    });
  });
}

/** mulberry32: a tiny seeded generator, so the kill points are the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Files and folders otapress left in the project besides content/, dist/, netlify.toml (and a build
 * cache in node_modules/), once the old trees that builds replaced have been removed (in the
 * background, by an `rm -rf` that runs on after the build: waited for here, up to a minute).
 */
async function leftovers(root: string): Promise<string[]> {
  await oldTreesRemoved(root);
  return readdirSync(root).filter((name) => !['content', 'dist', 'netlify.toml', 'node_modules'].includes(name));
}

/** The pid of a process that has exited: what a killed build leaves in its folder names. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('a build killed with SIGKILL', () => {
  it(
    'at seeded points, leaves dist/ either the previous or the new tree, complete; the next run leaves no stray folders',
    async () => {
      const v1 = expectedTree(1);
      const v2 = expectedTree(2);
      expect(v2).not.toEqual(v1);

      const root = tempProject();
      writeCatalog(root, 1);
      // The first build also tells how long a whole run takes here, to spread the kill points over it.
      const start = Date.now();
      expect((await runBuild(root)).code).toBe(0);
      const total = Date.now() - start;
      expect(snapshotTree(path.join(root, 'dist'))).toEqual(v1);
      writeCatalog(root, 2);

      const next = random(SEED);
      const points: { afterMs: number; once?: 'staging' }[] = [
        { afterMs: 0, once: 'staging' },
        ...Array.from({ length: 2 }, () => ({ afterMs: Math.floor(next() * 100), once: 'staging' as const })),
        ...Array.from({ length: 3 }, () => ({ afterMs: Math.floor(next() * total) })),
      ];
      const report: string[] = [];
      for (const point of points) {
        const run = await runBuild(root, [], point);
        report.push(
          `seed ${SEED}: kill ${JSON.stringify(point)} → ${run.signal ?? `exit ${run.code}`}, staging ${run.killedWhileStaging}`,
        );
        const dist = path.join(root, 'dist');
        // Killed between the two renames, dist/ is moved aside whole; the next run puts it back.
        const aside = readdirSync(root).find((n) => n.startsWith('.dist.previous-'));
        const tree = existsSync(dist) ? snapshotTree(dist) : snapshotTree(path.join(root, aside!));
        expect(
          [v1, v2].some((v) => JSON.stringify(v) === JSON.stringify(tree)),
          report.join('\n'),
        ).toBe(true);
      }
      // The first point kills as soon as staging starts: its half-written folder is still there.
      expect(report[0]).toContain('SIGKILL, staging true');

      const last = await runBuild(root);
      expect(last.code, last.stderr).toBe(0);
      expect(snapshotTree(path.join(root, 'dist'))).toEqual(v2);
      expect(await leftovers(root), report.join('\n')).toEqual([]);
    },
    TIMEOUT,
  );

  it.each(['no longer runs', 'now belongs to another process (a live `sleep`)'])(
    'between its two renames: the next build puts the previous tree back, even when the content has become invalid (its pid %s)',
    async (which) => {
      const root = tempProject();
      writeCatalog(root, 1, 3);
      expect((await runBuild(root)).code).toBe(0);
      const v1 = snapshotTree(path.join(root, 'dist'));

      // The state a build killed after `dist → .dist.previous-<pid>` leaves: no dist/, a staging folder.
      const other = which.startsWith('now') ? spawn('sleep', ['120'], { stdio: 'ignore' }) : undefined;
      try {
        const pid = other?.pid ?? deadPid();
        renameSync(path.join(root, 'dist'), path.join(root, `.dist.previous-${pid}`));
        mkdirSync(path.join(root, `.dist.staging-${pid}`, 'api'), { recursive: true });
        writeFileSync(path.join(root, `.dist.staging-${pid}`, 'api', 'half.json'), '{"resp');
        // The status file of a final flush whose reader was killed (src/pipeline/disk.ts).
        writeFileSync(path.join(root, `.dist.flushed-${pid}`), '0\n');
        writeFileSync(path.join(root, '.dist.lock'), `${pid} 1\n`);
        writeFileSync(path.join(root, 'content', 'dev000', 'broken.yaml'), 'size: -1\n');

        const failed = await runBuild(root, ['--wait', '20']);
        expect(failed.code, failed.stderr).toBe(1);
        expect(failed.stderr).toContain('content/dev000/broken.yaml:1:7  size  a size cannot be negative');
        expect(snapshotTree(path.join(root, 'dist'))).toEqual(v1);
        expect(await leftovers(root)).toEqual([]);
      } finally {
        other?.kill('SIGKILL');
      }
    },
    TIMEOUT,
  );
});

describe('two builds at once on the same folder', { timeout: 60_000 }, () => {
  it(
    'both finish, one after the other, and dist/ is exactly one of their trees, never a mix',
    async () => {
      const root = tempProject();
      writeCatalog(root, 1);
      // Different trees: a Netlify build writes its own _redirects and _headers.
      const all = expectedTree(1);
      const netlify = expectedTree(1, 'netlify');
      const [a, b] = await Promise.all([runBuild(root), runBuild(root, ['--host', 'netlify'])]);
      expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
      const tree = snapshotTree(path.join(root, 'dist'));
      expect([all, netlify].map((t) => JSON.stringify(t))).toContain(JSON.stringify(tree));
      expect(await leftovers(root)).toEqual([]);
    },
    TIMEOUT,
  );

  it('takes over the lock of a build that was killed', async () => {
    const root = tempProject();
    writeCatalog(root, 1, 2);
    writeFileSync(path.join(root, '.dist.lock'), `${deadPid()}\n`);
    writeFileSync(path.join(root, '.dist.lock.999999999'), '999999999\n');
    const code = await main(['build', '--root', root, '--wait', '0'], { out: () => {}, err: () => {} });
    expect(code).toBe(0);
    expect(await leftovers(root)).toEqual([]);
  });
});

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot. */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

describe.skipIf(!existsSync('/proc/self/stat'))(
  'a lock whose pid is alive (Linux: start times from /proc)',
  { timeout: 60_000 },
  () => {
    /** Builds with `--wait`, after writing `lock` as `.dist.lock`; what it printed and its exit status. */
    const buildWithLock = async (lock: string, wait: string, writtenSecondsAgo = 0) => {
      const root = tempProject();
      writeCatalog(root, 1, 2);
      const file = path.join(root, '.dist.lock');
      writeFileSync(file, lock);
      const written = Date.now() / 1000 - writtenSecondsAgo;
      utimesSync(file, written, written);
      const lines: string[] = [];
      const code = await main(['build', '--root', root, '--wait', wait], {
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      return { root, code, lines };
    };

    it('takes over a lock whose pid now belongs to another process (a live `sleep`), at once', async () => {
      // The pid of a killed build, given since to a process that is not a build: its start time differs.
      const other = spawn('sleep', ['120'], { stdio: 'ignore' });
      try {
        const pid = other.pid!;
        expect(startTicks(pid)).not.toBe('1');
        for (const [lock, ago] of [
          [`${pid} 1\n`, 0],
          [`${pid}\n`, 3600],
        ] as const) {
          // The second: the lock of an earlier otapress (pid alone), written an hour before `sleep` started.
          const run = await buildWithLock(lock, '20', ago);
          expect({ lock, code: run.code, waited: run.lines.filter((l) => l.startsWith('waiting')) }).toEqual({
            lock,
            code: 0,
            waited: [],
          });
          expect(await leftovers(run.root)).toEqual([]);
          expect(existsSync(path.join(run.root, 'dist', 'index.html'))).toBe(true);
        }
      } finally {
        other.kill('SIGKILL');
      }
    });

    it("waits for the process that wrote the lock, named by its pid and start time, or by its pid alone in an earlier otapress's lock written since it started", async () => {
      const holder = process.ppid;
      for (const lock of [`${holder} ${startTicks(holder)}\n`, `${holder}\n`]) {
        const run = await buildWithLock(lock, '0.3');
        expect({ lock, code: run.code, lines: run.lines }).toEqual({
          lock,
          code: 75,
          lines: [
            `waiting for the build of pid ${holder} to finish writing the output folder`,
            `another otapress build (pid ${holder}) is writing ${path.join(run.root, 'dist')}; run this one when it has finished (or pass a longer --wait). If no build is running, delete ${path.join(run.root, '.dist.lock')}`,
          ],
        });
        expect(readFileSync(path.join(run.root, '.dist.lock'), 'utf8')).toBe(lock);
      }
    });

    it('is written with the start time of the build that holds it', async () => {
      const root = tempProject();
      writeCatalog(root, 1, 1);
      let seen = '';
      const { withOutputLock } = await import('../../src/pipeline/output-lock.js');
      withOutputLock(path.join(root, 'dist'), () => (seen = readFileSync(path.join(root, '.dist.lock'), 'utf8')));
      expect(seen).toBe(`${process.pid} ${startTicks(process.pid)}\n`);
      expect(existsSync(path.join(root, '.dist.lock'))).toBe(false);
    });
  },
);

describe('the output folder', { timeout: 60_000 }, () => {
  it.each([
    ['content', 'content'],
    ['the project itself', '.'],
    ['a folder that contains the project', '..'],
    ['a folder inside content/', 'content/FP4'],
  ])('is refused when it is %s (it is replaced as a whole)', async (_, out) => {
    const root = tempProject();
    writeCatalog(root, 1, 2);
    const before = snapshotTree(path.join(root, 'content'));
    const lines: string[] = [];
    const code = await main(['build', '--root', root, '--out', path.join(root, out)], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code).toBe(2);
    expect(lines).toEqual([
      `refusing to write the site to ${path.resolve(root, out)}: the output folder is replaced as a whole, so it cannot be the project, contain it, or lie in content/; use a folder of its own such as ${path.join(root, 'dist')}`,
    ]);
    expect(snapshotTree(path.join(root, 'content'))).toEqual(before);
  });
});
