import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/helpers.js';

// .ci/build-lib.mjs (npm's `prepare`, and `npm run bench` before it measures) rebuilds lib/ while
// other processes may be reading it: a test copying it, a build or `otapress serve` running from it.

const BUILD_LIB = path.join(ROOT, '.ci', 'build-lib.mjs');
const LIB = path.join(ROOT, 'lib');

/** Every file of lib/, by path relative to it. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('rebuilding lib/', { timeout: 180_000 }, () => {
  it('never leaves a file of it missing or half-written, and removes what the build no longer makes', async () => {
    if (!existsSync(path.join(LIB, 'bin.mjs'))) expect(spawnSync(process.execPath, [BUILD_LIB]).status).toBe(0);
    const files = filesOf(LIB);
    // What a process running otapress from lib/ loads first, the bundles, and a library.
    const watched = [
      'bin.mjs',
      'cli.js',
      'pipeline/build-command.js',
      'pipeline/compile-worker-bundle.js',
      'vendor/yaml.cjs',
    ];
    for (const file of watched) expect(files).toContain(file);
    // The sources have not changed: each file must read the same before, during and after.
    const before = new Map(watched.map((file) => [file, readFileSync(path.join(LIB, file), 'latin1')]));
    // Left by an older build: a file and a folder the sources no longer make.
    writeFileSync(path.join(LIB, 'stale-module.js'), 'export {};\n');
    mkdirSync(path.join(LIB, 'stale-folder'), { recursive: true });
    writeFileSync(path.join(LIB, 'stale-folder', 'x.js'), 'export {};\n');

    const child = spawn(process.execPath, [BUILD_LIB], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let running = true;
    void exited.then(() => (running = false));
    const seen: string[] = [];
    let reads = 0;
    while (running) {
      for (const file of watched) {
        let text: string | undefined;
        try {
          text = readFileSync(path.join(LIB, file), 'latin1');
        } catch (error) {
          seen.push(`${file}: ${(error as NodeJS.ErrnoException).code}`);
        }
        if (text !== undefined && text !== before.get(file))
          seen.push(`${file}: ${text.length} bytes, not ${before.get(file)!.length}`);
        reads++;
      }
      // Let the exit event in between rounds of reads.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await exited, stderr).toBe(0);
    expect(reads).toBeGreaterThan(watched.length);
    expect(seen.slice(0, 5)).toEqual([]);
    expect(filesOf(LIB)).toEqual(files);
    // Nothing of the build is left beside lib/.
    expect(readdirSync(ROOT).filter((name) => name.startsWith('.lib-building-'))).toEqual([]);
  });
});
