import { defineConfig } from 'vitest/config';

// `npm run test:browser`: the pages in a real Chromium. Kept apart from `npm test`, which must
// pass on a machine without a browser.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
