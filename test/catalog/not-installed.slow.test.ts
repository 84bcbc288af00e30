// Running otapress before `npm ci` (or after one that did not finish) says so in one line, instead
// of Node's ERR_MODULE_NOT_FOUND stack.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempProject } from '../helpers/helpers.js';

/** A copy of otapress (src/ and package.json) with only the installed packages `keep` lets through. */
function copyWithPackages(keep: (name: string) => boolean): string {
  const root = tempProject();
  cpSync(path.join(ROOT, 'src'), path.join(root, 'src'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  const names = readdirSync(path.join(ROOT, 'node_modules')).filter((n) => !n.startsWith('.') && keep(n));
  if (names.length > 0) mkdirSync(path.join(root, 'node_modules'));
  for (const name of names) symlinkSync(path.join(ROOT, 'node_modules', name), path.join(root, 'node_modules', name));
  return root;
}

const run = (root: string) =>
  spawnSync(process.execPath, [path.join(root, 'src', 'bin.mjs'), 'check', '--root', root], {
    cwd: root,
    encoding: 'utf8',
  });

describe('otapress before npm ci', () => {
  it.each([
    ['nothing installed', () => false, 'tsx'],
    ['an install that stopped before zod', (name: string) => name !== 'zod', 'zod'],
    // Both are loaded only when content needs them (src/catalog/libraries.ts), yet missing at the start.
    ['an install that stopped before yaml', (name: string) => name !== 'yaml', 'yaml'],
  ])('%s: one line that says to run npm ci, exit 3', { timeout: 60_000 }, (_, keep, missing) => {
    const root = copyWithPackages(keep);
    const result = run(root);
    expect({ code: result.status, stderr: result.stderr, stdout: result.stdout }).toEqual({
      code: 3,
      stderr: `otapress cannot start: the package ${missing} is not installed; run npm ci first (in ${root})\n`,
      stdout: '',
    });
  });

  it(
    'a missing file of otapress itself is no install problem: the stack is shown for a report',
    { timeout: 60_000 },
    () => {
      const root = copyWithPackages(() => true);
      expect(run(root).stderr).toMatch(/^content\/site.yaml/); // runs, and reports the missing content
      rmSync(path.join(root, 'src', 'cli.ts'));
      const result = run(root);
      expect(result.status).toBe(3);
      expect(result.stderr).not.toContain('npm ci');
      expect(result.stderr).toMatch(/ERR_MODULE_NOT_FOUND|Cannot find module .*cli\.ts/);
    },
  );
});
