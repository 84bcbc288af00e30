// otapress as a maintainer installs it: `npm pack` of this repository, installed with
// --omit=dev --offline into an empty folder, then init, add on a real OTA zip, build, the scaffolded
// workflows' own commands, serve. The built site must be the one this repository's sources build
// from the same catalog, byte for byte. No network: the package has no dependencies to fetch.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { groupByDevice } from '../../src/pipeline/compile-device.js';
import { compileDevices } from '../../src/pipeline/compile-devices.js';
import { parseSite } from '../../src/catalog/site.js';
import { readContent } from '../../src/catalog/read.js';
import { workflows } from '../../src/commands/init-files.js';
import { NETLIFY_TOML } from '../../src/hosts/netlify.js';
import { EXAMPLE, ROOT, snapshotTree } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { generateCatalog } from '../bench/catalog.js';
import { PARALLEL_THRESHOLD } from '../../src/pipeline/compile-devices.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const ZIP_NAME = 'e-2.7-a14-20241108446999-official-FP4.zip';
const MANIFEST = `content/FP4/${ZIP_NAME.replace(/\.zip$/, '.yaml')}`;
const ENV = {
  ...process.env,
  NO_COLOR: '1',
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let work: string;
let site: string;
let zip: string;

/** Runs a command in the maintainer's folder (or `cwd`), failing the test with its output unless it exits 0. */
function run(command: string, args: string[], cwd = site): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result;
}

function treeSize(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).reduce(
    (n, entry) => (entry.isFile() ? n + statSync(path.join(entry.parentPath, entry.name)).size : n),
    0,
  );
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'otapress-package-'));
  site = path.join(work, 'my-ota');
  mkdirSync(site);
  // npm pack runs prepare, which builds lib/ from the current sources.
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT).stdout) as [
    { filename: string },
  ];
  run('npm', ['init', '-y']);
  run('npm', ['install', path.join(work, packed[0].filename), '--omit=dev']);
  zip = path.join(work, ZIP_NAME);
  await writeOtaZip(zip, { metadata: FP4_METADATA });
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the package, installed with --omit=dev', { timeout: 120_000 }, () => {
  it('is otapress alone: no dependency, no tsx, well under 30 MB', () => {
    const modules = path.join(site, 'node_modules');
    expect(
      readdirSync(modules)
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['otapress']);
    const installed = JSON.parse(readFileSync(path.join(modules, 'otapress', 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(installed.dependencies).toBeUndefined();
    expect(installed.private).toBeUndefined();
    expect(treeSize(modules)).toBeLessThan(30 * 1024 * 1024);
    const files = readdirSync(path.join(modules, 'otapress'), { recursive: true }) as string[];
    expect(files.filter((f) => /\.ts$/.test(f))).toEqual([]);
    expect(files.filter((f) => /tsx/.test(f))).toEqual([]);
    expect(run('npx', ['otapress', '--version']).stdout).toBe(`${VERSION}\n`);
  });

  it('init, add on an OTA zip and build give the site this repository builds from the same catalog', () => {
    const init = run('npx', ['otapress', 'init']);
    expect(init.stdout).toContain('wrote content/site.yaml');
    // npm wrote the tarball's path outside the catalog, which no clone has: init keeps the package inside.
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    expect(init.stdout).toContain(
      `wrote vendor/otapress-${VERSION}.tgz (otapress ${VERSION}, kept inside the catalog: "file:../${tarball}" is a path outside the catalog`,
    );
    expect(init.stdout).toContain(
      `wrote package.json: added scripts.build, scripts.check, scripts.serve, dependencies.otapress file:../${tarball} → file:vendor/otapress-${VERSION}.tgz\n`,
    );
    expect(init.stdout).toMatch(/^next:\n {2}npm install\n/m);
    expect(
      (JSON.parse(readFileSync(path.join(site, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
    ).toEqual({ otapress: `file:vendor/otapress-${VERSION}.tgz` });
    run('npm', ['install']);
    expect(run('npm', ['run', 'build']).stdout).toContain('built 0 builds of 0 devices');

    const add = run('npx', ['otapress', 'add', zip]);
    expect(add.stdout).toBe(`wrote ${MANIFEST}\n`);
    const manifest = parse(readFileSync(path.join(site, MANIFEST), 'utf8')) as Record<string, unknown>;
    const bytes = readFileSync(zip);
    expect(manifest).toMatchObject({
      id: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      timestamp: 1731067200,
      channel: 'official',
    });
    expect(run('npm', ['run', 'build']).stdout).toContain('built 1 build of 1 device ');

    // The same catalog built by the sources of this repository, through tsx: byte for byte the same.
    const mirror = path.join(work, 'mirror');
    cpSync(path.join(site, 'content'), path.join(mirror, 'content'), { recursive: true });
    build({ root: mirror, cache: false });
    expect(snapshotTree(path.join(site, 'dist'))).toEqual(snapshotTree(path.join(mirror, 'dist')));
    // The netlify.toml init wrote is the one every catalog gets; no build changes it.
    expect(readFileSync(path.join(site, 'netlify.toml'), 'utf8')).toBe(NETLIFY_TOML);
    const official = JSON.parse(readFileSync(path.join(site, 'dist/api/v1/FP4/official/index.json'), 'utf8')) as {
      response: { filename: string }[];
    };
    expect(official.response.map((r) => r.filename)).toEqual([ZIP_NAME]);
  });

  it('finds the catalog from a folder inside it, and says which (check, import, schema)', () => {
    const result = run(
      path.join(site, 'node_modules', '.bin', 'otapress'),
      ['check'],
      path.join(site, 'content', 'FP4'),
    );
    // init's placeholder download host is still in site.yaml: check says so, and passes.
    expect(result.stderr).toBe(
      `using the catalog in ${site} (the nearest folder above this one with content/site.yaml)\n` +
        'content/site.yaml:1:1  site_url  FP4 has no links.info in device.yaml and the site no site_url: v2 `info_url` is then a path on this site (/devices/FP4/), which the LineageOS download portal opens on its own site; set site_url to the address this site is published at, or links.info in content/FP4/device.yaml\n' +
        `content/site.yaml:6:20  download_base_url  \`downloads.example.org\` is the placeholder host \`otapress init\` writes: a listed download leads nowhere (https://downloads.example.org/builds/official/FP4/${ZIP_NAME}); set download_base_url to the address your zips are uploaded to\n` +
        '2 notices (not errors: the site builds; each says what phones will do, and what to change).\n',
    );
    expect(result.stdout).toBe('1 manifest is valid\n');
    // import and schema too: the listing just built, imported again, changes no manifest.
    const content = path.join(site, 'content');
    const imported = run(
      path.join(site, 'node_modules', '.bin', 'otapress'),
      ['import', '../dist/api/v1/FP4/official/index.json', '--device', 'FP4', '--list', 'official'],
      content,
    );
    expect(imported.stdout).toBe('imported 1 of 1 records into FP4/official: 0 manifests written\n');
    expect(imported.stderr).toBe(
      `using the catalog in ${site} (the nearest folder above this one with content/site.yaml)\n`,
    );
    expect(run(path.join(site, 'node_modules', '.bin', 'otapress'), ['schema', '--check'], content).stdout).toBe(
      'content/manifest.schema.json is up to date\ncontent/device.schema.json is up to date\n',
    );
  });

  it("reports content and output-folder problems as the CLI's own, not as a failure of otapress", () => {
    // build and check load build-command.js, one module that shares the CLI's error classes
    // (.ci/build-lib.mjs): a copy of ContentError or OutputError in it would print a stack trace.
    const broken = path.join(work, 'broken');
    cpSync(path.join(site, 'content'), path.join(broken, 'content'), { recursive: true });
    const file = path.join(broken, MANIFEST);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^size: .*$/m, 'size: -1'));
    const bin = path.join(site, 'node_modules', '.bin', 'otapress');
    for (const command of ['build', 'check']) {
      const result = spawnSync(bin, [command, '--root', broken], { env: ENV, encoding: 'utf8', timeout: 120_000 });
      expect({ status: result.status, stderr: result.stderr.split('\n')[0] }).toEqual({
        status: 1,
        stderr: `${MANIFEST}:${
          readFileSync(file, 'utf8')
            .split('\n')
            .findIndex((l) => l.startsWith('size:')) + 1
        }:7  size  a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)`,
      });
    }
    const foreign = path.join(work, 'foreign');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, 'notes.txt'), 'mine');
    const refused = spawnSync(bin, ['build', '--out', foreign], {
      cwd: site,
      env: ENV,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /^refusing to write the site to .*foreign: it holds files that otapress did not write/,
    );
    expect(readFileSync(path.join(foreign, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('compiles in worker threads from lib/ as well', () => {
    // The example catalog of this repository: three devices, so that a worker is started.
    const example = path.join(work, 'example');
    cpSync(path.join(EXAMPLE, 'content'), path.join(example, 'content'), { recursive: true });
    const lib = path.join(site, 'node_modules', 'otapress', 'lib');
    const script = (lib: string) => `
      const { readContent } = await import(${JSON.stringify(path.join(lib, 'catalog/read.js'))});
      const { parseSite } = await import(${JSON.stringify(path.join(lib, 'catalog/site.js'))});
      const { groupByDevice } = await import(${JSON.stringify(path.join(lib, 'pipeline/compile-device.js'))});
      const { compileDevices } = await import(${JSON.stringify(path.join(lib, 'pipeline/compile-devices.js'))});
      const content = readContent(process.cwd());
      const { site } = parseSite(content.site);
      // Nothing for the calling thread: every device is compiled by a worker loaded from lib/.
      const outputs = compileDevices(groupByDevice(content), content.site, site, { threads: 2, workersFrom: 0, callerCompiles: false });
      console.log(JSON.stringify(outputs.flatMap((o) => [...o.problems, ...o.files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')])])));`;
    // A file, not node -e: workers inherit --input-type=module, which Node 20 applies to their entry file too.
    writeFileSync(path.join(work, 'compile.mjs'), script(lib));
    const compiled = JSON.parse(run(process.execPath, [path.join(work, 'compile.mjs')], example).stdout) as [
      string,
      string,
    ][];
    // The same devices compiled by the sources in this thread.
    const content = readContent(example);
    const sources = compileDevices(groupByDevice(content), content.site!, parseSite(content.site!).site!);
    const expected = sources.flatMap((o) => [
      ...o.problems,
      ...o.files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')]),
    ]);
    expect(expected.length).toBeGreaterThan(20);
    expect(compiled).toEqual(expected);

    // The worker ran lib/pipeline/compile-worker-bundle.js, the one-module build of what it needs
    // (.ci/build-lib.mjs): in a copy of the package whose bundle first notes that it was loaded.
    const copy = path.join(work, 'otapress-copy');
    cpSync(path.join(site, 'node_modules', 'otapress'), copy, { recursive: true });
    const bundle = path.join(copy, 'lib', 'pipeline', 'compile-worker-bundle.js');
    const log = path.join(work, 'bundle.log');
    writeFileSync(
      bundle,
      `import { appendFileSync as __note } from 'node:fs';\n__note(${JSON.stringify(log)}, 'loaded\\n');\n${readFileSync(bundle, 'utf8')}`,
    );
    writeFileSync(path.join(work, 'compile-copy.mjs'), script(path.join(copy, 'lib')));
    expect(JSON.parse(run(process.execPath, [path.join(work, 'compile-copy.mjs')], example).stdout)).toEqual(expected);
    expect(readFileSync(log, 'utf8')).toBe('loaded\n');
  });

  it('loads yaml and zod from lib/vendor/ only for content that needs them, in both threads', () => {
    // A copy of the installed package whose two vendored libraries note, in a file, each thread that
    // loads them, and whose compile worker notes that it started.
    const copy = path.join(work, 'otapress-vendor-notes');
    cpSync(path.join(site, 'node_modules', 'otapress'), copy, { recursive: true });
    const log = path.join(work, 'vendor.log');
    for (const name of ['yaml', 'zod']) {
      const file = path.join(copy, 'lib', 'vendor', `${name}.cjs`);
      writeFileSync(
        file,
        `require('node:fs').appendFileSync(${JSON.stringify(log)}, '${name} ' + require('node:worker_threads').isMainThread + '\\n');\n${readFileSync(file, 'utf8')}`,
      );
    }
    // And the worker's bundle, each time a worker loads it.
    const bundle = path.join(copy, 'lib', 'pipeline', 'compile-worker-bundle.js');
    writeFileSync(
      bundle,
      `import { appendFileSync as __note } from 'node:fs';\n__note(${JSON.stringify(log)}, 'worker\\n');\n${readFileSync(bundle, 'utf8')}`,
    );
    const loaded = (catalog: string, ...options: string[]) => {
      writeFileSync(log, '');
      run(process.execPath, [path.join(copy, 'lib', 'bin.mjs'), 'build', '--no-cache', ...options], catalog);
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).sort();
    };
    // Plain manifests and settings, enough of them for a worker: neither library, in either thread.
    // On a loaded machine the calling thread can compile all four devices before the worker has
    // loaded its bundle (it is then stopped, having noted nothing): the build is run again, up to
    // five times, until a worker has run, and none of the runs may load either library.
    const plain = path.join(work, 'plain-catalog');
    generateCatalog(plain, { devices: 4, builds: Math.ceil(PARALLEL_THRESHOLD / 4) });
    let notes: string[] = [];
    for (let attempt = 0; attempt < 5 && !notes.includes('worker'); attempt++) {
      notes = loaded(plain);
      expect(notes.filter((note) => note !== 'worker')).toEqual([]);
    }
    expect(notes).toEqual(['worker']);
    expect(loaded(plain, '--threads', '1')).toEqual([]);
    // The example, with changelog blocks and files: both, loaded from lib/vendor/ (on one thread, to know which).
    const example = path.join(work, 'example-vendor');
    cpSync(path.join(EXAMPLE, 'content'), path.join(example, 'content'), { recursive: true });
    expect(loaded(example, '--threads', '1')).toEqual(['yaml true', 'zod true']);
  });

  it('an upgrade of otapress finds none of the cache entries of the version before', () => {
    const cache = path.join(site, 'node_modules', '.cache', 'otapress');
    const entries = () => readdirSync(cache).filter((n) => n.endsWith('.bin'));
    run('npx', ['otapress', 'build']);
    const before = entries();
    const dist = snapshotTree(path.join(site, 'dist'));
    expect(before).toHaveLength(1);
    const packageFile = path.join(site, 'node_modules', 'otapress', 'package.json');
    const original = readFileSync(packageFile, 'utf8');
    try {
      writeFileSync(packageFile, original.replace(`"version": "${VERSION}"`, '"version": "99.0.0"'));
      expect(run('npx', ['otapress', '--version']).stdout).toBe('99.0.0\n');
      run('npx', ['otapress', 'build']);
      expect(entries()).toHaveLength(1);
      expect(entries()).not.toEqual(before);
      expect(snapshotTree(path.join(site, 'dist'))).toEqual(dist);
    } finally {
      writeFileSync(packageFile, original);
    }
  });

  it('the scaffolded workflows run green, step by step, in a fresh clone with an empty npm cache', () => {
    const git = (cwd: string, ...args: string[]) =>
      run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], cwd);
    git(site, 'init', '-q', '-b', 'main');
    git(site, 'add', '-A');
    git(site, 'commit', '-q', '-m', 'catalog');
    expect(git(site, 'status', '--porcelain').stdout).toBe(''); // .gitignore keeps node_modules/ and dist/ out.
    expect(git(site, 'ls-files', 'vendor').stdout).toBe(`vendor/otapress-${VERSION}.tgz\n`);
    // What CI, Netlify and Cloudflare Pages have: the repository alone, no tarball beside it, no cache.
    const clone = path.join(work, 'clone');
    git(work, 'clone', '-q', site, clone);
    rmSync(
      path.join(
        work,
        readdirSync(work).find((f) => f.endsWith('.tgz'))!,
      ),
    );
    const emptyCache = mkdtempSync(path.join(tmpdir(), 'otapress-npm-cache-'));
    const summary = path.join(emptyCache, 'step-summary.md');
    try {
      for (const workflow of workflows()) {
        for (const job of Object.values(
          (
            parse(workflow.text) as {
              jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }>;
            }
          ).jobs,
        )) {
          for (const step of job.steps.filter((s) => s.run !== undefined)) {
            // As the runner does: bash -eo pipefail, the step's env (an expression: the clone's
            // HEAD stands for the pull request's base) and a job summary file.
            const env = Object.fromEntries(
              Object.entries(step.env ?? {}).map(([name, value]) => [name, value.startsWith('${{') ? 'HEAD' : value]),
            );
            // npm ci too: offline, from the lock file and the tarball in vendor/.
            const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
              cwd: clone,
              env: { ...ENV, npm_config_cache: emptyCache, GITHUB_STEP_SUMMARY: summary, ...env },
              encoding: 'utf8',
              timeout: 120_000,
            });
            expect(result.status, `${step.run}\n${result.stdout}\n${result.stderr}`).toBe(0);
          }
        }
      }
      // The diff of the clone with itself: nothing changes for phones.
      expect(readFileSync(summary, 'utf8')).toContain('**no answer phones read differs between HEAD');
    } finally {
      rmSync(emptyCache, { recursive: true, force: true });
    }
    expect(git(clone, 'status', '--porcelain').stdout).toBe('');
    expect(snapshotTree(path.join(clone, 'dist'))).toEqual(snapshotTree(path.join(site, 'dist')));
  });

  it('serve answers the path a phone asks', async () => {
    const child = spawn(path.join(site, 'node_modules', '.bin', 'otapress'), ['serve', '--port', '0'], {
      cwd: site,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 30_000;
      while (!/http:\/\/127\.0\.0\.1:\d+\//.test(output)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(output)![0];
      const response = await fetch(new URL('/api/v1/FP4/stable/eng.root.20241108.123456', url), { redirect: 'manual' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.text()).toBe(readFileSync(path.join(site, 'dist/api/v1/FP4/stable/index.json'), 'utf8'));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
