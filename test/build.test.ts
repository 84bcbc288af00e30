import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build/build.js';
import { main } from '../src/cli.js';
import { ContentError, formatProblem } from '../src/catalog/problems.js';
import { EXAMPLE, ROOT, snapshotTree, tempProject } from './helpers.js';

const GOLDEN = path.join(ROOT, 'test', 'golden');

describe('build of the example catalog', () => {
  it('writes exactly the committed golden tree, and netlify.toml as committed', () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const tree = snapshotTree(path.join(root, 'dist'));
    if (process.env.UPDATE_GOLDEN) {
      rmSync(path.join(GOLDEN, 'dist'), { recursive: true, force: true });
      cpSync(path.join(root, 'dist'), path.join(GOLDEN, 'dist'), { recursive: true });
      cpSync(path.join(root, 'netlify.toml'), path.join(EXAMPLE, 'netlify.toml'));
    }
    expect(tree).toEqual(snapshotTree(path.join(GOLDEN, 'dist')));
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(readFileSync(path.join(EXAMPLE, 'netlify.toml'), 'utf8'));
  });

  it('is byte-identical across runs', () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const first = snapshotTree(path.join(root, 'dist'));
    build({ root });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(first);
  });

  it('leaves no staging or previous folders behind', () => {
    const root = tempProject({ withContent: true });
    build({ root });
    build({ root });
    // node_modules/.cache/otapress is the build cache, where tools keep theirs (git ignores node_modules).
    expect(readdirSync(root).sort()).toEqual(['content', 'dist', 'netlify.toml', 'node_modules']);
    expect(readdirSync(path.join(root, 'node_modules', '.cache'))).toEqual(['otapress']);
  });
});

describe('a failed build', () => {
  it('reports every problem of every file and leaves the previous dist/ byte-for-byte intact', async () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const before = snapshotTree(path.join(root, 'dist'));
    const tomlBefore = readFileSync(path.join(root, 'netlify.toml'), 'utf8');

    const fp4 = path.join(root, 'content', 'FP4');
    const target = path.join(fp4, 'e-2.5-a14-20241108446322-official-FP4.yaml');
    writeFileSync(target, readFileSync(target, 'utf8').replace('version: "2.5"', 'version: 2.50').replace(/^size: .*$/m, 'size: -1'));
    mkdirSync(path.join(root, 'content', 'fp4'));
    writeFileSync(path.join(root, 'content', 'fp4', 'x.yaml'), 'placeholder: true\nversion: "1.0"\nchannel: official\ntimestamp: 1731067200\nandroid_version: "14"\ndisplay_version: x\n');

    let error: unknown;
    try {
      build({ root });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).problems.map(formatProblem)).toEqual([
      'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml:3:10  version  YAML reads 2.50 as the number 2.5, not text; quote it: version: "2.50"',
      'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml:10:7  size  a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)',
      'content/fp4:1:1  (folder)  device folders `FP4` and `fp4` differ only by case; phones ask with the exact name, keep one folder',
    ]);
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(before);
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(tomlBefore);

    const lines: string[] = [];
    const code = await main(['build', '--root', root], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe('3 problems found; nothing was written.');
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(before);
  });

  it('says what is missing when there is no site.yaml', () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content'));
    expect(() => build({ root })).toThrow(ContentError);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('refuses a content/ that is itself a symbolic link (check and build), publishing nothing from where it points', async () => {
    // Another folder's catalog, outside the repository: links inside content/ are refused, and so is content/ itself.
    const outside = tempProject({ withContent: true });
    const root = tempProject();
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'dist', 'index.html'), 'previous');
    symlinkSync(path.join(outside, 'content'), path.join(root, 'content'));
    const problem = 'content:1:1  (folder)  symbolic links are refused (a link can point outside the repository); replace it with the folder itself';
    for (const [command, last] of [['check', '1 problem found.'], ['build', '1 problem found; nothing was written.']]) {
      const lines: string[] = [];
      const code = await main([command, '--root', root], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      expect({ command, code, lines }).toEqual({ command, code: 1, lines: [problem, last] });
    }
    expect(snapshotTree(path.join(root, 'dist'))).toEqual({ 'index.html': 'previous' });
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
  });
});
