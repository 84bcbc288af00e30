import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { JIT_FLAGS } from '../src/jit.mjs';
import { runOtapress } from './cli-process.js';

// V8 ignores a flag it does not know when it is set at run time (it only prints a line), so a
// renamed flag would silently give back the compiling time jit.mjs saves: node itself refuses an
// unknown one on its command line.
describe('JIT_FLAGS', () => {
  it('are flags this V8 knows', () => {
    const result = spawnSync(process.execPath, [...JIT_FLAGS.split(' '), '-e', 'process.stdout.write("ran")'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('ran');
    expect(result.status).toBe(0);
  });

  it('are set by the command line before otapress loads, without a word on stderr', () => {
    const result = runOtapress(['--version']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
