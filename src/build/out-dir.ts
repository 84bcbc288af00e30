/**
 * The output folder: which folder a build may replace as a whole ({@link checkOutDir}), the mark
 * every build leaves in its output ({@link OUTPUT_MARKER}), and the errors that say why a folder
 * cannot be written.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { oneLine } from '../catalog/problems.js';

/**
 * The file every build writes at the top of its output, so that the next build knows the folder is
 * one it may replace as a whole. One fixed sentence: a host may serve it (it is outside `/api/`, so
 * no listing rule applies), and it tells nothing that the site does not.
 */
export const OUTPUT_MARKER = '.otapress-output';
export const OUTPUT_MARKER_TEXT = 'This folder is written by `otapress build`, which replaces it as a whole: keep nothing else in it.\n';

/**
 * What the top of an output folder held before builds wrote {@link OUTPUT_MARKER} (otapress 0.2 and
 * earlier): a folder with `api/v1/404.json` and nothing but these names is taken for one of theirs.
 */
const EARLIER_OUTPUT_NAMES = new Set(['404.html', '_headers', '_redirects', '_routes.json', '_worker.js', '.htaccess', 'api', 'devices', 'index.html']);

/** The output folder cannot be written: another build holds it, or it would replace the sources. */
export class OutputError extends Error {
  constructor(
    message: string,
    /** `busy`: another build is writing (try again later); `unsafe`: the folder must never be written. */
    readonly reason: 'busy' | 'unsafe',
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
    return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
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

// --- internal ---

/** What an existing output path holds that no build wrote, in words; `undefined` when a build may replace it. */
function foreignEntries(out: string): string | undefined {
  const stat = lstatSync(out, { throwIfNoEntry: false });
  // A link is replaced by the new folder, and what it points to stays as it is.
  if (stat === undefined || stat.isSymbolicLink()) return undefined;
  if (!stat.isDirectory()) return 'it is a file, not a folder';
  const names = readdirSync(out).sort();
  if (names.length === 0 || lstatSync(path.join(out, OUTPUT_MARKER), { throwIfNoEntry: false })?.isFile()) return undefined;
  const earlier = names.every((name) => EARLIER_OUTPUT_NAMES.has(name)) && lstatSync(path.join(out, 'api', 'v1', '404.json'), { throwIfNoEntry: false })?.isFile();
  if (earlier) return undefined;
  const unknown = names.filter((name) => !EARLIER_OUTPUT_NAMES.has(name));
  const shown = (unknown.length > 0 ? unknown : names).slice(0, 3).map((name) => `\`${oneLine(name)}\``);
  const more = (unknown.length > 0 ? unknown : names).length - shown.length;
  return `it holds files that otapress did not write (${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}; an output folder has ${OUTPUT_MARKER})`;
}
