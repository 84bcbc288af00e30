#!/usr/bin/env node
// Entry point of `otapress`. In the installed package this file sits in lib/ beside the JavaScript
// built ahead of time (scripts/build-lib.mjs), which starts without compiling anything; in the
// repository it sits in src/ beside the TypeScript sources and runs them through tsx, so that the
// npm scripts and the tests always run the current sources.
import { existsSync } from 'node:fs';

const built = new URL('./cli.js', import.meta.url);
let main;
if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./cli.ts'));
}
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A failure of otapress itself, not of the content: show the stack so it can be reported.
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 3;
}
