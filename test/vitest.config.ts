import { defineConfig } from 'vitest/config';

// `npm test`: the unit suite (test/<wing>/*.test.ts), which needs nothing but Node. Many of its
// tests start processes (the CLI, wrangler, npm): on a loaded 2-core machine three CLI runs through
// tsx took over vitest's default 5 s, so every test and hook gets a limit that holds under load; a
// test that really hangs still fails, after a minute.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/*.test.ts', 'test/*/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
