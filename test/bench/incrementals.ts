// `npm run bench -- --incrementals`: what incremental packages cost a cold build, per file it writes.
// Two catalogs of the same builds, one with an incremental package for one build in ten
// (test/bench/catalog.ts, incrementalManifest: each device's newest tenth, or with --spread a tenth
// over the whole history), built cold (`--no-cache`) by lib/. The catalog with incremental packages
// writes several times the files (an answer for the phones on each source build), so the raw ratio of
// the two builds says how much more there is to write, not what each file costs. Each build is set
// against the I/O floor of its own output (floor.mjs: its content/ read, the same files of the same
// sizes in the same folders written with plain fs calls), and the figure is the ratio of the two
// builds' cost per file written above that floor: (build - floor) / files, with incrementals over
// without, the median of the rounds' ratios. Builds and floors of both catalogs alternate within
// each round; wall and CPU time (user + system, all threads) from /usr/bin/time. Both deploy to
// Netlify only: the answers for phones on one build take a static rule each on Cloudflare Pages, and
// ten thousand of them pass its limit of 2,000 (a build says so and stops).
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCatalog } from './catalog.js';
import { targetLine, type Target } from './targets.js';
import { treeShape } from './tree-shape.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'lib', 'bin.mjs');
const FLOOR = path.join(import.meta.dirname, 'floor.mjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One timed child process: wall milliseconds and CPU seconds (user + system). */
interface Sample {
  ms: number;
  cpu?: number;
}

/** One of the two catalogs: where it is, what its build writes, and its rounds. */
interface Measured {
  name: 'plain' | 'incrementals';
  root: string;
  /** The shape of its build's output (tree-shape.ts), which its floor writes again. */
  shape: string;
  files: number;
  bytes: number;
  builds: Sample[];
  floors: Sample[];
}

/** Generates both catalogs, builds and floors each `runs` times, alternating, and prints the figures. */
export function benchIncrementals({
  devices,
  builds,
  runs,
  placement,
  env,
  atEnd,
}: {
  devices: number;
  builds: number;
  runs: number;
  placement: 'newest' | 'spread';
  /** The environment of every measured command (bench.ts, childEnv). */
  env: NodeJS.ProcessEnv;
  /** Called once the figures are printed, before the catalogs and outputs are removed (minutes at 100k). */
  atEnd: () => void;
}): void {
  const base = mkdtempSync(path.join(tmpdir(), 'otapress-bench-incrementals-'));
  const aside = setAside(path.join(base, '.bench-aside'));
  try {
    const counts = { plain: 0, incrementals: 0 };
    const catalogs = (['plain', 'incrementals'] as const).map((name): Measured => {
      const root = path.join(base, name);
      counts[name] = generateCatalog(root, { devices, builds, incrementals: name === 'plain' ? undefined : placement });
      appendFileSync(path.join(root, 'content', 'site.yaml'), 'hosts: [netlify]\n');
      // A first build, untimed, for the shape of what it writes.
      timed(env, [process.execPath, BIN, 'build', '--root', root, '--no-cache']);
      const files = treeShape(path.join(root, 'dist'));
      const shape = path.join(base, `shape-${name}.json`);
      writeFileSync(shape, JSON.stringify(files));
      aside(path.join(root, 'dist'));
      const bytes = files.reduce((sum, [, size]) => sum + size, 0);
      return { name, root, shape, files: files.length, bytes, builds: [], floors: [] };
    });
    const [plain, withIncrementals] = catalogs;
    console.log(
      `incremental packages: ${counts.plain} manifests, and the same with ${counts.incrementals - counts.plain} incremental packages (one build in ten, ${placement === 'newest' ? "each device's newest tenth" : 'spread over the history'}), cold builds (--no-cache), ${runs} alternating rounds`,
    );
    console.log(
      `  files written: plain ${plain.files} (${mb(plain.bytes)}), incrementals ${withIncrementals.files} (${mb(withIncrementals.bytes)}): ${(withIncrementals.files / plain.files).toFixed(2)}x the files`,
    );
    for (let i = 0; i < runs; i++) {
      // Alternated, so that load from other processes, and one run's writeback, fall on both.
      const order = i % 2 === 0 ? catalogs : [...catalogs].reverse();
      for (const c of order) {
        const floorOut = path.join(c.root, 'floor-out');
        aside(floorOut);
        c.floors.push(timed(env, [process.execPath, FLOOR, c.root, c.shape, floorOut]));
        aside(path.join(c.root, 'dist'));
        c.builds.push(timed(env, [process.execPath, BIN, 'build', '--root', c.root, '--no-cache']));
      }
    }
    printFigures(plain, withIncrementals);
    atEnd();
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

// --- internal ---

/** The medians of each catalog, then the ratios of the two, each a median of same-round ratios, and the targets. */
function printFigures(plain: Measured, withIncrementals: Measured): void {
  const known = (of: 'ms' | 'cpu') =>
    [plain, withIncrementals].every((c) => [...c.builds, ...c.floors].every((s) => s[of] !== undefined));
  const ofs = (['ms', 'cpu'] as const).filter(known);
  const seconds = (of: 'ms' | 'cpu', value: number) => (of === 'ms' ? value / 1000 : value);
  /** Per round: the build's time above its floor, per file written, in microseconds. */
  const perFile = (c: Measured, of: 'ms' | 'cpu') =>
    c.builds.map((b, i) => (seconds(of, b[of]!) - seconds(of, c.floors[i][of]!)) / c.files / 1e-6);
  console.log(
    `  ${''.padEnd(13)} ${'build'.padStart(8)} ${'I/O floor'.padStart(10)}  build / floor   above the floor, per file`,
  );
  for (const c of [plain, withIncrementals]) {
    for (const of of ofs) {
      const build = median(c.builds.map((s) => seconds(of, s[of]!)));
      const floor = median(c.floors.map((s) => seconds(of, s[of]!)));
      const ratio = median(c.builds.map((b, i) => b[of]! / c.floors[i][of]!));
      console.log(
        `  ${(of === 'ms' ? c.name : '').padEnd(13)} ${`${build.toFixed(2)} s`.padStart(8)} ${`${floor.toFixed(2)} s`.padStart(10)}  ${`${ratio.toFixed(2)}x`.padStart(13)}   ${`${median(perFile(c, of)).toFixed(1)} µs`.padStart(10)} ${of === 'ms' ? 'wall' : 'CPU '}  (builds: ${c.builds.map((s) => seconds(of, s[of]!).toFixed(2)).join(' ')}; floors: ${c.floors.map((s) => seconds(of, s[of]!).toFixed(2)).join(' ')})`,
      );
    }
  }
  const ratios = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);
  const targets: Target[] = [];
  for (const of of ofs) {
    const what = of === 'ms' ? '' : ', CPU time';
    const raw = ratios(
      withIncrementals.builds.map((s) => s[of]!),
      plain.builds.map((s) => s[of]!),
    );
    const floors = ratios(
      withIncrementals.floors.map((s) => s[of]!),
      plain.floors.map((s) => s[of]!),
    );
    const cost = ratios(perFile(withIncrementals, of), perFile(plain, of));
    console.log(
      `  with / without${what}: build ${median(raw).toFixed(2)}x, I/O floor ${median(floors).toFixed(2)}x, cost per file above the floor ${median(cost).toFixed(2)}x   (each round: ${cost.map((r) => r.toFixed(2)).join(' ')})`,
    );
    // The stricter reading: what the added files alone cost above their floor, each, against a file
    // of the plain build (whose cost per file also carries reading every manifest).
    const added = withIncrementals.files - plain.files;
    const perAdded = perFile(withIncrementals, of).map(
      (x, i) => (x * withIncrementals.files - perFile(plain, of)[i] * plain.files) / added,
    );
    const marginal = ratios(perAdded, perFile(plain, of));
    console.log(
      `  ${''.padEnd(14 + what.length)}  each of the ${added} added files: ${median(perAdded).toFixed(1)} µs above the floor, ${median(marginal).toFixed(2)}x a file of the plain build   (each round: ${marginal.map((r) => r.toFixed(2)).join(' ')})`,
    );
    targets.push({
      figure: `cost per file written above its own I/O floor, with incrementals / without${what}`,
      value: median(cost),
      unit: 'x',
      target: 1.1,
      rounds: cost,
    });
  }
  console.log('\ntargets, medians of this run (ratios: medians of same-round ratios):');
  const width = Math.max(...targets.map((t) => t.figure.length));
  for (const t of targets) console.log(targetLine(t, width));
}

/** Runs a command to completion under /usr/bin/time: its wall and CPU time. */
function timed(env: NodeJS.ProcessEnv, argv: string[]): Sample {
  const command = TIME ? [TIME, '-f', 'otapress-bench cpu %U %S', ...argv] : argv;
  const started = performance.now();
  const result = spawnSync(command[0], command.slice(1), { encoding: 'utf8', maxBuffer: 2 ** 28, env });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed:\n${result.stderr.slice(-2000)}`);
  const cpu = /otapress-bench cpu ([\d.]+) ([\d.]+)/.exec(result.stderr);
  return { ms, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined };
}

/**
 * Moves a previous run's tree out of the next one's way, into `folder`, removed with the rest at the
 * end: deleting a tree just before a run charges that run (bench.ts, setAside, says why on ext4).
 */
function setAside(folder: string): (tree: string) => void {
  let count = 0;
  return (tree) => {
    if (!existsSync(tree)) return;
    mkdirSync(folder, { recursive: true });
    renameSync(tree, path.join(folder, `${count++}-${path.basename(tree)}`));
  };
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
