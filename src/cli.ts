/**
 * The command line: loads the one command asked for, parses argv with the options it declares,
 * and maps its errors to exit codes, the only place that does. Every command lives in commands/
 * and shares io.ts with this file.
 */
import { parseArgs } from 'node:util';
import { escapeControls, oneLine } from './catalog/problems.js';
import type { OptionSpecs, OptionValues } from './commands/options.js';
import {
  EXIT,
  findProjectRoot,
  otapressVersion,
  reportProblems,
  SEE_USAGE,
  UsageError,
  type Command,
  type Io,
} from './io.js';

/** The commands, each loaded only when it runs (or for the overview). */
const COMMANDS: Record<string, () => Promise<{ command: Command }>> = {
  init: () => import('./commands/init.js'),
  add: () => import('./commands/add.js'),
  import: () => import('./commands/import.js'),
  schema: () => import('./commands/schema.js'),
  build: () => import('./commands/build.js'),
  check: () => import('./commands/check.js'),
  diff: () => import('./commands/diff.js'),
  serve: () => import('./commands/serve.js'),
  hosting: () => import('./commands/hosting.js'),
  probe: () => import('./commands/probe.js'),
  'raw-branch': () => import('./commands/raw-branch.js'),
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
    io.err(`unknown command \`${oneLine(name)}\`\n\n${await overview()}`);
    return EXIT.usage;
  }
  const { command } = await COMMANDS[name]();
  try {
    const options = command.options;
    const { values, positionals } = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    if (values.help) {
      io.out(command.usage);
      return EXIT.ok;
    }
    if ('root' in command.options && values.root === undefined) values.root = projectRoot(io);
    beforeRun?.(command);
    // parseArgs types its values from a literal declaration only: these are the values of the command's own.
    return await command.run({ values: values as OptionValues<OptionSpecs>, positionals }, io);
  } catch (error) {
    const { ContentError } = await import('./catalog/problems.js');
    if (error instanceof ContentError) {
      reportProblems(error.problems, io, 'text', command.readOnly);
      return EXIT.invalid;
    }
    const { describeWriteError, OutputError } = await import('./pipeline/out-dir.js');
    if (error instanceof OutputError) {
      io.err(error.message);
      return error.reason === 'busy' ? EXIT.busy : error.reason === 'io' ? EXIT.io : EXIT.usage;
    }
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      // One line each, whatever the arguments and paths they quote hold (a line break, an escape sequence).
      const hint = error instanceof UsageError ? error.hint : SEE_USAGE;
      const then = hint === SEE_USAGE ? `\n\nusage: ${command.usage}` : hint === undefined ? '' : `\n${oneLine(hint)}`;
      io.err(`${oneLine((error as Error).message)}${then}`);
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

/**
 * stdout and stderr: a line, or many lines, in one write each, through {@link print}. Commands
 * escape the files and arguments they quote already; escapeControls catches what one forgets.
 */
const CONSOLE: Io = {
  out: (line) => print(process.stdout, `${escapeControls(line)}\n`),
  err: (line) => print(process.stderr, `${escapeControls(line)}\n`),
  lines: (to, lines) => print(to === 'out' ? process.stdout : process.stderr, `${escapeControls(lines.join('\n'))}\n`),
};

/** A write still waiting for the other stream (see {@link print}); `undefined` when none is. */
let waiting: Promise<void> | undefined;
/** The streams that failed, with why: nothing more is written to them. */
const failed = new Map<NodeJS.WritableStream, NodeJS.ErrnoException>();

/**
 * Writes `text` to `to` after everything printed before it, on either stream. Node writes into a
 * pipe without blocking: what does not fit (a pipe holds 64 KiB until its reader takes them) waits
 * in the stream while the next write to the other stream goes straight through, so where stdout
 * and stderr are one pipe (`2>&1`, a CI log) a build's summary line landed inside its notices. A
 * write to one stream therefore waits while the other still holds text. A stream whose reader has
 * gone (`otapress check | head -1`, EPIPE) or that cannot be written (a full disk) takes nothing
 * more, instead of the process ending on an unhandled error event: see {@link outputWritten}.
 */
function print(to: NodeJS.WriteStream, text: string): void {
  watchStreams();
  const other = to === process.stdout ? process.stderr : process.stdout;
  if (waiting === undefined && (other.writableLength === 0 || failed.has(other))) {
    write(to, text);
    return;
  }
  const turn = (waiting ?? Promise.resolve()).then(() => written(other)).then(() => write(to, text));
  waiting = turn;
  void turn.then(() => {
    if (waiting === turn) waiting = undefined;
  });
}

/**
 * Resolves once everything the CLI printed is written, with the exit status to end with: `code`,
 * or EX_IOERR (74) for a command that succeeded but whose output could not be written (said on the
 * other stream when it can be). A reader that stopped reading (EPIPE) is not an error: the command
 * went on and did its work, as `git log | head` does.
 */
export async function outputWritten(code: number): Promise<number> {
  const drained = async () => {
    while (waiting !== undefined) await waiting;
    await Promise.all([written(process.stdout), written(process.stderr)]);
    // A failed write's error event comes in a later tick than the write.
    await new Promise((resolve) => setImmediate(resolve));
  };
  await drained();
  const lost = [...failed].filter(([, error]) => error.code !== 'EPIPE');
  if (lost.length === 0) return code;
  const { describeWriteError } = await import('./pipeline/out-dir.js');
  for (const [stream, error] of lost) {
    const name = stream === process.stdout ? 'stdout' : 'stderr';
    print(
      stream === process.stdout ? process.stderr : process.stdout,
      `otapress could not write its output to ${name}: ${describeWriteError(error) ?? error.message}\n`,
    );
  }
  await drained();
  return code === EXIT.ok ? EXIT.io : code;
}

function write(to: NodeJS.WriteStream, text: string): void {
  if (!failed.has(to)) to.write(text);
}

/**
 * Resolves once `stream` has written what it holds (or has failed). Where it still holds text, an
 * empty write queued behind it is called back once all of it is written. One that holds nothing (a
 * file, written synchronously, always does) is not written to: on /dev/full even an empty write fails.
 */
function written(stream: NodeJS.WriteStream): Promise<void> {
  if (failed.has(stream) || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

let watching = false;
/**
 * Records the failure of stdout or stderr (its error event), which would otherwise end the process
 * with a stack. Once, at the first print: loading cli.ts (as the tests do) leaves the streams alone.
 */
function watchStreams(): void {
  if (watching) return;
  watching = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!failed.has(stream)) failed.set(stream, error);
    });
  }
}

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
