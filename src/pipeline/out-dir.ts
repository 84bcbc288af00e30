/**
 * The output folder: which folder a build may replace as a whole ({@link checkOutDir}), the mark
 * every build leaves in its output ({@link OUTPUT_MARKER}), and the errors that say why a folder
 * cannot be written.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { oneLine } from '../catalog/problems.js';
import type { OutputFile } from '../render/output.js';

/**
 * The file every build writes at the top of its output, so that the next build knows the folder is
 * one it may replace as a whole. One fixed sentence: a host may serve it (it is outside `/api/`, so
 * no listing rule applies), and it tells nothing that the site does not.
 */
export const OUTPUT_MARKER = '.otapress-output';

/** {@link OUTPUT_MARKER} as a file of the site: every build (and the preview) has it. */
export const OUTPUT_MARKER_FILE: OutputFile = {
  path: OUTPUT_MARKER,
  contents: 'This folder is written by `otapress build`, which replaces it as a whole: keep nothing else in it.\n',
};

/**
 * What the top of an output folder held before builds wrote {@link OUTPUT_MARKER} (otapress 0.2 and
 * earlier): a folder with `api/v1/404.json` and nothing but these names is taken for one of theirs.
 */
const EARLIER_OUTPUT_NAMES = new Set([
  '404.html',
  '_headers',
  '_redirects',
  '_routes.json',
  '_worker.js',
  '.htaccess',
  'api',
  'devices',
  'index.html',
]);

/** The output folder cannot be written: another build holds it, it would replace what it must not, or the disk refused. */
export class OutputError extends Error {
  constructor(
    message: string,
    /**
     * `busy`: another build is writing (try again later); `unsafe`: the folder must not be replaced;
     * `io`: the system refused a write (disk full, read-only, permission denied).
     */
    readonly reason: 'busy' | 'unsafe' | 'io',
  ) {
    super(message);
    this.name = 'OutputError';
  }
}

/**
 * Refuses an output folder whose replacement would destroy something: the project itself, a folder
 * that contains it, or one inside `content/`; and, unless `overwrite`, a file, or a folder that holds
 * anything but an earlier build's output (`--out /srv/www/html` would delete the other sites and
 * the `.env` there; `--out ~` a home folder). The tree is replaced as a whole, so it must be a
 * folder of its own: missing, empty, or marked by {@link OUTPUT_MARKER}.
 */
export function checkOutDir(outDir: string, root: string, { overwrite = false } = {}): void {
  const out = path.resolve(outDir);
  const project = path.resolve(root);
  const content = path.join(project, 'content');
  const inside = (child: string, dir: string) => {
    const relative = path.relative(dir, child);
    return (
      relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
    );
  };
  if (inside(project, out) || inside(out, content)) {
    throw new OutputError(
      `refusing to write the site to ${out}: the output folder is replaced as a whole, so it cannot be the project, contain it, or lie in content/; use a folder of its own such as ${path.join(project, 'dist')}`,
      'unsafe',
    );
  }
  const foreign = overwrite ? undefined : foreignEntries(out);
  if (foreign !== undefined) {
    throw new OutputError(
      `refusing to write the site to ${out}: ${foreign}, and a build replaces the whole folder, which would delete ${foreign.startsWith('it is a file') ? 'it' : 'them'}; build into a new or empty folder, or pass --overwrite to replace it anyway`,
      'unsafe',
    );
  }
}

/** What the system's refusals to write mean, and what to do about each. */
const WRITE_ERRORS: Record<string, [what: string, todo: string]> = {
  ENOSPC: ['the disk is full', 'free some space and run it again'],
  EDQUOT: ['the disk quota is used up', 'free some space or raise the quota, and run it again'],
  EROFS: ['the file system is read-only', 'use a writable folder'],
  EACCES: ['permission denied', 'make the folder writable for this user, or use another'],
  EPERM: [
    'the operation is not permitted (an immutable file or folder?)',
    'make the folder writable for this user, or use another',
  ],
  ENAMETOOLONG: ['the path is too long for the file system', 'use a folder with a shorter path'],
  EIO: ['the disk reported an input/output error', 'check the disk (dmesg), then run it again'],
  EMFILE: ['too many files are open', 'raise the limit (ulimit -n) and run it again'],
  ENFILE: ['too many files are open on this system', 'run it again when fewer are'],
};

/** The errors that another output folder avoids: `build --out DIR` is the way out. */
const ELSEWHERE = ['EROFS', 'EACCES', 'EPERM', 'ENAMETOOLONG'];

/**
 * A system error met while writing, in words: what happened, at which path, what to do. Any error
 * with an errno code (`ENOSPC`, ...) gets one, so a full disk is a message, never a stack trace;
 * `undefined` for the others (a failure of otapress itself).
 */
export function describeWriteError(error: unknown): string | undefined {
  const { code, path: at, dest, syscall } = (error ?? {}) as NodeJS.ErrnoException & { dest?: string };
  if (typeof code !== 'string' || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  const [what, todo] = WRITE_ERRORS[code] ?? [
    `the system refused to ${syscall ?? 'write'} (${oneLine((error as Error).message)})`,
    'check the path and run it again',
  ];
  const where =
    at === undefined
      ? ''
      : syscall === 'rename' && dest
        ? ` renaming ${oneLine(at)} to ${oneLine(dest)}`
        : ` at ${oneLine(at)}`;
  return `${what} (${code}${where}); ${todo}`;
}

/** The error a build throws for a system error met while writing `outDir`: says the folder was left as it was. */
export function writeFailure(error: unknown, outDir: string): OutputError | undefined {
  const described = describeWriteError(error);
  if (described === undefined) return undefined;
  const elsewhere = ELSEWHERE.includes((error as NodeJS.ErrnoException).code!)
    ? ' (build --out DIR writes the site elsewhere)'
    : '';
  return new OutputError(
    `could not write the site to ${oneLine(outDir)}: ${described}${elsewhere}. ${oneLine(outDir)} is as it was before this build.`,
    'io',
  );
}

// --- internal ---

/** What an existing output path holds that no build wrote, in words; `undefined` when a build may replace it. */
function foreignEntries(out: string): string | undefined {
  const stat = lstatSync(out, { throwIfNoEntry: false });
  // A link is replaced by the new folder, and what it points to stays as it is.
  if (stat === undefined || stat.isSymbolicLink()) return undefined;
  if (!stat.isDirectory()) return 'it is a file, not a folder';
  const names = readdirSync(out).sort();
  if (names.length === 0 || lstatSync(path.join(out, OUTPUT_MARKER), { throwIfNoEntry: false })?.isFile())
    return undefined;
  const earlier =
    names.every((name) => EARLIER_OUTPUT_NAMES.has(name)) &&
    lstatSync(path.join(out, 'api', 'v1', '404.json'), { throwIfNoEntry: false })?.isFile();
  if (earlier) return undefined;
  const unknown = names.filter((name) => !EARLIER_OUTPUT_NAMES.has(name));
  const shown = (unknown.length > 0 ? unknown : names).slice(0, 3).map((name) => `\`${oneLine(name)}\``);
  const more = (unknown.length > 0 ? unknown : names).length - shown.length;
  return `it holds files that otapress did not write (${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}; an output folder has ${OUTPUT_MARKER})`;
}
