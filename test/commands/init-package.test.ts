// How init keeps otapress inside the catalog (src/commands/init-package.ts): which dependency specs
// need it, how a registry install is told apart, and the tarball it writes, unpacked by the
// system's own tar and installed by npm.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { dependencyPlan, installedFromRegistry, packTarball } from '../../src/commands/init-package.js';
import { snapshotTree, tempProject } from '../helpers/helpers.js';

describe('which otapress dependency a catalog keeps', () => {
  const root = '/home/me/my-ota';
  it.each([
    ['a registry range', '^0.2.0', false, 'keep'],
    ['a registry tag', 'latest', false, 'keep'],
    ['a git URL', 'git+https://example.org/otapress.git', false, 'keep'],
    ['a tarball inside the catalog', 'file:vendor/otapress-0.2.0.tgz', false, 'keep'],
    ['a bare path inside the catalog', './vendor/otapress-0.2.0.tgz', false, 'keep'],
    ['a tarball beside the catalog (npm install ../x.tgz)', 'file:../otapress-0.2.0.tgz', false, 'vendor'],
    ['an absolute tarball path', 'file:/tmp/otapress-0.2.0.tgz', true, 'vendor'],
    ['a folder outside (npm install ../otapress)', 'file:../otapress', false, 'vendor'],
    ['a link outside', 'link:../otapress', false, 'vendor'],
    ['the catalog itself', 'file:.', false, 'vendor'],
    ['no dependency, run from a tarball or folder', undefined, false, 'vendor'],
    ['no dependency, run from a registry install', undefined, true, 'add-range'],
  ])('%s: %s', (_, spec, fromRegistry, action) => {
    expect(dependencyPlan(spec, root, fromRegistry).action).toBe(action);
  });
});

describe('a registry install, told from npm’s hidden lock file', () => {
  function installed(resolved: unknown): string {
    const root = tempProject();
    const modules = path.join(root, 'node_modules');
    mkdirSync(path.join(modules, 'otapress'), { recursive: true });
    writeFileSync(
      path.join(modules, '.package-lock.json'),
      JSON.stringify({ packages: { 'node_modules/otapress': { version: '0.2.0', resolved } } }),
    );
    return path.join(modules, 'otapress');
  }
  it('from a registry', () =>
    expect(installedFromRegistry(installed('https://registry.npmjs.org/otapress/-/otapress-0.2.0.tgz'))).toBe(true));
  it('from a tarball', () => expect(installedFromRegistry(installed('file:../otapress-0.2.0.tgz'))).toBe(false));
  it('with no record of where from', () => expect(installedFromRegistry(installed(undefined))).toBe(false));
  it('not in a node_modules folder at all (this repository)', () =>
    expect(installedFromRegistry(tempProject())).toBe(false));
});

describe('the tarball init keeps in vendor/', () => {
  function fakePackage(): string {
    const root = tempProject();
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'otapress', version: '9.8.7', bin: { otapress: './lib/bin.mjs' }, files: ['lib/'] }),
    );
    writeFileSync(path.join(root, 'README.md'), '# otapress\n');
    writeFileSync(path.join(root, 'tsconfig.json'), '{}'); // not in `files`: left out
    mkdirSync(
      path.join(root, 'lib', 'commands', 'a-folder-name-long-enough-to-need-the-ustar-prefix-field-of-the-header'),
      { recursive: true },
    );
    writeFileSync(path.join(root, 'lib', 'bin.mjs'), '#!/usr/bin/env node\nconsole.log("otapress ran");\n');
    writeFileSync(
      path.join(
        root,
        'lib',
        'commands',
        'a-folder-name-long-enough-to-need-the-ustar-prefix-field-of-the-header',
        'a-file-whose-name-is-long-too.js',
      ),
      'export {};\n',
    );
    return root;
  }

  it('unpacks with tar into the package’s own files, bin executable, and is the same bytes every time', () => {
    const from = fakePackage();
    const tarball = packTarball(from)!;
    expect(packTarball(from)!.equals(tarball)).toBe(true);
    const into = tempProject();
    writeFileSync(path.join(into, 'p.tgz'), tarball);
    const untar = spawnSync('tar', ['-xzf', 'p.tgz'], { cwd: into, encoding: 'utf8' });
    expect(untar.stderr).toBe('');
    const unpacked = snapshotTree(path.join(into, 'package'));
    expect(Object.keys(unpacked)).toEqual([
      'README.md',
      'lib/bin.mjs',
      'lib/commands/a-folder-name-long-enough-to-need-the-ustar-prefix-field-of-the-header/a-file-whose-name-is-long-too.js',
      'package.json',
    ]);
    expect(unpacked['lib/bin.mjs']).toBe(readFileSync(path.join(from, 'lib', 'bin.mjs'), 'latin1'));
    const listing = spawnSync('tar', ['-tvzf', 'p.tgz'], { cwd: into, encoding: 'utf8' }).stdout;
    expect(listing).toMatch(/^-rwxr-xr-x 0\/0 .* package\/lib\/bin\.mjs$/m);
    expect(listing).toMatch(/^-rw-r--r-- 0\/0 .* package\/package\.json$/m);
  });

  it('installs with npm, offline, and runs', { timeout: 120_000 }, () => {
    const project = tempProject();
    mkdirSync(path.join(project, 'vendor'));
    writeFileSync(path.join(project, 'vendor', 'otapress-9.8.7.tgz'), packTarball(fakePackage())!);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'p', version: '1.0.0', dependencies: { otapress: 'file:vendor/otapress-9.8.7.tgz' } }),
    );
    const env = {
      ...process.env,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_cache: path.join(project, 'empty-cache'),
    };
    const install = spawnSync('npm', ['install'], { cwd: project, env, encoding: 'utf8', timeout: 120_000 });
    expect(install.status, install.stderr).toBe(0);
    expect(spawnSync(path.join(project, 'node_modules', '.bin', 'otapress'), [], { encoding: 'utf8' }).stdout).toBe(
      'otapress ran\n',
    );
  });

  it('is written by init once, with the dependency naming it; a second init keeps both', () => {
    const from = fakePackage();
    const root = tempProject();
    writeFileSync(
      path.join(root, 'package.json'),
      '{\n  "name": "ota",\n  "dependencies": {\n    "otapress": "file:../otapress-9.8.7.tgz"\n  }\n}\n',
    );
    const first = initCatalog(root, { version: '9.8.7', vendorFrom: from });
    expect(first.written).toContain(
      'vendor/otapress-9.8.7.tgz (otapress 9.8.7, kept inside the catalog: "file:../otapress-9.8.7.tgz" is a path outside the catalog, which a fresh clone, its CI and the hosts\' builds do not have)',
    );
    expect(first.dependencyChanged).toBe(true);
    expect(readFileSync(path.join(root, 'vendor', 'otapress-9.8.7.tgz')).equals(packTarball(from)!)).toBe(true);
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies).toEqual({
      otapress: 'file:vendor/otapress-9.8.7.tgz',
    });
    const second = initCatalog(root, { version: '9.8.7', vendorFrom: from });
    expect(second.written).toEqual([]);
    expect(second.kept).toContain('package.json dependencies.otapress ("file:vendor/otapress-9.8.7.tgz")');
    expect(second.dependencyChanged).toBe(false);
  });

  it('found in vendor/ but not the package of this otapress: neither the dependency nor npm install points at it', () => {
    const from = fakePackage();
    const root = tempProject();
    const pkg = '{\n  "name": "ota",\n  "dependencies": {\n    "otapress": "file:../otapress-9.8.7.tgz"\n  }\n}\n';
    writeFileSync(path.join(root, 'package.json'), pkg);
    mkdirSync(path.join(root, 'vendor'));
    writeFileSync(path.join(root, 'vendor', 'otapress-9.8.7.tgz'), 'a tarball from somewhere else');
    const result = initCatalog(root, { version: '9.8.7', vendorFrom: from });
    expect(readFileSync(path.join(root, 'vendor', 'otapress-9.8.7.tgz'), 'utf8')).toBe('a tarball from somewhere else');
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies).toEqual({
      otapress: 'file:../otapress-9.8.7.tgz',
    });
    expect(result.dependencyChanged).toBe(false);
    expect(result.kept).toContain('vendor/otapress-9.8.7.tgz (differs from this otapress 9.8.7)');
    expect(result.notes).toContain(
      "vendor/otapress-9.8.7.tgz is not the package of this otapress 9.8.7, so package.json's otapress dependency was left as it was; see where that file came from, remove it, and run init again to keep this otapress there",
    );
    // Without a dependency at all, none is added either.
    writeFileSync(path.join(root, 'package.json'), '{\n  "name": "ota"\n}\n');
    expect(initCatalog(root, { version: '9.8.7', vendorFrom: from }).dependencyChanged).toBe(false);
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies).toBeUndefined();
  });

  it('is never written through a vendor/ that is a symbolic link, and the dependency is left as it was', () => {
    const from = fakePackage();
    const root = tempProject();
    const outside = tempProject();
    symlinkSync(outside, path.join(root, 'vendor'));
    writeFileSync(
      path.join(root, 'package.json'),
      '{\n  "name": "ota",\n  "dependencies": {\n    "otapress": "file:../otapress-9.8.7.tgz"\n  }\n}\n',
    );
    const result = initCatalog(root, { version: '9.8.7', vendorFrom: from });
    expect(readdirSync(outside)).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies).toEqual({
      otapress: 'file:../otapress-9.8.7.tgz',
    });
    expect(result.notes).toContain(
      "vendor/otapress-9.8.7.tgz was not written and package.json's otapress dependency was left as it was: vendor/ is a symbolic link (it can point outside the catalog); make it a folder and run init again",
    );
  });

  it('is not made from sources without a built lib/', () => {
    const root = tempProject();
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'otapress', version: '1.0.0', files: ['lib/'] }),
    );
    expect(packTarball(root)).toBeUndefined();
  });
});
