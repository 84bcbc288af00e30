import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite, DEFAULT_CHANNELS, DEFAULT_LISTS } from '../../src/catalog/site.js';
import { build, check } from '../../src/pipeline/build.js';
import { initCatalog } from '../../src/commands/init.js';
import { NETLIFY_TOML } from '../../src/hosts/netlify.js';
import { SCAFFOLD_SCRIPTS, siteYaml, workflows } from '../../src/commands/init-files.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Every file `otapress init --example` writes in an empty folder. */
const SCAFFOLD = [
  '.github/workflows/build.yml',
  '.github/workflows/check.yml',
  '.gitignore',
  'README.md',
  'content/FP4/device.yaml',
  'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml',
  'content/device.schema.json',
  'content/manifest.schema.json',
  'content/site.yaml',
  'netlify.toml',
  'package.json',
];

describe('otapress init', { timeout: 30_000 }, () => {
  it("writes a .gitignore that keeps out everything a build leaves beside dist/, the replaced tree's trash included", () => {
    const root = path.join(tempProject(), 'my-ota');
    initCatalog(root, { example: false, version: VERSION });
    // What write.ts and disk.ts leave beside dist/ while a build runs, after it, or when it was killed.
    const left = [
      'dist/index.html',
      '.dist.staging-41/index.html',
      '.dist.previous-41/index.html',
      '.dist.trash-41-1795724151435/api/v1/404.json',
      '.dist.lock',
      '.dist.lock.41',
      'node_modules/otapress/package.json',
    ];
    for (const file of left) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), '');
    }
    expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], {
      cwd: root,
      input: `${left.join('\n')}\n`,
      encoding: 'utf8',
    });
    expect(ignored.stdout.split('\n').filter(Boolean)).toEqual(left);
  });

  it('scaffolds a catalog that checks and builds at once, with and without the example device', () => {
    for (const example of [false, true]) {
      const root = path.join(tempProject(), 'my-ota');
      const result = initCatalog(root, { example, version: VERSION });
      const expected = SCAFFOLD.filter((f) => example || !f.startsWith('content/FP4/'));
      expect(Object.keys(snapshotTree(root))).toEqual(expected);
      expect(result.kept).toEqual([]);
      expect(result.notes).toEqual([]);
      expect(result.written.map((w) => w.replace(/ .*/, '')).sort()).toEqual([...expected].sort());
      expect(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))).toEqual({
        name: 'my-ota',
        version: '1.0.0',
        private: true,
        scripts: { build: 'otapress build', check: 'otapress check', serve: 'otapress serve' },
        dependencies: { otapress: `^${VERSION}` },
      });
      // netlify.toml holds the build settings alone: no build changes it.
      expect(check({ root }).problems).toEqual([]);
      const before = readFileSync(path.join(root, 'netlify.toml'), 'utf8');
      const built = build({ root, cache: false });
      expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(before);
      expect(built.builds).toBe(example ? 1 : 0);
      const dist = Object.keys(snapshotTree(path.join(root, 'dist')));
      expect(dist).toEqual(
        expect.arrayContaining([
          'index.html',
          '404.html',
          '_redirects',
          '_headers',
          'api/devices.json',
          'api/v1/404.json',
        ]),
      );
      if (example)
        expect(dist).toEqual(
          expect.arrayContaining([
            'api/v1/FP4/stable/index.json',
            'api/v2/devices/FP4/builds.json',
            'devices/FP4/index.html',
          ]),
        );
      // The example's device.yaml reaches the v2 directory.
      if (example)
        expect(JSON.parse(readFileSync(path.join(root, 'dist', 'api', 'v2', 'oems.json'), 'utf8'))).toEqual([
          { name: 'Fairphone', devices: [{ model: 'FP4', name: 'Fairphone 4' }] },
        ]);
    }
  });

  it('site.yaml is commented and says the defaults of site.ts', () => {
    const text = siteYaml();
    expect(text.split('\n').filter((l) => l.startsWith('#')).length).toBeGreaterThan(10);
    const { site, problems } = parseSite(text);
    expect(problems).toEqual([]);
    expect(site!.channels).toEqual([...DEFAULT_CHANNELS]);
    expect(site!.lists).toEqual(Object.entries(DEFAULT_LISTS).map(([name, channels]) => ({ name, channels })));
    expect(site!.downloadBaseUrl).toBe('https://downloads.example.org/builds');
    // The commented v1_withdrawn line is one edit away from a valid setting.
    expect(parseSite(text.replace('# v1_withdrawn: list', 'v1_withdrawn: omit')).site!.v1Withdrawn).toBe('omit');
  });

  it('--updater writes each dialect where its phones ask, and next names what the ROM build sets to reach it', async () => {
    const root = tempProject();
    const { code, out } = await runMain(['init', root, '--example', '--updater', 'crdroid-java,grapheneos,aospa']);
    expect(code).toBe(0);
    const { site, problems } = parseSite(readFileSync(path.join(root, 'content/site.yaml'), 'utf8'));
    expect(problems).toEqual([]);
    expect(site!.formats.map((f) => [f.family, f.lists, f.path])).toEqual([
      ['crdroid-java', ['stable'], '/api/crdroid-java/{device}.json'],
      ['grapheneos', site!.lists.map((l) => l.name), '/api/grapheneos/{device}-{list}'],
      ['aospa', ['stable'], '/aospa/updates/{device}'],
    ]);
    expect(out.filter((l) => l.includes(' phones: '))).toEqual([
      '  crdroid-java phones: <string name="updater_server_url">https://<site>/api/crdroid-java/{device}.json</string> (an overlay of the Updater app)',
      '  grapheneos phones: <string name="url">https://<site>/api/grapheneos/</string> (config.xml overlay of the Updater app)',
      '  aospa phones: <string name="system_update_server_url">https://<site>/aospa/</string> (an overlay of the hub)',
    ]);
    expect(check({ root }).problems).toEqual([]);
    build({ root });
    expect(existsSync(path.join(root, 'dist/api/crdroid-java/FP4.json'))).toBe(true);
    expect(existsSync(path.join(root, 'dist/aospa/updates/FP4'))).toBe(true);
    for (const [option, message] of [
      ['lineage', '--updater: `lineage` is not a dialect otapress writes; one of '],
      ['aospa,aospa', '--updater names `aospa` twice'],
    ]) {
      const refused = await runMain(['init', tempProject(), '--updater', option]);
      expect(refused.code).toBe(2);
      expect(refused.err[0].startsWith(message), refused.err[0]).toBe(true);
    }
    const kept = initCatalog(root, { version: VERSION, updaters: ['crdroid'] });
    expect(kept.notes).toContain(
      '--updater was not applied: content/site.yaml was already there; add crdroid under its `formats` by hand (README, "Updaters and formats")',
    );
  });

  it('--channels writes the channels of another ROM, each with its own list, and refuses names phones never ask', async () => {
    const root = tempProject();
    const { code } = await runMain(['init', root, '--channels', 'nightly,unofficial']);
    expect(code).toBe(0);
    const text = readFileSync(path.join(root, 'content/site.yaml'), 'utf8');
    expect(text).toContain('\nchannels: [nightly, unofficial]\n');
    expect(text).toContain('\nlists:\n  nightly: [nightly]\n  unofficial: [unofficial]\n');
    const { site, problems } = parseSite(text);
    expect(problems).toEqual([]);
    expect(site!.lists).toEqual([
      { name: 'nightly', channels: ['nightly'] },
      { name: 'unofficial', channels: ['unofficial'] },
    ]);
    // Phones of these channels run the LineageOS updater: the setting that keeps withdrawn and size-0 builds from them is written out.
    expect(text).toContain('\nv1_withdrawn: omit\n');
    expect(site!.v1Withdrawn).toBe('omit');
    expect(check({ root }).problems).toEqual([]);
    for (const [option, message] of [
      [
        'UNOFFICIAL',
        '--channels: write `unofficial`, not `UNOFFICIAL`: phones lower-case their release type when they ask',
      ],
      [
        'nightly,a b',
        '--channels: `a b` is not a channel name (lowercase letters, digits, `-` and `_`; it is a URL path segment), e.g. --channels nightly',
      ],
      ['nightly,nightly', '--channels names `nightly` twice'],
    ]) {
      const refused = await runMain(['init', tempProject(), '--channels', option]);
      expect({ code: refused.code, first: refused.err[0] }).toEqual({ code: 2, first: message });
    }
    expect((await runMain(['init', tempProject(), '--channels', 'nightly', '--example'])).err[0]).toBe(
      '--example adds a build of channel official, which --channels leaves out: pass one of them',
    );
    // A site.yaml already there is kept, and init says the channels were not applied.
    const kept = initCatalog(root, { version: VERSION, channels: ['nightly'] });
    expect(kept.notes).toContain(
      '--channels was not applied: content/site.yaml was already there; add nightly to its `channels` (and `lists`) by hand',
    );
  });

  it("says when listed downloads use init's placeholder host, in build and in check (CI), and only then", async () => {
    const root = tempProject();
    initCatalog(root, { version: VERSION, example: true });
    const notice =
      'content/site.yaml:6:20  download_base_url  `downloads.example.org` is the placeholder host `otapress init` writes: a listed download leads nowhere (https://downloads.example.org/builds/official/FP4/e-2.5-a14-20241108446322-official-FP4.zip); set download_base_url to the address your zips are uploaded to';
    const built = await runMain(['build', '--root', root]);
    expect(built.code).toBe(0);
    expect(built.err).toEqual([
      notice,
      '1 notice (not errors: the site builds; each says what phones will do, and what to change).',
    ]);
    const checked = await runMain(['check', '--root', root, '--format', 'github']);
    expect(checked.code).toBe(0);
    expect(checked.out[0]).toBe(
      `::notice file=content/site.yaml,line=6,col=20,title=download_base_url::${notice.split('download_base_url  ')[1]}`,
    );
    // A catalog without builds offers nothing: no notice. Nor does one with a real host.
    const empty = tempProject();
    initCatalog(empty, { version: VERSION });
    expect(check({ root: empty }).notices).toEqual([]);
    const site = path.join(root, 'content/site.yaml');
    writeFileSync(
      site,
      readFileSync(site, 'utf8').replace('https://downloads.example.org/builds', 'https://dl.example.net/ota'),
    );
    expect(check({ root }).notices).toEqual([]);
  });

  it('points at a commented-out download_base_url and says to uncomment it; a missing one is reported at the top', () => {
    const root = tempProject();
    initCatalog(root, { version: VERSION });
    const site = path.join(root, 'content/site.yaml');
    const text = readFileSync(site, 'utf8');
    writeFileSync(site, text.replace('\ndownload_base_url:', '\n  #download_base_url:'));
    expect(check({ root }).problems.map(formatProblem)).toEqual([
      'content/site.yaml:6:3  download_base_url  download_base_url is commented out, and every build needs it for its download address; remove the `#` and set the address your zips are uploaded to, e.g. download_base_url: https://images.example.org/builds',
    ]);
    expect(parseSite('channels: [nightly]\n').problems.map(formatProblem)).toEqual([
      'content/site.yaml:1:1  download_base_url  missing `download_base_url`: every build needs it for its download address; add a line download_base_url: https://... with the address your zips are uploaded to',
    ]);
  });

  it('keeps every file that is already there, byte for byte, and names each one', () => {
    const root = tempProject();
    const mine = (file: string) => `mine: ${file}\n`;
    for (const file of SCAFFOLD) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(
        path.join(root, file),
        file === 'package.json'
          ? `{\n    "name": "x",\n    "scripts": { "build": "eleventy", "check": "a", "serve": "b" },\n    "devDependencies": { "otapress": "0.1.0" }\n}\n`
          : mine(file),
      );
    }
    const before = snapshotTree(root);
    const result = initCatalog(root, { example: true, version: VERSION });
    expect(snapshotTree(root)).toEqual(before);
    expect(result.written).toEqual([]);
    expect(result.kept.sort()).toEqual(
      [
        ...SCAFFOLD.filter((f) => f !== 'package.json'),
        'package.json scripts.build ("eleventy")',
        'package.json scripts.check ("a")',
        'package.json scripts.serve ("b")',
        'package.json devDependencies.otapress ("0.1.0")',
      ].sort(),
    );
  });

  it('adds only what package.json lacks, in its own indentation, keeping every other key', () => {
    const root = tempProject();
    writeFileSync(
      path.join(root, 'package.json'),
      `{\n\t"name": "ota",\n\t"scripts": {\n\t\t"build": "make",\n\t\t"test": "true"\n\t},\n\t"license": "MIT"\n}\n`,
    );
    const result = initCatalog(root, { version: VERSION });
    expect(readFileSync(path.join(root, 'package.json'), 'utf8')).toBe(
      `{\n\t"name": "ota",\n\t"scripts": {\n\t\t"build": "make",\n\t\t"test": "true",\n\t\t"check": "otapress check",\n\t\t"serve": "otapress serve"\n\t},\n\t"license": "MIT",\n\t"dependencies": {\n\t\t"otapress": "^${VERSION}"\n\t}\n}\n`,
    );
    expect(result.written).toContain(
      `package.json: added scripts.check, scripts.serve, dependencies.otapress ^${VERSION}`,
    );
    expect(result.kept).toEqual(['package.json scripts.build ("make")']);
  });

  it('leaves a package.json that is not JSON alone and says what to add by hand', () => {
    const root = tempProject();
    writeFileSync(path.join(root, 'package.json'), '{ "name": ');
    const result = initCatalog(root, { version: VERSION });
    expect(readFileSync(path.join(root, 'package.json'), 'utf8')).toBe('{ "name": ');
    expect(result.kept).toContain('package.json (not valid JSON)');
    expect(result.notes).toEqual([
      expect.stringMatching(
        /^package.json is not valid JSON \(.+\): add the scripts build, check, serve and the otapress dependency by hand$/,
      ),
    ]);
  });

  it('leaves a package.json that is a named pipe alone, without opening it, and finishes', () => {
    const root = tempProject();
    expect(spawnSync('mkfifo', [path.join(root, 'package.json')]).status).toBe(0);
    const result = initCatalog(root, { version: VERSION });
    expect(result.kept).toContain('package.json (not a regular file)');
    expect(result.notes).toContain(
      'package.json is not a regular file (a link, a named pipe or a folder), so it was not read: make it a file, or add the scripts and the otapress dependency by hand',
    );
    expect(lstatSync(path.join(root, 'package.json')).isFIFO()).toBe(true);
  });

  it('writes the netlify.toml of every catalog beside a kept site.yaml with problems: it depends on nothing in it', () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content'));
    writeFileSync(path.join(root, 'content', 'site.yaml'), 'download_base_url: ftp://x\n');
    const result = initCatalog(root, { version: VERSION });
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(NETLIFY_TOML);
    expect(result.kept).toContain('content/site.yaml');
    expect(result.notes).toEqual([]);
  });

  it('writes no netlify.toml for a site that does not deploy to Netlify', () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content'));
    writeFileSync(path.join(root, 'content', 'site.yaml'), `${siteYaml()}hosts: [cloudflare]\n`);
    const result = initCatalog(root, { version: VERSION });
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
    expect(result.notes).toEqual([
      'netlify.toml was not written: the hosts in content/site.yaml do not include netlify',
    ]);
    expect(check({ root }).problems).toEqual([]);
  });

  it('never writes through a link, even a dangling one', () => {
    const root = tempProject();
    const outside = path.join(tempProject(), 'outside.txt');
    symlinkSync(outside, path.join(root, 'README.md'));
    const result = initCatalog(root, { version: VERSION });
    expect(result.kept).toContain('README.md');
    expect(existsSync(outside)).toBe(false);
    expect(readlinkSync(path.join(root, 'README.md'))).toBe(outside);
  });

  it('prints what it wrote and kept, and what to do next (through the CLI)', async () => {
    const root = tempProject();
    writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
    const { code, out, err } = await runMain(['init', root]);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toContain('kept  .gitignore: already there, left as it is');
    expect(out).toContain('wrote content/site.yaml');
    expect(out.slice(out.indexOf('next:'))).toEqual([
      'next:',
      `  cd ${path.relative(process.cwd(), root)}`,
      '  npm install',
      '  edit download_base_url in content/site.yaml',
      '  npx otapress add path/to/ota.zip',
      '  npm run check (npm run serve previews the site at http://127.0.0.1:8788/)',
      '  commit everything, package-lock.json included (the workflows install from it), and push: Netlify and Cloudflare Pages build the site themselves; for a server of your own, npm run build and upload dist/',
    ]);
    expect((await runMain(['init', root, root])).code).toBe(2);
  });
});

describe('the scaffolded workflows', () => {
  // SchemaStore's workflow schema (test/schemas/README.md says where the copy comes from).
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'test/schemas/github-workflow.json'), 'utf8')) as object;
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

  it.each(workflows().map((w) => [w.file, w.text]))('%s is a valid GitHub Actions workflow', (_, text) => {
    const workflow = parse(text) as unknown;
    expect(validate(workflow) ? [] : validate.errors).toEqual([]);
  });

  it('the schema does refuse a broken workflow (a validator that accepts anything proves nothing)', () => {
    const broken = parse(workflows()[0].text) as { jobs: { check: Record<string, unknown> } };
    delete broken.jobs.check['runs-on'];
    broken.jobs.check.step = [];
    expect(validate(broken)).toBe(false);
    expect(validate({ on: 'push', jobs: { a: { 'runs-on': 'ubuntu-latest', steps: [{ run: 1, uses: 'x' }] } } })).toBe(
      false,
    );
  });

  it('name only commands and options otapress has, and scripts the scaffolded package.json has', async () => {
    const steps = workflows().flatMap((w) =>
      Object.values((parse(w.text) as { jobs: Record<string, { steps: { run?: string }[] }> }).jobs).flatMap(
        (job) => job.steps,
      ),
    );
    const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
    expect(runs).toEqual([
      'npm ci',
      'npx otapress check --format github',
      'npx otapress diff "$BASE" --format markdown >> "$GITHUB_STEP_SUMMARY"',
      'npx otapress schema --check',
      'npm ci',
      'npx otapress build',
    ]);
    for (const run of runs.filter((r) => r.startsWith('npx otapress '))) {
      // --help after the real arguments: exit 0 only if the command exists and takes every option given.
      const { code } = await runMain([...run.split(' ').slice(2), '--help']);
      expect(code, run).toBe(0);
    }
    expect((await runMain(['check', '--formats', 'github', '--help'])).code).toBe(2);
    for (const script of Object.values(SCAFFOLD_SCRIPTS))
      expect((await runMain([...script.split(' ').slice(1), '--help'])).code).toBe(0);
  });
});
