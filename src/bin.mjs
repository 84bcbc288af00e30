#!/usr/bin/env node
// Entry point of `otapress`. In the installed package this file sits in lib/ beside the JavaScript
// built ahead of time (.ci/build-lib.mjs), which starts without compiling anything; in the
// repository it sits in src/ beside the TypeScript sources and runs them through tsx, so that the
// npm scripts and the tests always run the current sources.
import { existsSync } from 'node:fs';
import { setCommandBudget } from './pipeline/jit.mjs';

try {
  const built = new URL('./cli.js', import.meta.url);
  let main, outputWritten;
  if (existsSync(built)) {
    ({ main, outputWritten } = await import(built.href));
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    // The libraries catalog/libraries.ts loads only when content needs them (lib/ holds its own
    // copies): missing, they are an install that did not finish, said now, not halfway through a build.
    for (const library of ['yaml', 'zod']) import.meta.resolve(library);
    ({ main, outputWritten } = await import('./cli.ts'));
  }
  // How V8 compiles otapress's code (pipeline/jit.mjs): set once a command is loaded, before it runs.
  process.exitCode = await main(process.argv.slice(2), undefined, { beforeRun: setCommandBudget });
  // Every command has finished its work when main returns (the preview once it is stopped; what
  // runs on, the removal of a replaced tree, is a process of its own). Left to end by itself, the
  // process frees its heaps one by one first: from the summary line to the end of the process,
  // 20 to 25 ms of a cold build of 1,000 manifests, 70 to 84 ms at 10,000 and 85 ms at 100,000
  // here; with exit, 9 to 11, 18 and 34 ms. It exits once all that was printed is written: into a
  // pipe (`2>&1 | ...`, a CI log) a long report may still be on its way when main returns, and an
  // exit right away cut the notices of a 1k build at 64 KiB.
  // outputWritten also keeps the order of what was printed on both streams, and turns an output
  // that could not be written into exit status 74 (cli.ts).
  process.exitCode = await outputWritten(process.exitCode);
  process.exit();
} catch (error) {
  // A dependency missing means `npm ci` has not run (or did not finish): say so, not a stack.
  const missing = error?.code === 'ERR_MODULE_NOT_FOUND' && /^Cannot find package '([^']+)'/.exec(error.message);
  if (missing) {
    const { fileURLToPath } = await import('node:url');
    const project = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '');
    console.error(
      `otapress cannot start: the package ${missing[1]} is not installed; run npm ci first (in ${project})`,
    );
  } else {
    // A failure of otapress itself, not of the content: show the stack so it can be reported.
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  process.exitCode = 3;
}
