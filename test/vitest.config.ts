import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The fast tier: the tests of the catalog, render, hosts and import wings that run in memory, and
 * the tests of the tiers themselves (test/tiers.test.ts holds them to it: no process, no CLI, no
 * build on disk, no server, no writing to disk). A test of those wings that needs any of that is
 * named `*.slow.test.ts`.
 */
export const FAST = ['test/*.test.ts', 'test/{catalog,render,hosts,import}/*.test.ts'];
/** The slow tier: every other test file of test/<wing>/ (processes, the CLI, the pipeline on disk, servers). */
export const SLOW = ['test/*/*.slow.test.ts', 'test/!(catalog|render|hosts|import)/*.test.ts'];
/** Named slow: kept out of the fast tier whatever its folder. */
export const SLOW_NAME = '**/*.slow.test.ts';

// `npm test`: the unit suite (test/<wing>/*.test.ts), which needs nothing but Node, in two projects
// (`npm run test:fast` runs the first alone). The fast one runs its files on both cores at once.
// The slow one starts processes (the CLI, wrangler, npm) and runs one file at a time: on a loaded
// 2-core machine three CLI runs through tsx took over vitest's default 5 s, so every test and hook
// gets a limit that holds under load; a test that really hangs still fails, after a minute.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: FAST,
          exclude: [...configDefaults.exclude, SLOW_NAME],
          pool: 'threads',
          maxWorkers: 2,
          // Its files share nothing but loaded modules (no process, no disk: test/tiers.test.ts), so
          // each worker loads otapress once instead of once per file: 61 s became 47 s under load.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW, pool: 'forks', maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
