import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';

/**
 * Where the CLI's output goes when it cannot all be written (cli.ts, print and outputWritten): a
 * reader that stopped reading (`otapress build | head`) and a device that takes no byte
 * (/dev/full), on the real CLI process, and arguments that would drive the terminal. The order of
 * the two streams in one pipe is checked in build.test.ts, with notices longer than a pipe holds.
 */
const TIMEOUT = 120_000;
const BIN = path.join(ROOT, 'src', 'bin.mjs');

/** Runs the CLI with one of its two streams' reader closed before it starts; the other is collected. */
function withReaderGone(args: string[], gone: 'stdout' | 'stderr'): Promise<{ code: number | null; kept: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    child[gone].destroy();
    let kept = '';
    child[gone === 'stdout' ? 'stderr' : 'stdout'].setEncoding('utf8').on('data', (chunk: string) => (kept += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, kept }));
  });
}

describe("the CLI's output", () => {
  it(
    'a build whose stdout reader has gone (EPIPE) still does its work and prints every notice, with status 0 and no stack (real CLI process)',
    { timeout: TIMEOUT },
    async () => {
      const root = tempProject({ withContent: true });
      const copy = tempProject({ withContent: true });
      const expected = await runMain(['build', '--root', copy]);
      const { code, kept } = await withReaderGone(['build', '--root', root], 'stdout');
      expect(code).toBe(0);
      // Every notice and nothing else (no EPIPE, no stack).
      expect(kept.replaceAll(root, 'ROOT')).toBe(`${expected.err.join('\n').replaceAll(copy, 'ROOT')}\n`);
      expect(existsSync(path.join(root, 'dist', 'api', 'v1'))).toBe(true);
    },
  );

  it(
    'a build whose stderr reader has gone prints its summary on stdout, with status 0 (real CLI process)',
    { timeout: TIMEOUT },
    async () => {
      const root = tempProject({ withContent: true });
      const { code, kept } = await withReaderGone(['build', '--root', root], 'stderr');
      expect(code).toBe(0);
      expect(kept).toMatch(/^built \d+ builds of \d+ devices into \d+ listings \(\d+ records\), \d+ files\n$/);
    },
  );

  // Linux and the BSDs have /dev/full; elsewhere there is no device to test this with.
  it.skipIf(!existsSync('/dev/full'))(
    'output that cannot be written (/dev/full) is said on the other stream, with status 74 (real CLI process)',
    { timeout: TIMEOUT },
    () => {
      const run = (args: string[], full: 1 | 2) =>
        spawnSync('sh', ['-c', `"$0" "$@" ${full}>/dev/full`, process.execPath, BIN, ...args], {
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1' },
        });
      const version = run(['--version'], 1);
      expect([version.status, version.stdout, version.stderr]).toEqual([
        74,
        '',
        'otapress could not write its output to stdout: the disk is full (ENOSPC); free some space and run it again\n',
      ]);
      // A wrong command line keeps its own status; what it could not say is said on stdout.
      const unknown = run(['nosuch'], 2);
      expect([unknown.status, unknown.stdout]).toEqual([
        2,
        'otapress could not write its output to stderr: the disk is full (ENOSPC); free some space and run it again\n',
      ]);
      // The build is done (the tree is in place) though its report is lost.
      const root = tempProject({ withContent: true });
      const build = run(['build', '--root', root], 1);
      expect(build.status).toBe(74);
      expect(build.stderr).toMatch(
        /\notapress could not write its output to stdout: the disk is full \(ENOSPC\); free some space and run it again\n$/,
      );
      expect(existsSync(path.join(root, 'dist', 'api', 'v1'))).toBe(true);
      // Nothing lost, nothing said: an empty stderr on /dev/full is no failure.
      const quiet = run(['--version'], 2);
      const { version: own } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect([quiet.status, quiet.stdout, quiet.stderr]).toEqual([0, `${own}\n`, '']);
    },
  );

  it(
    'arguments a message quotes reach the terminal escaped and on one line: no escape sequence, no forged line (real CLI process)',
    { timeout: TIMEOUT },
    () => {
      const root = tempProject({ withContent: true });
      // OSC 52 would set the terminal's clipboard; the line break would start a line of its own.
      const hostile = 'a\x1b]52;c;aGk=\x07b\nnext line \u202e\r';
      const shown = 'a\\u001b]52;c;aGk=\\u0007b\\nnext line \\u202e\\r';
      const cases: [string[], string][] = [
        [['check', '--root', root, '--format', hostile], `--format is text or github, not ${shown}`],
        [[hostile], `unknown command \`${shown}\``],
        // add's messages have lines of their own; each is escaped (a line break in a path starts one).
        [
          ['add', 'a\x1b]52;c;aGk=\x07b.zip', '--root', root],
          'no such file: a\\u001b]52;c;aGk=\\u0007b.zip; pass the path of the OTA zip',
        ],
        [
          ['import', hostile, '--device', 'FP4', '--list', 'stable', '--root', root],
          `cannot read ${shown} (ENOENT); pass the saved listing, or - for standard input`,
        ],
        [['build', '--root', root, '--threads', hostile], `--threads is a whole number of at least 1, not ${shown}`],
      ];
      for (const [args, first] of cases) {
        const result = runOtapress(args);
        expect(result.code).toBe(2);
        expect(result.stderr.split('\n')[0]).toBe(first);
        expect(result.stdout + result.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
      }
    },
  );
});
