// `npm run bench`: how long otapress makes a maintainer wait, measured against the I/O floor.
// A benchmark, not a test: it prints a table and asserts nothing. See "Performance" in the README.
//
//   npm run bench                          500 devices x 200 builds = 100,000 manifests, 3 runs each
//   npm run bench -- --curve               1k, 10k and 100k manifests, to show how cost grows
//   npm run bench -- --devices 50 --builds 20 --runs 5 --hash-mb 200
//   npm run bench -- --quick               10,000 manifests, 1 run, 256 MiB to hash: for iterating
//   npm run bench -- --only preview        build, preview or hash (comma-separated); --catalog DIR reuses a catalog
//   npm run bench -- --peers --curve       also Hugo and Eleventy building the same v1 listings (test/bench/peers/)
//   npm run bench -- --extras --only build also a cold build of the same catalog with a device.yaml on every
//                                          device and a changelog on every build, in the same rounds
//   npm run bench -- --formats --only build  the same, with the plain catalog and every updater dialect in
//                                          site.yaml (formats: crdroid, crdroid-java, ...) as the second catalog
//   npm run bench -- --incrementals        a cold build of the catalog with an incremental package for each
//                                          device's newest tenth of builds and of the same catalog without, each
//                                          against the I/O floor of its own output: their costs per file written
//                                          above it (incrementals.ts), alone; --spread: a tenth over the history
//   npm run bench -- --import              `otapress import <folder>` of a 1,000-device OTA repository made from the
//                                          crDroid fixture against `cat` of its files (import-repository.ts), alone
//   npm run bench -- --keep-env            runs every command with NODE_EXTRA_CA_CERTS, when it is set (see
//                                          childEnv below)
//   TMPDIR=/dev/shm npm run bench ...      catalogs, outputs and caches on a tmpfs: no time waiting for a disk
//                                          (each size's first line names the file system, file-system.ts)
//   npm run bench -- --extras --baseline DIR   also the cold build of the plain catalog by the otapress checked
//                                          out in DIR (its lib/, built if missing), in the same rounds: the extras
//                                          build against an older otapress's plain build (git worktree add DIR <commit>)
//
// It ends with every figure of the targets beside its target.
//
// Every measurement is a child process (node startup included, as a maintainer sees it), timed by
// the wall clock, with its CPU time (user + system, all threads) and peak memory read by
// /usr/bin/time: on a machine shared with other work, the CPU column is the steadier one. Runs of the different measurements
// are interleaved, so that load from other processes spreads over all of them, and the median is
// reported.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FORMAT_FAMILIES } from '../../src/catalog/formats.js';
import { deviceName, generateCatalog } from './catalog.js';
import { fileSystemOf } from './file-system.js';
import { compareListings, preparePeers, type Peer, type Command } from './peers.js';
import { targetLine, type Target } from './targets.js';
import { treeShape } from './tree-shape.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** What the second catalog of --extras or --formats adds to the plain one, for the ratio lines. */
const SECOND_OF = { extras: 'device files and changelogs', formats: 'every updater dialect' };
// What a maintainer runs: the package's JavaScript built ahead of time (lib/), rebuilt from the
// current src/ first so that the figures are never those of a stale build.
const BIN = path.join(ROOT, 'lib', 'bin.mjs');
const FLOOR = path.join(import.meta.dirname, 'floor.mjs');
const HASH_FLOOR = path.join(import.meta.dirname, 'hash-floor.mjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '500' },
    builds: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    curve: { type: 'boolean', default: false },
    'hash-mb': { type: 'string', default: '1536' },
    keep: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    only: { type: 'string', default: 'build,preview,hash' },
    catalog: { type: 'string' },
    peers: { type: 'boolean', default: false },
    extras: { type: 'boolean', default: false },
    formats: { type: 'boolean', default: false },
    incrementals: { type: 'boolean', default: false },
    spread: { type: 'boolean', default: false },
    import: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    'keep-env': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    'usage: npm run bench -- [--quick] [--devices N] [--builds N] [--runs N] [--curve] [--peers] [--extras [--baseline DIR]] [--formats] [--incrementals [--spread]] [--import] [--hash-mb MB] [--only build,preview,hash] [--catalog DIR] [--keep] [--keep-env]',
  );
  process.exit(0);
}
if (spawnSync(process.execPath, [path.join(ROOT, '.ci', 'build-lib.mjs')], { stdio: 'inherit' }).status !== 0)
  throw new Error('could not build lib/ (npm run prepare)');
console.log(
  `otapress benchmark: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${availableParallelism()} usable, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
console.log(`load average at start: ${loadAverage()}`);
console.log(`${describeEnv()}\n`);
if (values.incrementals) {
  // A figure of its own (test/bench/incrementals.ts): the same catalog with and without incremental packages.
  const { benchIncrementals } = await import('./incrementals.js');
  benchIncrementals({
    devices: Number(values.devices),
    builds: Number(values.builds),
    runs: Number(values.runs),
    placement: values.spread ? 'spread' : 'newest',
    env: childEnv(),
    atEnd: () => console.log(`\nload average at end: ${loadAverage()}`),
  });
  process.exit(0);
}
if (values.import) {
  // A figure of its own (test/bench/import-repository.ts): a whole OTA repository imported against cat.
  const { benchImport } = await import('./import-repository.js');
  const given = process.argv.some((a) => a === '--devices' || a.startsWith('--devices='));
  benchImport({ devices: given ? Number(values.devices) : 1000, runs: Number(values.runs) });
  process.exit(0);
}
const baseline = values.baseline === undefined ? undefined : prepareBaseline(path.resolve(values.baseline));

/**
 * What the runs left, to be removed once every run is over (see {@link setAside}): the bench's
 * own temporary catalogs, and each catalog's `.bench-aside` folder.
 */
const removeAtEnd: string[] = [];

let asideCount = 0;
process.on('exit', () => removeSetAside()); // Also when a run fails: gigabytes at 100k.

/** One timed child process. */
interface Sample {
  ms: number;
  rssMb?: number;
  /** User + system CPU seconds of the process, all its threads. */
  cpu?: number;
}

/** A row of the table: the median of its samples. */
interface Row {
  name: string;
  samples: Sample[];
  /** Manifests the measurement handles, for the rate column; 0 for hashing. */
  manifests: number;
  note?: string;
}

if (values.quick) {
  // Defaults for iterating; options given explicitly still win.
  const given = (name: string) => process.argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!given('devices')) values.devices = '50';
  if (!given('runs')) values.runs = '1';
  if (!given('hash-mb')) values['hash-mb'] = '256';
}
const only = new Set(values.only.split(','));
const runs = Number(values.runs);
const SECOND = values.formats ? SECOND_OF.formats : SECOND_OF.extras;
// The sizes of the comparison with the peers: 1k (50 devices), 10k (200 devices), 100k (500 devices).
const sizes = values.curve
  ? [
      { devices: 50, builds: 20 },
      { devices: 200, builds: 50 },
      { devices: 500, builds: 200 },
    ]
  : [{ devices: Number(values.devices), builds: Number(values.builds) }];

const perManifest: { manifests: number; cold: number; warm: number }[] = [];
/** The figures of the targets, in the order of the issue's table. */
const targets: Target[] = [];
const target = (figure: string, value: number | undefined, unit: string, limit: number, below = false) =>
  targets.push({ figure, value, unit, target: limit, below });
/** A target on the ratio of two measurements: the median of their same-round ratios, and each round's (targets.ts). */
const ratioTarget = (
  figure: string,
  a: Row,
  b: Row,
  limit: number,
  { below = false, of = 'ms' as 'ms' | 'cpu' } = {},
) =>
  targets.push({ figure, value: sameRound(a, b, of), unit: 'x', target: limit, below, rounds: roundRatios(a, b, of) });
const peers = values.peers && only.has('build') ? preparePeers() : [];
for (const size of only.has('build') || only.has('preview') ? sizes : []) {
  const manifests = size.devices * size.builds;
  const rows = await benchCatalog(size, peers);
  printTable(rows);
  const row = (name: string) => rows.find((r) => r.name === name);
  const at = manifests === 100_000 ? '' : ` (at ${manifests} manifests, not 100k)`;
  const cold = row('cold build');
  const warm = row('warm build');
  const floor = row('I/O floor');
  const preview = row('preview rebuild');
  if (cold && warm && floor) {
    perManifest.push({ manifests, cold: medianMs(cold) / manifests, warm: medianMs(warm) / manifests });
    target(`peak RSS, cold build${at}`, peakMb(cold), 'MB', 300, true);
    target(`peak RSS, warm build${at}`, peakMb(warm), 'MB', 200, true);
  }
  const noCache = row('cold build --no-cache');
  if (cold && warm && floor && noCache) {
    // Ratios of runs of the same round (the load of a shared machine changes between rounds), then their median.
    const size = `${manifests} manifests`;
    console.log(`same-round ratios, ${size} (median over ${cold.samples.length} rounds):`);
    const ratios: [string, Row, Row][] = [
      ['cold build / --no-cache', cold, noCache],
      ['cold build / I/O floor', cold, floor],
      ['warm build / I/O floor', warm, floor],
      ...peers.flatMap((p): [string, Row, Row][] => [
        [`cold build / ${p.name} cold`, cold, row(`${p.name} cold`)!],
        [`warm build / ${p.name} warm`, warm, row(`${p.name} warm`)!],
        [`${p.name} cold / I/O floor`, row(`${p.name} cold`)!, floor],
      ]),
    ];
    // CPU time (user + system, all threads) is steadier than wall time when other work shares the cores.
    const cpu = (a: Row, b: Row) =>
      a.samples.every((x) => x.cpu !== undefined) ? `${sameRound(a, b, 'cpu').toFixed(2)}x` : '-';
    console.log(`  ${''.padEnd(28)}  wall    CPU   (wall, each round)`);
    for (const [name, a, b] of ratios)
      console.log(
        `  ${name.padEnd(28)} ${`${sameRound(a, b).toFixed(2)}x`.padStart(6)} ${cpu(a, b).padStart(6)}   (${roundRatios(
          a,
          b,
        )
          .map((r) => r.toFixed(2))
          .join(' ')})`,
      );
    console.log('');
    ratioTarget(`cold build with cache / --no-cache (${size})`, cold, noCache, 1.05);
    for (const p of peers)
      ratioTarget(`cold build / ${p.name} cold (${size})`, cold, row(`${p.name} cold`)!, 1, { below: true });
  }
  const extras = row('cold build (extras)');
  if (cold && extras) {
    // The two catalogs differ only by the device files and changelogs, and are built in the same rounds.
    const cpuKnown = [...cold.samples, ...extras.samples].every((x) => x.cpu !== undefined);
    console.log(
      `same-round ratio, ${manifests} manifests with and without ${SECOND} (median over ${extras.samples.length} rounds):`,
    );
    console.log(`  ${''.padEnd(28)}  wall    CPU   (wall, each round; CPU, each round)`);
    const extrasFloor = row('I/O floor (extras)');
    const pairs: [string, Row, Row][] = [
      ['cold build extras / plain', extras, cold],
      ...(floor && extrasFloor ? [['I/O floor extras / plain', extrasFloor, floor] as [string, Row, Row]] : []),
    ];
    for (const [name, a, b] of pairs) {
      const each = (of: 'ms' | 'cpu') =>
        roundRatios(a, b, of)
          .map((r) => r.toFixed(2))
          .join(' ');
      console.log(
        `  ${name.padEnd(28)} ${`${sameRound(a, b).toFixed(2)}x`.padStart(6)} ${(cpuKnown ? `${sameRound(a, b, 'cpu').toFixed(2)}x` : '-').padStart(6)}   (${each('ms')}; ${cpuKnown ? each('cpu') : '-'})`,
      );
    }
    console.log('');
    const old = row('baseline cold build');
    if (old) {
      // A cold 100k build with device files and changelogs stays within 10% of the baseline
      // otapress's build of the plain catalog (no device files, no changelogs).
      const each = (of: 'ms' | 'cpu') =>
        roundRatios(extras, old, of)
          .map((r) => r.toFixed(2))
          .join(' ');
      console.log(
        `  ${'extras / baseline plain'.padEnd(28)} ${`${sameRound(extras, old).toFixed(2)}x`.padStart(6)} ${(cpuKnown ? `${sameRound(extras, old, 'cpu').toFixed(2)}x` : '-').padStart(6)}   (${each('ms')}; ${cpuKnown ? each('cpu') : '-'})`,
      );
      console.log(
        `  ${'plain / baseline plain'.padEnd(28)} ${`${sameRound(cold, old).toFixed(2)}x`.padStart(6)} ${(cpuKnown ? `${sameRound(cold, old, 'cpu').toFixed(2)}x` : '-').padStart(6)}`,
      );
      console.log(`  (baseline: otapress at ${baseline!.commit}, ${baseline!.dir})\n`);
      ratioTarget(
        `cold build with device files and changelogs / ${baseline!.commit}'s plain build${at}`,
        extras,
        old,
        1.1,
      );
      if (cpuKnown) ratioTarget(`  the same, CPU time${at}`, extras, old, 1.1, { of: 'cpu' });
    }
    // What the second catalog's additions cost with the same code, both catalogs built alike.
    ratioTarget(`the same catalog with ${SECOND} / without, same code${at}`, extras, cold, 1.1);
    if (cpuKnown) ratioTarget(`  the same, CPU time${at}`, extras, cold, 1.1, { of: 'cpu' });
  }
  if (size === sizes.at(-1)) {
    if (cold && floor) ratioTarget(`cold build / I/O floor${at}`, cold, floor, 1.5);
    if (warm && floor) ratioTarget(`warm build (1 manifest changed) / floor${at}`, warm, floor, 1.2);
    if (preview) {
      target(`preview: change -> new listing served${at}`, medianMs(preview), 'ms', 50, true);
      target(`preview server peak RSS${at}`, peakMb(preview), 'MB', 400, true);
    }
  }
}
if (values.curve) {
  console.log('growth: time per manifest (µs), including node startup');
  for (const p of perManifest)
    console.log(
      `  ${String(p.manifests).padStart(7)} manifests  cold ${(p.cold * 1000).toFixed(1).padStart(8)}  warm ${(p.warm * 1000).toFixed(1).padStart(8)}`,
    );
  const [, ten, hundred] = perManifest;
  if (ten && hundred)
    console.log(
      `  100k vs 10k: cold ${(hundred.cold / ten.cold).toFixed(2)}x, warm ${(hundred.warm / ten.warm).toFixed(2)}x per manifest`,
    );
}
const hashMb = Number(values['hash-mb']);
if (hashMb > 0 && only.has('hash')) {
  const rows = benchHashing(hashMb);
  printTable(rows);
  const md5 = rows.find((r) => r.name === 'md5sum')!;
  const add = rows.find((r) => r.name === 'otapress add')!;
  const at = hashMb === 1536 ? '' : ` (on ${hashMb} MiB, not 1.5 GiB)`;
  const bare = rows.find((r) => r.name.startsWith('bare node'))!;
  target(`otapress add / md5sum${at}`, add.samples.length ? medianMs(add) / medianMs(md5) : undefined, 'x', 1.1);
  console.log(
    `otapress add / bare node doing only the hashing: ${add.samples.length ? (medianMs(add) / medianMs(bare)).toFixed(2) : '-'}x; bare node / md5sum: ${(medianMs(bare) / medianMs(md5)).toFixed(2)}x\n`,
  );
}
if (targets.length > 0) {
  console.log('targets, medians of this run (ratios: medians of same-round ratios):');
  const width = Math.max(...targets.map((t) => t.figure.length));
  for (const t of targets) console.log(targetLine(t, width));
  console.log('');
}
console.log(`load average at end: ${loadAverage()}`);
removeSetAside();

// --- measurements ---

async function benchCatalog({ devices, builds }: { devices: number; builds: number }, peers: Peer[]): Promise<Row[]> {
  const manifests = devices * builds;
  const reused = values.catalog !== undefined;
  const root = reused ? path.resolve(values.catalog!) : mkdtempSync(path.join(tmpdir(), 'otapress-bench-'));
  try {
    // The file system too: on tmpfs no build waits for a disk, on a disk the figures include it.
    process.stdout.write(
      `${devices} devices x ${builds} builds = ${manifests} manifests in ${root} (${fileSystemOf(root)}): ${reused ? 'reused' : 'generating'}... `,
    );
    if (!reused || !existsSync(path.join(root, 'content'))) generateCatalog(root, { devices, builds });
    // With --extras, the same catalog with a device.yaml on every device and a changelog on every
    // build, in a folder of its own inside the first (the first's builds read only its content/).
    // With --formats, the second catalog is the plain one with every dialect in site.yaml.
    const extrasRoot =
      values.extras || values.formats ? path.join(root, values.formats ? 'formats' : 'extras') : undefined;
    if (extrasRoot && (!reused || !existsSync(path.join(extrasRoot, 'content')))) {
      generateCatalog(extrasRoot, { devices, builds, extras: !values.formats });
      if (values.formats) {
        const dialects = FORMAT_FAMILIES.map((name) => `  ${name}: {}\n`).join('');
        appendFileSync(path.join(extrasRoot, 'content', 'site.yaml'), `\nformats:\n${dialects}`);
      }
    }
    const cache = path.join(root, 'node_modules', '.cache', 'otapress');
    const build = (at = root) => run(['node', BIN, 'build', '--root', at]);
    // The floor writes what the build writes: same number of files, same sizes, same folders.
    const first = build();
    const shape = path.join(root, 'shape.json');
    writeFileSync(shape, JSON.stringify(treeShape(path.join(root, 'dist'))));
    console.log(`done; the build writes ${first.note}`);
    const extrasShape = path.join(root, 'shape-extras.json');
    if (extrasRoot) {
      console.log(`  with ${SECOND} (${extrasRoot}), it writes ${build(extrasRoot).note}`);
      writeFileSync(extrasShape, JSON.stringify(treeShape(path.join(extrasRoot, 'dist'))));
    }

    // One manifest to change before each warm build and preview rebuild: its size changes each time.
    const device = deviceName(Math.floor(devices / 2));
    const folder = path.join(root, 'content', device);
    const name = readdirSync(folder)
      .filter((n) => n.startsWith('e-'))
      .sort()
      .find((n) => !readFileSync(path.join(folder, n), 'utf8').includes('lists:'))!;
    const changed = path.join(folder, name);
    const original = readFileSync(changed, 'utf8');
    let flip = 0;
    const change = () => {
      const size = 1000 + flip++;
      writeFileSync(changed, original.replace(/^size: (\d+)$/m, `size: ${size}`));
      return size;
    };

    const dist = path.join(root, 'dist');
    const clean = () => setAside(dist);
    const rows: Row[] = [
      { name: 'I/O floor', samples: [], manifests },
      { name: 'cold build', samples: [], manifests, note: 'no dist/, no cache: a fresh clone (the cache is written)' },
      { name: 'cold build --no-cache', samples: [], manifests, note: 'no dist/' },
      { name: 'warm build', samples: [], manifests, note: '1 manifest changed' },
      { name: 'single-thread build', samples: [], manifests, note: 'no cache, --threads 1' },
    ];
    const extrasRow: Row = {
      name: 'cold build (extras)',
      samples: [],
      manifests,
      note: 'as cold build, with a device.yaml on every device and a changelog on every build',
    };
    const extrasFloor: Row = {
      name: 'I/O floor (extras)',
      samples: [],
      manifests,
      note: 'what the extras build reads and writes: its bytes cost at least this',
    };
    if (extrasRoot) rows.push(extrasRow, extrasFloor);
    const baselineRow: Row | undefined =
      extrasRoot && baseline
        ? {
            name: 'baseline cold build',
            samples: [],
            manifests,
            note: `otapress at ${baseline.commit} (--baseline), the plain catalog, as cold build`,
          }
        : undefined;
    if (baselineRow) rows.push(baselineRow);
    const peerRows = peers.map((peer) => ({
      peer,
      out: path.join(root, `${peer.name.toLowerCase()}-out`),
      cold: {
        name: `${peer.name} cold`,
        samples: [],
        manifests,
        note: `${peer.name} ${peer.version}: v1 listings only, no output or cache before`,
      } as Row,
      warm: { name: `${peer.name} warm`, samples: [], manifests, note: 'its output there, 1 manifest changed' } as Row,
    }));
    const cold = () => {
      clean();
      setAside(cache);
      rows[1].samples.push(build());
    };
    const coldExtras = () => {
      if (!extrasRoot) return;
      setAside(path.join(extrasRoot, 'dist'));
      setAside(path.join(extrasRoot, 'node_modules', '.cache', 'otapress'));
      extrasRow.samples.push(build(extrasRoot));
    };
    const coldBaseline = () => {
      if (!baselineRow) return;
      // As a fresh clone, like the cold build. What the plain builds of this round left, it must not
      // touch (an earlier otapress would prune this one's cache entries): kept under another name and
      // put back for the warm build, and the baseline's own output and cache set aside.
      const kept = [dist, cache].filter((p) => existsSync(p)).map((p) => [p, `${p}.bench-kept`] as const);
      for (const [p, k] of kept) renameSync(p, k);
      try {
        baselineRow.samples.push(run(['node', baseline!.bin, 'build', '--root', root]));
      } finally {
        setAside(dist);
        setAside(cache);
        for (const [p, k] of kept) renameSync(k, p);
      }
    };
    const noCache = () => {
      clean();
      rows[2].samples.push(run(['node', BIN, 'build', '--root', root, '--no-cache']));
    };
    /** Every peer's listings against ours, byte for byte. */
    const compare = (when: string) => {
      for (const { peer, out } of peerRows)
        console.log(
          `  ${peer.name} ${when}: ${compareListings(dist, out, peer.name)} listings equal to otapress's, byte for byte`,
        );
    };
    for (let r = 0; r < (only.has('build') ? runs : 0); r++) {
      const floorOut = path.join(root, 'floor-out');
      setAside(floorOut);
      rows[0].samples.push(run(['node', FLOOR, root, shape, floorOut]));
      if (extrasRoot) {
        setAside(floorOut);
        extrasFloor.samples.push(run(['node', FLOOR, extrasRoot, extrasShape, floorOut]));
      }
      // Alternated, so that neither always runs just after the other's writeback; the extras
      // catalog's cold build between the two, so it runs once after and once before the plain one.
      // The baseline's build first in one round and last in the next.
      if (r % 2 === 0) (coldBaseline(), cold(), coldExtras(), noCache());
      else (noCache(), coldExtras(), cold(), coldBaseline());
      for (const { peer, out, cold: row } of peerRows) {
        for (const leftover of peer.leftovers(root, out)) setAside(leftover);
        row.samples.push(run(peer.command(root, out)));
      }
      if (r === 0 && peerRows.length > 0) compare('cold');
      change();
      rows[3].samples.push(build());
      for (const { peer, out, warm } of peerRows) warm.samples.push(run(peer.command(root, out)));
      if (r === runs - 1 && peerRows.length > 0) compare('warm, after the change');
      if (!values.peers && (r === 0 || manifests <= 20_000)) {
        setAside(cache);
        rows[4].samples.push(run(['node', BIN, 'build', '--root', root, '--threads', '1']));
      }
    }
    rows.push(...peerRows.flatMap((p) => [p.cold, p.warm]));
    const list = /^channel: (\S+)$/m.exec(original)![1];
    if (only.has('preview')) rows.push(...(await benchPreview(root, `api/v1/${device}/${list}/`, change)));
    writeFileSync(changed, original);
    return rows.filter((r) => r.samples.length > 0);
  } finally {
    if (values.keep || reused) console.log(`kept ${root}`);
    else removeAtEnd.push(root);
  }
}

/**
 * `otapress serve` on the catalog: the time from writing a changed manifest to the listing that
 * shows the change being served (the watcher's debounce included), and the rebuild alone as serve
 * reports it. Peak memory is the server's, read from /proc before it is stopped.
 */
async function benchPreview(root: string, listing: string, change: () => number): Promise<Row[]> {
  const server = spawn('node', [BIN, 'serve', '--root', root, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(),
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  const until = async (done: () => boolean, what: string, seconds = 600) => {
    const deadline = Date.now() + seconds * 1000;
    while (!done()) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`otapress serve: no ${what}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  try {
    await until(() => /serving content\/ at (\S+)/.test(output), 'start');
    const url = /serving content\/ at (\S+)/.exec(output)![1];
    const total: Row = {
      name: 'preview rebuild',
      samples: [],
      manifests: 0,
      note: 'change to new listing served, debounce included',
    };
    const rebuild: Row = { name: '  of which rebuild', samples: [], manifests: 0, note: 'as serve reports it' };
    for (let r = 0; r < Math.max(runs, 5); r++) {
      await new Promise((resolve) => setTimeout(resolve, 300)); // Let the watcher settle between changes.
      const seen = output.length;
      const started = performance.now();
      const size = change();
      let body = '';
      while (!body.includes(`"size":${size},`)) {
        body = await (await fetch(`${url}${listing}`)).text();
        if (performance.now() - started > 60_000)
          throw new Error(`otapress serve did not serve the change:\n${output.slice(seen)}`);
      }
      total.samples.push({ ms: performance.now() - started });
      const reported = / in (\d+(?:\.\d+)?) ms/.exec(output.slice(seen));
      if (reported) rebuild.samples.push({ ms: Number(reported[1]) });
    }
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    const peak = /VmHWM:\s+(\d+) kB/.exec(status);
    total.samples.forEach((s) => (s.rssMb = peak ? Number(peak[1]) / 1024 : undefined));
    return [total, rebuild];
  } finally {
    server.kill('SIGTERM');
  }
}

function benchHashing(megabytes: number): Row[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'otapress-bench-hash-'));
  try {
    // A stored (uncompressed) OTA zip: random payload plus the metadata entry `add` reads.
    const zip = path.join(dir, 'e-2.5-a14-20241108446322-official-FP4.zip');
    const metadata = [
      'ota-type=AB',
      'post-build=Fairphone/FP4/FP4:14/UP1A/eng.root.20241108.123456:user/release-keys',
      'post-sdk-level=34',
      'post-security-patch-level=2024-11-05',
      'post-timestamp=1731067200',
      'pre-device=FP4',
      'ota-property-files=payload.bin:1000:2000,payload_properties.txt:3100:150',
    ].join('\n');
    const python = `import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED, allowZip64=True) as z:
    z.writestr('META-INF/com/android/metadata', sys.argv[3])
    with z.open('payload.bin', 'w', force_zip64=True) as f:
        left = int(sys.argv[2])
        while left > 0:
            n = min(left, 1 << 22)
            f.write(os.urandom(n))
            left -= n
`;
    run(['python3', '-c', python, zip, String(megabytes * 2 ** 20), metadata]);
    const project = path.join(dir, 'project');
    generateCatalog(project, { devices: 0, builds: 0 });
    const hasAdd = spawnSync('node', [BIN, 'add', '--help']).status === 0;
    const rows: Row[] = [
      { name: 'md5sum', samples: [], manifests: 0, note: `${megabytes} MiB` },
      { name: 'sha256sum', samples: [], manifests: 0, note: `${megabytes} MiB` },
      {
        name: 'bare node: md5 + sha256',
        samples: [],
        manifests: 0,
        note: 'hash-floor.mjs: one read, two threads, nothing else',
      },
      {
        name: 'otapress add',
        samples: [],
        manifests: 0,
        note: hasAdd ? 'md5 + sha256 + manifest, --dry-run' : 'n/a: otapress add is not on this branch',
      },
    ];
    for (let r = 0; r < runs; r++) {
      rows[0].samples.push(run(['md5sum', zip]));
      rows[1].samples.push(run(['sha256sum', zip]));
      rows[2].samples.push(run(['node', HASH_FLOOR, zip]));
      if (hasAdd) rows[3].samples.push(run(['node', BIN, 'add', zip, '--root', project, '--dry-run']));
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- helpers ---

/**
 * Moves the output, cache or floor tree of a previous run out of the way of the next, into
 * `.bench-aside` beside it, instead of deleting it: everything set aside is removed when the
 * benchmark ends. A cold run stands for a fresh clone, which has no deletions behind it, and on
 * ext4 without a journal (the file system of this project's CI and benchmark machines) deleting a
 * tree just before a run charges that run: for 60 seconds after an inode is freed, or 360 while its
 * inode table block is unwritten, every new file and folder in its block group first steps over
 * each such inode, one lookup apiece (fs/ext4/ialloc.c, find_inode_bit and recently_deleted,
 * Linux 6.18). With a 10k catalog's previous tree deleted just before, cold builds took 2.18 to
 * 2.57 s (system CPU 0.7 to 1.3 s) against 2.06 to 2.11 s (0.5 to 0.6 s) with it moved aside, in 4
 * interleaved rounds; Hugo, Eleventy and the floor were charged the same way, for their own files.
 * The trees a build replaces itself (the warm build's) are still removed by otapress as it
 * always does, in the background.
 */
function setAside(target: string): void {
  if (!existsSync(target)) return;
  const aside = path.join(path.dirname(target), '.bench-aside');
  mkdirSync(aside, { recursive: true });
  if (!removeAtEnd.includes(aside)) removeAtEnd.push(aside);
  try {
    renameSync(target, path.join(aside, `${asideCount++}-${path.basename(target)}`));
  } catch {
    rmSync(target, { recursive: true, force: true }); // Another file system: no way round deleting it.
  }
}

function removeSetAside(): void {
  for (const dir of removeAtEnd.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * The otapress checked out in `dir` (a git worktree of an earlier commit), for --baseline: its
 * lib/bin.mjs, built with its own .ci/build-lib.mjs when missing.
 */
function prepareBaseline(dir: string): { dir: string; bin: string; commit: string } {
  const bin = path.join(dir, 'lib', 'bin.mjs');
  if (
    !existsSync(bin) &&
    spawnSync(process.execPath, [path.join(dir, '.ci', 'build-lib.mjs')], { stdio: 'inherit' }).status !== 0
  ) {
    throw new Error(`--baseline ${dir}: could not build its lib/ (run npm ci there first)`);
  }
  if (!existsSync(bin)) throw new Error(`--baseline ${dir}: no lib/bin.mjs there; it must be a checkout of otapress`);
  const rev = spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return { dir, bin, commit: rev.status === 0 ? rev.stdout.trim() : path.basename(dir) };
}

/** Runs a command to completion; its wall time, peak memory and last line of output. */
function run(what: string[] | Command): Sample & { note?: string } {
  const { argv: command, env, cwd } = Array.isArray(what) ? { argv: what } : what;
  const argv = TIME ? [TIME, '-f', 'otapress-bench-rss %M cpu %U %S', ...command] : command;
  const started = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 2 ** 29, env: childEnv(env), cwd });
  const ms = performance.now() - started;
  const stderr = result.stderr;
  if (result.status !== 0)
    throw new Error(
      `${command.join(' ')} failed (${result.status ?? result.signal} ${result.error?.message ?? ''}):\n${stderr.slice(-2000)}`,
    );
  const rss = /otapress-bench-rss (\d+) cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  const out = result.stdout.trim();
  return {
    ms,
    rssMb: rss ? Number(rss[1]) / 1024 : undefined,
    cpu: rss ? Number(rss[2]) + Number(rss[3]) : undefined,
    note: out
      .split('\n')
      .at(-1)
      ?.replace(/^built /, ''),
  };
}

/**
 * The environment of every measured command: the bench's own, or the one a peer's command asks
 * for, without NODE_EXTRA_CA_CERTS. Node 20 reads that file of certificates at every start, before
 * any script runs: with this machine's 219 KB bundle, a bare `node -e ''` took about 0.15 s instead
 * of 0.05 s. It is a TLS setting of the machine the benchmark runs on (ours sets it for every
 * process); no build makes a TLS connection, and a maintainer's machine or CI runner does not
 * usually set it. Left in, it adds the same start-up to otapress, Eleventy and the I/O floor (all
 * Node) and nothing to Hugo. `--keep-env` keeps it; {@link describeEnv} prints its cost here.
 */
function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (values['keep-env'] || env.NODE_EXTRA_CA_CERTS === undefined) return env;
  const { NODE_EXTRA_CA_CERTS: _, ...rest } = env;
  return rest;
}

/** What {@link childEnv} does on this machine, and what a Node process's start costs with and without the variable (medians of 5 interleaved runs). */
function describeEnv(): string {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (file === undefined) return 'NODE_EXTRA_CA_CERTS: not set';
  const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env;
  const starts: [number[], number[]] = [[], []];
  for (let i = 0; i < 5; i++) {
    [process.env, without].forEach((env, k) => {
      const started = performance.now();
      spawnSync(process.execPath, ['-e', ''], { env, stdio: 'ignore' });
      starts[k].push(performance.now() - started);
    });
  }
  const [withMs, withoutMs] = starts.map((ms) => median(ms).toFixed(0));
  const what = values['keep-env'] ? 'kept for every run (--keep-env)' : 'left out of every run (--keep-env keeps it)';
  return `NODE_EXTRA_CA_CERTS=${JSON.stringify(file)}: ${what}; a bare node start takes ${withMs} ms with it, ${withoutMs} ms without`;
}

function printTable(rows: Row[]): void {
  const floor = rows.find((r) => r.name === 'I/O floor');
  const md5 = rows.find((r) => r.name === 'md5sum');
  const reference = floor ?? md5;
  const refMs = reference && reference.samples.length > 0 ? median(reference.samples.map((s) => s.ms)) : undefined;
  const refCpu = reference && reference.samples.length > 0 ? median(reference.samples.map((s) => s.cpu ?? NaN)) : NaN;
  const header = [
    'measurement',
    'median',
    `x ${reference?.name ?? '-'}`,
    'manifests/s',
    'CPU',
    'CPU x',
    'peak RSS',
    'runs (ms)',
    'note',
  ];
  const lines = rows.map((row) => {
    if (row.samples.length === 0) return [row.name, '-', '-', '-', '-', '-', '-', '-', row.note ?? ''];
    const ms = median(row.samples.map((s) => s.ms));
    const rss = row.samples.map((s) => s.rssMb).filter((m): m is number => m !== undefined);
    const cpu = row.samples.every((s) => s.cpu !== undefined) ? median(row.samples.map((s) => s.cpu!)) : undefined;
    return [
      row.name,
      `${(ms / 1000).toFixed(3)} s`,
      refMs && (row.manifests > 0 || !floor) ? `${(ms / refMs).toFixed(2)}x` : '-',
      row.manifests ? String(Math.round(row.manifests / (ms / 1000))) : '-',
      cpu !== undefined ? `${cpu.toFixed(2)} s` : '-',
      cpu !== undefined && refCpu > 0 ? `${(cpu / refCpu).toFixed(1)}x` : '-',
      rss.length ? `${Math.max(...rss).toFixed(0)} MB` : '-',
      row.samples.map((s) => s.ms.toFixed(0)).join(' '),
      row.note ?? '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log('');
}

/** The median over rounds of a's time over b's in the same round. */
function sameRound(a: Row, b: Row, of: 'ms' | 'cpu' = 'ms'): number {
  return median(roundRatios(a, b, of));
}

/** The ratio of `a` to `b` in each round that measured both. */
function roundRatios(a: Row, b: Row, of: 'ms' | 'cpu' = 'ms'): number[] {
  return a.samples.slice(0, b.samples.length).map((x, i) => (x[of] ?? NaN) / (b.samples[i][of] ?? NaN));
}

function medianMs(row: Row): number {
  return median(row.samples.map((s) => s.ms));
}

function peakMb(row: Row): number | undefined {
  const rss = row.samples.flatMap((s) => (s.rssMb === undefined ? [] : [s.rssMb]));
  return rss.length > 0 ? Math.max(...rss) : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
