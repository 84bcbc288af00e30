// Problems and notices are printed a line each; an Io that takes many lines at once (the CLI's)
// gets them in one call, the same lines in the same order.
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/catalog/problems.js';
import { reportNotices, reportProblems, type Io } from '../../src/io.js';

const PROBLEMS: Problem[] = [
  { file: 'content/FP4/a.yaml', line: 2, col: 10, field: 'version', message: 'first, with a comma, and a colon: here' },
  { file: 'content/FP4/b.yaml', line: 1, col: 1, field: '(file)', message: 'second' },
  { file: 'content/FP5/c.yaml', line: 7, col: 3, field: 'size', message: 'third' },
];

/** An Io that records each call: the stream and the lines it was given. */
function recording(batch: boolean): { io: Io; calls: [string, string[]][] } {
  const calls: [string, string[]][] = [];
  const io: Io = { out: (line) => calls.push(['out', [line]]), err: (line) => calls.push(['err', [line]]) };
  if (batch) io.lines = (to, lines) => calls.push([to, [...lines]]);
  return { io, calls };
}

const lines = (calls: [string, string[]][]) => calls.flatMap(([to, given]) => given.map((line) => `${to} ${line}`));

describe('reporting problems and notices', () => {
  for (const format of ['text', 'github']) {
    for (const [name, report] of [
      ['notices', reportNotices],
      ['problems', reportProblems],
    ] as const) {
      it(`prints the ${name} in one call where the Io takes many lines (--format ${format}), the same lines as one by one`, () => {
        const single = recording(false);
        report(PROBLEMS, single.io, format);
        const batched = recording(true);
        report(PROBLEMS, batched.io, format);
        expect(single.calls).toHaveLength(PROBLEMS.length + 1);
        // The lines in one call, then the count on its own.
        expect(batched.calls).toHaveLength(2);
        expect(batched.calls[0][0]).toBe(format === 'github' ? 'out' : 'err');
        expect(batched.calls[1][0]).toBe('err');
        expect(lines(batched.calls)).toEqual(lines(single.calls));
      });
    }
  }

  it('makes no call for no problems, only the count', () => {
    const batched = recording(true);
    reportProblems([], batched.io, 'text');
    expect(batched.calls).toEqual([['err', ['0 problems found; nothing was written.']]]);
    reportNotices([], batched.io, 'text');
    expect(batched.calls).toHaveLength(1);
  });
});
