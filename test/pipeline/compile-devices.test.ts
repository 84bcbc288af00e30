import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { cacheDirOf } from '../../src/pipeline/cache-key.js';
import { compileDevice, compileSettings, filesByDevice, groupByDevice } from '../../src/pipeline/compile-device.js';
import { main } from '../../src/cli.js';
import { compileDevices, PARALLEL_THRESHOLD } from '../../src/pipeline/compile-devices.js';
import { prestartForBuild, prestartWorkers, WARM_PARALLEL_THRESHOLD } from '../../src/pipeline/worker-pool.js';
import { ContentError, formatProblem } from '../../src/catalog/problems.js';
import { listContent, readContent } from '../../src/catalog/read.js';
import { MAX_SOURCE_BYTES } from '../../src/catalog/yaml-source.js';
import { stageTree } from '../../src/pipeline/write.js';
import { deviceName, generateCatalog } from '../bench/catalog.js';
import { snapshotTree, tempProject } from '../helpers/helpers.js';

/** A generated catalog of 12 devices x 15 builds, in a temporary project. */
function catalog(): string {
  const root = tempProject();
  generateCatalog(root, { devices: 12, builds: 15 });
  return root;
}

/** The tree compileSite renders in memory, as path → text: the single-threaded reference. */
function reference(root: string): Record<string, string> {
  const compiled = compileSite(readContent(root));
  expect(compiled.problems).toEqual([]);
  return Object.fromEntries(compiled.files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')]));
}

/** Runs compileDevices into a fresh staging folder; returns the tree written and the problems. */
function compileInto(root: string, options: Parameters<typeof compileDevices>[3]) {
  const content = readContent(root);
  const { site } = compileSettings(content);
  const tree = stageTree(path.join(tempProject(), 'out'));
  const outputs = compileDevices(groupByDevice(content), content.site!, site!, { ...options, writeTo: tree.staging });
  return { tree: snapshotTree(tree.staging), outputs };
}

const manifestOf = (root: string, d: number, index = 0) => {
  const dir = path.join(root, 'content', deviceName(d));
  return path.join(dir, readdirSync(dir).sort()[index]);
};

describe('compiling on several threads', { timeout: 60_000 }, () => {
  it('writes byte for byte the listings of a single-threaded compile, whichever thread compiles which device', () => {
    const root = catalog();
    // What compileDevice renders for each device, one after the other on this thread: listings, v2 answers, pages, feeds.
    const content = readContent(root);
    const { site } = compileSettings(content);
    const listings = Object.fromEntries(
      groupByDevice(content)
        .flatMap((g) => compileDevice(g.device, g.manifests, site!).files)
        .map((f) => [f.path, Buffer.from(f.contents).toString('latin1')]),
    );
    expect(Object.keys(listings).filter((p) => p.startsWith('api/v1/'))).toHaveLength(12 * 4);
    const whole = reference(root);
    for (const [p, text] of Object.entries(listings)) expect(whole[p]).toBe(text);
    const one = compileInto(root, { threads: 1 });
    const workersOnly = compileInto(root, { threads: 3, workersFrom: 0, callerCompiles: false });
    const shared = compileInto(root, { threads: 2, workersFrom: 0 });
    expect(one.tree).toEqual(listings);
    expect(workersOnly.tree).toEqual(listings);
    expect(shared.tree).toEqual(listings);
    expect(workersOnly.outputs.map((o) => [o.device, o.counts])).toEqual(one.outputs.map((o) => [o.device, o.counts]));
  });

  it('reports the same problems in the same order as a single-threaded build', () => {
    const root = catalog();
    for (const d of [1, 5, 9]) {
      const file = manifestOf(root, d);
      writeFileSync(
        file,
        readFileSync(file, 'utf8')
          .replace(/^version: .*$/m, 'version: 2.10')
          .replace(/^channel: .*$/m, 'channel: nightly'),
      );
    }
    const copied = manifestOf(root, 7, 2);
    writeFileSync(copied.replace(/\.yaml$/, '.copy.yaml'), readFileSync(copied)); // The same id and filename twice.
    const expected = compileSite(readContent(root)).problems.map(formatProblem);
    expect(expected).toHaveLength(5);
    const problems = (options: object) => {
      try {
        build({ root, cache: false, ...options });
      } catch (error) {
        return (error as ContentError).problems.map(formatProblem);
      }
      throw new Error('the build should have failed');
    };
    expect(problems({ threads: 1 })).toEqual(expected);
    const content = readContent(root);
    const { site } = compileSettings(content);
    const outputs = compileDevices(groupByDevice(content), content.site!, site!, {
      threads: 2,
      workersFrom: 0,
      callerCompiles: false,
    });
    expect(
      outputs
        .flatMap((o) => o.problems)
        .map(formatProblem)
        .sort(),
    ).toEqual([...expected].sort());
  });

  it("reads each device on the thread that takes it: a manifest that cannot be read is that device's problem, as in a single-threaded check", () => {
    const root = catalog();
    const big = manifestOf(root, 6, 1);
    writeFileSync(big, `${readFileSync(big, 'utf8')}#${'x'.repeat(MAX_SOURCE_BYTES)}\n`);
    const expected = compileSite(readContent(root)).problems.map(formatProblem);
    expect(expected).toEqual([expect.stringMatching(/^content\/[^ ]+:1:1 {2}\(file\) {2}the file is \d+ bytes/)]);
    const listing = listContent(root);
    const { site } = compileSettings(listing);
    const outputs = compileDevices(filesByDevice(listing), listing.site!, site!, {
      root,
      threads: 2,
      workersFrom: 0,
      callerCompiles: false,
    });
    expect(outputs.flatMap((o) => o.problems).map(formatProblem)).toEqual(expected);
    expect(outputs.find((o) => o.problems.length > 0)?.files).toEqual([]);
    for (const threads of [1, 2]) {
      let failed: ContentError | undefined;
      try {
        build({ root, threads });
      } catch (error) {
        failed = error as ContentError;
      }
      expect(failed?.problems.map(formatProblem)).toEqual(expected);
    }
  });

  it('takes devices from the cache on the workers too, as a warm build of many manifests does: the same tree', () => {
    const root = catalog();
    const cacheDir = path.join(tempProject(), 'cache');
    const one = compileInto(root, { threads: 1, cacheDir });
    expect(readdirSync(cacheDir).filter((n) => n.endsWith('.bin'))).toHaveLength(12);
    const cached = readdirSync(cacheDir).sort();
    // Every device left to the workers: each links its cached files into the tree.
    const warm = compileInto(root, { threads: 3, workersFrom: 0, callerCompiles: false, cacheDir });
    expect(warm.tree).toEqual(one.tree);
    expect(warm.outputs).toEqual(one.outputs);
    expect(readdirSync(cacheDir).sort()).toEqual(cached);
  });

  it('gives the job to workers started ahead of it, and stops the ones it does not take', async () => {
    const root = catalog();
    const one = compileInto(root, { threads: 1 });
    const pool = prestartWorkers(2);
    let taken = 0;
    const take = pool.take;
    pool.take = (count) => {
      const workers = take(count);
      taken += workers.length;
      return workers;
    };
    // Every device left to the workers, on 2 threads: one worker, taken from the pool.
    const pooled = compileInto(root, { threads: 2, workersFrom: 0, callerCompiles: false, pool });
    expect(taken).toBe(1);
    expect(pooled.tree).toEqual(one.tree);
    expect(pooled.outputs.map((o) => [o.device, o.counts])).toEqual(one.outputs.map((o) => [o.device, o.counts]));
    await pool.close(); // The one never taken ends.
    // And beside the calling thread, as a cold build does.
    const beside = prestartWorkers(1);
    expect(compileInto(root, { threads: 2, pool: beside }).tree).toEqual(one.tree);
    await beside.close();
  });

  it('starts the workers of a cold build of a large catalog before compiling, and still writes the same tree, or the same problems', () => {
    const root = tempProject();
    generateCatalog(root, { devices: 6, builds: Math.ceil(PARALLEL_THRESHOLD / 6) });
    const expected = reference(root);
    build({ root, cache: false, threads: 2 });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(expect.objectContaining(expected));
    // Workers started for a build whose settings turn out invalid are stopped with it.
    const site = path.join(root, 'content', 'site.yaml');
    writeFileSync(
      site,
      readFileSync(site, 'utf8').replace(/^download_base_url: .*$/m, 'download_base_url: ftp://nowhere'),
    );
    expect(() => build({ root, cache: false, threads: 2 })).toThrow(ContentError);
  });

  it('starts workers ahead for the build command only for a build worth them: cold, or warm with many manifests to read', async () => {
    const root = tempProject();
    generateCatalog(root, { devices: 3, builds: Math.ceil(PARALLEL_THRESHOLD / 3) });
    const workersOf = async (at: string, options: { cache: boolean; threads?: number }) => {
      const pool = prestartForBuild(at, options);
      const taken = pool?.take(5) ?? [];
      for (const { worker } of taken) await worker.terminate();
      await pool?.close();
      return taken.length;
    };
    const workers = (options: { cache: boolean; threads?: number }) => workersOf(root, options);
    expect(await workers({ cache: true, threads: 3 })).toBe(2); // No cache folder yet: a fresh clone.
    expect(await workers({ cache: true, threads: 1 })).toBe(0);
    build({ root, threads: 2 });
    expect(await workers({ cache: true, threads: 3 })).toBe(0); // The cache may hold every device, and they are few.
    expect(await workers({ cache: false, threads: 3 })).toBe(2);
    // A warm build of many manifests reads them all to find its devices in the cache: worth a worker.
    const large = tempProject();
    generateCatalog(large, { devices: 2, builds: WARM_PARALLEL_THRESHOLD / 2 });
    mkdirSync(cacheDirOf(large), { recursive: true });
    expect(await workersOf(large, { cache: true, threads: 3 })).toBe(1);
    rmSync(manifestOf(large, 1));
    expect(await workersOf(large, { cache: true, threads: 3 })).toBe(0);
    const small = tempProject();
    generateCatalog(small, { devices: 3, builds: 10 });
    expect(await workers({ cache: false, threads: 3 })).toBe(2);
    expect(prestartForBuild(small, { cache: false, threads: 3 })).toBeUndefined();
    expect(prestartForBuild(path.join(small, 'missing'), { cache: false, threads: 3 })).toBeUndefined();
  });

  it('is refused with a usage error for a thread count that is not a whole number', async () => {
    const lines: string[] = [];
    const code = await main(['build', '--root', catalog(), '--threads', '0'], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code).toBe(2);
    expect(lines[0].split('\n')[0]).toBe('--threads is a whole number of at least 1, not 0');
  });
});

describe('the build cache', { timeout: 60_000 }, () => {
  it('rebuilds a changed device and serves the unchanged ones: the tree equals a build without cache', () => {
    const root = catalog();
    build({ root });
    const entries = readdirSync(cacheDirOf(root));
    expect(entries.filter((n) => n.endsWith('.bin'))).toHaveLength(12);

    const file = manifestOf(root, 4);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^size: (\d+)$/m, 'size: 12345'));
    build({ root });
    const tree = snapshotTree(path.join(root, 'dist'));
    expect(tree).toEqual(reference(root));
    expect(
      tree[`api/v1/${deviceName(4)}/${'official'}/index.json`] + tree[`api/v1/${deviceName(4)}/dev/index.json`],
    ).toContain('"size":12345');
    // The entry of the old version of the device is gone with its files; the others are the same files.
    const after = readdirSync(cacheDirOf(root));
    const keys = (names: string[]) => new Set(names.map((n) => n.split('.')[0]));
    expect(keys(after).size).toBe(12);
    expect(after.filter((n) => n.endsWith('.bin'))).toHaveLength(12);
    expect([...keys(after)].filter((k) => !keys(entries).has(k))).toHaveLength(1);
    expect(after.length).toBe(entries.length);
  });

  it.each([
    [
      'changed site settings',
      (root: string) =>
        writeFileSync(
          path.join(root, 'content', 'site.yaml'),
          readFileSync(path.join(root, 'content', 'site.yaml'), 'utf8').replace(
            'images.example.org',
            'mirror.example.net',
          ),
        ),
    ],
    [
      'a renamed manifest',
      (root: string) => {
        const file = manifestOf(root, 2, 3);
        writeFileSync(file.replace(/\.yaml$/, '-renamed.yaml'), readFileSync(file));
        writeFileSync(file, '');
      },
    ],
  ])('never serves an entry made for other inputs: %s', (_, change) => {
    const root = catalog();
    build({ root });
    change(root);
    let failed: ContentError | undefined;
    try {
      build({ root });
    } catch (error) {
      failed = error as ContentError;
    }
    const compiled = compileSite(readContent(root));
    if (compiled.problems.length > 0) expect(failed?.problems).toEqual(compiled.problems);
    else expect(snapshotTree(path.join(root, 'dist'))).toEqual(reference(root));
  });

  it.each([
    ['truncated', (data: Buffer) => data.subarray(0, data.length - 100)],
    ['cut after the header', (data: Buffer) => data.subarray(0, data.indexOf(10) + 1)],
    [
      'with one byte of the header changed',
      (data: Buffer) =>
        Buffer.concat([data.subarray(0, data.length - 10), Buffer.from('X'), data.subarray(data.length - 9)]),
    ],
    ['empty', () => Buffer.alloc(0)],
    ['garbage', () => Buffer.from('\u0000\u0001not a cache entry\n{"format":')],
    [
      'with a header that lies about the files',
      (data: Buffer) =>
        Buffer.from(data.toString('latin1').replace(/"counts":\{"builds":\d+/, '"counts":{"builds":999'), 'latin1'),
    ],
  ])('ignores an entry that is %s, and replaces it', (_, damage) => {
    const root = catalog();
    build({ root });
    const cache = cacheDirOf(root);
    const names = readdirSync(cache).sort();
    // The entries (their files are hard links into dist/: see test/pipeline/build-cache.test.ts for those).
    for (const name of names.filter((n) => n.endsWith('.bin')))
      writeFileSync(path.join(cache, name), damage(readFileSync(path.join(cache, name))));
    const built = build({ root });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(reference(root));
    expect(built.builds).toBe(12 * 15);
    // Rewritten whole: a third build reads them back and writes the same tree.
    expect(readdirSync(cache).sort()).toEqual(names);
    build({ root });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(reference(root));
  });
});
