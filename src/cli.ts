import { parseArgs, type ParseArgsConfig } from 'node:util';
import { formatProblem, type Problem } from './problems.js';

/** Exit codes of every command: success, invalid content, wrong usage. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/** Thrown for a wrong command line; the CLI prints the message and the command's help. */
export class UsageError extends Error {}

/** What a command prints and returns; the CLI owns stdout, stderr and the exit code. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

interface Command {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }, io: Io): Promise<number>;
}

const common = { root: { type: 'string', default: '.' }, help: { type: 'boolean', short: 'h' } } as const;

const COMMANDS: Record<string, Command> = {
  build: {
    summary: 'validate content/ and write the static site to dist/ (and netlify.toml)',
    usage: `otapress build [--root DIR] [--out DIR] [--host all|netlify]

Reads content/site.yaml and every content/<device>/*.yaml, and writes dist/ only if all of them
are valid; otherwise prints every problem as file:line:col  field  message and exits 1, leaving
the previous dist/ as it was.

--host netlify leaves out dist/_redirects and dist/_headers (Cloudflare's rule files), because
Netlify would read them before netlify.toml; netlify.toml's build command passes it.

Devices whose manifests did not change since the last build come from the cache in
node_modules/.cache/otapress (--no-cache compiles everything); the others compile on every core
(--threads N to use fewer). Neither changes a byte of the output.`,
    options: { ...common, out: { type: 'string' }, host: { type: 'string', default: 'all' }, threads: { type: 'string' }, 'no-cache': { type: 'boolean' } },
    async run({ values }, io) {
      const path = await import('node:path');
      const { build } = await import('./build.js');
      const host = String(values.host);
      if (host !== 'all' && host !== 'netlify') throw new UsageError(`--host is all or netlify, not ${host}`);
      const root = path.resolve(String(values.root));
      const threads = values.threads === undefined ? undefined : Number(values.threads);
      if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) throw new UsageError(`--threads is a whole number of at least 1, not ${values.threads}`);
      const built = build({ root, outDir: values.out ? path.resolve(String(values.out)) : undefined, host, threads, cache: !values['no-cache'] });
      io.out(`built ${built.builds} builds of ${built.devices} devices into ${built.listings} listings (${built.records} records), ${built.files} files`);
      return EXIT.ok;
    },
  },
  check: {
    summary: 'validate content/ like build does, and write nothing',
    usage: `otapress check [--root DIR] [--format text|github]

--format github prints each problem as a GitHub Actions annotation, so a pull request shows it
on the line it is about.`,
    options: { ...common, format: { type: 'string', default: 'text' } },
    async run({ values }, io) {
      const format = String(values.format);
      if (format !== 'text' && format !== 'github') throw new UsageError(`--format is text or github, not ${format}`);
      const path = await import('node:path');
      const { check } = await import('./build.js');
      const { problems, builds } = check({ root: path.resolve(String(values.root)) });
      if (problems.length === 0) {
        io.out(`${builds.length} manifests are valid`);
        return EXIT.ok;
      }
      reportProblems(problems, io, format);
      return EXIT.invalid;
    },
  },
  serve: {
    summary: 'preview the site locally, answering as the hosts do, rebuilt when content/ changes',
    usage: `otapress serve [--port N] [--root DIR]

Compiles content/ in memory (dist/ is not written) and serves it on http://127.0.0.1:N/ (default
8788; 0 picks a free port) with the hosts' routes, headers and JSON 404s. Rebuilds when anything
under content/ changes; if the new content is invalid, prints the problems and keeps serving the
last good build. Ctrl-C stops it.`,
    options: { ...common, port: { type: 'string', default: '8788' } },
    async run({ values }, io) {
      const port = Number(values.port);
      if (!/^\d+$/.test(String(values.port)) || port > 65535) throw new UsageError(`--port is a number from 0 to 65535, not ${values.port}`);
      const path = await import('node:path');
      const { startPreview } = await import('./serve.js');
      const preview = await startPreview({ root: path.resolve(String(values.root)), port, io }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use on 127.0.0.1; pick another with --port N (0 picks a free one)`);
        throw error;
      });
      io.out(`serving content/ at ${preview.url} (Ctrl-C stops)`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await preview.close();
      return EXIT.ok;
    },
  },
};

/** Runs the CLI with `argv` (without `node` and the script); returns the exit code. */
export async function main(argv: string[], io: Io = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`unknown command \`${name}\`\n\n${overview()}`);
    return EXIT.usage;
  }
  try {
    const args = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    if (args.values.help) {
      io.out(command.usage);
      return EXIT.ok;
    }
    return await command.run(args as never, io);
  } catch (error) {
    const { ContentError } = await import('./problems.js');
    if (error instanceof ContentError) {
      reportProblems(error.problems, io, 'text');
      return EXIT.invalid;
    }
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\nusage: ${command.usage}`);
      return EXIT.usage;
    }
    throw error;
  }
}

// --- internal ---

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return `otapress: publish Android OTA update listings as a static site

usage: otapress <command> [options]   (otapress <command> --help for its options)

${Object.entries(COMMANDS)
  .map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`)
  .join('\n')}`;
}

function reportProblems(problems: Problem[], io: Io, format: string): void {
  for (const p of problems) {
    if (format === 'github') {
      const escape = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
      const prop = (s: string) => escape(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
      io.out(`::error file=${prop(p.file)},line=${p.line},col=${p.col},title=${prop(p.field)}::${escape(p.message)}`);
    } else io.err(formatProblem(p));
  }
  io.err(`${problems.length} problem${problems.length === 1 ? '' : 's'} found; nothing was written.`);
}
