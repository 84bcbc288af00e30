// The diff's core in memory: the example catalog compiled twice, compared answer by answer, and the
// Markdown report of hostile values (the command on a git repository: test/commands/diff.slow.test.ts).
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/catalog/problems.js';
import { answersOf, type AnswerRecord } from '../../src/diff/answers.js';
import { compareCatalogs, type CatalogDiff } from '../../src/diff/compare.js';
import { markdownReport } from '../../src/diff/report.js';
import { compileSide } from '../../src/diff/side.js';
import { contentFromFiles, exampleFiles, type CatalogFiles } from '../helpers/memory-catalog.js';

const FP4_25 = 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml';

function diffOf(base: CatalogFiles, head: CatalogFiles): CatalogDiff {
  const [before, after] = [compileSide(contentFromFiles(base)), compileSide(contentFromFiles(head))];
  expect(after.problems).toEqual([]);
  return compareCatalogs(
    { answers: answersOf(before.site, before.devices), notices: before.notices },
    { answers: answersOf(after.site, after.devices), notices: after.notices },
  );
}

/** Each answer that changes as `dialect list: kind keys…` and its warnings' first words. */
const outline = (diff: CatalogDiff) =>
  diff.answers.map((a) => ({
    answer: `${a.device} ${a.dialect} ${a.list}`,
    changes: a.changes.map((c) => `${c.kind} ${c.build} ${c.keys.join(',')}`.trim()),
    warnings: a.warnings.map((w) => w.slice(0, w.indexOf(':'))),
  }));

describe('compareCatalogs', () => {
  it('finds nothing between a catalog and itself', () => {
    expect(diffOf(exampleFiles(), exampleFiles())).toEqual({ answers: [], incrementals: [], notices: [] });
  });

  it('warns where a download key changes under the same file name, in every answer that carries it', () => {
    const files = exampleFiles();
    const head = {
      ...files,
      [FP4_25]: files[FP4_25]!.replace(/^id: \w+$/m, `id: ${'0f'.repeat(32)}`).replace(
        /^md5sum: \w+$/m,
        `md5sum: ${'1e'.repeat(16)}`,
      ),
    };
    const build = 'e-2.5-a14-20241108446322-official-FP4.zip';
    const warning = (keys: string) => `the download key of ${build} changes (${keys}) under the same file name`;
    expect(outline(diffOf(files, head))).toEqual([
      { answer: 'FP4 v1 official', changes: [`changed ${build} md5sum,id`], warnings: [warning('md5sum, id')] },
      { answer: 'FP4 v1 stable', changes: [`changed ${build} md5sum,id`], warnings: [warning('md5sum, id')] },
      {
        answer: 'FP4 v2 official',
        changes: [`changed ${build} files[0].sha256`],
        warnings: [warning('files[0].sha256')],
      },
      {
        answer: 'FP4 v2 stable',
        changes: [`changed ${build} files[0].sha256`],
        warnings: [warning('files[0].sha256')],
      },
    ]);
  });

  it('says a notice once it is new, and never one the base had', () => {
    const files = exampleFiles();
    // The v1 text-order notice of FP3's dev list is the example's already.
    const diff = diffOf(files, { ...files });
    expect(diff.notices).toEqual([]);
    const withoutMd5 = { ...files, [FP4_25]: files[FP4_25]!.replace(/^md5sum: \w+\n/m, '') };
    const added = diffOf(files, withoutMd5).notices.map((n) => `${n.file} ${n.field}`);
    expect(added).toEqual([`${FP4_25} md5sum`]);
  });
});

describe('the Markdown report', () => {
  const hostile = '<img src=x onerror=alert(1)>|**bold**_x_ [a](javascript:alert(1)) @team `code` &amp;';
  const record = (over: Partial<AnswerRecord>): AnswerRecord => ({
    build: hostile,
    filename: hostile,
    version: hostile,
    size: 1,
    datetime: 1,
    incremental: false,
    text: '{}',
    values: new Map(),
    ...over,
  });
  const notice: Problem = { file: 'content/FP4/x.yaml', line: 1, col: 2, field: hostile, message: hostile };
  const diff: CatalogDiff = {
    answers: [
      {
        device: 'FP4',
        dialect: 'v1',
        list: 'stable',
        path: '/api/v1/FP4/stable/',
        changes: [
          { kind: 'added', build: hostile, after: record({}), keys: [] },
          {
            kind: 'changed',
            build: hostile,
            before: record({ size: 2 }),
            after: record({}),
            keys: [hostile],
          },
        ],
        warnings: [hostile],
      },
    ],
    incrementals: [{ device: 'FP4', phonesOn: hostile, filename: hostile, build: hostile, answers: ['v1 stable'] }],
    notices: [notice],
  };
  const lines = markdownReport(diff, { base: hostile, head: hostile });
  const escaped =
    '&lt;img src\\=x onerror\\=alert\\(1\\)&gt;&#124;\\*\\*bold\\*\\*\\_x\\_ \\[a\\]\\(javascript\\:alert\\(1\\)\\) \\@team \\`code\\` &amp;amp\\;';

  it('shows every value as text: no tag, link, emphasis, mention or code span survives', () => {
    const text = lines.join('\n');
    expect(text).not.toMatch(/<[a-z/]/i);
    for (const markup of ['**bold**', '_x_', '[a](', '`code`']) expect(text).not.toContain(markup);
    // An entity in a value stays text: `&amp;` shows as written, not as `&`.
    expect(text).not.toMatch(/&amp;(?!amp)/);
    expect(text).not.toContain('](');
    expect(text).not.toMatch(/(?<!\\)@team/);
    expect(lines[2]).toBe(`base ${escaped} → head ${escaped}`);
  });

  it('keeps the table whole: a `|` in a value is no column', () => {
    const rows = lines.filter((l) => l.startsWith('| FP4'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.split('|')).toHaveLength(10);
    expect(rows[0]).toBe(
      `| FP4 | v1 stable \\/api\\/v1\\/FP4\\/stable\\/ | every phone | added | ${escaped} | ${escaped} | 1 |  |`,
    );
  });
});
