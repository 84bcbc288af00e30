/** `otapress check`: validate content/ like build, writing nothing. */
import { type Command, COMMON_OPTIONS, count, EXIT, reportNotices, reportProblems, UsageError } from '../io.js';

export const command: Command = {
  summary: 'validate content/ like build does, and write nothing',
  usage: `otapress check [--root DIR] [--format text|github]

--format github prints each problem as a GitHub Actions annotation, so a pull request shows it
on the line it is about.`,
  options: { ...COMMON_OPTIONS, format: { type: 'string', default: 'text' } },
  readOnly: true,
  // Not while it loads: only around the compiling (build.ts, check).
  setsJitBudget: true,
  async run({ values }, io) {
    const format = String(values.format);
    if (format !== 'text' && format !== 'github') throw new UsageError(`--format is text or github, not ${format}`);
    const path = await import('node:path');
    const { check } = await import('../pipeline/build.js');
    const { problems, builds, notices } = check({ root: path.resolve(String(values.root)) });
    if (problems.length === 0) {
      reportNotices(notices, io, format);
      io.out(`${count(builds.length, 'manifest is', 'manifests are')} valid`);
      return EXIT.ok;
    }
    reportProblems(problems, io, format, true);
    return EXIT.invalid;
  },
};
