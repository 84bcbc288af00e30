// Every command finds its catalog the way git finds its repository, and says which when it is not
// the current folder; --version prints the version.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../src/io.js';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';

describe('the catalog a command works on', () => {
  it('is the nearest folder, from the current one up, that holds content/site.yaml', () => {
    const root = tempProject({ withContent: true });
    const deep = path.join(root, 'content', 'FP4', 'notes', 'more');
    mkdirSync(deep, { recursive: true });
    expect(findProjectRoot(root)).toBe(root);
    expect(findProjectRoot(deep)).toBe(root);
    expect(findProjectRoot(path.join(root, 'content'))).toBe(root);
    // A catalog inside a catalog: the nearest one wins, as with git.
    const inner = path.join(root, 'content', 'FP4', 'notes');
    mkdirSync(path.join(inner, 'content'));
    writeFileSync(path.join(inner, 'content', 'site.yaml'), 'download_base_url: https://example.org\n');
    expect(findProjectRoot(deep)).toBe(inner);
    expect(findProjectRoot(tempProject())).toBeUndefined();
  });

  it('is named on stderr when found above the current folder; paths stay relative to it', () => {
    const root = tempProject({ withContent: true });
    writeFileSync(path.join(root, 'content', 'FP4', 'broken.yaml'), 'version: 2.50\n');
    const found = runOtapress(['check'], { cwd: path.join(root, 'content', 'FP4') });
    expect(found.code).toBe(1);
    expect(found.stderr.split('\n')[0]).toBe(
      `using the catalog in ${root} (the nearest folder above this one with content/site.yaml)`,
    );
    expect(found.stderr).toContain('content/FP4/broken.yaml:1:1');
    const here = runOtapress(['check'], { cwd: root });
    expect(here.stderr).not.toContain('using the catalog');
    expect(here.stderr).toContain('content/FP4/broken.yaml:1:1');
    const named = runOtapress(['check', '--root', root], { cwd: path.join(root, 'content') });
    expect(named.stderr).not.toContain('using the catalog');
  });

  it('is the current folder when no folder above holds a catalog, as before', () => {
    const empty = tempProject();
    const result = runOtapress(['check'], { cwd: empty });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      'content/site.yaml:1:1  (file)  missing: run `npx otapress init` to start a catalog here, or create content/site.yaml with at least `download_base_url: https://...` (see the README)',
    );
  });
});

describe('otapress --version', () => {
  it.each([['--version'], ['-v'], ['version']])('%s prints the version of package.json', async (flag) => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await runMain([flag])).toEqual({ code: 0, out: [version], err: [] });
  });
});
