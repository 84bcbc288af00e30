import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { readContent } from '../../src/catalog/read.js';
import { changedDevicesRebuild } from '../../src/pipeline/rebuild.js';
import { DeflatedFiles, fullRebuild, type RebuildResult } from '../../src/pipeline/rebuild.js';
import { deviceName, generateCatalog, manifest } from '../bench/catalog.js';
import { tempProject } from '../helpers/helpers.js';

/** Served path → text, for exact comparison of two trees. */
const served = (result: RebuildResult) => {
  expect(result.problems.map(formatProblem)).toEqual([]);
  return Object.fromEntries(
    [...result.tree!.files].map(([p, contents]) => [p, Buffer.from(contents).toString('latin1')]),
  );
};

function project() {
  const root = tempProject();
  generateCatalog(root, { devices: 6, builds: 10 });
  const file = (d: number, i = 0) => {
    const dir = path.join(root, 'content', deviceName(d));
    const name = readdirSync(dir).sort()[i];
    return { absolute: path.join(dir, name), relative: `content/${deviceName(d)}/${name}` };
  };
  return { root, file, rebuild: changedDevicesRebuild(root), full: () => served(fullRebuild(root)([])) };
}

describe('the preview rebuild', () => {
  it('serves the tree of a full rebuild after every kind of change inside device folders', () => {
    const { root, file, rebuild, full } = project();
    expect(served(rebuild([]))).toEqual(full());

    const changed = file(2);
    writeFileSync(changed.absolute, readFileSync(changed.absolute, 'utf8').replace(/^size: \d+$/m, 'size: 4242'));
    const afterChange = served(rebuild([changed.relative]));
    expect(afterChange).toEqual(full());
    expect(Object.values(afterChange).some((body) => body.includes('"size":4242,'))).toBe(true);

    // A new device folder, a removed manifest, a removed device folder.
    const added = path.join(root, 'content', deviceName(7));
    mkdirSync(added);
    const { name, text } = manifest(7, 0, 10);
    writeFileSync(path.join(added, name), text);
    expect(served(rebuild([`content/${deviceName(7)}`, `content/${deviceName(7)}/${name}`]))).toEqual(full());
    const removed = file(3, 4);
    rmSync(removed.absolute);
    expect(served(rebuild([removed.relative]))).toEqual(full());
    rmSync(path.join(root, 'content', deviceName(4)), { recursive: true });
    expect(served(rebuild([`content/${deviceName(4)}`]))).toEqual(full());

    // Site settings and files beside them rebuild everything.
    const site = path.join(root, 'content', 'site.yaml');
    writeFileSync(site, readFileSync(site, 'utf8').replace('images.example.org', 'mirror.example.net'));
    expect(served(rebuild(['content/site.yaml']))).toEqual(full());
  });

  it('re-renders only the device that changed: the other listings are the very same objects', () => {
    const { root, file } = project();
    changedDevicesRebuild(root)([]); // Fills the build cache: the next preview starts from its buffers, whose identity shows.
    const rebuild = changedDevicesRebuild(root);
    const before = rebuild([]).tree!.files;
    const changed = file(1);
    writeFileSync(changed.absolute, readFileSync(changed.absolute, 'utf8').replace(/^size: \d+$/m, 'size: 4242'));
    const after = rebuild([changed.relative]).tree!.files;
    const listings = [...after.keys()].filter((p) => p.startsWith('/api/v1/') && p.endsWith('/index.json'));
    // The preview keeps files deflated and inflates them per request: compare what it keeps.
    const stored = (files: typeof after, p: string) => (files as DeflatedFiles).storedAt(p);
    expect(stored(after, listings[0])).toBeDefined();
    const rerendered = listings.filter((p) => stored(after, p) !== stored(before, p));
    expect(rerendered.sort()).toEqual(
      ['community', 'dev', 'official', 'stable'].map((l) => `/api/v1/${deviceName(1)}/${l}/index.json`),
    );
  });

  it('reports the problems a full build reports, keeps them until fixed, then serves again', () => {
    const { root, file, rebuild, full } = project();
    rebuild([]);
    const broken = file(5, 2);
    const text = readFileSync(broken.absolute, 'utf8');
    writeFileSync(broken.absolute, text.replace(/^version: .*$/m, 'version: 2.10'));
    writeFileSync(path.join(root, 'content', deviceName(0), 'notes.yml'), 'a: 1\n');
    const result = rebuild([broken.relative, `content/${deviceName(0)}/notes.yml`]);
    expect(result.tree).toBeUndefined();
    expect(result.problems).toEqual(compileSite(readContent(root)).problems);
    expect(result.problems).toHaveLength(2);
    // Fixing one file leaves the other problem.
    writeFileSync(broken.absolute, text);
    expect(rebuild([broken.relative]).problems.map((p) => p.file)).toEqual([`content/${deviceName(0)}/notes.yml`]);
    rmSync(path.join(root, 'content', deviceName(0), 'notes.yml'));
    expect(served(rebuild([`content/${deviceName(0)}/notes.yml`]))).toEqual(full());
  });
});
