import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { OUTPUT_MARKER } from '../../src/pipeline/out-dir.js';
import { main } from '../../src/cli.js';
import { ROOT, snapshotTree, tempProject } from '../helpers/helpers.js';

/**
 * The corpus of broken input: each folder of test/fixtures/ holds a content/ tree and expected.txt,
 * the exit status and every line `otapress build` prints for it. Regenerate after an intended
 * change of a message with `UPDATE_FIXTURES=1 npx vitest run test/catalog/fixtures.slow.test.ts`, then review
 * the diff of expected.txt files.
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const MANIFEST = 'FP4/e-2.5-a14-20241108446322-official-FP4.yaml';
const VALID = readFileSync(path.join(FIXTURES, 'bom-and-crlf-accepted', 'content', MANIFEST), 'utf8')
  .replace(/^\ufeff/, '')
  .replace(/\r\n/g, '\n');

/** Inputs that git cannot hold or that are too big to commit: made in the temporary copy. Each folder's about.txt says the same. */
const GENERATED: Record<string, (content: string) => void> = {
  'invalid-utf8': (content) =>
    writeManifest(
      content,
      Buffer.concat([
        Buffer.from(VALID.replace('channel: official', 'channel: offi')),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('\n'),
      ]),
    ),
  'manifest-of-50-mb': (content) => {
    // Sparse: 50 MiB long without using the disk; the build must refuse it by its size alone.
    writeManifest(content, VALID);
    truncateSync(path.join(content, MANIFEST), 50 * 1024 * 1024);
  },
  'symlink-outside-the-repository': (content) => {
    const outside = tempProject();
    writeFileSync(path.join(outside, 'secret.yaml'), VALID);
    mkdirSync(path.join(content, 'FP4'));
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(content, MANIFEST));
  },
  'symlinked-device-folder': (content) => {
    const outside = tempProject();
    mkdirSync(path.join(outside, 'FP4'));
    writeFileSync(path.join(outside, 'FP4', path.basename(MANIFEST)), VALID);
    symlinkSync(path.join(outside, 'FP4'), path.join(content, 'FP4'));
  },
  'named-pipe': (content) => {
    mkdirSync(path.join(content, 'FP4'));
    execFileSync('mkfifo', [path.join(content, MANIFEST)]);
  },
  'file-name-with-newline': (content) => {
    mkdirSync(path.join(content, 'FP4'));
    writeFileSync(path.join(content, 'FP4', 'e-2.5\n::error::forged.yaml'), VALID.replace(/^size: .*$/m, 'size: -1'));
  },
};

// A folder without expected.txt is other test data (lineageotastatic/: real listings for import).
const cases = readdirSync(FIXTURES)
  .filter((name) => existsSync(path.join(FIXTURES, name, 'expected.txt')))
  .sort();

function writeManifest(content: string, text: string | Uint8Array): void {
  mkdirSync(path.join(content, 'FP4'), { recursive: true });
  writeFileSync(path.join(content, MANIFEST), text);
}

/** A project with the fixture's content and a previous dist/ that a failed build must leave alone. */
function prepare(name: string): string {
  const root = tempProject();
  cpSync(path.join(FIXTURES, name, 'content'), path.join(root, 'content'), { recursive: true });
  GENERATED[name]?.(path.join(root, 'content'));
  mkdirSync(path.join(root, 'dist', 'api'), { recursive: true });
  writeFileSync(path.join(root, 'dist', 'api', 'previous.json'), '{"previous":true}');
  // Marked as a build's output: a build replaces only such a folder (or an empty one).
  writeFileSync(path.join(root, 'dist', OUTPUT_MARKER), '');
  return root;
}

function expected(name: string): string {
  return readFileSync(path.join(FIXTURES, name, 'expected.txt'), 'utf8');
}

describe('the corpus of broken input', () => {
  it('holds at least 40 cases, each with its expected output and every generated one with its generator', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const name of cases) expect(existsSync(path.join(FIXTURES, name, 'expected.txt')), name).toBe(true);
    for (const name of Object.keys(GENERATED))
      expect(existsSync(path.join(FIXTURES, name, 'about.txt')), name).toBe(true);
  });

  it.each(cases)(
    '%s',
    async (name) => {
      const root = prepare(name);
      const lines: string[] = [];
      const code = await main(['build', '--root', root], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
      const output = `exit ${code}\n${lines.join('\n').replaceAll(root, '<root>')}\n`;
      if (process.env.UPDATE_FIXTURES) writeFileSync(path.join(FIXTURES, name, 'expected.txt'), output);
      expect(output).toBe(expected(name));
      // Every printed problem is one line of the `file:line:col  field  message` shape.
      for (const line of lines.slice(0, code === 0 ? 0 : -1))
        expect(line).toMatch(/^content\/[^\n]*:\d+:\d+  [^\n]+  [^\n]+$/);
      if (code === 0) {
        expect(existsSync(path.join(root, 'dist', 'api', 'previous.json'))).toBe(false);
      } else {
        expect(snapshotTree(path.join(root, 'dist'))).toEqual({
          [OUTPUT_MARKER]: '',
          'api/previous.json': '{"previous":true}',
        });
        expect(
          readdirSync(root)
            .filter((n) => n !== 'node_modules')
            .sort(),
        ).toEqual(['content', 'dist']);
      }
    },
    30_000,
  );
});

describe('the real otapress process', () => {
  const run = promisify(execFile);
  const sample = [
    'bom-and-crlf-accepted',
    'file-name-with-newline',
    'manifest-of-50-mb',
    'symlink-outside-the-repository',
    'device-folder-named-like-an-output-file',
  ];
  it(`prints the same lines and exits with the same status as expected.txt (${sample.join(', ')})`, async () => {
    const results = await Promise.all(
      sample.map((name) =>
        run(process.execPath, [path.join(ROOT, 'src', 'bin.mjs'), 'build', '--root', prepare(name)]).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (error: { code: number; stdout: string; stderr: string }) => error,
        ),
      ),
    );
    expect(results.map((r) => `exit ${r.code}\n${r.stdout}${r.stderr}`)).toEqual(sample.map(expected));
  }, 120_000);
});
