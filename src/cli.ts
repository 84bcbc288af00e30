/**
 * The command line: parses argv, loads the one command asked for, and maps its errors to exit
 * codes. Every command lives in commands/ and shares io.ts with this file.
 */
import { parseArgs } from 'node:util';
import { EXIT, findProjectRoot, otapressVersion, reportProblems, UsageError, type Command, type Io } from './io.js';

/** The commands, each loaded only when it runs (or for the overview). */
const COMMANDS: Record<string, () => Promise<{ command: Command }>> = {
  init: () => import('./commands/init.js'),
  add: () => import('./commands/add.js'),
  import: () => import('./commands/import.js'),
  schema: () => import('./commands/schema.js'),
  build: () => import('./commands/build.js'),
  check: () => import('./commands/check.js'),
  serve: () => import('./commands/serve.js'),
  hosting: () => import('./commands/hosting.js'),
};

/** What the process running the CLI does with a command once it is loaded, before it runs (bin.mjs). */
export interface MainHooks {
  beforeRun?: (command: Command) => void;
}

/** Runs the CLI with `argv` (without `node` and the script); returns the exit code. */
export async function main(argv: string[], io: Io = CONSOLE, { beforeRun }: MainHooks = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(await overview());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(otapressVersion());
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    io.err(`unknown command \`${name}\`\n\n${await overview()}`);
    return EXIT.usage;
  }
  const { command } = await COMMANDS[name]();
  try {
    const args = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    if (args.values.help) {
      io.out(command.usage);
      return EXIT.ok;
    }
    if ('root' in command.options && args.values.root === undefined) args.values.root = projectRoot(io);
    beforeRun?.(command);
    return await command.run(args as never, io);
  } catch (error) {
    const { ContentError } = await import('./catalog/problems.js');
    if (error instanceof ContentError) {
      reportProblems(error.problems, io, 'text', command.readOnly);
      return EXIT.invalid;
    }
    const { describeWriteError, OutputError } = await import('./build/out-dir.js');
    if (error instanceof OutputError) {
      io.err(error.message);
      return error.reason === 'busy' ? EXIT.busy : error.reason === 'io' ? EXIT.io : EXIT.usage;
    }
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\nusage: ${command.usage}`);
      return EXIT.usage;
    }
    // A system error of any command (a full disk under `add`, a read-only project under `init`): words, not a stack.
    const described = describeWriteError(error);
    if (described !== undefined) {
      io.err(`otapress ${name} failed: ${described}`);
      return EXIT.io;
    }
    throw error;
  }
}

// --- internal ---

/** stdout and stderr: a line at a time through the console, many lines in one write. */
const CONSOLE: Io = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  lines: (to, lines) => void (to === 'out' ? process.stdout : process.stderr).write(`${lines.join('\n')}\n`),
};

/** Where a command without --root works: the catalog the current folder is in, said when it is not this folder. */
function projectRoot(io: Io): string {
  const cwd = process.cwd();
  const found = findProjectRoot(cwd);
  if (found === undefined || found === cwd) return cwd;
  io.err(`using the catalog in ${found} (the nearest folder above this one with content/site.yaml)`);
  return found;
}

async function overview(): Promise<string> {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  const commands = await Promise.all(names.map(async (n) => ({ name: n, command: (await COMMANDS[n]()).command })));
  return `otapress: publish Android OTA update listings as a static site

usage: otapress <command> [options]   (otapress <command> --help for its options; otapress --version)

${commands.map(({ name, command }) => `  ${name.padEnd(width)}  ${command.summary}`).join('\n')}

The commands work on the catalog in the current folder, or in the nearest folder above it that
holds content/site.yaml (the way git finds its repository); --root DIR names another.`;
}
