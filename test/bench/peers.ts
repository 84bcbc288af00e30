// The peers of `npm run bench -- --peers`: Hugo and Eleventy building the same v1 listings as
// otapress from the same generated catalog, so that the benchmark can say how a maintainer's wait
// compares with the static site generators one would otherwise use. Their project files are in
// test/bench/peers/; what they write goes into the catalog's temporary folder.
//
// - Hugo: Debian's package (`apt-get install -y hugo`, 0.111), installed only when `hugo` is
//   missing. The manifests are Hugo data files (dataDir pointed at content/), one template
//   publishes a JSON file per device and list.
// - Eleventy 3.1.8 with js-yaml, installed with npm into a temporary folder of its own (kept for
//   the next run), never a dependency of otapress. A global data file reads the YAML; one
//   JavaScript template is paginated over device x list.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PEERS = path.join(import.meta.dirname, 'peers');
const ELEVENTY_VERSION = '3.1.8';
const ELEVENTY_PACKAGES = [`@11ty/eleventy@${ELEVENTY_VERSION}`, 'js-yaml@4.1.1'];
const ELEVENTY_DIR = path.join(tmpdir(), `otapress-bench-peers-eleventy-${ELEVENTY_VERSION}`);

/** A command to time: argv, and the environment and folder it runs in. */
export interface Command {
  argv: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** A peer: how to build the catalog under `root` into `out` (cold: `out` and caches removed first). */
export interface Peer {
  name: string;
  version: string;
  command(root: string, out: string): Command;
  /** What a previous run left that a fresh clone would not have (output, caches): the benchmark sets them aside before a cold run. */
  leftovers(root: string, out: string): string[];
}

/** Installs what is missing (saying so) and returns the two peers. */
export function preparePeers(): Peer[] {
  return [prepareHugo(), prepareEleventy()];
}

/**
 * Compares the v1 listings (`api/v1/<device>/<list>/index.json`) of two trees byte for byte;
 * throws at the first difference, or when one tree has a listing the other lacks. Returns how many.
 */
export function compareListings(ours: string, theirs: string, name: string): number {
  const listings = (tree: string) => {
    const found: string[] = [];
    const v1 = path.join(tree, 'api', 'v1');
    for (const device of readdirSync(v1, { withFileTypes: true })) {
      if (!device.isDirectory()) continue;
      for (const list of readdirSync(path.join(v1, device.name), { withFileTypes: true })) {
        if (list.isDirectory() && existsSync(path.join(v1, device.name, list.name, 'index.json')))
          found.push(`api/v1/${device.name}/${list.name}/index.json`);
      }
    }
    return found.sort();
  };
  const mine = listings(ours);
  const other = listings(theirs);
  const missing = mine.filter((f) => !other.includes(f));
  const extra = other.filter((f) => !mine.includes(f));
  if (missing.length > 0 || extra.length > 0)
    throw new Error(
      `${name}: listings differ: missing ${missing.slice(0, 3).join(', ') || '-'}; extra ${extra.slice(0, 3).join(', ') || '-'}`,
    );
  for (const file of mine) {
    const a = readFileSync(path.join(ours, file));
    const b = readFileSync(path.join(theirs, file));
    if (!a.equals(b)) {
      let at = 0;
      while (a[at] === b[at]) at++;
      throw new Error(
        `${name}: ${file} differs from otapress's at byte ${at}:\n  otapress: ${a.toString('utf8', Math.max(0, at - 80), at + 80)}\n  ${name}: ${b.toString('utf8', Math.max(0, at - 80), at + 80)}`,
      );
    }
  }
  return mine.length;
}

// --- internal ---

function prepareHugo(): Peer {
  if (spawnSync('hugo', ['version']).status !== 0) {
    console.log("hugo is missing: installing Debian's package (apt-get install -y hugo)...");
    const installed = spawnSync('apt-get', ['install', '-y', 'hugo'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (installed.status !== 0)
      throw new Error('could not install hugo with apt-get; install it (apt-get install -y hugo) and run again');
  }
  const version = /v(\d+\.\d+\.\d+)/.exec(spawnSync('hugo', ['version'], { encoding: 'utf8' }).stdout)?.[1] ?? '?';
  return {
    name: 'Hugo',
    version,
    command: (root, out) => ({
      // A copy of the project beside the catalog: Hugo writes a lock file into its source folder.
      argv: [
        'hugo',
        '--quiet',
        '--source',
        hugoProject(root),
        '--destination',
        out,
        '--cacheDir',
        path.join(root, 'hugo-cache'),
      ],
      env: {
        ...process.env,
        HUGO_DATADIR: path.join(root, 'content'),
        HUGO_RESOURCEDIR: path.join(root, 'hugo-resources'),
      },
    }),
    leftovers: (root, out) => [out, path.join(root, 'hugo-cache'), path.join(root, 'hugo-resources')],
  };
}

function hugoProject(root: string): string {
  const project = path.join(root, 'hugo-project');
  if (!existsSync(project)) cpSync(path.join(PEERS, 'hugo'), project, { recursive: true });
  return project;
}

function prepareEleventy(): Peer {
  const marker = path.join(ELEVENTY_DIR, 'installed.txt');
  const wanted = ELEVENTY_PACKAGES.join(' ');
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== wanted) {
    console.log(
      `installing ${wanted} with npm into ${ELEVENTY_DIR} (kept for the next run; not a dependency of otapress)...`,
    );
    rmSync(ELEVENTY_DIR, { recursive: true, force: true });
    mkdirSync(ELEVENTY_DIR, { recursive: true });
    writeFileSync(path.join(ELEVENTY_DIR, 'package.json'), '{ "private": true, "type": "module" }\n');
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...ELEVENTY_PACKAGES], {
      cwd: ELEVENTY_DIR,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (npm.status !== 0) throw new Error(`could not install ${wanted} with npm`);
    writeFileSync(marker, wanted);
  }
  // The project files go where the packages are, so that its data file finds js-yaml; one copy per
  // benchmark process, so that two benchmarks never remove each other's.
  const project = path.join(ELEVENTY_DIR, `project-${process.pid}`);
  rmSync(project, { recursive: true, force: true });
  cpSync(path.join(PEERS, 'eleventy'), project, { recursive: true });
  process.on('exit', () => rmSync(project, { recursive: true, force: true }));
  return {
    name: 'Eleventy',
    version: ELEVENTY_VERSION,
    command: (root, out) => ({
      argv: [
        'node',
        path.join(ELEVENTY_DIR, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs'),
        '--quiet',
        `--output=${out}`,
      ],
      env: { ...process.env, OTAPRESS_CATALOG: path.join(root, 'content') },
      cwd: project,
    }),
    leftovers: (_, out) => [out],
  };
}
