/**
 * `otapress diff`'s flow: read both revisions' content/ (the head may be the working tree), compile
 * each in memory, take their answers apart, compare, and report.
 */
import type { Problem } from '../catalog/problems.js';
import { readContent } from '../catalog/read.js';
import { answersOf } from './answers.js';
import { compareCatalogs } from './compare.js';
import { markdownReport, textReport } from './report.js';
import { readRevision } from './revision.js';
import { compileSide } from './side.js';

/** What `diff` needs: the catalog's folder, the two revisions, and how to report. */
export interface DiffOptions {
  root: string;
  base: string;
  /** A git revision; `undefined`: the working tree, uncommitted files included. */
  head?: string;
  format: 'text' | 'markdown';
}

/** The report's lines, or the head's problems when it does not build (then there is no report). */
export function diffCatalog({ root, base, head, format }: DiffOptions): { lines: string[]; problems: Problem[] } {
  const baseRevision = readRevision(root, base);
  const headRevision = head === undefined ? undefined : readRevision(root, head);
  const headContent = headRevision?.content ?? readContent(root);
  const after = compileSide(headContent);
  if (after.problems.length > 0) return { lines: [], problems: after.problems };
  const before = compileSide(baseRevision.content, { content: headContent, side: after });
  // A device the base shares with the head (the same object) answers the same: not taken apart.
  const headDevices = new Set(after.devices);
  const shared = new Set(before.devices.filter((d) => headDevices.has(d)));
  const changed = (devices: typeof after.devices) => devices.filter((d) => !shared.has(d));
  const named = (revision: string, commit: string) => `${revision} (${commit.slice(0, 12)})`;
  const broken =
    before.problems.length > 0
      ? ` (it does not build: ${before.problems.length} problem${before.problems.length === 1 ? '' : 's'}; a device that does not compile there counts as offering nothing)`
      : '';
  const sides = {
    base: `${named(base, baseRevision.commit)}${broken}`,
    head: headRevision === undefined ? 'the working tree' : named(head!, headRevision.commit),
  };
  const diff = compareCatalogs(
    { answers: answersOf(before.site, changed(before.devices)), notices: before.notices },
    { answers: answersOf(after.site, changed(after.devices)), notices: after.notices },
  );
  return { lines: format === 'markdown' ? markdownReport(diff, sides) : textReport(diff, sides), problems: [] };
}
