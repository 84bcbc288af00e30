import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSystemName, fileSystemOf } from './file-system.js';
import { targetLine } from './targets.js';
import { escapeRegExp, ROOT } from '../helpers/helpers.js';

// A smoke run of `npm run bench` on a tiny catalog, so the script cannot rot. No timing is checked:
// the figures of a busy test machine mean nothing; the table's shape does.
describe('npm run bench', { timeout: 120_000 }, () => {
  it('measures the floor, cold, warm and single-threaded builds and hashing, and prints the table', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'test', 'bench', 'bench.ts'),
        '--devices',
        '3',
        '--builds',
        '4',
        '--runs',
        '1',
        '--hash-mb',
        '1',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const rows = result.stdout.split('\n').map((line) => line.split(/\s{2,}/)[0]);
    expect(rows).toEqual(
      expect.arrayContaining([
        'measurement',
        'I/O floor',
        'cold build',
        'warm build',
        'single-thread build',
        'md5sum',
        'sha256sum',
      ]),
    );
    expect(result.stdout).toContain('3 devices x 4 builds = 12 manifests');
    expect(result.stdout).toContain('the build writes 12 builds of 3 devices into 12 listings');
    // The catalog's folder, and the file system it is on.
    expect(result.stdout).toMatch(
      new RegExp(
        `12 manifests in ${escapeRegExp(tmpdir())}/otapress-bench-\\w+ \\(${escapeRegExp(fileSystemOf(tmpdir()))}\\): generating`,
      ),
    );
  });

  // /dev/shm is a tmpfs on Linux; where it is not (another system, a container without it), there is nothing to run on.
  it.runIf(fileSystemOf('/dev/shm') === 'tmpfs, in memory')(
    'says when the catalog is in memory (TMPDIR on a tmpfs), where no build waits for a disk',
    () => {
      const dir = mkdtempSync('/dev/shm/otapress-bench-test-');
      try {
        const result = spawnSync(
          process.execPath,
          [
            '--import',
            'tsx',
            path.join(ROOT, 'test', 'bench', 'bench.ts'),
            '--devices',
            '2',
            '--builds',
            '3',
            '--runs',
            '1',
            '--only',
            'build',
          ],
          { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: dir } },
        );
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(
          new RegExp(`6 manifests in ${escapeRegExp(dir)}/otapress-bench-\\w+ \\(tmpfs, in memory\\): generating`),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('with --extras, also cold-builds the catalog with device files and changelogs and prints the ratio to the plain one, and with --baseline to the plain build of another checkout', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'test', 'bench', 'bench.ts'),
        '--devices',
        '3',
        '--builds',
        '4',
        '--runs',
        '2',
        '--only',
        'build',
        '--extras',
        '--baseline',
        ROOT,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const rows = result.stdout.split('\n').map((line) => line.trim().split(/\s{2,}/)[0]);
    expect(rows).toEqual(
      expect.arrayContaining([
        'cold build (extras)',
        'I/O floor (extras)',
        'baseline cold build',
        'cold build extras / plain',
        'I/O floor extras / plain',
        'extras / baseline plain',
        'plain / baseline plain',
      ]),
    );
    // The same builds and listings as the plain catalog (its changelog pages are more files).
    expect(result.stdout).toMatch(
      /with device files and changelogs \(.*\), it writes 12 builds of 3 devices into 12 listings \(\d+ records\), \d+ files/,
    );
    // Here the baseline is this very checkout: named by its commit, or by its folder where it is
    // not a git checkout (CI also runs the suite in a copy without .git).
    const rev = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
    const commit = rev.status === 0 ? rev.stdout.trim() : path.basename(ROOT);
    expect(result.stdout).toContain(`(baseline: otapress at ${commit}, ${ROOT})`);
    expect(result.stdout).toMatch(
      new RegExp(`cold build with device files and changelogs / ${commit}'s plain build.*target at most 1\\.10x`),
    );
    expect(result.stdout).toMatch(
      /the same catalog with device files and changelogs \/ without, same code.*target at most 1\.10x/,
    );
    // Two rounds: each ratio's target line ends with its lowest and highest round.
    expect(result.stdout).toMatch(
      /cold build with cache \/ --no-cache \(12 manifests\) +\d+\.\d\dx +target at most 1\.05x +(met|MISSED) +\(rounds \d+\.\d\dx to \d+\.\d\dx(: 1 of 2 met it)?\)\n/,
    );
    expect(result.stdout).toMatch(
      /peak RSS, cold build \(at 12 manifests, not 100k\) +\d+ MB +target under 300 MB +met\n/,
    );
  });
  it('with --incrementals, sets each catalog against the I/O floor of its own output and prints the ratio of their costs per file above it', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'test', 'bench', 'bench.ts'),
        '--incrementals',
        '--devices',
        '2',
        '--builds',
        '20',
        '--runs',
        '2',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // The machine and its load before and after, as every run of the benchmark prints them.
    expect(result.stdout).toMatch(/^otapress benchmark: \d+ cores .*\nload average at start: [\d.]+ [\d.]+ [\d.]+\n/m);
    expect(result.stdout).toMatch(/\nload average at end: [\d.]+ [\d.]+ [\d.]+\n$/);
    // Each device's newest tenth: builds 18 and 19 of 20, from the build before each.
    expect(result.stdout).toContain('40 manifests, and the same with 4 incremental packages');
    const files =
      /files written: plain (\d+) \([\d.]+ MiB\), incrementals (\d+) \([\d.]+ MiB\): (\d+\.\d\d)x the files/.exec(
        result.stdout,
      );
    expect(files).not.toBeNull();
    const [plain, incrementals] = [Number(files![1]), Number(files![2])];
    expect(incrementals).toBeGreaterThan(plain);
    expect(files![3]).toBe((incrementals / plain).toFixed(2));
    for (const name of ['plain', 'incrementals'])
      expect(result.stdout).toMatch(
        new RegExp(
          `\\n  ${name} +[\\d.]+ s +[\\d.]+ s +[\\d.]+x +-?[\\d.]+ µs wall  \\(builds: [\\d.]+ [\\d.]+; floors: [\\d.]+ [\\d.]+\\)\\n`,
        ),
      );
    expect(result.stdout).toMatch(
      /with \/ without: build [\d.]+x, I\/O floor [\d.]+x, cost per file above the floor -?[\d.]+x +\(each round: -?[\d.]+ -?[\d.]+\)/,
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `each of the ${incrementals - plain} added files: -?[\\d.]+ µs above the floor, -?[\\d.]+x a file of the plain build +\\(each round: -?[\\d.]+ -?[\\d.]+\\)`,
      ),
    );
    expect(result.stdout).toMatch(
      /cost per file written above its own I\/O floor, with incrementals \/ without +-?\d+\.\d\dx +target at most 1\.10x +(met|MISSED)/,
    );
  });
});

describe('npm run bench -- --import', { timeout: 120_000 }, () => {
  it('imports a repository made from the crDroid fixture and cats its files, and prints both and their ratio', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'test', 'bench', 'bench.ts'), '--import', '--devices', '6', '--runs', '1'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('import of an OTA repository: 6 crDroid devices (13 files');
    expect(result.stdout).toMatch(/^ {2}import {2}wall [\d.]+ s/m);
    expect(result.stdout).toMatch(/^ {2}cat {5}wall [\d.]+ s/m);
    expect(result.stdout).toMatch(/^ {2}import \/ cat: wall [\d.]+x, CPU/m);
  });
});

describe('the list of targets the benchmark ends with', () => {
  const ratio = { figure: 'cold / --no-cache', unit: 'x', target: 1.05 };
  it('shows a median beside its target, met or MISSED, as before', () => {
    expect(targetLine({ ...ratio, value: 1.03 }, 20)).toBe(
      '  cold / --no-cache         1.03x  target at most 1.05x    met',
    );
    expect(targetLine({ ...ratio, value: 1.08 }, 20)).toBe(
      '  cold / --no-cache         1.08x  target at most 1.05x    MISSED',
    );
    expect(targetLine({ figure: 'peak RSS', value: 221.4, unit: 'MB', target: 300, below: true }, 8)).toBe(
      '  peak RSS     221 MB  target under 300 MB   met',
    );
    expect(targetLine({ figure: 'x', unit: 'x', target: 1 }, 1)).toBe('  x          -  target at most 1.00x    n/a');
  });

  it('adds the lowest and highest round of a ratio, and how many rounds met the target when they disagree', () => {
    expect(targetLine({ ...ratio, value: 1.03, rounds: [1.13, 1.07, 1.03, 0.95, 0.85] }, 20)).toBe(
      '  cold / --no-cache         1.03x  target at most 1.05x    met     (rounds 0.85x to 1.13x: 3 of 5 met it)',
    );
    expect(targetLine({ ...ratio, value: 2.53, target: 1.5, rounds: [3.45, 2.53, 2.4, 3.37, 2.21] }, 20)).toBe(
      '  cold / --no-cache         2.53x  target at most 1.50x    MISSED  (rounds 2.21x to 3.45x)',
    );
    // Under a target: a round equal to it does not meet it. One round, or rounds not measured, add nothing.
    expect(targetLine({ ...ratio, value: 0.9, target: 1, below: true, rounds: [0.8, 1] }, 20)).toBe(
      '  cold / --no-cache         0.90x  target under 1.00x    met     (rounds 0.80x to 1.00x: 1 of 2 met it)',
    );
    expect(targetLine({ ...ratio, value: 1.03, rounds: [1.03] }, 20)).toBe(
      '  cold / --no-cache         1.03x  target at most 1.05x    met',
    );
    expect(targetLine({ ...ratio, value: 1.03, rounds: [Number.NaN, 1.03] }, 20)).toBe(
      '  cold / --no-cache         1.03x  target at most 1.05x    met',
    );
  });
});

describe('the file system a benchmark runs on', () => {
  it('is named from its statfs type, by the numbers of the kernel, and shown as a number when unknown', () => {
    expect(fileSystemName(0xef53)).toBe('ext2/3/4');
    expect(fileSystemName(0x01021994)).toBe('tmpfs, in memory');
    expect(fileSystemName(0x58465342n)).toBe('xfs');
    expect(fileSystemName(0x12345678)).toBe('file system type 0x12345678');
  });

  it('is unknown, not an error, for a folder that cannot be asked', () => {
    expect(fileSystemOf(path.join(tmpdir(), 'otapress-no-such-folder', 'x'))).toBe('unknown file system');
  });
});
