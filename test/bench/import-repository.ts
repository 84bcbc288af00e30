// `npm run bench -- --import`: how long moving a ROM project over takes. A 1,000-device OTA
// repository generated from the crDroid fixture (test/fixtures/ota-repositories/crdroid/: each
// device file and changelog copied under a new code name, with its own digests), imported in one
// command (`otapress import <folder>`, lib/) into a fresh `init` catalog, against `cat` reading
// every file of the repository, in alternating rounds: the medians and their ratio, wall and CPU.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'lib', 'bin.mjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'ota-repositories', 'crdroid');

/** One timed child process: wall milliseconds and CPU seconds (user + system). */
function timed(argv: string[], what: string): { ms: number; cpu?: number } {
  const full = [...(TIME ? [TIME, '-f', 'otapress-bench cpu %U %S'] : []), ...argv];
  const started = performance.now();
  const result = spawnSync(full[0], full.slice(1), { encoding: 'utf8', maxBuffer: 2 ** 28 });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${what} failed:\n${result.stderr.slice(-2000)}`);
  const cpu = /otapress-bench cpu ([\d.]+) ([\d.]+)/.exec(result.stderr);
  return { ms, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The repository: `devices` device files and their changelogs, each a fixture device's under the
 * code name `<device>n<i>` (in the file name, the download address and the zip's name), its MD5
 * and SHA-256 made its own by the device's number; and the fixture's README, which the import
 * leaves alone. Returns the number of files.
 */
function generateRepository(dir: string, devices: number): number {
  mkdirSync(dir, { recursive: true });
  const templates = readdirSync(FIXTURE)
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length));
  cpSync(path.join(FIXTURE, 'README.md'), path.join(dir, 'README.md'));
  for (let i = 0; i < devices; i++) {
    const template = templates[i % templates.length];
    const device = `${template}n${i}`;
    const suffix = i.toString(16).padStart(6, '0');
    const listing = readFileSync(path.join(FIXTURE, `${template}.json`), 'utf8')
      .replaceAll(`-${template}-`, `-${device}-`)
      .replaceAll(`/${template}/`, `/${device}/`)
      .replace(
        /"(md5|sha256)":\s*"([0-9a-f]+)"/g,
        (_, key: string, hex: string) => `"${key}": "${hex.slice(0, -6)}${suffix}"`,
      );
    writeFileSync(path.join(dir, `${device}.json`), listing);
    cpSync(path.join(FIXTURE, `${template}_changelog.txt`), path.join(dir, `${device}_changelog.txt`));
  }
  return 2 * devices + 1;
}

/** Generates the repository and an empty catalog, imports and `cat`s it `runs` times, alternating, and prints the figures. */
export function benchImport({ devices, runs }: { devices: number; runs: number }): void {
  const base = mkdtempSync(path.join(tmpdir(), 'otapress-bench-import-'));
  try {
    const repository = path.join(base, 'repository');
    const files = generateRepository(repository, devices);
    const empty = path.join(base, 'empty');
    timed([process.execPath, BIN, 'init', empty], 'init');
    const all = readdirSync(repository).map((n) => path.join(repository, n));
    console.log(
      `import of an OTA repository: ${devices} crDroid devices (${files} files, from test/fixtures/ota-repositories/crdroid) into a fresh init catalog, against cat of every file, ${runs} alternating rounds`,
    );
    const samples = { import: [] as { ms: number; cpu?: number }[], cat: [] as { ms: number; cpu?: number }[] };
    for (let i = 0; i < runs; i++) {
      const catalog = path.join(base, `catalog-${i}`);
      cpSync(empty, catalog, { recursive: true });
      const order = i % 2 === 0 ? (['import', 'cat'] as const) : (['cat', 'import'] as const);
      for (const which of order)
        samples[which].push(
          which === 'import'
            ? timed([process.execPath, BIN, 'import', repository, '--root', catalog], 'import')
            : timed(['sh', '-c', 'cat "$@" > /dev/null', 'cat', ...all], 'cat'),
        );
      rmSync(catalog, { recursive: true, force: true });
    }
    const of = (which: keyof typeof samples, key: 'ms' | 'cpu') => median(samples[which].map((s) => s[key] ?? NaN));
    for (const which of ['import', 'cat'] as const)
      console.log(
        `  ${which.padEnd(7)} wall ${(of(which, 'ms') / 1000).toFixed(2)} s  CPU ${of(which, 'cpu').toFixed(2)} s   (rounds: ${samples[which].map((s) => (s.ms / 1000).toFixed(2)).join(' ')})`,
      );
    const ratio = (key: 'ms' | 'cpu') => of('import', key) / of('cat', key);
    console.log(`  import / cat: wall ${ratio('ms').toFixed(1)}x, CPU ${ratio('cpu').toFixed(1)}x`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
