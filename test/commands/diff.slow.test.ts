// `otapress diff`: a catalog made by init in a temporary git repository, one commit per change a
// pull request makes, and exactly the records phones receive that differ between two revisions.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { initCatalog } from '../../src/commands/init.js';
import { workflows } from '../../src/commands/init-files.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';

const FP4 = 'content/FP4';
const OLD = 'e-2.5-a14-20241108446322-official-FP4';
const NEW = 'e-2.6-a14-20241208446322-official-FP4';
const INCREMENTAL = 'e-2.6-a14-20241208446322-official-FP4-incremental';
const CHANGE = { timeout: 120_000 };

/** A git repository holding `init --example --updater crdroid`, committed: FP4 with one official build. */
function catalog(): { root: string; commit(message: string, change: () => void): void } {
  const root = path.join(tempProject(), 'ota');
  initCatalog(root, { version: '0.2.0', example: true, updaters: ['crdroid'] });
  git(root, 'init', '-q');
  const commit = (message: string, change: () => void) => {
    change();
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--allow-empty', '-m', message);
  };
  commit('init', () => {});
  return { root, commit };
}

function git(root: string, ...args: string[]): string {
  const result = spawnSync(
    'git',
    ['-C', root, '-c', 'user.name=test', '-c', 'user.email=test@example.org', '-c', 'commit.gpgsign=false', ...args],
    { encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const manifest = (root: string, name: string) => path.join(root, FP4, `${name}.yaml`);

/** The newer build: the example's manifest with another name, version, build time, incremental and key. */
function addNewer(root: string): void {
  const text = readFileSync(manifest(root, OLD), 'utf8')
    .replace(`filename: ${OLD}.zip`, `filename: ${NEW}.zip`)
    .replace('version: "2.5"', 'version: "2.6"')
    .replace('timestamp: 1731067200', 'timestamp: 1733659200')
    .replace('eng.root.20241108.123456', 'eng.root.20241208.100000')
    .replace(/^id: \w+$/m, `id: ${'ab'.repeat(32)}`);
  writeFileSync(manifest(root, NEW), text);
}

/** Runs `diff` and returns its exit code and lines; the record lines (`+`, `-`, `~`, `!`) apart. */
async function diff(root: string, ...args: string[]) {
  const { code, out, err } = await runMain(['diff', ...args, '--root', root]);
  // The answers' headings and their records, not the notices.
  const records = out.filter((l) => /^ {4}[-+~!] /.test(l) || /^ {2}(v1|v2|crdroid|incremental) /.test(l));
  return { code, out, err, records };
}

const V1_OFFICIAL = `  v1 official  /api/v1/FP4/official/`;
const V1_STABLE = `  v1 stable  /api/v1/FP4/stable/`;
const V2_OFFICIAL = `  v2 official  /api/v2/devices/FP4/builds`;
const V2_STABLE = `  v2 stable  /api/v2/devices/FP4/builds`;
const CRDROID = `  crdroid stable  /api/crdroid/FP4.json`;

describe('otapress diff', () => {
  it('lists an added build once per dialect and list', CHANGE, async () => {
    const { root, commit } = catalog();
    commit('add 2.6', () => addNewer(root));
    const added = `    + ${NEW}.zip  version 2.6, 1387003904 bytes`;
    const result = await diff(root, 'HEAD~1', 'HEAD');
    expect(result.code).toBe(0);
    expect(result.records).toEqual([
      V1_OFFICIAL,
      added,
      V1_STABLE,
      added,
      V2_OFFICIAL,
      added,
      V2_STABLE,
      added,
      CRDROID,
      added,
    ]);
    expect(result.out.at(-1)).toBe('5 records differ in 5 answers of 1 device; 0 warnings; 1 new notice');
  });

  it('lists a changed size as a changed record in every answer that carries it, naming the keys', CHANGE, async () => {
    const { root, commit } = catalog();
    commit('size', () =>
      writeFileSync(
        manifest(root, OLD),
        readFileSync(manifest(root, OLD), 'utf8').replace('size: 1387003904', 'size: 1387003905'),
      ),
    );
    const changed = (keys: string) =>
      `    ~ ${OLD}.zip  version 2.5, 1387003905 bytes: size 1387003904 → 1387003905; keys ${keys}`;
    const { code, records } = await diff(root, 'HEAD~1', 'HEAD');
    expect(code).toBe(0);
    expect(records).toEqual([
      V1_OFFICIAL,
      changed('size'),
      V1_STABLE,
      changed('size'),
      V2_OFFICIAL,
      changed('files[0].size'),
      V2_STABLE,
      changed('files[0].size'),
      CRDROID,
      changed('size'),
    ]);
  });

  it('warns where a list loses its newest build', CHANGE, async () => {
    const { root, commit } = catalog();
    commit('add 2.6', () => addNewer(root));
    commit('withdraw 2.6', () => rmSync(manifest(root, NEW)));
    const removed = `    - ${NEW}.zip  version 2.6, 1387003904 bytes`;
    const warning = `    ! warning: loses its newest build ${NEW}.zip: phones are offered ${OLD}.zip at most; those that installed it are offered nothing until a newer build is published`;
    const { code, records } = await diff(root, 'HEAD~1');
    expect(code).toBe(0);
    expect(records).toEqual([
      V1_OFFICIAL,
      removed,
      warning,
      V1_STABLE,
      removed,
      warning,
      V2_OFFICIAL,
      removed,
      warning,
      V2_STABLE,
      removed,
      warning,
      CRDROID,
      removed,
      warning,
    ]);
  });

  it(
    'warns where the newest build is withdrawn (`.disabled.zip`): v1 lists it under its new name, the others drop it',
    CHANGE,
    async () => {
      const { root, commit } = catalog();
      commit('add 2.6', () => addNewer(root));
      commit('withdraw 2.6', () => {
        const text = readFileSync(manifest(root, NEW), 'utf8').replace(
          `filename: ${NEW}.zip`,
          `filename: ${NEW}.disabled.zip`,
        );
        rmSync(manifest(root, NEW));
        writeFileSync(manifest(root, `${NEW}.disabled`), text);
      });
      const removed = `    - ${NEW}.zip  version 2.6, 1387003904 bytes`;
      const listed = `    + ${NEW}.disabled.zip  version 2.6, 1387003904 bytes`;
      const warning = (next: string) =>
        `    ! warning: loses its newest build ${NEW}.zip: phones are offered ${next} at most; those that installed it are offered nothing until a newer build is published`;
      const { code, records } = await diff(root, 'HEAD~1', 'HEAD');
      expect(code).toBe(0);
      expect(records).toEqual([
        V1_OFFICIAL,
        listed,
        removed,
        warning(`${NEW}.disabled.zip`),
        V1_STABLE,
        listed,
        removed,
        warning(`${NEW}.disabled.zip`),
        V2_OFFICIAL,
        removed,
        warning(`${OLD}.zip`),
        V2_STABLE,
        removed,
        warning(`${OLD}.zip`),
        CRDROID,
        removed,
        warning(`${OLD}.zip`),
      ]);
    },
  );

  it('shows the source builds newly offered an incremental package, and only their answers', CHANGE, async () => {
    const { root, commit } = catalog();
    commit('add 2.6', () => addNewer(root));
    commit('incremental', () =>
      writeFileSync(
        manifest(root, INCREMENTAL),
        readFileSync(manifest(root, NEW), 'utf8')
          .replace(`filename: ${NEW}.zip`, `filename: ${INCREMENTAL}.zip`)
          .replace(
            'incremental: "eng.root.20241208.100000"',
            ['incremental: "eng.root.20241208.100000"', 'source_incremental: "eng.root.20241108.123456"'].join('\n'),
          )
          .replace(/^id: \w+$/m, `id: ${'cd'.repeat(32)}`)
          .replace(/^md5sum: \w+$/m, `md5sum: ${'ef'.repeat(16)}`)
          .replace('size: 1387003904', 'size: 70000000'),
      ),
    );
    const { code, out, records } = await diff(root, 'HEAD~1', 'HEAD');
    expect(code).toBe(0);
    const changed = (keys: string) =>
      `    ~ ${INCREMENTAL}.zip  version 2.6, 70000000 bytes: file ${NEW}.zip → ${INCREMENTAL}.zip; size 1387003904 → 70000000; keys ${keys}`;
    const on = 'eng.root.20241108.123456';
    expect(records).toEqual([
      `  v1 official, phones on ${on}  /api/v1/FP4/official/${on}`,
      changed('url, md5sum, filename, id, size'),
      `  v1 stable, phones on ${on}  /api/v1/FP4/stable/${on}`,
      changed('url, md5sum, filename, id, size'),
      `  v2 official, phones on ${on}  /api/v2/devices/FP4/builds/${on}`,
      changed('files[0].filename, files[0].filepath, files[0].sha256, files[0].size, files[0].url'),
      `  v2 stable, phones on ${on}  /api/v2/devices/FP4/builds/${on}`,
      changed('files[0].filename, files[0].filepath, files[0].sha256, files[0].size, files[0].url'),
      '  incremental packages newly offered:',
    ]);
    expect(out).toContain(
      `    phones on ${on}: ${INCREMENTAL}.zip (installs ${NEW}.zip) in v1 official, v1 stable, v2 official, v2 stable`,
    );
  });

  it('sees a change of site.yaml in every device, though no manifest changed', CHANGE, async () => {
    const { root, commit } = catalog();
    const site = path.join(root, 'content', 'site.yaml');
    commit('move the downloads', () =>
      writeFileSync(
        site,
        readFileSync(site, 'utf8').replace('https://downloads.example.org/builds', 'https://dl.example.net/ota'),
      ),
    );
    const { code, records } = await diff(root, 'HEAD~1', 'HEAD');
    expect(code).toBe(0);
    const changed = (keys: string) => `    ~ ${OLD}.zip  version 2.5, 1387003904 bytes: keys ${keys}`;
    expect(records).toEqual([
      V1_OFFICIAL,
      changed('url'),
      V1_STABLE,
      changed('url'),
      V2_OFFICIAL,
      changed('files[0].url'),
      V2_STABLE,
      changed('files[0].url'),
      CRDROID,
      changed('download'),
    ]);
  });

  it('lists nothing for a change phones do not read (a comment)', CHANGE, async () => {
    const { root, commit } = catalog();
    commit('comment', () =>
      writeFileSync(manifest(root, OLD), `# built on the new server\n${readFileSync(manifest(root, OLD), 'utf8')}`),
    );
    const { code, out } = await diff(root, 'HEAD~1', 'HEAD');
    expect(code).toBe(0);
    const head = git(root, 'rev-parse', 'HEAD').slice(0, 12);
    const base = git(root, 'rev-parse', 'HEAD~1').slice(0, 12);
    expect(out).toEqual([
      `base HEAD~1 (${base}) → head HEAD (${head})`,
      '',
      `no answer phones read differs between HEAD~1 (${base}) and HEAD (${head})`,
    ]);
  });

  it('compares with the working tree by default, uncommitted files included, and writes nothing', CHANGE, async () => {
    const { root } = catalog();
    addNewer(root);
    const status = git(root, 'status', '--porcelain');
    const { code, out } = await diff(root, 'HEAD');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^base HEAD \([0-9a-f]{12}\) → head the working tree$/);
    expect(out).toContain(`    + ${NEW}.zip  version 2.6, 1387003904 bytes`);
    expect(git(root, 'status', '--porcelain')).toBe(status);
  });

  it('reads the catalog where it lies in its repository (a subfolder)', CHANGE, async () => {
    const top = tempProject();
    const root = path.join(top, 'ota');
    initCatalog(root, { version: '0.2.0', example: true, updaters: ['crdroid'] });
    git(top, 'init', '-q');
    git(top, 'add', '-A');
    git(top, 'commit', '-q', '-m', 'the catalog in ota/');
    addNewer(root);
    git(top, 'add', '-A');
    git(top, 'commit', '-q', '-m', 'add 2.6');
    const { code, records } = await diff(root, 'HEAD~1', 'HEAD');
    expect(code).toBe(0);
    expect(records.filter((r) => r.startsWith('    + '))).toHaveLength(5);
  });

  it('refuses a revision that is no commit, or has no content/, in one line with exit 2', CHANGE, async () => {
    const { root, commit } = catalog();
    const unknown = await diff(root, 'no-such-branch');
    expect(unknown.code).toBe(2);
    expect(unknown.err[0]).toBe(
      '`no-such-branch` is no commit of this repository; name a branch, tag or commit (origin/main, HEAD~1), and in CI fetch the history (actions/checkout with fetch-depth: 0)',
    );
    const option = await diff(root, '--output=x');
    expect(option.code).toBe(2);
    commit('no catalog', () => rmSync(path.join(root, 'content'), { recursive: true }));
    const empty = await diff(root, 'HEAD', 'HEAD~1');
    expect(empty.code).toBe(2);
    expect(empty.err[0]).toMatch(
      /^`HEAD` \(commit [0-9a-f]{12}\) has no content\/ folder: it is not a revision of this catalog/,
    );
    const outside = await diff(tempProject(), 'HEAD');
    expect(outside.code).toBe(2);
    expect(outside.err[0]).toMatch(/is not in a git repository: diff compares git revisions of the catalog/);
  });

  it(
    'exits 1 with the problems when the head does not build, and compares with a base that does not',
    CHANGE,
    async () => {
      const { root, commit } = catalog();
      commit('break', () =>
        writeFileSync(
          manifest(root, OLD),
          readFileSync(manifest(root, OLD), 'utf8').replace('version: "2.5"', 'version: 2.50'),
        ),
      );
      const broken = await diff(root, 'HEAD~1');
      expect(broken.code).toBe(1);
      expect(broken.out).toEqual([]);
      expect(broken.err[0]).toMatch(new RegExp(`^${FP4}/${OLD}.yaml:\\d+:\\d+  version  `));
      expect(broken.err.at(-1)).toBe('1 problem found.');
      commit('fix', () =>
        writeFileSync(
          manifest(root, OLD),
          readFileSync(manifest(root, OLD), 'utf8').replace('version: 2.50', 'version: "2.5"'),
        ),
      );
      const fixed = await diff(root, 'HEAD~1', 'HEAD');
      expect(fixed.code).toBe(0);
      expect(fixed.out[0]).toMatch(
        /\(it does not build: 1 problem; a device that does not compile there counts as offering nothing\)/,
      );
      expect(fixed.records).toContain(`    + ${OLD}.zip  version 2.5, 1387003904 bytes`);
    },
  );

  it('writes Markdown in which a hostile branch name is text, not markup', CHANGE, async () => {
    const { root, commit } = catalog();
    const branch = 'x<img_src=x_onerror=alert(1)>|_y_|`z`';
    git(root, 'branch', branch);
    commit('add 2.6', () => addNewer(root));
    const { code, out } = await diff(root, branch, '--format', 'markdown');
    expect(code).toBe(0);
    expect(out[2]).toMatch(
      /^base x&lt;img\\_src\\=x\\_onerror\\=alert\\\(1\\\)&gt;&#124;\\_y\\_&#124;\\`z\\` \\\([0-9a-f]{12}\\\) → head the working tree$/,
    );
    const rows = out.filter((l) => l.startsWith('| FP4 '));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.split('|')).toHaveLength(10);
    expect(rows[0]).toBe(
      '| FP4 | v1 official \\/api\\/v1\\/FP4\\/official\\/ | every phone | added | e\\-2\\.6\\-a14\\-20241208446322\\-official\\-FP4\\.zip | 2\\.6 | 1387003904 |  |',
    );
  });

  it(
    "runs in init's pull request workflow: the whole history, the base by the environment, Markdown to the job summary",
    CHANGE,
    () => {
      const check = parse(workflows().find((w) => w.file === '.github/workflows/check.yml')!.text) as {
        jobs: {
          check: {
            steps: { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> }[];
          };
        };
      };
      const steps = check.jobs.check.steps;
      expect(steps.find((s) => s.uses === 'actions/checkout@v4')?.with).toEqual({ 'fetch-depth': 0 });
      const step = steps.find((s) => s.run?.includes('otapress diff'))!;
      expect(step.env).toEqual({ BASE: '${{ github.event.pull_request.base.sha }}' });
      // The step's own shell line, as the runner runs it, on a pull request that adds a build.
      const { root, commit } = catalog();
      commit('add 2.6', () => addNewer(root));
      const summary = path.join(tempProject(), 'summary.md');
      writeFileSync(summary, '');
      const result = spawnSync(
        'bash',
        [
          '--noprofile',
          '--norc',
          '-eo',
          'pipefail',
          '-c',
          step.run!.replace('npx otapress', `node ${JSON.stringify(path.join(ROOT, 'src/bin.mjs'))}`),
        ],
        {
          cwd: root,
          env: { ...process.env, BASE: git(root, 'rev-parse', 'HEAD~1').trim(), GITHUB_STEP_SUMMARY: summary },
          encoding: 'utf8',
        },
      );
      expect(result.status, result.stderr).toBe(0);
      const lines = readFileSync(summary, 'utf8').split('\n');
      expect(lines[0]).toBe('### otapress diff: what phones will be offered');
      expect(lines.filter((l) => l.startsWith('| FP4 |'))).toHaveLength(5);
    },
  );
});
