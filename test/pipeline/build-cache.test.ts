import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { cacheDirOf } from '../../src/pipeline/cache-key.js';
import { changedDevicesRebuild } from '../../src/pipeline/rebuild.js';
import { listContent, readContent, readManifests } from '../../src/catalog/read.js';
import { deviceKey } from '../../src/pipeline/cache-key.js';
import { compileSettings, filesByDevice } from '../../src/pipeline/compile-device.js';
import { compileDevices } from '../../src/pipeline/compile-devices.js';
import { deviceName, generateCatalog } from '../bench/catalog.js';
import { ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

// The build cache keeps each rendered file as a hard link to the file the build wrote into dist/
// (src/pipeline/cache-entry.ts): filling it copies nothing, a warm build links instead of writing. These
// tests are about what that sharing could break: dist/ edited in place, replaced, or elsewhere.

function catalog(): string {
  const root = tempProject();
  generateCatalog(root, { devices: 6, builds: 12 });
  return root;
}

function reference(root: string): Record<string, string> {
  const compiled = compileSite(readContent(root));
  expect(compiled.problems).toEqual([]);
  return Object.fromEntries(compiled.files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')]));
}

const listing = (out: string, d = 2) => path.join(out, 'api', 'v1', deviceName(d), 'dev', 'index.json');
/** The cache's files (not the entries), by inode. */
const cachedInodes = (root: string) =>
  new Set(
    readdirSync(cacheDirOf(root))
      .filter((n) => /^[0-9a-f]{64}\.\d+$/.test(n))
      .map((n) => statSync(path.join(cacheDirOf(root), n)).ino),
  );

describe('the build cache shares its files with dist/', { timeout: 120_000 }, () => {
  it('stores no second copy of a cold build: every device file of dist/ is a cache file, and a warm build links them back', () => {
    const root = catalog();
    build({ root });
    const dist = path.join(root, 'dist');
    const inodes = cachedInodes(root);
    const deviceFiles = Object.keys(snapshotTree(dist)).filter(
      (p) => p.includes(`/${deviceName(0)}/`) && !p.includes('/404.'),
    );
    expect(deviceFiles.length).toBeGreaterThan(4);
    for (const file of deviceFiles) expect(inodes.has(statSync(path.join(dist, file)).ino)).toBe(true);
    expect(inodes.size).toBe(readdirSync(cacheDirOf(root)).filter((n) => !n.endsWith('.bin')).length);
    const all = Object.keys(snapshotTree(dist)).map((p) => statSync(path.join(dist, p)).ino);
    expect(all.filter((ino) => inodes.has(ino))).toHaveLength(inodes.size);

    build({ root }); // Warm: the same inodes again, in a new tree.
    for (const file of deviceFiles) expect(inodes.has(statSync(path.join(dist, file)).ino)).toBe(true);
    expect(snapshotTree(dist)).toEqual(reference(root));
  });

  it.each([
    [
      'the same number of bytes written over a listing in place',
      (file: string) => {
        const text = readFileSync(file, 'latin1');
        const before = statSync(file, { bigint: true }).mtimeNs;
        // Wait for the clock to move on, so that the premise (a changed modification time) holds on any file system.
        while (Date.now() * 1e6 <= Number(before) + 2e7);
        writeFileSync(file, text.replace('"size":', '"sizf":'), { flag: 'r+' });
      },
    ],
    ['a listing truncated in place', (file: string) => writeFileSync(file, '')],
    ['a listing appended to', (file: string) => writeFileSync(file, '\n', { flag: 'a' })],
    [
      'a listing edited, its modification time put back by hand (the size tells)',
      (file: string) => {
        const { atime, mtime } = statSync(file);
        writeFileSync(file, `${readFileSync(file, 'latin1')} `);
        utimesSync(file, atime, mtime);
      },
    ],
  ])('is not corrupted by %s in dist/: the next builds write the right tree', (_, edit) => {
    const root = catalog();
    build({ root });
    const dist = path.join(root, 'dist');
    const expected = reference(root);
    edit(listing(dist));
    expect(readFileSync(listing(dist), 'latin1')).not.toBe(expected[path.relative(dist, listing(dist))]);
    build({ root });
    expect(snapshotTree(dist)).toEqual(expected);
    build({ root }); // And the entry stored by that build is right too.
    expect(snapshotTree(dist)).toEqual(expected);
  });

  it('keeps its files when dist/ is removed or replaced, and fills a new dist/ from them', () => {
    const root = catalog();
    build({ root });
    const inodes = cachedInodes(root);
    const dist = path.join(root, 'dist');
    rmSync(dist, { recursive: true });
    build({ root });
    expect(snapshotTree(dist)).toEqual(reference(root));
    // From the cache: the very same files.
    expect(inodes.has(statSync(listing(dist)).ino)).toBe(true);
    // A deploy tool replacing a file (new file, renamed over) leaves the cache's bytes alone.
    const text = readFileSync(listing(dist), 'latin1');
    writeFileSync(`${listing(dist)}.new`, 'replaced');
    rmSync(listing(dist));
    writeFileSync(listing(dist), 'replaced');
    rmSync(`${listing(dist)}.new`);
    build({ root });
    expect(readFileSync(listing(dist), 'latin1')).toBe(text);
    expect(inodes.has(statSync(listing(dist)).ino)).toBe(true);
  });

  it('copies where dist/ is on another file system, and the tree is the same', () => {
    if (!existsSync('/dev/shm') || statSync('/dev/shm').dev === statSync(tempProject()).dev) return; // Needs a second file system.
    const root = catalog();
    const out = mkdtempSync(path.join('/dev/shm', 'otapress-out-'));
    try {
      const outDir = path.join(out, 'dist');
      build({ root, outDir });
      expect(cachedInodes(root).has(statSync(listing(outDir)).ino)).toBe(false);
      writeFileSync(listing(outDir), 'edited', { flag: 'r+' });
      build({ root, outDir });
      expect(snapshotTree(outDir)).toEqual(reference(root));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('gives the preview the bytes of a cache a build filled, and a build the bytes the preview stored', () => {
    const root = catalog();
    build({ root });
    const served = (files: ReturnType<ReturnType<typeof changedDevicesRebuild>>) => files.tree!.files;
    const first = served(changedDevicesRebuild(root)([]));
    rmSync(cacheDirOf(root), { recursive: true });
    const second = served(changedDevicesRebuild(root)([])); // Stores the entries as files of its own.
    const p = `/${path.relative(path.join(root, 'dist'), listing(path.join(root, 'dist')))}`;
    const text = readFileSync(listing(path.join(root, 'dist')), 'latin1');
    expect(Buffer.from(first.get(p)!).toString('latin1')).toBe(text);
    expect(Buffer.from(second.get(p)!).toString('latin1')).toBe(text);
    build({ root });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(reference(root));
  });
});

describe('the key of a device', { timeout: 120_000 }, () => {
  it('covers every other file in its folder (a device.yaml, change logs), so that an output made from them is never stale', () => {
    const root = catalog();
    const compile = () => {
      const listing = listContent(root);
      const { site } = compileSettings(listing);
      compileDevices(filesByDevice(listing), listing.site!, site!, { cacheDir: cacheDirOf(root), root, threads: 1 });
      return new Set(readdirSync(cacheDirOf(root)).filter((n) => n.endsWith('.bin')));
    };
    const changed = (before: Set<string>, after: Set<string>) => [...after].filter((k) => !before.has(k)).length;
    const first = compile();
    expect(changed(first, compile())).toBe(0);
    const folder = path.join(root, 'content', deviceName(3));
    writeFileSync(path.join(folder, 'device.yaml'), 'name: Phone\n');
    const added = compile();
    expect(changed(first, added)).toBe(1);
    writeFileSync(path.join(folder, 'device.yaml'), 'name: Phone 2\n');
    const edited = compile();
    expect(changed(added, edited)).toBe(1);
    mkdirSync(path.join(folder, 'changes'));
    writeFileSync(path.join(folder, 'changes', 'a.md'), 'one');
    const nested = compile();
    expect(changed(edited, nested)).toBe(1);
    writeFileSync(path.join(folder, 'changes', 'a.md'), 'two');
    expect(changed(nested, compile())).toBe(1);
  });
});

describe('the key of a device, from the listing', { timeout: 120_000 }, () => {
  it("is the one the folder's own listing gives: the other entries are those the build listed beside the manifests", () => {
    const root = catalog();
    const device = deviceName(2);
    const folder = path.join(root, 'content', device);
    writeFileSync(path.join(folder, 'README.md'), 'notes\n');
    writeFileSync(path.join(folder, 'zz.txt'), 'last\n');
    mkdirSync(path.join(folder, '.notes'));
    writeFileSync(path.join(folder, '.notes', 'a.md'), 'one');
    const listing = listContent(root);
    expect(listing.problems).toEqual([]);
    expect(listing.others.get(device)).toEqual(['.notes', 'README.md', 'zz.txt']);
    expect(listing.others.get(deviceName(1))).toEqual([]);
    const group = filesByDevice(listing).find((g) => g.device === device)!;
    expect(group.others).toEqual(['.notes', 'README.md', 'zz.txt']);
    const { manifests } = readManifests(root, group.files);
    const base = '0'.repeat(64);
    const listed = deviceKey(base, device, manifests, root, group.others);
    expect(listed).toBe(deviceKey(base, device, manifests, root));
    // And a change in the entries found either way is another key.
    writeFileSync(path.join(folder, '.notes', 'a.md'), 'two');
    expect(deviceKey(base, device, manifests, root, group.others)).not.toBe(listed);
    expect(deviceKey(base, device, manifests, root, group.others)).toBe(deviceKey(base, device, manifests, root));
  });
});

describe("the key of otapress's own code", { timeout: 180_000 }, () => {
  it('changes with any source file of the package (told by its size and modification time), and not otherwise', () => {
    if (!existsSync(path.join(ROOT, 'lib', 'bin.mjs')))
      expect(spawnSync(process.execPath, [path.join(ROOT, '.ci', 'build-lib.mjs')]).status).toBe(0);
    const pkg = tempProject();
    cpSync(path.join(ROOT, 'lib'), path.join(pkg, 'lib'), { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    const root = catalog();
    const keys = () => {
      const result = spawnSync(process.execPath, [path.join(pkg, 'lib', 'bin.mjs'), 'build', '--root', root], {
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      return readdirSync(cacheDirOf(root))
        .filter((n) => n.endsWith('.bin'))
        .sort();
    };
    const first = keys();
    expect(first).toHaveLength(6);
    expect(keys()).toEqual(first);
    const source = path.join(pkg, 'lib', 'render', 'v1.js');
    const later = new Date(statSync(source).mtimeMs + 5000);
    utimesSync(source, later, later);
    const after = keys();
    expect(after).toHaveLength(6);
    expect(after.filter((k) => first.includes(k))).toEqual([]);
  });
});

describe('pruning the build cache', { timeout: 120_000 }, () => {
  it('removes the temporary files of a killed build, and keeps those of a build still running', async () => {
    const root = catalog();
    build({ root });
    const cache = cacheDirOf(root);
    const key = readdirSync(cache)
      .find((n) => n.endsWith('.bin'))!
      .slice(0, 64);
    // A process that has exited: its pid is free (and not reused within the test).
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const stale = [`.${key}.${dead}.tmp`, `.${key}.3.${dead}.tmp`];
      const running = [`.${key}.${alive.pid}.tmp`, `.${key}.0.${alive.pid}.tmp`];
      const foreign = ['notes.txt', `.${key}.tmp`];
      for (const name of [...stale, ...running, ...foreign]) writeFileSync(path.join(cache, name), 'partial');
      build({ root });
      const names = readdirSync(cache);
      for (const name of stale) expect(names).not.toContain(name);
      for (const name of [...running, ...foreign]) expect(names).toContain(name);
    } finally {
      alive.kill();
    }
  });
});
