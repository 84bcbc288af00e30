// `otapress serve`: the same table of paths as the hosts (status, body, headers), served from the
// in-memory build; then what a maintainer sees while editing: a change is served, a broken change
// prints its problems and the last good build stays in service.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { main } from '../../src/cli.js';
import { readContent } from '../../src/catalog/read.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { startPreview, type Preview } from '../../src/pipeline/preview.js';
import { EXAMPLE, ROOT, tempProject } from '../helpers/helpers.js';
import {
  CLOUDFLARE_PAGE_ALLOW_ORIGIN,
  compileWith,
  describeProbe,
  expectedAnswer,
  hostTable,
  INCREMENTAL_EXAMPLE,
  observe,
  optionsProbes,
  REQUEST_PATHS_YAML,
  FORMATS_YAML,
  FORMATS_OUTSIDE_API_YAML,
  writeManifests,
  type Seen,
} from '../helpers/host-table.js';

const compiled = compileSite(readContent(EXAMPLE));
const fileText = (file: string) => String(compiled.files.find((f) => f.path === file)!.contents);

/** A project folder for a whole describe block (helpers' tempProject is removed after each test). */
function projectForSuite(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'otapress-serve-'));
  cpSync(path.join(EXAMPLE, 'content'), path.join(dir, 'content'), { recursive: true });
  return dir;
}

function collectingIo() {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, io: { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) } };
}

/** Waits until `check` holds, polling: the watcher's timing is the file system's, not ours. */
async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each([
  { extra: FORMATS_YAML, manifests: {}, setting: 'the example, with formats under /api/' },
  {
    extra: `${REQUEST_PATHS_YAML}${FORMATS_OUTSIDE_API_YAML}`,
    manifests: INCREMENTAL_EXAMPLE,
    setting: 'with request_paths, formats outside /api/ and an incremental package',
  },
])('otapress serve answers the host table like the hosts, $setting', ({ extra, manifests }) => {
  const compiled = compileWith(readContent(EXAMPLE), extra, manifests);
  const table = hostTable(compiled);
  const fileText = (file: string) => String(compiled.files.find((f) => f.path === file)!.contents);
  let root: string;
  let preview: Preview;
  beforeAll(async () => {
    root = projectForSuite();
    appendFileSync(path.join(root, 'content', 'site.yaml'), extra);
    writeManifests(root, manifests);
    preview = await startPreview({ root, port: 0, io: collectingIo().io });
  });
  afterAll(async () => {
    await preview.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(table.map((probe) => ({ probe, name: describeProbe(probe) })))('$name', async ({ probe }) => {
    const seen = await observe(preview.url, probe.method, probe.path);
    // As on Cloudflare, every 404 is Cache-Control: no-store.
    expect(seen).toEqual(
      expectedAnswer(probe, fileText(probe.file), { json: 'no-store', html: 'no-store' }, CLOUDFLARE_PAGE_ALLOW_ORIGIN),
    );
  });

  it.each(optionsProbes(compiled))(
    'OPTIONS $path answers 405 as a static asset does on Cloudflare',
    async ({ path: sent, api }) => {
      const seen = await observe(preview.url, 'OPTIONS', sent);
      const expected: Seen = api
        ? {
            status: 405,
            contentType: 'application/json',
            allow: 'GET, OPTIONS',
            vary: 'Accept',
            cacheControl: 'public, max-age=300',
            allowOrigin: '*',
            location: null,
            body: '',
          }
        : {
            status: 405,
            contentType: null,
            allow: null,
            vary: null,
            cacheControl: null,
            allowOrigin: CLOUDFLARE_PAGE_ALLOW_ORIGIN,
            location: null,
            body: '',
          };
      expect(seen).toEqual(expected);
    },
  );

  it('writes no dist/', () => {
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });
});

describe('the preview with options_handler: true', () => {
  it.each(optionsProbes(compiled))('OPTIONS $path answers as the generated _worker.js does', ({ path: sent, api }) => {
    const root = tempProject({ withContent: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), '\noptions_handler: true\n');
    const withHandler = compileSite(readContent(root));
    const answer = respond(servedTree(withHandler.site!, withHandler.files), 'OPTIONS', sent);
    expect(answer).toEqual(
      api
        ? {
            status: 204,
            headers: {
              Allow: 'GET, OPTIONS',
              Vary: 'Accept',
              'Cache-Control': 'public, max-age=300',
              'Access-Control-Allow-Origin': '*',
            },
            body: '',
          }
        : { status: 405, headers: { 'Access-Control-Allow-Origin': '*' }, body: '' },
    );
  });
});

describe('otapress serve while content/ changes', () => {
  let root: string;
  let preview: Preview;
  const { lines, io } = collectingIo();
  const manifest = () => path.join(root, 'content', 'FP4', 'e-2.5-a14-20241108446322-official-FP4.yaml');
  const listing = async (p: string) => (await fetch(new URL(p, preview.url))).text();

  beforeAll(async () => {
    root = projectForSuite();
    preview = await startPreview({ root, port: 0, io, debounceMs: 50 });
  });
  afterAll(async () => {
    await preview.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the new listing after a manifest changes', async () => {
    expect(await listing('/api/v1/FP4/official/')).toContain('"size":1387003904');
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('size: 1387003904', 'size: 1387003905'));
    await eventually(
      async () => (await listing('/api/v1/FP4/official/')).includes('"size":1387003905'),
      'the changed size is served',
    );
    expect(await listing('/api/v1/FP4/stable/eng.root.20241108.123456')).toContain('"size":1387003905');
  }, 30_000);

  it('prints the problems of a broken manifest and keeps serving the last good listing', async () => {
    const good = await listing('/api/v1/FP4/official/');
    lines.err.length = 0;
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('version: "2.5"', 'version: 2.50'));
    await eventually(
      () => lines.err.includes('1 problem found; still serving the last good build.'),
      'the problem is printed',
    );
    // The last rebuild's report (an editor's save may trigger more than one rebuild).
    expect(lines.err.slice(-2)).toEqual([
      'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml:3:10  version  YAML reads 2.50 as the number 2.5, not text; quote it: version: "2.50"',
      '1 problem found; still serving the last good build.',
    ]);
    expect(await listing('/api/v1/FP4/official/')).toBe(good);
  }, 30_000);

  it('serves a device folder added while it runs', async () => {
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('version: 2.50', 'version: "2.5"'));
    const folder = path.join(root, 'content', 'FP5');
    mkdirSync(folder);
    const source = readFileSync(path.join(root, 'content', 'FP4', 'e-3.0-a16-20250610500001-dev-FP4.yaml'), 'utf8');
    writeFileSync(path.join(folder, 'e-3.0-a16-20250610500001-dev-FP5.yaml'), source.replaceAll('FP4', 'FP5'));
    await eventually(
      async () => (await fetch(new URL('/api/v1/FP5/dev/', preview.url))).status === 200,
      'FP5 is served',
    );
    expect(await listing('/api/v1/FP5/dev/')).toContain('"filename":"e-3.0-a16-20250610500001-dev-FP5.zip"');
  }, 30_000);

  it('follows a device folder removed and made again: changes in the new folder are served', async () => {
    const folder = path.join(root, 'content', 'FP5');
    const name = 'e-3.0-a16-20250610500001-dev-FP5.yaml';
    const text = readFileSync(path.join(folder, name), 'utf8');
    rmSync(folder, { recursive: true });
    await eventually(async () => (await fetch(new URL('/api/v1/FP5/dev/', preview.url))).status === 404, 'FP5 is gone');
    mkdirSync(folder);
    writeFileSync(path.join(folder, name), text);
    await eventually(async () => (await fetch(new URL('/api/v1/FP5/dev/', preview.url))).status === 200, 'FP5 is back');
    // Written after the folder came back: seen only by a watch on the new folder. Written again
    // until it is served, so that no event still on its way about the folder itself can hide it;
    // without a watch on the new folder, none is ever seen.
    const changed = text.replace(/^size: \d+$/m, 'size: 1612354242');
    await eventually(async () => {
      writeFileSync(path.join(folder, name), changed);
      return (await listing('/api/v1/FP5/dev/')).includes('"size":1612354242,');
    }, 'the change in the new folder is served');
  }, 30_000);
});

describe('otapress serve on the command line', () => {
  it('serves from a real CLI process until it is stopped, then exits 0', async () => {
    const root = tempProject({ withContent: true });
    const child = spawn(process.execPath, [path.join(ROOT, 'src', 'bin.mjs'), 'serve', '--root', root, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await eventually(
        () => /serving content\/ at http:\/\/127\.0\.0\.1:\d+\/ \(Ctrl-C stops\)/.test(output),
        `the address is printed (${output})`,
      );
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(output)![0];
      const response = await fetch(new URL('/api/v1/FP4/stable/eng.root.20241108.123456', url), { redirect: 'manual' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(fileText('api/v1/FP4/stable/index.json'));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);

  it.each([
    [['serve', '--port', 'eighty'], '--port is a number from 0 to 65535, not eighty'],
    [['serve', '--port', '70000'], '--port is a number from 0 to 65535, not 70000'],
  ])('%j is wrong usage (exit 2)', async (argv, message) => {
    const err: string[] = [];
    expect(await main(argv, { out: () => {}, err: (l) => err.push(l) })).toBe(2);
    expect(err[0].split('\n')[0]).toBe(message);
  });

  it('says so when the port is taken (exit 2)', async () => {
    const root = tempProject({ withContent: true });
    const taken = await startPreview({ root, port: 0, io: collectingIo().io });
    try {
      const err: string[] = [];
      expect(
        await main(['serve', '--root', root, '--port', String(taken.port)], { out: () => {}, err: (l) => err.push(l) }),
      ).toBe(2);
      expect(err[0].split('\n')[0]).toBe(
        `port ${taken.port} is already in use on 127.0.0.1; pick another with --port N (0 picks a free one)`,
      );
    } finally {
      await taken.close();
    }
  });

  it('exits 1 with the problems when the content is invalid from the start', async () => {
    const root = tempProject({ withContent: true });
    const file = path.join(root, 'content', 'FP4', 'e-2.5-a14-20241108446322-official-FP4.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('version: "2.5"', 'version: 2.50'));
    const err: string[] = [];
    expect(await main(['serve', '--root', root, '--port', '0'], { out: () => {}, err: (l) => err.push(l) })).toBe(1);
    expect(err[0]).toBe(
      'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml:3:10  version  YAML reads 2.50 as the number 2.5, not text; quote it: version: "2.50"',
    );
  });
});
