// The GitHub Pages workflow `init` writes: only when asked (--github-pages) or for a site already
// on Pages, never over a file that is there, and a valid workflow whose otapress command exists.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { pagesWorkflow } from '../../src/commands/init-files.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';

const PAGES = '.github/workflows/pages.yml';

describe('the GitHub Pages workflow of init', () => {
  it('is written with --github-pages only, or for a site whose site_url is at github.io', () => {
    const plain = tempProject();
    expect(initCatalog(plain, { version: '0.2.0' }).written).not.toContain(PAGES);
    const asked = tempProject();
    expect(initCatalog(asked, { version: '0.2.0', githubPages: true }).written).toContain(PAGES);
    expect(readFileSync(path.join(asked, PAGES), 'utf8')).toBe(pagesWorkflow().text);
    const onPages = tempProject();
    mkdirSync(path.join(onPages, 'content'));
    writeFileSync(
      path.join(onPages, 'content', 'site.yaml'),
      'download_base_url: https://dl.example.org\nsite_url: https://owner.github.io/ota/\n',
    );
    expect(initCatalog(onPages, { version: '0.2.0' }).written).toContain(PAGES);
  });

  it('says, when it wrote the workflow, what to set on GitHub for it to deploy (through the CLI)', async () => {
    const root = path.join(tempProject(), 'ota');
    const { code, out } = await runMain(['init', root, '--github-pages']);
    expect(code).toBe(0);
    expect(out).toContain(`wrote ${PAGES}`);
    expect(out.join('\n')).toContain('Settings → Pages → Source to "GitHub Actions"');
    const again = await runMain(['init', root, '--github-pages']);
    expect(again.out.join('\n')).not.toContain('Settings → Pages');
  });

  it('never replaces a pages.yml that is there', () => {
    const root = tempProject();
    mkdirSync(path.join(root, '.github', 'workflows'), { recursive: true });
    writeFileSync(path.join(root, PAGES), 'name: mine\n');
    const result = initCatalog(root, { version: '0.2.0', githubPages: true });
    expect(result.kept).toContain(PAGES);
    expect(readFileSync(path.join(root, PAGES), 'utf8')).toBe('name: mine\n');
  });

  it('is a valid GitHub Actions workflow that builds for Pages, uploads dist/ and deploys it', async () => {
    // SchemaStore's workflow schema (test/schemas/README.md says where the copy comes from).
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'test/schemas/github-workflow.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const workflow = parse(pagesWorkflow().text) as {
      permissions: Record<string, string>;
      jobs: { deploy: { steps: { run?: string; uses?: string; with?: Record<string, string> }[] } };
    };
    expect(validate(workflow) ? [] : validate.errors).toEqual([]);
    expect(workflow.permissions).toEqual({ contents: 'read', pages: 'write', 'id-token': 'write' });
    const steps = workflow.jobs.deploy.steps;
    expect(steps.map((s) => s.run ?? s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      'npx otapress build --host github-pages',
      'actions/upload-pages-artifact@v5',
      'actions/deploy-pages@v5',
    ]);
    expect(steps[4].with).toEqual({ path: 'dist/' });
    // --help after the real arguments: exit 0 only if the command takes every option given.
    expect((await runMain(['build', '--host', 'github-pages', '--help'])).code).toBe(0);
  });
});
