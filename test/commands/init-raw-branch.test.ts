// The raw-branch workflow `init --raw-branch <branch>` writes: only when asked, never over a file that
// is there, a valid workflow whose commands are the README's, the branch name checked before it reaches
// YAML; and its commit step, run as written against a git remote, pushes only when a file changed.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { RAW_CHECKOUT, rawBranchWorkflow } from '../../src/commands/init-raw-branch.js';
import { build } from '../../src/pipeline/build.js';
import { runMain } from '../helpers/cli-process.js';
import { EXAMPLE, ROOT, tempProject } from '../helpers/helpers.js';

const RAW = '.github/workflows/raw-branch.yml';

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  'working-directory'?: string;
}
type Workflow = {
  permissions: Record<string, string>;
  jobs: { 'raw-branch': { env: Record<string, string>; steps: Step[] } };
};

const workflowOf = (branch: string) => parse(rawBranchWorkflow(branch).text) as Workflow;

/** The README's Deploy section. */
const deploy = () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return readme.slice(readme.indexOf('\n## Deploy\n'), readme.indexOf('\n## Commands\n'));
};

describe('the raw-branch workflow of init', () => {
  it('is written with --raw-branch only, never over a file that is there', () => {
    expect(initCatalog(tempProject(), { version: '0.2.0' }).written).not.toContain(RAW);
    const asked = tempProject();
    expect(initCatalog(asked, { version: '0.2.0', rawBranch: 'release/14.0' }).written).toContain(RAW);
    expect(readFileSync(path.join(asked, RAW), 'utf8')).toBe(rawBranchWorkflow('release/14.0').text);
    const mine = tempProject();
    mkdirSync(path.join(mine, '.github', 'workflows'), { recursive: true });
    writeFileSync(path.join(mine, RAW), 'name: mine\n');
    expect(initCatalog(mine, { version: '0.2.0', rawBranch: 'main' }).kept).toContain(RAW);
    expect(readFileSync(path.join(mine, RAW), 'utf8')).toBe('name: mine\n');
  });

  it('is a valid workflow that builds, checks the branch out, copies and pushes, with the commands the README documents', () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'test/schemas/github-workflow.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const workflow = workflowOf('release/14.0');
    expect(validate(workflow) ? [] : validate.errors).toEqual([]);
    expect(workflow.permissions).toEqual({ contents: 'write' });
    const job = workflow.jobs['raw-branch'];
    expect(job.env).toEqual({ RAW_BRANCH: 'release/14.0' });
    const steps = job.steps.map((s) => s.uses ?? s.run!.split('\n')[0]);
    expect(steps).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      'npx otapress build',
      'actions/checkout@v4',
      `npx otapress raw-branch ${RAW_CHECKOUT}`,
      'git add -A',
    ]);
    expect(job.steps[4].with).toEqual({ ref: 'release/14.0', path: RAW_CHECKOUT });
    expect(job.steps[6]['working-directory']).toBe(RAW_CHECKOUT);
    for (const command of ['npx otapress build', `npx otapress raw-branch ${RAW_CHECKOUT}`])
      expect(deploy()).toContain(`\`${command}\``);
    expect(deploy()).toContain('`init --raw-branch <branch>` writes `.github/workflows/raw-branch.yml`');
    expect(deploy()).toContain(`checked out into \`${RAW_CHECKOUT}/\``);
  });

  it.each(['main', 'release/14.0', 'A_b-c.d', 'fourteen'])(
    'writes the branch %s as it is, read back the same',
    (branch) => {
      const job = workflowOf(branch).jobs['raw-branch'];
      expect([job.env.RAW_BRANCH, job.steps[4].with!.ref]).toEqual([branch, branch]);
    },
  );

  it.each([
    ['a b', 'letters, digits and . _ / - only'],
    ['${{ secrets.TOKEN }}', 'letters, digits and . _ / - only'],
    ["x'; rm -rf /", 'letters, digits and . _ / - only'],
    ['x..y', 'git refuses .. and // in a branch name'],
    ['-x', 'does not start with - or /'],
    ['x/', 'nor end with / or .'],
    ['x.lock', 'starts with . or ends in .lock'],
    ['.hidden/x', 'starts with . or ends in .lock'],
  ])('refuses --raw-branch %j (exit 2), writing nothing', async (branch, why) => {
    const root = path.join(tempProject(), 'ota');
    // `=`: a value starting with - is otherwise read as an option.
    const { code, err } = await runMain(['init', root, `--raw-branch=${branch}`]);
    expect(code).toBe(2);
    expect(err[0]).toMatch(
      new RegExp(
        `^--raw-branch: ${JSON.stringify(branch).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a branch phones can ask: `,
      ),
    );
    expect(err[0]).toContain(why);
    expect(existsSync(root)).toBe(false);
  });

  it('says what to do next when it wrote the workflow (through the CLI)', async () => {
    const root = path.join(tempProject(), 'ota');
    const { code, out } = await runMain(['init', root, '--raw-branch', 'fourteen']);
    expect(code).toBe(0);
    expect(out).toContain(`wrote ${RAW}`);
    expect(out.join('\n')).toContain('raw branch: the workflow pushes to it, so it must exist');
  });
});

describe("the workflow's copy and commit steps, run as written", () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

  it('push the files to the branch the first time, and nothing when nothing changed', async () => {
    const branch = 'release/14.0';
    const work = tempProject();
    // The repository's remote, with the raw branch phones ask (holding a file of its own).
    const remote = path.join(work, 'remote.git');
    git(work, 'init', '-q', '--bare', remote);
    const seed = path.join(work, 'seed');
    git(work, 'init', '-q', seed);
    writeFileSync(path.join(seed, 'README.md'), 'the OTA branch\n');
    git(seed, 'add', '-A');
    git(seed, '-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'seed');
    git(seed, 'push', '-q', remote, `HEAD:refs/heads/${branch}`);

    const catalog = path.join(work, 'catalog');
    cpSync(path.join(EXAMPLE, 'content'), path.join(catalog, 'content'), { recursive: true });
    writeFileSync(
      path.join(catalog, 'content', 'site.yaml'),
      `${readFileSync(path.join(catalog, 'content', 'site.yaml'), 'utf8')}\nformats:\n  crdroid:\n    lists: [stable]\n    path: /{device}.json\n`,
    );
    const steps = workflowOf(branch).jobs['raw-branch'].steps;
    const commit = steps.find((s) => s['working-directory'] === RAW_CHECKOUT)!.run!;
    // What actions/checkout leaves: the branch in raw-branch/, its remote with credentials to push.
    const checkout = path.join(catalog, RAW_CHECKOUT);
    git(catalog, 'clone', '-q', '--branch', branch, remote, checkout);
    const env = { ...process.env, RAW_BRANCH: branch, GITHUB_SHA: '0123abc' };
    const round = async () => {
      build({ root: catalog, cache: false, threads: 1 });
      const copied = await runMain(['raw-branch', checkout, '--root', catalog]);
      expect(copied.code, copied.err.join('\n')).toBe(0);
      return execFileSync('bash', ['-e', '-c', commit], { cwd: checkout, env, encoding: 'utf8' });
    };
    await round();
    const pushed = git(remote, 'ls-tree', '-r', '--name-only', branch).split('\n');
    expect(pushed).toEqual(['.otapress-raw', 'FP3.json', 'FP4.json', 'README.md', 'starlte.json']);
    expect(git(remote, 'log', '--format=%s', branch).split('\n')).toEqual([
      'otapress raw-branch: the updater files of 0123abc',
      'seed',
    ]);
    expect(git(remote, 'show', `${branch}:FP4.json`)).toBe(
      readFileSync(path.join(catalog, 'dist', 'FP4.json'), 'utf8').trim(),
    );

    expect(await round()).toBe(`${branch} has the site's files already\n`);
    expect(git(remote, 'log', '--format=%s', branch).split('\n')).toHaveLength(2);
  });
});
