import { parseArgs, type ParseArgsConfig } from 'node:util';
import { formatProblem, type Problem } from './catalog/problems.js';

/** Exit codes of every command: success, invalid content, wrong usage. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, busy: 75 } as const;

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
  add: {
    summary: 'write the manifest of an OTA zip: facts from its metadata and name, hashes from one read',
    usage: `otapress add <path/to/ota.zip> [options]

Reads META-INF/com/android/metadata from the zip's central directory (post-timestamp, post-build,
post-sdk-level, pre-device, ota-type, ota-property-files, post-security-patch-level), falls back
to the file name, hashes the file once (MD5 and SHA-256 on two cores), validates the manifest as
the build does and writes content/<device>/<file name minus .zip>.yaml. Prints where each value
came from. A progress bar shows on a terminal only; Ctrl-C leaves nothing behind.

  --channel NAME          channel (download folder); default: from the file name
  --lists a,b             request lists this build appears in, overriding the site's rules
  --url URL               download address, for builds hosted elsewhere (e.g. a release page)
  --placeholder           announce the build without a package (no filename, id, size, url)
  --force                 replace an existing manifest
  --dry-run               print the manifest instead of writing it
  --root DIR              project folder holding content/ (default: .)

For zips whose metadata and name do not tell everything:
  --device CODE  --version X.Y  --timestamp UNIX_SECONDS  --android-version N
  --incremental TEXT  --filename NAME (the name to publish the package under)`,
    options: {
      ...common,
      channel: { type: 'string' },
      lists: { type: 'string' },
      url: { type: 'string' },
      placeholder: { type: 'boolean' },
      force: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      device: { type: 'string' },
      version: { type: 'string' },
      timestamp: { type: 'string' },
      'android-version': { type: 'string' },
      incremental: { type: 'string' },
      filename: { type: 'string' },
    },
    async run({ values, positionals }, io) {
      if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name the OTA zip to add' : `add takes one zip, not ${positionals.length}`);
      // Hashing starts first, on two worker threads, so that loading the rest overlaps it.
      const { existsSync, statSync } = await import('node:fs');
      const { startHashing } = await import('./ota/hash.js');
      const { progressBar } = await import('./ota/progress.js');
      const bar = progressBar(process.stderr, 'hashing');
      // With a handler, Ctrl-C lands between two steps, never inside the final write-and-rename.
      const interrupted = () => {
        bar.end();
        io.err('interrupted; no manifest was written');
        process.exit(130);
      };
      process.once('SIGINT', interrupted);
      const zip = positionals[0];
      const hashing = existsSync(zip) && statSync(zip).isFile() ? startHashing(zip, (done, total) => bar.update(done, total)) : undefined;
      const path = await import('node:path');
      const { addBuild, AddUsageError } = await import('./commands/add.js');
      const str = (key: string) => (values[key] === undefined ? undefined : String(values[key]));
      try {
        const result = await addBuild({
          zip: positionals[0],
          root: path.resolve(String(values.root)),
          channel: str('channel'),
          lists: str('lists')?.split(',').map((l) => l.trim()).filter(Boolean),
          url: str('url'),
          placeholder: values.placeholder === true,
          force: values.force === true,
          dryRun: values['dry-run'] === true,
          device: str('device'),
          version: str('version'),
          timestamp: str('timestamp'),
          android_version: str('android-version'),
          incremental: str('incremental'),
          filename: str('filename'),
          hashing,
        });
        bar.end();
        io.err(`${result.file}:`);
        for (const line of result.report) io.err(line);
        if (result.written) io.out(`wrote ${result.file}`);
        else io.out(result.text.trimEnd());
        return EXIT.ok;
      } catch (error) {
        bar.end();
        if (error instanceof AddUsageError) {
          io.err(error.message);
          return EXIT.usage;
        }
        throw error;
      } finally {
        process.off('SIGINT', interrupted);
      }
    },
  },
  import: {
    summary: 'migrate a saved v1 listing into manifests, merging builds seen in several lists',
    usage: `otapress import <listing.json|-> --device D --list L [--skip-invalid] [--root DIR]

Reads a v1 listing saved from a running server ({"id":null,"response":[...],"error":null}, from
a file or from standard input with -; no network) that answers GET /api/v1/<D>/<L>/, and writes one
manifest per build into content/<D>/. A build already there (same id, or same display_version for a
placeholder) gets <L> added to its lists, so importing each list of a device in turn gives one
manifest per physical build; a manifest in <L> that the listing lacks leaves <L>. Building again
reproduces every record, except the normalisations the import reports one by one.

Every problem is reported at its record and field; nothing is written unless all records are
valid, or --skip-invalid is given (then the valid ones are imported).`,
    options: { ...common, device: { type: 'string' }, list: { type: 'string' }, 'skip-invalid': { type: 'boolean' } },
    async run({ values, positionals }, io) {
      if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name the saved listing to import, or - for standard input' : `import takes one listing, not ${positionals.length}`);
      if (values.device === undefined || values.list === undefined) throw new UsageError(`pass the device and the request list the listing is for, e.g. --device FP4 --list stable`);
      const path = await import('node:path');
      const { importListing, ImportUsageError } = await import('./commands/import.js');
      let plan;
      try {
        plan = importListing({
          source: positionals[0],
          root: path.resolve(String(values.root)),
          device: String(values.device),
          list: String(values.list),
          skipInvalid: values['skip-invalid'] === true,
        });
      } catch (error) {
        if (!(error instanceof ImportUsageError)) throw error;
        io.err(error.message);
        return EXIT.usage;
      }
      for (const note of plan.notes) io.err(formatProblem(note));
      if (plan.notes.length > 0) io.err(`${plan.notes.length} value${plan.notes.length === 1 ? '' : 's'} normalised (listed above): the build publishes them so`);
      if (plan.problems.length > 0 && !values['skip-invalid']) {
        reportProblems(plan.problems, io, 'text');
        return EXIT.invalid;
      }
      for (const p of plan.problems) io.err(formatProblem(p));
      for (const write of plan.writes) io.out(`${write.action === 'created' ? 'created' : 'updated'} ${write.file}${write.action === 'created' ? '' : `: ${write.action}`}`);
      io.out(
        `imported ${plan.records - plan.skipped} of ${plan.records} records into ${values.device}/${values.list}: ${plan.writes.length} manifest${plan.writes.length === 1 ? '' : 's'} written${plan.skipped > 0 ? `, ${plan.skipped} invalid record${plan.skipped === 1 ? '' : 's'} skipped` : ''}`,
      );
      return EXIT.ok;
    },
  },
  schema: {
    summary: 'write the JSON Schema of a manifest to content/manifest.schema.json, for editors',
    usage: `otapress schema [--root DIR] [--check]

Generates the JSON Schema of a manifest from the same zod schema the build validates with, and
writes it to content/manifest.schema.json, where the first line of every manifest points editors:
  # yaml-language-server: $schema=../manifest.schema.json
(VS Code with the YAML extension, and other editors with the YAML language server, then complete
field names and flag wrong values while you type.)

--check writes nothing and exits 1 if the file is missing or differs from the generated schema.`,
    options: { ...common, check: { type: 'boolean' } },
    async run({ values }, io) {
      const path = await import('node:path');
      const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
      const { renderJsonSchema, SCHEMA_FILE } = await import('./catalog/json-schema.js');
      const file = path.join(path.resolve(String(values.root)), SCHEMA_FILE);
      const text = renderJsonSchema();
      const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      if (values.check) {
        if (current === text) {
          io.out(`${SCHEMA_FILE} is up to date`);
          return EXIT.ok;
        }
        io.err(`${SCHEMA_FILE} ${current === undefined ? 'is missing' : 'differs from the manifest schema'}; run otapress schema and commit it`);
        return EXIT.invalid;
      }
      if (!existsSync(path.dirname(file))) throw new UsageError(`no content/ folder in ${path.dirname(path.dirname(file))}; pass --root with the project folder`);
      if (current !== text) writeFileSync(file, text);
      io.out(`${current === text ? 'kept' : 'wrote'} ${SCHEMA_FILE}`);
      return EXIT.ok;
    },
  },
  build: {
    summary: 'validate content/ and write the static site to dist/ (and netlify.toml)',
    usage: `otapress build [--root DIR] [--out DIR] [--host all|netlify] [--wait SECONDS]

Reads content/site.yaml and every content/<device>/*.yaml, and writes dist/ only if all of them
are valid; otherwise prints every problem as file:line:col  field  message and exits 1, leaving
the previous dist/ as it was.

--host netlify leaves out dist/_redirects and dist/_headers (Cloudflare's rule files), because
Netlify would read them before netlify.toml; netlify.toml's build command passes it.

Devices whose manifests did not change since the last build come from the cache in
node_modules/.cache/otapress (--no-cache compiles everything); the others compile on every core
(--threads N to use fewer). Neither changes a byte of the output.

One build at a time writes an output folder: a second one waits up to --wait seconds (default
300) for the first to finish, then gives up with exit status 75 and writes nothing.`,
    options: { ...common, out: { type: 'string' }, host: { type: 'string', default: 'all' }, threads: { type: 'string' }, 'no-cache': { type: 'boolean' }, wait: { type: 'string', default: '300' } },
    async run({ values }, io) {
      const path = await import('node:path');
      const { build } = await import('./build/build.js');
      const host = String(values.host);
      if (host !== 'all' && host !== 'netlify') throw new UsageError(`--host is all or netlify, not ${host}`);
      const wait = Number(values.wait);
      if (!/^\d+(\.\d+)?$/.test(String(values.wait)) || !Number.isFinite(wait)) throw new UsageError(`--wait is a number of seconds, not ${values.wait}`);
      const root = path.resolve(String(values.root));
      const threads = values.threads === undefined ? undefined : Number(values.threads);
      if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) throw new UsageError(`--threads is a whole number of at least 1, not ${values.threads}`);
      const built = build({
        root,
        outDir: values.out ? path.resolve(String(values.out)) : undefined,
        host,
        threads,
        cache: !values['no-cache'],
        waitMs: wait * 1000,
        onWait: (pid) => io.err(`waiting for the build of pid ${pid} to finish writing the output folder`),
      });
      reportNotices(built.notices, io, 'text');
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
      const { check } = await import('./build/build.js');
      const { problems, builds, notices } = check({ root: path.resolve(String(values.root)) });
      if (problems.length === 0) {
        reportNotices(notices, io, format);
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
      const { startPreview } = await import('./build/preview.js');
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
    const { ContentError } = await import('./catalog/problems.js');
    if (error instanceof ContentError) {
      reportProblems(error.problems, io, 'text');
      return EXIT.invalid;
    }
    const { OutputError } = await import('./build/write.js');
    if (error instanceof OutputError) {
      io.err(error.message);
      return error.reason === 'busy' ? EXIT.busy : EXIT.usage;
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

/** Notices do not fail the command: printed like problems (`::notice` for GitHub), then counted. */
function reportNotices(notices: Problem[], io: Io, format: string): void {
  if (notices.length === 0) return;
  const escape = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => escape(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  for (const p of notices) {
    if (format === 'github') io.out(`::notice file=${prop(p.file)},line=${p.line},col=${p.col},title=${prop(p.field)}::${escape(p.message)}`);
    else io.err(formatProblem(p));
  }
  io.err(`${notices.length} notice${notices.length === 1 ? '' : 's'} (not errors; the site is complete without these entries).`);
}
