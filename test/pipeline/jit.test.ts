import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  HUGE_BUILD_INLINED_BYTECODE,
  HUGE_BUILD_INTERRUPT_BUDGET,
  INTERRUPT_BUDGET,
  interruptBudgetFor,
  jitFlagsFor,
  JIT_FLAGS,
  LARGE_BUILD_INTERRUPT_BUDGET,
  V8_INLINED_BYTECODE,
} from '../../src/pipeline/jit.mjs';
import { runOtapress } from '../helpers/cli-process.js';
import { EXAMPLE } from '../helpers/helpers.js';

// V8 ignores a flag it does not know when it is set at run time (it only prints a line), so a
// renamed flag would silently give back the compiling time jit.mjs saves: node itself refuses an
// unknown one on its command line.
describe('JIT_FLAGS', () => {
  it('are flags this V8 knows', () => {
    const result = spawnSync(process.execPath, [...JIT_FLAGS.split(' '), '-e', 'process.stdout.write("ran")'], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('ran');
    expect(result.status).toBe(0);
  });

  it('are set by bin.mjs before a command runs, without a word on stderr', () => {
    // schema --check goes through setCommandBudget (test/pipeline/jit-budget.test.ts) and prints to stdout only.
    const result = runOtapress(['schema', '--check', '--root', EXAMPLE]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('up to date');
    expect(result.code).toBe(0);
  });
});

// build.ts sets the budget for the manifests each thread compiles, at run time, where V8
// only prints a line for a flag it does not take.
describe('interruptBudgetFor', () => {
  it("keeps the command's budget but for builds of tens of thousands of manifests a thread", () => {
    expect([0, 10_000, 24_999].map(interruptBudgetFor)).toEqual([INTERRUPT_BUDGET, INTERRUPT_BUDGET, INTERRUPT_BUDGET]);
    expect([25_000, 39_999].map(interruptBudgetFor)).toEqual([
      LARGE_BUILD_INTERRUPT_BUDGET,
      LARGE_BUILD_INTERRUPT_BUDGET,
    ]);
    expect([40_000, 1e6].map(interruptBudgetFor)).toEqual([HUGE_BUILD_INTERRUPT_BUDGET, HUGE_BUILD_INTERRUPT_BUDGET]);
    expect(HUGE_BUILD_INTERRUPT_BUDGET).toBeLessThan(LARGE_BUILD_INTERRUPT_BUDGET);
    expect(LARGE_BUILD_INTERRUPT_BUDGET).toBeLessThan(INTERRUPT_BUDGET);
  });

  it('gives budgets this V8 takes at run time, without a word on stderr', () => {
    for (const budget of [LARGE_BUILD_INTERRUPT_BUDGET, HUGE_BUILD_INTERRUPT_BUDGET]) {
      const flag = `--interrupt-budget=${budget}`;
      const script = `require('node:v8').setFlagsFromString(${JSON.stringify(flag)}); process.stdout.write('ran')`;
      const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('ran');
    }
    // One it does not take says so, which the check above would see.
    const unknown = spawnSync(
      process.execPath,
      ['-e', `require('node:v8').setFlagsFromString('--interrupt-budjet=1')`],
      { encoding: 'utf8' },
    );
    expect(unknown.stderr + unknown.stdout).not.toBe('');
  });
});

describe('jitFlagsFor', () => {
  // The thresholds are written out: a table computed with interruptBudgetFor would agree with any mistake in it.
  it.each([
    [0, INTERRUPT_BUDGET],
    [24_999, INTERRUPT_BUDGET],
    [25_000, LARGE_BUILD_INTERRUPT_BUDGET],
    [39_999, LARGE_BUILD_INTERRUPT_BUDGET],
  ])(
    'sets the budget alone for %i manifests a thread, and `back` puts back the command budget',
    (perThread, budget) => {
      const back = `--interrupt-budget=${INTERRUPT_BUDGET}`;
      expect(jitFlagsFor(perThread)).toEqual({ flags: `--interrupt-budget=${budget}`, back });
    },
  );

  it.each([40_000, 1e6])("for %i manifests a thread also halves the inlining; `back` puts back V8's", (perThread) => {
    expect(jitFlagsFor(perThread)).toEqual({
      flags: `--interrupt-budget=${HUGE_BUILD_INTERRUPT_BUDGET} --max-inlined-bytecode-size-cumulative=${HUGE_BUILD_INLINED_BYTECODE}`,
      back: `--interrupt-budget=${INTERRUPT_BUDGET} --max-inlined-bytecode-size-cumulative=${V8_INLINED_BYTECODE}`,
    });
    expect(HUGE_BUILD_INLINED_BYTECODE).toBeLessThan(V8_INLINED_BYTECODE);
  });

  it("puts back this V8's own inlining, and its flags are taken at run time without a word on stderr", () => {
    // A Node whose V8 has another default would otherwise keep a changed value after the build.
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    expect(options).toContain(`default: --max-inlined-bytecode-size-cumulative=${V8_INLINED_BYTECODE}\n`);
    const { flags, back } = jitFlagsFor(50_000);
    const script = `const v8 = require('node:v8'); v8.setFlagsFromString(${JSON.stringify(flags)}); v8.setFlagsFromString(${JSON.stringify(back)}); process.stdout.write('ran')`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('ran');
  });
});
