import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { MAX_NAME_LENGTH, outputPathProblem } from '../../src/catalog/path-limits.js';
import { readContent } from '../../src/catalog/read.js';
import { main } from '../../src/cli.js';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { ROOT, tempProject } from '../helpers/helpers.js';

describe('otapress check --format github', () => {
  it('prints one annotation per problem, escaped as GitHub reads them (real CLI process)', { timeout: 60_000 }, () => {
    const root = tempProject({ withContent: true });
    const target = path.join(root, 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml');
    writeFileSync(
      target,
      readFileSync(target, 'utf8')
        .replace('version: "2.5"', 'version: 2.50')
        .replace(/^md5sum: .*$/m, 'md5sum: 75D230308D36383A21994E175CB1D0B7'),
    );
    writeFileSync(
      path.join(root, 'content/FP4/notes, 100%.yaml'),
      'placeholder: true\nversion: "3.2"\nchannel: oficial\ntimestamp: 1751364000\nandroid_version: "16"\n',
    );

    const result = runOtapress(['check', '--format', 'github', '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      '::error file=content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml,line=3,col=10,title=version::YAML reads 2.50 as the number 2.5, not text; quote it: version: "2.50"',
      '::error file=content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml,line=8,col=9,title=md5sum::write the 32 hex characters in lowercase: 75d230308d36383a21994e175cb1d0b7',
      '::error file=content/FP4/notes%2C 100%25.yaml,line=1,col=1,title=(file)::missing `display_version` (a placeholder needs version, channel, timestamp and display_version); add it',
      '::error file=content/FP4/notes%2C 100%25.yaml,line=3,col=10,title=channel::`oficial` is not a channel of this site; did you mean `official`? (channels: stable, official, dev, community, set in content/site.yaml)',
      '',
    ]);
    // check never writes, so it does not say that nothing was written.
    expect(result.stderr).toBe('4 problems found.\n');
  });

  it('prints notices as ::notice, the count, and exits 0 when everything is valid', { timeout: 60_000 }, () => {
    const root = tempProject({ withContent: true });
    expect(runOtapress(['check', '--format', 'github', '--root', root])).toEqual({
      code: 0,
      stdout: [
        '::notice file=content/FP3/e-1.10-s-20230412300000-dev-FP3.yaml,line=3,col=10,title=version::list `dev` of FP3: LineageOS v1 updaters compare `version` as text, where "1.10" comes before "1.9", so phones on 1.9 are never offered 1.10; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating',
        '::notice file=content/FP4/e-2.4-a14-20241001430000-official-FP4.disabled.yaml,line=2,col=11,title=filename::left out of /api/v2/devices/FP4/builds: a `.disabled.zip` file is withdrawn, and a v2 entry cannot say so (phones would offer it for install); v1 still lists it, marked by the name',
        '::notice file=content/FP4/e-2.4-a14-20241001430000-official-FP4.disabled.yaml,line=2,col=11,title=filename::the v1 lists of FP4 hold withdrawn builds, and LineageOS v1 updaters cannot tell a `.disabled.zip` file is withdrawn: they offer it for install to phones on its version, with an older build, of the release types that list it: 2.4 (stable, official); for sites whose phones run the LineageOS updater, `v1_withdrawn: omit` in content/site.yaml leaves withdrawn builds out of v1',
        "::notice file=content/starlte/e-0.17-p-2021060198765-stable-starlte.yaml,line=10,col=7,title=size::left out of /api/v2/devices/starlte/builds with 1 older starlte build of size 0: v2 phones check the download against `size` and some refuse a size that is not positive; write the zip's size in bytes (stat -c %25s FILE) to offer them; v1 still lists them",
        '::notice file=content/starlte/e-0.23-q-2022050312345-stable-starlte.yaml,line=3,col=10,title=version::list `stable` of starlte: LineageOS v1 updaters compare `version` as text, where "0.17" comes before "0.7", so phones on 0.7 are never offered 0.17 or 0.23; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating',
        '20 manifests are valid',
        '',
      ].join('\n'),
      stderr: '5 notices (not errors: the site builds; each says what phones will do, and what to change).\n',
    });
  });

  it('refuses an unknown format with exit 2', async () => {
    const result = runOtapress(['check', '--format', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('--format is text or github, not json');
  });
});

describe('the GitHub workflows', () => {
  const workflow = (name: string) => parse(readFileSync(path.join(ROOT, '.github/workflows', name), 'utf8'));
  const commands = (wf: { jobs: Record<string, { steps: { run?: string }[] }> }) =>
    Object.values(wf.jobs).flatMap((j) => j.steps.map((s) => s.run).filter(Boolean));

  it('checks pull requests with annotations, and builds the main branch', () => {
    const check = workflow('check.yml');
    expect(Object.keys(check.on)).toEqual(['pull_request']);
    expect(commands(check)).toEqual([
      'npm ci',
      'npx otapress check --format github',
      'npx otapress schema --check',
      'npm test',
    ]);
    const build = workflow('build.yml');
    expect(build.on).toEqual({ push: { branches: ['main'] } });
    expect(commands(build)).toEqual(['npm ci', 'npm test', 'npm run build']);
  });
});

describe('netlify.toml: build settings only, never rewritten', { timeout: 60_000 }, () => {
  const run = async (args: string[]) => {
    const { code, out, err } = await runMain(args);
    // The example's notices (v2 leave-outs, what v1 phones do) are not what these tests look at.
    return { code, out, lines: [...out, ...err].filter((l) => l.includes('netlify.toml')) };
  };

  it('on a fresh init catalog, add of a zip for a new device passes check without a build', async () => {
    const root = path.join(tempProject(), 'ota');
    expect((await runMain(['init', root])).code).toBe(0);
    const toml = readFileSync(path.join(root, 'netlify.toml'), 'utf8');
    const zip = path.join(tempProject(), 'e-2.7-a14-20241108446999-official-FP4.zip');
    await writeOtaZip(zip, { metadata: FP4_METADATA });
    expect((await runMain(['add', zip, '--root', root])).code).toBe(0);
    expect(await run(['check', '--root', root])).toMatchObject({ code: 0, lines: [] });
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(toml);
    // And the Netlify build routes the new device from dist/, with that netlify.toml unchanged.
    expect((await runMain(['build', '--root', root, '--host', 'netlify'])).code).toBe(0);
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(toml);
    expect(readFileSync(path.join(root, 'dist/_redirects'), 'utf8')).toContain(
      '\n/api/v1/FP4/official  /api/v1/FP4/official/index.json  200!\n',
    );
  });

  it("a folder's own netlify.toml (plugins, contexts, environment) is kept by init and left byte for byte by check and every build", async () => {
    const root = tempProject({ withContent: true });
    const own = `[build]\ncommand = "npm run build"\npublish = "dist"\n\n[build.environment]\nSECRET_NAME = "x"\n\n[context.production]\ncommand = "npm run build -- --host netlify"\n\n[[plugins]]\npackage = "@netlify/plugin-lighthouse"\n\n[[redirects]]\nfrom = "/old"\nto = "/"\n`;
    writeFileSync(path.join(root, 'netlify.toml'), own);
    const init = await runMain(['init', root]);
    expect(init.out).toContain('kept  netlify.toml: already there, left as it is');
    expect(init.err).toContain(
      'netlify.toml is yours and stays as it is: no otapress command changes it. For Netlify to answer the listings, its build must run `npm run build` (where Netlify runs it, otapress writes dist/_redirects and dist/_headers for Netlify) and publish dist',
    );
    expect(await run(['check', '--root', root])).toMatchObject({ code: 0, lines: [] });
    for (const host of [[], ['--host', 'netlify']]) {
      expect(await run(['build', '--root', root, ...host])).toMatchObject({ code: 0, lines: [] });
      expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(own);
    }
    // A device added later: still nothing to change there.
    cpSync(path.join(root, 'content/FP4'), path.join(root, 'content/FP5'), { recursive: true });
    rmSync(path.join(root, 'content/FP5/device.yaml'), { force: true });
    for (const file of readdirSync(path.join(root, 'content/FP5'))) rmSync(path.join(root, 'content/FP5', file));
    writeFileSync(
      path.join(root, 'content/FP5/announced.yaml'),
      'placeholder: true\nversion: "3.2"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\ndisplay_version: 3.2-a16-20250701-official-FP5\n',
    );
    expect(await run(['check', '--root', root])).toMatchObject({ code: 0, lines: [] });
    expect(await run(['build', '--root', root])).toMatchObject({ code: 0, lines: [] });
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(own);
  });

  it("where Netlify runs the build (NETLIFY=true), a plain `npm run build` writes Netlify's rule files", async () => {
    const root = tempProject({ withContent: true });
    const before = process.env.NETLIFY;
    process.env.NETLIFY = 'true';
    try {
      expect((await runMain(['build', '--root', root])).code).toBe(0);
    } finally {
      if (before === undefined) delete process.env.NETLIFY;
      else process.env.NETLIFY = before;
    }
    expect(readFileSync(path.join(root, 'dist/_redirects'), 'utf8')).toMatch(
      /^# Generated by otapress from its route table for Netlify;/,
    );
    // Elsewhere Cloudflare's are the default.
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(readFileSync(path.join(root, 'dist/_redirects'), 'utf8')).toMatch(
      /^# Generated by otapress from its route table; /,
    );
  });

  it('a netlify.toml an earlier build wrote with the routes gets one notice, at its first rule, and is not changed', async () => {
    const root = tempProject({ withContent: true });
    const old = readFileSync(path.join(ROOT, 'test/fixtures/netlify-toml/written-by-earlier-build.toml'), 'utf8');
    writeFileSync(path.join(root, 'netlify.toml'), old);
    const notice =
      'netlify.toml:9:1  (file)  written by an earlier otapress with the routes of the catalog as it was then; the build now writes them into dist/_redirects and dist/_headers (with --host netlify) and never changes netlify.toml: delete every [[redirects]] and [[headers]] table from here on, keep [build] and [build.environment], and commit it (its headers would win over a changed cache_control)';
    expect(await run(['check', '--root', root])).toMatchObject({ code: 0, lines: [notice] });
    expect(await run(['build', '--root', root, '--host', 'netlify'])).toMatchObject({ code: 0, lines: [notice] });
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(old);
    // init keeps it and says the same.
    const init = await runMain(['init', root]);
    expect(init.err).toContain(`netlify.toml:9: ${notice.split('  (file)  ')[1]}`);
    expect(readFileSync(path.join(root, 'netlify.toml'), 'utf8')).toBe(old);
    // Its header and build settings alone: nothing to say.
    writeFileSync(path.join(root, 'netlify.toml'), old.slice(0, old.indexOf('\n[[redirects]]') + 1));
    expect(await run(['check', '--root', root])).toMatchObject({ code: 0, lines: [] });
  });
});

describe('names that would make output paths too long: check finds what build would fail on', () => {
  const run = async (command: string, root: string) => {
    const lines: string[] = [];
    const code = await main([command, '--root', root], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    return { code, lines: lines.filter((l) => !l.includes('  left out of /api/v2/') && !/^\d+ notices? /.test(l)) };
  };
  const placeholder = (device: string) =>
    `placeholder: true\nversion: "3.2"\nchannel: official\ntimestamp: 1751364000\nandroid_version: "16"\ndisplay_version: 3.2-${device}\n`;
  const site = (extra: string) => `download_base_url: https://dl.example.org/builds\n${extra}`;

  it.each<[string, (root: string) => void, string]>([
    // The case: `devices/<device>/<list>.xml` would be 256 bytes, one more than a file system takes.
    [
      'a list name of 252 characters',
      (root) =>
        writeFileSync(
          path.join(root, 'content/site.yaml'),
          site(`lists:\n  official: [official]\n  ${'l'.repeat(252)}: [official]\n`),
        ),
      `content/site.yaml:4:3  lists.${'l'.repeat(252)}  the list name is 252 characters long, over the limit of 100: it becomes a folder or file name of the site (devices/<device>/<list>.xml), and file systems take at most 255 bytes per name; shorten it`,
    ],
    [
      'a channel of 101 characters (and the list named after it)',
      (root) => writeFileSync(path.join(root, 'content/site.yaml'), site(`channels: [official, ${'c'.repeat(101)}]\n`)),
      'content/site.yaml:2:22  channels.1  the channel name is 101 characters long, over the limit of 100: it becomes a folder or file name of the site (devices/<device>/<list>.xml), and file systems take at most 255 bytes per name; shorten it',
    ],
    [
      'a device folder name of 101 characters',
      (root) => {
        mkdirSync(path.join(root, 'content', 'd'.repeat(101)));
        writeFileSync(path.join(root, 'content', 'd'.repeat(101), 'announced.yaml'), placeholder('d'));
      },
      `content/${'d'.repeat(101)}:1:1  (folder)  the device code name is 101 characters long, over the limit of 100: it becomes a folder or file name of the site (api/v1/<device>/), and file systems take at most 255 bytes per name; shorten it`,
    ],
  ])('%s: check and build report it at its line, and build writes nothing', async (_, spoil, problem) => {
    const root = tempProject({ withContent: true });
    spoil(root);
    expect(await run('check', root)).toEqual({ code: 1, lines: [problem, '1 problem found.'] });
    expect(await run('build', root)).toEqual({ code: 1, lines: [problem, '1 problem found; nothing was written.'] });
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it(`names of ${MAX_NAME_LENGTH} characters and a 255-character file name pass check and build, and every path the build writes is within the limits`, async () => {
    const root = tempProject();
    const [device, list, channel] = ['d', 'l', 'c'].map((ch) => ch.repeat(MAX_NAME_LENGTH));
    mkdirSync(path.join(root, 'content', device), { recursive: true });
    writeFileSync(
      path.join(root, 'content/site.yaml'),
      site(`channels: [${channel}]\nlists:\n  ${list}: [${channel}]\n`),
    );
    writeFileSync(path.join(root, 'content', device, 'announced.yaml'), placeholder('x').replace('official', channel));
    const filename = `${'f'.repeat(251)}.zip`;
    writeFileSync(
      path.join(root, 'content', device, 'long.yaml'),
      `filename: ${filename}\nversion: "3.1"\nchannel: ${channel}\ntimestamp: 1751364000\nandroid_version: "16"\nincremental: "1"\nmd5sum: ${'a'.repeat(32)}\nid: ${'b'.repeat(64)}\nsize: 1000\nchanges: "${'x'.repeat(2000)}"\n`,
    );
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    expect(compiled.files.map((f) => f.path)).toContain(`devices/${device}/${list}.xml`);
    // Every output, including those added later to the renderers, is checked here at the longest names allowed.
    expect(
      compiled.files.map((f) => [f.path, outputPathProblem(f.path)]).filter(([, problem]) => problem !== undefined),
    ).toEqual([]);
    expect((await run('check', root)).code).toBe(0);
    expect(await run('build', root)).toMatchObject({ code: 0 });
    expect(existsSync(path.join(root, 'dist', 'devices', device, `${list}.xml`))).toBe(true);
  });
});
