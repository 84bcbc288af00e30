// `npm run bench`: how long otapress makes a maintainer wait, measured against the I/O floor.
// A benchmark, not a test: it prints a table and asserts nothing. See "Performance" in the README.
//
//   npm run bench                          500 devices x 200 builds = 100,000 manifests, 3 runs each
//   npm run bench -- --curve               1k, 10k and 100k manifests, to show how cost grows
//   npm run bench -- --devices 50 --builds 20 --runs 5 --hash-mb 200
//
// Every measurement is a child process (node startup included, as a maintainer sees it), timed by
// the wall clock, with its peak memory read by /usr/bin/time. Runs of the different measurements
// are interleaved, so that load from other processes spreads over all of them, and the median is
// reported.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { deviceName, generateCatalog } from './catalog.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'src', 'bin.mjs');
const FLOOR = path.join(import.meta.dirname, 'floor.mjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '500' },
    builds: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    curve: { type: 'boolean', default: false },
    'hash-mb': { type: 'string', default: '1536' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: npm run bench -- [--devices N] [--builds N] [--runs N] [--curve] [--hash-mb MB] [--keep]');
  process.exit(0);
}

/** One timed child process. */
interface Sample {
  ms: number;
  rssMb?: number;
}

/** A row of the table: the median of its samples. */
interface Row {
  name: string;
  samples: Sample[];
  /** Manifests the measurement handles, for the rate column; 0 for hashing. */
  manifests: number;
  note?: string;
}

const runs = Number(values.runs);
const sizes = values.curve
  ? [
      { devices: 5, builds: 200 },
      { devices: 50, builds: 200 },
      { devices: 500, builds: 200 },
    ]
  : [{ devices: Number(values.devices), builds: Number(values.builds) }];

console.log(`otapress benchmark: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${availableParallelism()} usable, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
console.log(`load average at start: ${loadAverage()}\n`);
const perManifest: { manifests: number; cold: number; warm: number }[] = [];
for (const size of sizes) {
  const rows = benchCatalog(size);
  printTable(rows);
  const cold = median(rows.find((r) => r.name === 'cold build')!.samples.map((s) => s.ms));
  const warm = median(rows.find((r) => r.name.startsWith('warm build'))!.samples.map((s) => s.ms));
  perManifest.push({ manifests: size.devices * size.builds, cold: cold / (size.devices * size.builds), warm: warm / (size.devices * size.builds) });
}
if (values.curve) {
  console.log('growth: time per manifest (µs), including node startup');
  for (const p of perManifest) console.log(`  ${String(p.manifests).padStart(7)} manifests  cold ${(p.cold * 1000).toFixed(1).padStart(8)}  warm ${(p.warm * 1000).toFixed(1).padStart(8)}`);
  const [, ten, hundred] = perManifest;
  if (ten && hundred) console.log(`  100k vs 10k: cold ${(hundred.cold / ten.cold).toFixed(2)}x, warm ${(hundred.warm / ten.warm).toFixed(2)}x per manifest`);
}
const hashMb = Number(values['hash-mb']);
if (hashMb > 0) printTable(benchHashing(hashMb));
console.log(`load average at end: ${loadAverage()}`);

// --- measurements ---

function benchCatalog({ devices, builds }: { devices: number; builds: number }): Row[] {
  const manifests = devices * builds;
  const root = mkdtempSync(path.join(tmpdir(), 'otapress-bench-'));
  try {
    process.stdout.write(`${devices} devices x ${builds} builds = ${manifests} manifests in ${root}: generating... `);
    generateCatalog(root, { devices, builds });
    const cache = path.join(root, 'node_modules', '.cache', 'otapress');
    const build = () => run(['node', BIN, 'build', '--root', root]);
    // The floor writes what the build writes: same number of files, same sizes, same folders.
    const first = build();
    const shape = path.join(root, 'shape.json');
    writeFileSync(shape, JSON.stringify(treeShape(path.join(root, 'dist'))));
    console.log(`done; the build writes ${first.note}`);

    // One manifest to change before each warm build: its size alternates, so every run sees a change.
    const device = path.join(root, 'content', deviceName(Math.floor(devices / 2)));
    const changed = path.join(device, readdirSync(device).filter((n) => n.startsWith('e-')).sort()[0]);
    const original = readFileSync(changed, 'utf8');
    let flip = 0;

    const rows: Row[] = [
      { name: 'I/O floor', samples: [], manifests },
      { name: 'cold build', samples: [], manifests, note: 'no cache' },
      { name: 'warm build', samples: [], manifests, note: '1 manifest changed' },
      { name: 'single-thread build', samples: [], manifests, note: 'no cache, --threads 1' },
    ];
    for (let r = 0; r < runs; r++) {
      rows[0].samples.push(run(['node', FLOOR, root, shape, path.join(root, 'floor-out')]));
      rmSync(cache, { recursive: true, force: true });
      rows[1].samples.push(build());
      writeFileSync(changed, original.replace(/^size: (\d+)$/m, (_, n) => `size: ${Number(n) + 1 + (flip++ % 2)}`));
      rows[2].samples.push(build());
      if (r === 0 || manifests <= 20_000) {
        rmSync(cache, { recursive: true, force: true });
        rows[3].samples.push(run(['node', BIN, 'build', '--root', root, '--threads', '1']));
      }
    }
    rows.push(
      { name: 'preview rebuild', samples: [], manifests: 0, note: 'n/a: otapress serve is not on this branch' },
    );
    return rows;
  } finally {
    if (values.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

function benchHashing(megabytes: number): Row[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'otapress-bench-hash-'));
  try {
    const file = path.join(dir, 'e-2.5-a14-20241108446322-official-FP4.zip');
    // Random-looking bytes, written once; every reader then finds them in the page cache alike.
    run(['sh', '-c', `head -c ${megabytes * 2 ** 20} /dev/urandom > '${file}'`]);
    const rows: Row[] = [
      { name: 'md5sum', samples: [], manifests: 0, note: `${megabytes} MiB` },
      { name: 'sha256sum', samples: [], manifests: 0, note: `${megabytes} MiB` },
      { name: 'otapress add', samples: [], manifests: 0, note: 'n/a: otapress add is not on this branch' },
    ];
    for (let r = 0; r < runs; r++) {
      rows[0].samples.push(run(['md5sum', file]));
      rows[1].samples.push(run(['sha256sum', file]));
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- helpers ---

/** Runs a command to completion; its wall time, peak memory and last line of output. */
function run(command: string[]): Sample & { note?: string } {
  const argv = TIME ? [TIME, '-f', 'otapress-bench-rss %M', ...command] : command;
  const started = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  const ms = performance.now() - started;
  const stderr = result.stderr;
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed (${result.status}):\n${stderr}`);
  const rss = /otapress-bench-rss (\d+)/.exec(stderr);
  const out = result.stdout.trim();
  return { ms, rssMb: rss ? Number(rss[1]) / 1024 : undefined, note: out.split('\n').at(-1)?.replace(/^built /, '') };
}

function treeShape(dir: string): [string, number][] {
  const shape: [string, number][] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(dir, relative)).sort()) {
      const child = relative ? `${relative}/${name}` : name;
      const stat = statSync(path.join(dir, child));
      if (stat.isDirectory()) walk(child);
      else shape.push([child, stat.size]);
    }
  };
  walk('');
  return shape;
}

function printTable(rows: Row[]): void {
  const floor = rows.find((r) => r.name === 'I/O floor');
  const md5 = rows.find((r) => r.name === 'md5sum');
  const reference = floor ?? md5;
  const refMs = reference && reference.samples.length > 0 ? median(reference.samples.map((s) => s.ms)) : undefined;
  const header = ['measurement', 'median', `x ${reference?.name ?? '-'}`, 'manifests/s', 'peak RSS', 'runs (ms)', 'note'];
  const lines = rows.map((row) => {
    if (row.samples.length === 0) return [row.name, '-', '-', '-', '-', '-', row.note ?? ''];
    const ms = median(row.samples.map((s) => s.ms));
    const rss = row.samples.map((s) => s.rssMb).filter((m): m is number => m !== undefined);
    return [
      row.name,
      `${(ms / 1000).toFixed(3)} s`,
      refMs ? `${(ms / refMs).toFixed(2)}x` : '-',
      row.manifests ? String(Math.round(row.manifests / (ms / 1000))) : '-',
      rss.length ? `${Math.max(...rss).toFixed(0)} MB` : '-',
      row.samples.map((s) => s.ms.toFixed(0)).join(' '),
      row.note ?? '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log('');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
