import { defineConfig } from 'vitest/config';

// `npm run test:servers`: the host table on the real nginx, Caddy and Apache (Debian's packages;
// .ci/run installs the missing ones). Kept apart from `npm test`, which must pass on a machine
// without them; a server that is missing fails this suite, it is not skipped.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/servers/**/*.servers.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
