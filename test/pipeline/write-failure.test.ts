import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { compileSettings, groupByDevice } from '../../src/pipeline/compile-device.js';
import { compileDevices } from '../../src/pipeline/compile-devices.js';
import { describeWriteError, writeFailure } from '../../src/pipeline/out-dir.js';
import { stageTree } from '../../src/pipeline/write.js';
import { readContent } from '../../src/catalog/read.js';
import { main } from '../../src/cli.js';
import { runOtapress } from '../helpers/cli-process.js';
import { EXAMPLE, snapshotTree, tempProject } from '../helpers/helpers.js';

/**
 * A build the system refuses to write (disk full, read-only, not permitted, permission denied, a
 * path too long): a message that says what and where, exit status 74, and the output as it was.
 * The tests run as root, whom permission bits do not stop: the refusals are real ones, made with a
 * tmpfs mount (full, then remounted read-only), `chattr +i`, and a build run as user nobody; each
 * is skipped, saying why, where the machine does not allow it.
 */
const TIMEOUT = 120_000;

/** Errors as the fs functions throw them, to check the words at the boundary without a disk. */
const errno = (code: string, syscall: string, at?: string, dest?: string) =>
  Object.assign(new Error(`${code}: ${syscall}`), {
    code,
    syscall,
    ...(at !== undefined && { path: at }),
    ...(dest !== undefined && { dest }),
  });

describe('what a refused write says', () => {
  it.each<[string, unknown, string | undefined]>([
    [
      'a full disk',
      errno('ENOSPC', 'write', '/srv/.dist.staging-7/api/v1/FP4/stable/index.json'),
      'the disk is full (ENOSPC at /srv/.dist.staging-7/api/v1/FP4/stable/index.json); free some space and run it again',
    ],
    [
      'a quota',
      errno('EDQUOT', 'write', '/srv/x'),
      'the disk quota is used up (EDQUOT at /srv/x); free some space or raise the quota, and run it again',
    ],
    [
      'a read-only file system',
      errno('EROFS', 'mkdir', '/srv/.dist.staging-7'),
      'the file system is read-only (EROFS at /srv/.dist.staging-7); use a writable folder',
    ],
    [
      'no permission',
      errno('EACCES', 'open', '/srv/.dist.lock.7'),
      'permission denied (EACCES at /srv/.dist.lock.7); make the folder writable for this user, or use another',
    ],
    [
      'an immutable folder',
      errno('EPERM', 'rename', '/srv/dist', '/srv/.dist.previous-7'),
      'the operation is not permitted (an immutable file or folder?) (EPERM renaming /srv/dist to /srv/.dist.previous-7); make the folder writable for this user, or use another',
    ],
    [
      'a path with a line break',
      errno('EIO', 'write', '/srv/a\nb'),
      'the disk reported an input/output error (EIO at /srv/a\\nb); check the disk (dmesg), then run it again',
    ],
    [
      'another system error',
      errno('EXDEV', 'rename'),
      'the system refused to rename (EXDEV: rename) (EXDEV); check the path and run it again',
    ],
    ['a failure of otapress itself', new TypeError('x is undefined'), undefined],
    [
      'a Node error code that is no errno',
      Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' }),
      undefined,
    ],
  ])('%s', (_, error, words) => {
    expect(describeWriteError(error)).toBe(words);
  });

  it('a build says which output folder was left as it was, and where --out helps', () => {
    expect(writeFailure(errno('EROFS', 'mkdir', '/srv/.dist.staging-7'), '/srv/dist')?.message).toBe(
      'could not write the site to /srv/dist: the file system is read-only (EROFS at /srv/.dist.staging-7); use a writable folder (build --out DIR writes the site elsewhere). /srv/dist is as it was before this build.',
    );
    expect(writeFailure(errno('ENOSPC', 'write', '/srv/x'), '/srv/dist')?.message).toBe(
      'could not write the site to /srv/dist: the disk is full (ENOSPC at /srv/x); free some space and run it again. /srv/dist is as it was before this build.',
    );
    expect(writeFailure(new Error('bug'), '/srv/dist')).toBeUndefined();
  });
});

/** A project with the example catalog, built once into `out`; then a manifest changes, so the next build has new bytes to write. */
function builtProject(out: string): { root: string; before: Record<string, string> } {
  const root = tempProject({ withContent: true });
  const result = runOtapress(['build', '--root', root, '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  const manifest = path.join(root, 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml');
  writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}changes: "${'a new change log. '.repeat(2000)}"\n`);
  return { root, before: snapshotTree(out) };
}

/** Mounts a tmpfs of `size` at a fresh folder; skips the test, saying why, where mounting is not permitted. */
function mountTmpfs(ctx: TestContext, size: string): { mnt: string; unmount: () => void } {
  const mnt = path.join(tempProject(), 'mnt');
  mkdirSync(mnt);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', mnt], {
    encoding: 'utf8',
  });
  if (mounted.status !== 0)
    ctx.skip(
      `mount -t tmpfs is not permitted here (${(mounted.stderr || String(mounted.error)).trim()}): run the tests as root to check this case`,
    );
  return { mnt, unmount: () => spawnSync('umount', ['-l', mnt]) };
}

/** Fills a file system up to `leave` bytes. */
function fill(dir: string, leave: number): void {
  const { bavail, bsize } = statfsSync(dir);
  writeFileSync(path.join(dir, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - leave)));
}

describe('a build the system refuses to write', { timeout: TIMEOUT }, () => {
  it('on a full disk (a tmpfs of 1 MiB): exit 74, the path in words, the site as it was and nothing left beside it', (ctx) => {
    const { mnt, unmount } = mountTmpfs(ctx, '1m');
    try {
      const site = path.join(mnt, 'site');
      const { root, before } = builtProject(site);
      fill(mnt, 16 * 1024);
      const result = runOtapress(['build', '--root', root, '--out', site]);
      expect(result.code).toBe(74);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^could not write the site to ${site}: the disk is full \\(ENOSPC at ${mnt}/\\.site\\.staging-\\d+/\\S+\\); free some space and run it again\\. ${site} is as it was before this build\\.\\n$`,
        ),
      );
      expect(snapshotTree(site)).toEqual(before);
      expect(readdirSync(mnt).sort()).toEqual(['filler', 'site']);
    } finally {
      unmount();
    }
  });

  it('in a read-only file system (the tmpfs remounted read-only): exit 74 and the site as it was', (ctx) => {
    const { mnt, unmount } = mountTmpfs(ctx, '4m');
    try {
      const site = path.join(mnt, 'site');
      const { root, before } = builtProject(site);
      execFileSync('mount', ['-o', 'remount,ro', mnt]);
      const result = runOtapress(['build', '--root', root, '--out', site]);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 74, stdout: '' });
      expect(result.stderr).toMatch(
        new RegExp(
          `^could not write the site to ${site}: the file system is read-only \\(EROFS at ${mnt}/\\.site\\.lock\\.\\d+\\); use a writable folder \\(build --out DIR writes the site elsewhere\\)\\. ${site} is as it was before this build\\.\\n$`,
        ),
      );
      expect(snapshotTree(site)).toEqual(before);
    } finally {
      unmount();
    }
  });

  it('in an immutable folder (chattr +i, which stops root too): exit 74, EPERM, the site as it was', async (ctx) => {
    const parent = path.join(tempProject(), 'www');
    const site = path.join(parent, 'site');
    const { root, before } = builtProject(site);
    if (spawnSync('chattr', ['+i', parent]).status !== 0) ctx.skip('chattr +i is not available on this file system');
    try {
      const lines: string[] = [];
      const code = await main(['build', '--root', root, '--out', site], {
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      expect(code).toBe(74);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^could not write the site to .*: the operation is not permitted \(an immutable file or folder\?\) \(EPERM at .*\/\.site\.lock\.\d+\); /,
      );
      expect(snapshotTree(site)).toEqual(before);
    } finally {
      spawnSync('chattr', ['-i', parent]);
    }
  });

  it('as a user without write permission (run as nobody): exit 74, EACCES', (ctx) => {
    if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0)
      ctx.skip('needs root and setpriv to run the build as another user');
    const root = tempProject({ withContent: true });
    chmodSync(root, 0o755);
    execFileSync('chmod', ['-R', 'a+rX', path.join(root, 'content')]);
    const bin = path.join(import.meta.dirname, '..', '..', 'src', 'bin.mjs');
    const result = spawnSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        bin,
        'build',
        '--root',
        root,
        '--no-cache',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: '/tmp', NO_COLOR: '1' },
      },
    );
    expect({ code: result.status, stdout: result.stdout }).toEqual({ code: 74, stdout: '' });
    expect(result.stderr).toMatch(
      new RegExp(
        `^could not write the site to ${root}/dist: permission denied \\(EACCES at ${root}/\\.dist\\.lock\\.\\d+\\); make the folder writable for this user, or use another \\(build --out DIR writes the site elsewhere\\)\\. ${root}/dist is as it was before this build\\.\\n$`,
      ),
    );
    expect(readdirSync(root).sort()).toEqual(['content']);
  });

  it('with an output folder name too long for the file system (no mount needed): exit 74, ENAMETOOLONG', async () => {
    const root = tempProject({ withContent: true });
    const site = path.join(tempProject(), 's'.repeat(250));
    const lines: string[] = [];
    const code = await main(['build', '--root', root, '--out', site], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect({ code, lines }).toEqual({
      code: 74,
      lines: [
        `could not write the site to ${site}: the path is too long for the file system (ENAMETOOLONG at ${path.dirname(site)}/.${'s'.repeat(250)}.lock.${process.pid}); use a folder with a shorter path (build --out DIR writes the site elsewhere). ${site} is as it was before this build.`,
      ],
    });
  });

  it('in a compile worker (a full disk under the staging folder): the error keeps its code and path', (ctx) => {
    const { mnt, unmount } = mountTmpfs(ctx, '1m');
    try {
      const content = readContent(EXAMPLE);
      const { site } = compileSettings(content);
      const tree = stageTree(path.join(mnt, 'site'));
      fill(mnt, 8 * 1024);
      let error: NodeJS.ErrnoException | undefined;
      try {
        compileDevices(groupByDevice(content), content.site!, site!, {
          threads: 2,
          workersFrom: 0,
          callerCompiles: false,
          writeTo: tree.staging,
        });
      } catch (e) {
        error = e as NodeJS.ErrnoException;
      }
      expect(error?.message).toMatch(/^a compile worker failed: /);
      expect({ code: error?.code, inStaging: error?.path?.startsWith(`${tree.staging}/`) }).toEqual({
        code: 'ENOSPC',
        inStaging: true,
      });
      expect(writeFailure(error, path.join(mnt, 'site'))?.message).toMatch(
        /: the disk is full \(ENOSPC at .*\.site\.staging-\d+\/.+\); free some space/,
      );
      tree.discard();
    } finally {
      unmount();
    }
  });
});
