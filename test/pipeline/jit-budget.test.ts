import { describe, expect, it, vi } from 'vitest';
import { tempProject } from '../helpers/helpers.js';

// When V8's interrupt budget is set (src/pipeline/jit.mjs): bin.mjs sets it once a command is loaded,
// before it runs, but build and check set it only when they start compiling, so that loading
// otapress and starting the compile workers run with V8's default. Every flag set is recorded here, with
// when it was set: in bin.mjs's hook between loading the command and running it (`beforeRun`), or
// while the command ran (`command`), and passed on to V8.
const phase = vi.hoisted(() => ({ now: 'command' as 'beforeRun' | 'command' }));
const flags = vi.hoisted(() => [] as { flag: string; by: 'beforeRun' | 'command' }[]);
vi.mock('node:v8', async (original) => {
  const v8 = await original<typeof import('node:v8')>();
  const setFlagsFromString = (flag: string) => {
    flags.push({ flag, by: phase.now });
    v8.setFlagsFromString(flag);
  };
  return { ...v8, default: { ...v8, setFlagsFromString }, setFlagsFromString };
});
const { main } = await import('../../src/cli.js');
const { INTERRUPT_BUDGET, JIT_FLAGS, setCommandBudget } = await import('../../src/pipeline/jit.mjs');

const quiet = { out: () => {}, err: () => {} };
/** bin.mjs's hook, with the flags it sets told apart from those the command sets. */
const beforeRun = (command: Parameters<typeof setCommandBudget>[0]) => {
  phase.now = 'beforeRun';
  try {
    setCommandBudget(command);
  } finally {
    phase.now = 'command';
  }
};
const budgets = () => flags.filter(({ flag }) => flag.startsWith('--interrupt-budget='));

describe('the interrupt budget of a command', () => {
  it.each([['build', '--threads', '1'], ['check']])(
    'is set by %s around its compiling, not before the command runs',
    async (...args) => {
      const root = tempProject({ withContent: true });
      flags.length = 0;
      expect(await main([...args, '--root', root], quiet, { beforeRun })).toBe(0);
      expect(budgets()).toEqual([
        { flag: `--interrupt-budget=${INTERRUPT_BUDGET}`, by: 'command' },
        { flag: `--interrupt-budget=${INTERRUPT_BUDGET}`, by: 'command' },
      ]);
    },
  );

  it('is set for any other command once it is loaded, before it runs', async () => {
    const root = tempProject({ withContent: true });
    flags.length = 0;
    expect(await main(['schema', '--check', '--root', root], quiet, { beforeRun })).toBe(0);
    expect(budgets()).toEqual([{ flag: JIT_FLAGS, by: 'beforeRun' }]);
  });

  it('is not set for what runs no command', async () => {
    flags.length = 0;
    expect(await main(['--version'], quiet, { beforeRun })).toBe(0);
    expect(await main(['build', '--help'], quiet, { beforeRun })).toBe(0);
    expect(budgets()).toEqual([]);
  });
});
