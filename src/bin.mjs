#!/usr/bin/env node
// Entry point for `npx otapress` and the npm scripts: runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli.ts');
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A failure of otapress itself, not of the content: show the stack so it can be reported.
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 3;
}
