import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateCatalog } from '../bench/catalog.js';
import { snapshotTree, tempProject } from '../helpers/helpers.js';

// Another build sharing the cache (same project, another --out) may prune a cached file between
// the moment a build checks an entry and the moment it links the entry's files into its tree. The
// build must then compile the device, not fail or leave it half-written. Simulated by removing a
// file of every entry right after it was checked.
const race = { on: false };
vi.mock('../../src/pipeline/cache-entry.js', async (original) => {
  const real = await original<typeof import('../../src/pipeline/cache-entry.js')>();
  return {
    ...real,
    readCacheEntry: (cacheDir: string, key: string) => {
      const hit = real.readCacheEntry(cacheDir, key);
      if (race.on && hit && hit.files.length > 1) rmSync(hit.files[1].source);
      return hit;
    },
  };
});
const { build, compileSite } = await import('../../src/pipeline/build.js');
const { readContent } = await import('../../src/catalog/read.js');

describe('a cached file removed between its check and its link', { timeout: 120_000 }, () => {
  it('is compiled instead: the tree is complete and right', () => {
    const root = tempProject();
    generateCatalog(root, { devices: 4, builds: 8 });
    build({ root });
    race.on = true;
    try {
      build({ root, threads: 1 });
    } finally {
      race.on = false;
    }
    const compiled = compileSite(readContent(root));
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(
      Object.fromEntries(compiled.files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')])),
    );
  });
});
