import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { main } from '../../src/cli.js';
import { ROOT } from './helpers.js';

/** What a command printed and its exit code. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `otapress <args>` as a real process (node src/bin.mjs), as `npx otapress` does. */
export function runOtapress(args: string[], { cwd = ROOT, input }: { cwd?: string; input?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'src', 'bin.mjs'), ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI's `main` in this process, collecting what it prints (one string per line). */
export async function runMain(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')) });
  return { code, out, err };
}
