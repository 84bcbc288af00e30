import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout rule of src/ (README, Development): wings import downward only, and nothing imports in
// a circle. Lower rank = lower floor; a wing may import its own files and any wing of lower rank.
const RANKS: Record<string, number> = {
  catalog: 0,
  render: 1,
  hosts: 2,
  import: 2,
  ota: 2,
  probe: 2,
  pipeline: 3,
  // What phones are offered before and after a change: compiles both sides through pipeline/.
  diff: 3.5,
  commands: 4,
  cli: 5,
};
// ota (the zip reader, metadata, hashing) is the commands' alone: no other wing reads OTA zips.
const ONLY_FOR: Record<string, string[]> = { ota: ['commands'] };

const SRC = path.resolve(import.meta.dirname, '../../src');
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .map((f) => f.split(path.sep).join('/'))
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .sort();

/** The wing of a file: its folder, or for the files directly in src/ the CLI (io.ts is the commands' shared module). */
function wingOf(file: string): string {
  if (file === 'io.ts') return 'commands';
  return file.includes('/') ? file.split('/')[0] : 'cli';
}

/** The src/ files a file imports (static, dynamic and re-exports), as paths relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map(
    (m) => m[1],
  );
  return specifiers.map((s) => {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), s));
    const candidates = [resolved, resolved.replace(/\.js$/, '.ts')];
    const found = candidates.find((c) => files.includes(c));
    if (!found) throw new Error(`${file} imports ${s}, which is not a file of src/`);
    return found;
  });
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('the layout of src/', () => {
  it('every file belongs to a known wing', () => {
    expect(files.filter((f) => !(wingOf(f) in RANKS))).toEqual([]);
  });

  it('imports go downward only: to the same wing or a wing on a lower floor', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const [from, to] = [wingOf(file), wingOf(target)];
        if (from === to) continue;
        if (RANKS[to] >= RANKS[from] || (ONLY_FOR[to] && !ONLY_FOR[to].includes(from)))
          upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file)!) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  // How long a file may grow is left to test/cli/function-length.test.ts: no function over 100 lines.
  it('keeps the house small: at most 4 entry files in src/, at least 4 wings', () => {
    expect(files.filter((f) => !f.includes('/')).length).toBeLessThanOrEqual(4);
    expect(new Set(files.filter((f) => f.includes('/')).map(wingOf)).size).toBeGreaterThanOrEqual(4);
  });

  it('sees the imports it checks (a check that finds none could not fail)', () => {
    expect(graph.get('cli.ts')).toContain('commands/build.ts');
    expect(graph.get('pipeline/build.ts')).toContain('catalog/read.ts');
    expect(graph.get('pipeline/compile-worker.mjs')).toContain('pipeline/compile-devices.ts');
  });
});

describe('the layout of test/', () => {
  const TEST = path.resolve(import.meta.dirname, '..');
  const wings = [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]))].sort();

  // Tools that draw or index a codebase skip folders with these names as generated output.
  it('names no folder of src/ as build output', () => {
    const folders = (readdirSync(SRC, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.filter((f) => ['build', 'dist', 'out', 'lib', 'output'].includes(f))).toEqual([]);
  });

  it('has a test folder for every wing of src/, and one for the CLI and the package', () => {
    const tested = readdirSync(TEST, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(wings.length).toBeGreaterThanOrEqual(4);
    expect(
      [...wings, 'cli'].filter(
        (w) => !tested.includes(w) || !readdirSync(path.join(TEST, w)).some((f) => f.endsWith('.test.ts')),
      ),
    ).toEqual([]);
  });

  it('keeps at most three test files at the top of test/', () => {
    expect(readdirSync(TEST).filter((f) => /\.test\.ts$/.test(f)).length).toBeLessThanOrEqual(3);
  });
});
