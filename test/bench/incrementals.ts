// `npm run bench -- --incrementals`: what incremental packages cost a cold build. Two catalogs of
// the same builds, one with an incremental package for one build in ten (test/bench/catalog.ts,
// incrementalManifest: each device's newest tenth, or with --spread a tenth over the whole history), built cold (`--no-cache`) by lib/ in alternating rounds; the median of
// each, wall and CPU time (/usr/bin/time), and their ratio. Both deploy to Netlify only: the
// answers for phones on one build take a static rule each on Cloudflare Pages, and ten thousand of
// them pass its limit of 2,000 (a build says so and stops).
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCatalog } from './catalog.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'lib', 'bin.mjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One cold build: wall milliseconds and CPU seconds (user + system). */
function coldBuild(root: string): { ms: number; cpu?: number } {
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const argv = [
    ...(TIME ? [TIME, '-f', 'otapress-bench cpu %U %S'] : []),
    process.execPath,
    BIN,
    'build',
    '--root',
    root,
    '--no-cache',
  ];
  const started = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 2 ** 28 });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`build of ${root} failed:\n${result.stderr.slice(-2000)}`);
  const cpu = /otapress-bench cpu ([\d.]+) ([\d.]+)/.exec(result.stderr);
  return { ms, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Generates both catalogs, builds each `runs` times, alternating, and prints the figures. */
export function benchIncrementals({
  devices,
  builds,
  runs,
  placement,
}: {
  devices: number;
  builds: number;
  runs: number;
  placement: 'newest' | 'spread';
}): void {
  const base = mkdtempSync(path.join(tmpdir(), 'otapress-bench-incrementals-'));
  try {
    const plain = path.join(base, 'plain');
    const withIncrementals = path.join(base, 'incrementals');
    const counts = {
      plain: generateCatalog(plain, { devices, builds }),
      incrementals: generateCatalog(withIncrementals, { devices, builds, incrementals: placement }),
    };
    for (const root of [plain, withIncrementals])
      appendFileSync(path.join(root, 'content', 'site.yaml'), 'hosts: [netlify]\n');
    console.log(
      `incremental packages: ${counts.plain} manifests, and the same with ${counts.incrementals - counts.plain} incremental packages (one build in ten, ${placement === 'newest' ? "each device's newest tenth" : 'spread over the history'}), cold builds (--no-cache), ${runs} alternating rounds`,
    );
    const samples = { plain: [] as { ms: number; cpu?: number }[], incrementals: [] as { ms: number; cpu?: number }[] };
    for (let i = 0; i < runs; i++) {
      // Alternated, so that load from other processes falls on both.
      const order = i % 2 === 0 ? (['plain', 'incrementals'] as const) : (['incrementals', 'plain'] as const);
      for (const which of order) samples[which].push(coldBuild(which === 'plain' ? plain : withIncrementals));
    }
    const of = (which: keyof typeof samples, key: 'ms' | 'cpu') => median(samples[which].map((s) => s[key] ?? NaN));
    for (const which of ['plain', 'incrementals'] as const) {
      console.log(
        `  ${which.padEnd(13)} wall ${(of(which, 'ms') / 1000).toFixed(2)} s  CPU ${of(which, 'cpu').toFixed(2)} s   (rounds: ${samples[which].map((s) => (s.ms / 1000).toFixed(2)).join(' ')})`,
      );
    }
    const ratio = (key: 'ms' | 'cpu') => of('incrementals', key) / of('plain', key);
    console.log(
      `  with / without: wall ${ratio('ms').toFixed(2)}x, CPU ${ratio('cpu').toFixed(2)}x (target: at most 1.10x)`,
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
