/** The table that ends a probe's report: what each updater was asked, and how much of it fails. Pure. */
import type { UpdaterTally } from './probe-site.js';

/** The table at the end: per updater, the answers and downloads probed and how many fail. */
export function tallyTable(tallies: readonly UpdaterTally[]): string[] {
  const rows = [
    ['updater', 'answers', 'failing', 'downloads', 'failing'],
    ...tallies.map((t) => [t.updater, t.answers, t.failedAnswers, t.downloads, t.failedDownloads].map(String)),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}
