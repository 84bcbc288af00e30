/**
 * What every command shares with the CLI: exit codes, the usage error, where output goes, the
 * shape of a command, and how problems and notices are printed. Commands import this module, never
 * cli.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatProblem, oneLine, type Problem } from './catalog/problems.js';
import { renderOptions, type CommandArgs, type OptionSpecs } from './commands/options.js';

export { COMMON_OPTIONS, HELP_OPTION } from './commands/options.js';

/**
 * Exit codes of every command: success, invalid content, wrong usage (or an output folder that must
 * not be replaced), output the system refused to write (sysexits' EX_IOERR: disk full, read-only,
 * permission denied), another build holds the output (EX_TEMPFAIL). 3 is otapress's own failure,
 * with a stack trace to report (bin.mjs).
 */
export const EXIT = { ok: 0, invalid: 1, usage: 2, io: 74, busy: 75 } as const;

export { SEE_USAGE, UsageError } from './catalog/problems.js';

/** What a command prints and returns; the CLI owns stdout, stderr and the exit code. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /**
   * Many lines at once, as one write (the CLI's Io): a build of 100,000 manifests prints thousands
   * of notices, and a write each took 15 to 30 µs of the build's end here. Without it, each line
   * goes through `out` or `err`.
   */
  lines?(to: 'out' | 'err', lines: readonly string[]): void;
}

/** One command of the CLI: its one-line summary, its help text, its options and what it does. */
export interface Command<S extends OptionSpecs = OptionSpecs> {
  summary: string;
  /** The --help text: the synopsis, what the command does, and the options block rendered from {@link options}. */
  usage: string;
  /** Read by parseArgs as they are; see commands/options.ts. */
  options: S;
  run(args: CommandArgs<S>, io: Io): Promise<number>;
  /** Set by commands that never write (check, serve): their problem count does not say "nothing was written". */
  readOnly?: true;
  /**
   * Set by commands that set V8's interrupt budget themselves, once their work starts (build and
   * check: see pipeline/jit.mjs); bin.mjs sets it for the others before they run.
   */
  setsJitBudget?: true;
}

/** What a command file declares: its --help is rendered from `synopsis`, `about` and the options. */
export interface CommandDefinition<S extends OptionSpecs> extends Omit<Command<S>, 'usage'> {
  /** The first line of --help: `otapress add <path/to/ota.zip> [options]`. */
  synopsis: string;
  /** What the command does, in paragraphs, between the synopsis and the options; '' when the options say it all. */
  about: string;
}

/** A command whose option values are typed from its declaration, and whose --help lists every option it takes. */
export function defineCommand<S extends OptionSpecs>({ synopsis, about, ...command }: CommandDefinition<S>): Command {
  const paragraphs = about === '' ? [synopsis] : [synopsis, about];
  return { ...command, usage: [...paragraphs, renderOptions(command.options)].join('\n\n') };
}

/**
 * The catalog a command run in `start` works on, found the way git finds its repository: `start`
 * itself or the nearest folder above it that holds `content/site.yaml`; `undefined` when none does.
 */
export function findProjectRoot(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'content', 'site.yaml'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The version of otapress that runs, from its package.json (beside src/ in the repository, beside lib/ when installed). */
export function otapressVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** `1 build`, `2 builds`: a count with its noun in the right number. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Prints every problem (`::error` annotations for GitHub), then the count; `readOnly` commands never said they would write. */
export function reportProblems(problems: readonly Problem[], io: Io, format: string, readOnly = false): void {
  report(problems, io, format, 'error');
  io.err(`${count(problems.length, 'problem')} found${readOnly ? '.' : '; nothing was written.'}`);
}

/** Notices do not fail the command: printed like problems (`::notice` for GitHub), then counted. */
export function reportNotices(notices: readonly Problem[], io: Io, format: string): void {
  if (notices.length === 0) return;
  report(notices, io, format, 'notice');
  io.err(
    `${count(notices.length, 'notice')} (not errors: the site builds; each says what phones will do, and what to change).`,
  );
}

/**
 * GitHub's workflow-command escaping of a message, after the control characters a file name, key or
 * value may carry are shown escaped as in the text format: an annotation is also a line of a CI
 * log and of a terminal, where ESC and OSC sequences would act.
 */
export function escapeData(s: string): string {
  return oneLine(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub's workflow-command escaping of a property value (file, title). */
export function annotationProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// --- internal ---

/** Each problem on a line of its own: on stderr as text, or on stdout as GitHub annotations (`::error`, `::notice`). */
function report(problems: readonly Problem[], io: Io, format: string, kind: 'error' | 'notice'): void {
  const github = format === 'github';
  const lines = problems.map((p) =>
    github
      ? `::${kind} file=${annotationProperty(p.file)},line=${p.line},col=${p.col},title=${annotationProperty(p.field)}::${escapeData(p.message)}`
      : formatProblem(p),
  );
  const to = github ? 'out' : 'err';
  if (io.lines) {
    if (lines.length > 0) io.lines(to, lines);
  } else for (const line of lines) io[to](line);
}
