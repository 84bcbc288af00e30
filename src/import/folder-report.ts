/**
 * What `otapress import <folder>` prints: the plan (devices, lists, dialects and their paths, what
 * is left alone and left out, and why), one line per kind of note, then what was written, or with
 * --dry-run what would be. Pure but for the lines it hands to `io`.
 */
import { formatProblem, oneLine } from '../catalog/problems.js';
import type { FolderPlan } from './folder-plan.js';

/** Where the lines go: the command's standard output and error (the CLI's Io). */
interface Printer {
  out(line: string): void;
  err(line: string): void;
}

/** How many written files are named one by one (more are counted by kind). */
const WRITES_SHOWN = 20;

/** How many names a line shows before "and N more" (--verbose shows every one). */
const NAMES_SHOWN = 5;

/** Prints the plan of a repository import; returns nothing, the exit status is the caller's. */
export function reportFolder(plan: FolderPlan, printer: Printer, options: { dryRun: boolean; verbose: boolean }): void {
  // A repository's file names and values reach the terminal: each line on one line, controls escaped.
  const io = { out: (line: string) => printer.out(oneLine(line)), err: printer.err };
  const names = (list: readonly string[]) =>
    options.verbose || list.length <= NAMES_SHOWN
      ? list.join(', ')
      : `${list.slice(0, NAMES_SHOWN).join(', ')}, and ${list.length - NAMES_SHOWN} more`;
  const files = plan.dialects.reduce((n, d) => n + d.files, 0);
  io.out(
    `${plan.devices.length} device${plan.devices.length === 1 ? '' : 's'} in ${files} listing file${files === 1 ? '' : 's'}: ${names(plan.devices)}`,
  );
  for (const { entry, files: count, newLists } of plan.dialects) {
    const named = (l: string) => (newLists.includes(l) ? `${l} (new)` : l);
    const lists = entry.lists.map(named).join(', ');
    const where =
      typeof entry.path === 'string'
        ? `${entry.path}, list ${lists}`
        : Object.entries(entry.path)
            .map(([list, path]) => `${path} (list ${named(list)})`)
            .join(' and ');
    const extras = [
      entry.changelog !== undefined ? `changelogs at ${entry.changelog}` : '',
      entry.buildtype !== undefined ? `buildtype ${JSON.stringify(entry.buildtype)}` : '',
      entry.deviceInfo !== undefined ? `device list at ${entry.deviceInfo}` : '',
    ].filter((e) => e !== '');
    io.out(
      `  ${entry.family}: ${count} file${count === 1 ? '' : 's'} at ${where}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`,
    );
  }
  for (const { why, paths } of plan.leftAlone) io.out(`left alone (${why}): ${names(paths)}`);
  for (const line of plan.leftOut) io.out(`left out: ${line}`);
  const notes = options.verbose ? plan.notes : plan.summary;
  for (const note of notes) io.err(formatProblem(note));
  if (notes.length > 0) {
    const more = notes.length < plan.notes.length ? ` (${plan.notes.length} in all; --verbose shows each)` : '';
    io.err(
      `${notes.length} note${notes.length === 1 ? '' : 's'} above${more}: the build publishes these values as they say`,
    );
  }
  const verb = (action: string) =>
    options.dryRun
      ? action === 'created'
        ? 'would create'
        : 'would update'
      : action === 'created'
        ? 'created'
        : 'updated';
  // Every file when there are few (or --verbose); else how many of each kind, and site.yaml's edit.
  const each = options.verbose || plan.writes.length <= WRITES_SHOWN;
  for (const write of plan.writes.filter((w) => each || w.file === 'content/site.yaml'))
    io.out(`${verb(write.action)} ${write.file}${write.action === 'created' ? '' : `: ${write.action}`}`);
  if (!each) {
    const kinds = new Map<string, number>();
    for (const w of plan.writes.filter((w) => w.file !== 'content/site.yaml')) {
      const kind = `${verb(w.action)} ${w.file.endsWith('/device.yaml') ? 'content/<device>/device.yaml' : 'content/<device>/<build>.yaml'}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const [kind, n] of kinds) io.out(`${kind}: ${n} file${n === 1 ? '' : 's'} (--verbose names each)`);
  }
  const count = plan.writes.length;
  io.out(
    options.dryRun
      ? `dry run: ${count} file${count === 1 ? '' : 's'} would be written; nothing was written`
      : `imported ${plan.devices.length} device${plan.devices.length === 1 ? '' : 's'}: ${count} file${count === 1 ? '' : 's'} written; build writes every listing back at its path`,
  );
}
