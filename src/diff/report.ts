/**
 * The diff as a reviewer reads it: lines for a terminal, or Markdown for a pull request's job
 * summary, where every value is escaped (a branch name or a notice may hold `|`, `<`, `*`). Pure.
 */
import { formatProblem, oneLine } from '../catalog/problems.js';
import type { AnswerChange, CatalogDiff, RecordChange } from './compare.js';

/** How the two sides are named in the report: `origin/main (1a2b3c4d5e6f)`, `the working tree`. */
export interface DiffSides {
  base: string;
  head: string;
}

/** The report as lines of text. */
export function textReport(diff: CatalogDiff, sides: DiffSides): string[] {
  const lines = [`base ${oneLine(sides.base)} → head ${oneLine(sides.head)}`];
  for (const device of devicesOf(diff)) {
    lines.push('', device);
    for (const answer of diff.answers.filter((a) => a.device === device)) {
      lines.push(`  ${answerName(answer)}  ${oneLine(answer.path)}`);
      for (const change of answer.changes) lines.push(`    ${SIGNS[change.kind]} ${recordLine(change)}`);
      for (const warning of answer.warnings) lines.push(`    ! warning: ${oneLine(warning)}`);
    }
    const incrementals = diff.incrementals.filter((i) => i.device === device);
    if (incrementals.length > 0) lines.push('  incremental packages newly offered:');
    for (const i of incrementals)
      lines.push(
        `    phones on ${oneLine(i.phonesOn)}: ${oneLine(i.filename)} (installs ${oneLine(i.build)}) in ${i.answers.join(', ')}`,
      );
    const notices = noticesOf(diff, device);
    if (notices.length > 0) lines.push('  new notices:', ...notices.map((n) => `    ${formatProblem(n)}`));
  }
  const others = noticesOf(diff, undefined);
  if (others.length > 0) lines.push('', 'new notices:', ...others.map((n) => `  ${formatProblem(n)}`));
  lines.push('', summaryLine(diff, sides));
  return lines;
}

/** The report as Markdown, for `$GITHUB_STEP_SUMMARY`. */
export function markdownReport(diff: CatalogDiff, sides: DiffSides): string[] {
  const lines = [
    '### otapress diff: what phones will be offered',
    '',
    `base ${md(sides.base)} → head ${md(sides.head)}`,
  ];
  lines.push('', `**${md(summaryLine(diff, sides))}**`);
  const rows = diff.answers.flatMap((a) => a.changes.map((c) => ({ a, c })));
  if (rows.length > 0) {
    lines.push(
      '',
      '| device | answer | phones | change | file | version | size | what changes |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const { a, c } of rows) {
      const record = (c.after ?? c.before)!;
      const cells = [
        a.device,
        `${answerName(a, false)} ${a.path}`,
        a.phonesOn === undefined ? 'every phone' : `on ${a.phonesOn}`,
        c.kind,
        record.filename || record.build,
        record.version,
        record.size === undefined ? '' : String(record.size),
        changedText(c),
      ];
      lines.push(`| ${cells.map(md).join(' | ')} |`);
    }
  }
  const warnings = diff.answers.flatMap((a) =>
    a.warnings.map((w) => `- **${md(`${a.device} ${answerName(a)}`)}**: ${md(w)}`),
  );
  if (warnings.length > 0) lines.push('', '#### Warnings', '', ...warnings);
  if (diff.incrementals.length > 0) {
    lines.push('', '#### Incremental packages newly offered', '');
    for (const i of diff.incrementals)
      lines.push(
        `- ${md(`${i.device}: phones on ${i.phonesOn}: ${i.filename} (installs ${i.build}) in ${i.answers.join(', ')}`)}`,
      );
  }
  if (diff.notices.length > 0)
    lines.push('', '#### New notices', '', ...diff.notices.map((n) => `- ${md(formatProblem(n))}`));
  return lines;
}

// --- internal ---

/** Markdown text that shows `value` as it is: HTML's specials as entities, every other ASCII punctuation escaped, on one line. */
function md(value: string): string {
  return oneLine(value).replace(/[!-/:-@[-`{-~]/g, (c) => ENTITIES[c] ?? `\\${c}`);
}

/** `1 warning`, `2 warnings`. */
function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '|': '&#124;' };

const SIGNS: Record<RecordChange['kind'], string> = { added: '+', removed: '-', changed: '~' };

function devicesOf(diff: CatalogDiff): string[] {
  const devices = [
    ...diff.answers.map((a) => a.device),
    ...diff.incrementals.map((i) => i.device),
    ...diff.notices.flatMap((n) => (deviceOf(n.file) ? [deviceOf(n.file)!] : [])),
  ];
  return [...new Set(devices)].sort();
}

/** The device a notice is about: the folder of its manifest. */
function deviceOf(file: string): string | undefined {
  return /^content\/([^/]+)\/[^/]+$/.exec(file)?.[1];
}

function noticesOf(diff: CatalogDiff, device: string | undefined) {
  return diff.notices.filter((n) => deviceOf(n.file) === device);
}

/** `v1 stable`, `crdroid stable`; with `phones` and an answer for one build, `v1 stable, phones on eng.x`. */
function answerName(a: AnswerChange, phones = true): string {
  const on = phones && a.phonesOn !== undefined ? `, phones on ${a.phonesOn}` : '';
  return `${a.dialect} ${a.list}${on}`;
}

function recordLine(c: RecordChange): string {
  const record = (c.after ?? c.before)!;
  const size = record.size === undefined ? '' : `, ${record.size} bytes`;
  const what = c.kind === 'changed' ? `: ${changedText(c)}` : '';
  return oneLine(`${record.filename || record.build}  version ${record.version}${size}${what}`);
}

/** What changed in a record: the file, version and size from → to, then every key that differs. */
function changedText(c: RecordChange): string {
  if (c.kind !== 'changed') return '';
  const [was, now] = [c.before!, c.after!];
  const parts: string[] = [];
  if (was.filename !== now.filename) parts.push(`file ${was.filename} → ${now.filename}`);
  if (was.version !== now.version) parts.push(`version ${was.version} → ${now.version}`);
  if (was.size !== now.size) parts.push(`size ${was.size ?? 'none'} → ${now.size ?? 'none'}`);
  parts.push(`keys ${c.keys.join(', ')}`);
  return parts.join('; ');
}

function summaryLine(diff: CatalogDiff, sides: DiffSides): string {
  const records = diff.answers.reduce((n, a) => n + a.changes.length, 0);
  const warnings = diff.answers.reduce((n, a) => n + a.warnings.length, 0);
  if (records === 0 && warnings === 0 && diff.notices.length === 0)
    return `no answer phones read differs between ${sides.base} and ${sides.head}`;
  const answers = diff.answers.filter((a) => a.changes.length > 0).length;
  return [
    `${count(records, 'record differs', 'records differ')} in ${count(answers, 'answer')} of ${count(devicesOf(diff).length, 'device')}`,
    count(warnings, 'warning'),
    count(diff.notices.length, 'new notice'),
  ].join('; ');
}
