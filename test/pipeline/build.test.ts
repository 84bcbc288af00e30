import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { OUTPUT_MARKER } from '../../src/pipeline/out-dir.js';
import { NETLIFY_TOML } from '../../src/hosts/netlify.js';
import { main } from '../../src/cli.js';
import { ContentError, formatProblem } from '../../src/catalog/problems.js';
import { generateCatalog } from '../bench/catalog.js';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { eventually, EXAMPLE, oldTreesRemoved, ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

const GOLDEN = path.join(ROOT, 'test', 'golden');

describe('build of the example catalog', () => {
  it('writes exactly the committed golden tree, and no netlify.toml', () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const tree = snapshotTree(path.join(root, 'dist'));
    if (process.env.UPDATE_GOLDEN) {
      rmSync(path.join(GOLDEN, 'dist'), { recursive: true, force: true });
      cpSync(path.join(root, 'dist'), path.join(GOLDEN, 'dist'), { recursive: true });
      writeFileSync(path.join(EXAMPLE, 'netlify.toml'), NETLIFY_TOML);
    }
    expect(tree).toEqual(snapshotTree(path.join(GOLDEN, 'dist')));
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
  });

  it("with --host netlify, writes the golden tree with Netlify's _redirects and _headers in place of Cloudflare's", () => {
    const root = tempProject({ withContent: true });
    build({ root, host: 'netlify' });
    const tree = snapshotTree(path.join(root, 'dist'));
    const netlify = path.join(GOLDEN, 'netlify');
    if (process.env.UPDATE_GOLDEN) {
      rmSync(netlify, { recursive: true, force: true });
      mkdirSync(netlify);
      for (const name of ['_redirects', '_headers']) cpSync(path.join(root, 'dist', name), path.join(netlify, name));
    }
    // Cloudflare's worker (the changes' later pages, OPTIONS) is Cloudflare's alone.
    const { '_worker.js': worker, '_routes.json': routes, ...cloudflareless } = snapshotTree(path.join(GOLDEN, 'dist'));
    expect(worker).toBeDefined();
    expect(routes).toBeDefined();
    expect(tree).toEqual({ ...cloudflareless, ...snapshotTree(netlify) });
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
  });

  it('is byte-identical across runs', () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const first = snapshotTree(path.join(root, 'dist'));
    build({ root });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(first);
  });

  it('leaves no staging or previous folders behind, and the tree it replaced goes away in the background', async () => {
    const root = tempProject({ withContent: true });
    build({ root });
    build({ root });
    // The first tree, renamed out of the way, is removed by an `rm -rf` that runs on after the build.
    await oldTreesRemoved(root);
    // node_modules/.cache/otapress is the build cache, where tools keep theirs (git ignores node_modules).
    expect(readdirSync(root).sort()).toEqual(['content', 'dist', 'node_modules']);
    expect(readdirSync(path.join(root, 'node_modules', '.cache'))).toEqual(['otapress']);
  });

  it('never puts back a tree set aside for removal, and removes it', async () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const built = snapshotTree(path.join(root, 'dist'));
    // What a build killed just after setting its old tree aside leaves (dist/ is then the new tree,
    // here removed as well): recovery must not mistake it for a tree to restore.
    const trash = path.join(root, '.dist.trash-999999999-1');
    mkdirSync(path.join(trash, 'api'), { recursive: true });
    writeFileSync(path.join(trash, 'api', 'old.json'), '{}');
    rmSync(path.join(root, 'dist'), { recursive: true });
    build({ root });
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(built);
    await eventually(() => !existsSync(trash));
    expect(existsSync(trash)).toBe(false);
  });
});

describe('the build command as a process', () => {
  it(
    'prints all of a report longer than a pipe holds, the same as in process, before it ends (real CLI process)',
    { timeout: 120_000 },
    async () => {
      // The process ends with process.exit once the command is done (bin.mjs): the notices must all
      // be through the pipe by then, past the 64 KiB it holds until the reader takes them, also when
      // stdout and stderr share it, as in a CI log.
      const processed = tempProject();
      generateCatalog(processed, { devices: 40, builds: 20 });
      const inProcess = tempProject();
      cpSync(path.join(processed, 'content'), path.join(inProcess, 'content'), { recursive: true });
      const expected = await runMain(['build', '--root', inProcess]);
      expect(expected.code).toBe(0);
      const lines = (text: string, root: string) => text.replaceAll(root, 'ROOT').split('\n');
      const out = lines(`${expected.out.join('\n')}\n`, inProcess);
      const err = lines(`${expected.err.join('\n')}\n`, inProcess);
      expect(err.join('\n').length).toBeGreaterThan(65_536);

      const result = runOtapress(['build', '--root', processed]);
      expect(result.code).toBe(0);
      expect(lines(result.stderr, processed)).toEqual(err);
      expect(lines(result.stdout, processed)).toEqual(out);
      expect(snapshotTree(path.join(processed, 'dist'))).toEqual(snapshotTree(path.join(inProcess, 'dist')));

      // One pipe for both, read only after a second (the process has long printed everything by
      // then): nothing may be missing, and the summary comes after the notices, as printed, not
      // inside them where stderr's text did not all fit into the pipe at once (cli.ts, print).
      const script = '{ "$0" "$1" build --root "$2"; echo "exit $?"; } 2>&1 | { sleep 1; cat; }';
      const shared = spawnSync('sh', ['-c', script, process.execPath, path.join(ROOT, 'src', 'bin.mjs'), processed], {
        encoding: 'utf8',
      });
      expect(shared.stdout.replaceAll(processed, 'ROOT')).toBe(`${err.join('\n')}${out.join('\n')}exit 0\n`);
    },
  );
});

describe('a failed build', () => {
  it('reports every problem of every file and leaves the previous dist/ byte-for-byte intact', async () => {
    const root = tempProject({ withContent: true });
    build({ root });
    const before = snapshotTree(path.join(root, 'dist'));

    const fp4 = path.join(root, 'content', 'FP4');
    const target = path.join(fp4, 'e-2.5-a14-20241108446322-official-FP4.yaml');
    writeFileSync(
      target,
      readFileSync(target, 'utf8')
        .replace('version: "2.5"', 'version: 2.50')
        .replace(/^size: .*$/m, 'size: -1'),
    );
    mkdirSync(path.join(root, 'content', 'fp4'));
    writeFileSync(
      path.join(root, 'content', 'fp4', 'x.yaml'),
      'placeholder: true\nversion: "1.0"\nchannel: official\ntimestamp: 1731067200\nandroid_version: "14"\ndisplay_version: x\n',
    );

    let error: unknown;
    try {
      build({ root });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).problems.map(formatProblem)).toEqual([
      'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml:3:10  version  YAML reads 2.50 as the number 2.5, not text; quote it: version: "2.50"',
      'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml:10:7  size  a size cannot be negative; expected the zip size in bytes (stat -c %s FILE)',
      'content/fp4:1:1  (folder)  device folders `FP4` and `fp4` differ only by case; phones ask with the exact name, keep one folder',
    ]);
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(before);

    const lines: string[] = [];
    const code = await main(['build', '--root', root], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe('3 problems found; nothing was written.');
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(before);
  });

  it('says what is missing when there is no site.yaml', () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content'));
    expect(() => build({ root })).toThrow(ContentError);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('refuses a content/ that is itself a symbolic link (check and build), publishing nothing from where it points', async () => {
    // Another folder's catalog, outside the repository: links inside content/ are refused, and so is content/ itself.
    const outside = tempProject({ withContent: true });
    const root = tempProject();
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'dist', OUTPUT_MARKER), '');
    writeFileSync(path.join(root, 'dist', 'index.html'), 'previous');
    symlinkSync(path.join(outside, 'content'), path.join(root, 'content'));
    const problem =
      'content:1:1  (folder)  symbolic links are refused (a link can point outside the repository); replace it with the folder itself';
    for (const [command, last] of [
      ['check', '1 problem found.'],
      ['build', '1 problem found; nothing was written.'],
    ]) {
      const lines: string[] = [];
      const code = await main([command, '--root', root], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      expect({ command, code, lines }).toEqual({ command, code: 1, lines: [problem, last] });
    }
    expect(snapshotTree(path.join(root, 'dist'))).toEqual({ [OUTPUT_MARKER]: '', 'index.html': 'previous' });
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
  });
});

describe('build --out DIR that holds files no build wrote', () => {
  const run = async (root: string, out: string, ...flags: string[]) => {
    const lines: string[] = [];
    const code = await main(['build', '--root', root, '--out', out, ...flags], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    return { code, lines };
  };
  const refusal = (out: string, what: string) =>
    `refusing to write the site to ${out}: ${what}, and a build replaces the whole folder, which would delete ${what.startsWith('it is a file') ? 'it' : 'them'}; build into a new or empty folder, or pass --overwrite to replace it anyway`;

  it.each<[string, Record<string, string>, string]>([
    [
      "a web server's folder with other sites and a .env",
      { '.env': 'SECRET=1\n', 'blog/index.html': 'blog', 'index.html': 'home' },
      'it holds files that otapress did not write (`.env`, `blog`; an output folder has .otapress-output)',
    ],
    [
      'a home folder',
      {
        '.bashrc': 'alias',
        '.ssh/id_ed25519': 'key',
        'Documents/notes.txt': 'notes',
        'Music/a': 'a',
        '-\n::error::x': 'odd',
      },
      'it holds files that otapress did not write (`-\\n::error::x`, `.bashrc`, `.ssh` and 2 more; an output folder has .otapress-output)',
    ],
    [
      'a page of its own (no mark, no api/v1/404.json)',
      { 'index.html': 'my page' },
      'it holds files that otapress did not write (`index.html`; an output folder has .otapress-output)',
    ],
    [
      "an earlier build's output with a .env put beside it",
      { 'api/v1/404.json': '{}', 'index.html': 'home', '.env': 'SECRET=1\n' },
      'it holds files that otapress did not write (`.env`; an output folder has .otapress-output)',
    ],
  ])('refuses %s with exit status 2 and leaves it as it was; --overwrite replaces it', async (_, files, what) => {
    const root = tempProject({ withContent: true });
    const out = path.join(tempProject(), 'html');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
      writeFileSync(path.join(out, name), text);
    }
    const before = snapshotTree(out);
    expect(await run(root, out)).toEqual({ code: 2, lines: [refusal(out, what)] });
    expect(snapshotTree(out)).toEqual(before);
    expect(readdirSync(path.dirname(out))).toEqual(['html']);

    expect((await run(root, out, '--overwrite')).code).toBe(0);
    expect(snapshotTree(out)).toEqual(snapshotTree(path.join(GOLDEN, 'dist')));
  });

  it('refuses a file (unless --overwrite)', async () => {
    const root = tempProject({ withContent: true });
    const out = path.join(tempProject(), 'notes.txt');
    writeFileSync(out, 'notes');
    expect(await run(root, out)).toEqual({ code: 2, lines: [refusal(out, 'it is a file, not a folder')] });
    expect(readFileSync(out, 'utf8')).toBe('notes');
  });

  it.each<[string, (out: string) => void]>([
    ['a missing folder', () => {}],
    ['an empty folder', (out) => mkdirSync(out)],
    [
      'the output of an earlier build (marked with .otapress-output)',
      (out) => build({ root: tempProject({ withContent: true }), outDir: out }),
    ],
    // Built before builds marked their output: api/v1/404.json, and nothing but the names a build writes at the top.
    [
      'the output of otapress 0.2, which wrote no mark',
      (out) => {
        build({ root: tempProject({ withContent: true }), outDir: out });
        rmSync(path.join(out, OUTPUT_MARKER));
        writeFileSync(path.join(out, '.htaccess'), 'old rules');
      },
    ],
  ])('replaces %s', async (_, make) => {
    const root = tempProject({ withContent: true });
    const out = path.join(tempProject(), 'site');
    make(out);
    expect(await run(root, out)).toMatchObject({ code: 0 });
    expect(snapshotTree(out)).toEqual(snapshotTree(path.join(GOLDEN, 'dist')));
  });

  it('says so in --help', async () => {
    const { out } = await runMain(['build', '--help']);
    expect(out.join('\n')).toContain(
      'a folder that\nholds anything else is refused with exit status 2, since replacing it would delete those files.\n--overwrite replaces it anyway.',
    );
  });
});
