import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listContent, readContent } from '../../src/catalog/read.js';
import { tempProject } from '../helpers/helpers.js';

/** How `content/` is read: without touching the files' access times where the system allows it. */
describe.runIf(process.platform === 'linux')('reading content/', { timeout: 60_000 }, () => {
  it("leaves the manifests' access times as they were (O_NOATIME), where a plain read would update them", () => {
    const root = tempProject({ withContent: true });
    const folder = path.join(root, 'content', 'FP4');
    const files = readdirSync(folder).map((name) => path.join(folder, name));
    // Read never since written: under relatime (and strictatime) a plain read updates the access time.
    const long = new Date('2020-01-01T00:00:00Z');
    for (const file of files) utimesSync(file, long, new Date());
    const atimes = () => files.map((file) => statSync(file).atimeMs);
    const before = atimes();
    const content = readContent(root);
    expect(content.manifests.filter((m) => m.device === 'FP4').length).toBeGreaterThan(3);
    expect(atimes()).toEqual(before);
  });

  it("reads another user's files all the same (where O_NOATIME is refused, a plain open)", (ctx) => {
    if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0)
      ctx.skip('needs root and setpriv to run as another user');
    const root = tempProject({ withContent: true });
    chmodSync(root, 0o755);
    execFileSync('chmod', ['-R', 'a+rX', path.join(root, 'content')]);
    const bin = path.join(import.meta.dirname, '..', '..', 'src', 'bin.mjs');
    const asNobody = spawnSync(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, 'check', '--root', root],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: '/tmp', NO_COLOR: '1' },
      },
    );
    const asOwner = spawnSync(process.execPath, [bin, 'check', '--root', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(asOwner.status, asOwner.stderr).toBe(0);
    expect({ code: asNobody.status, stdout: asNobody.stdout, stderr: asNobody.stderr }).toEqual({
      code: 0,
      stdout: asOwner.stdout,
      stderr: asOwner.stderr,
    });
  });

  it('lists every file in the order of its path, across folders whose names sort otherwise than their paths', () => {
    const root = tempProject();
    const content = path.join(root, 'content');
    // `a-b/...` and `a.b/...` sort before `a/...` ('-' and '.' come before '/'), although `a` comes first as a name.
    const files = [
      'site.yaml',
      'a/y.yaml',
      'a/x.yaml',
      'a-b/z.yaml',
      'a.b/w.yaml',
      'a.b/notes.md',
      'A/v.yaml',
      'b/u.yml',
      'stray.yaml',
      'a0/t.yaml',
    ];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(content, file)), { recursive: true });
      writeFileSync(path.join(content, file), 'x: 1\n');
    }
    mkdirSync(path.join(content, 'a', 'nested'));
    mkdirSync(path.join(content, 'bad name'));
    writeFileSync(path.join(content, 'bad name', 'one.yaml'), '');
    writeFileSync(path.join(content, 'bad name', 'two.yaml'), '');
    symlinkSync(path.join(content, 'a'), path.join(content, 'a-link'));
    const listing = listContent(root);
    expect(listing.files).toEqual(
      ['A/v.yaml', 'a-b/z.yaml', 'a.b/w.yaml', 'a/x.yaml', 'a/y.yaml', 'a0/t.yaml'].map((f) => ({
        file: `content/${f}`,
        device: f.split('/')[0],
      })),
    );
    expect(listing.devices).toEqual(['A', 'a', 'a-b', 'a.b', 'a0']);
    expect(listing.site).toBeDefined();
    expect(listing.problems.map((p) => `${p.file} ${p.field}`)).toEqual([
      'content/a-link (folder)',
      'content/a/nested (folder)',
      'content/b/u.yml (file)',
      'content/bad name (folder)',
      'content/stray.yaml (file)',
    ]);
  });
});
