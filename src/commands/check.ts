/** `otapress check`: validate content/ like build, writing nothing. */
import {
  COMMON_OPTIONS,
  count,
  defineCommand,
  EXIT,
  reportNotices,
  reportProblems,
  SEE_USAGE,
  UsageError,
} from '../io.js';

export const command = defineCommand({
  summary: 'validate content/ like build does, and write nothing',
  synopsis: 'otapress check [--root DIR] [--format text|github]',
  about: '',
  options: {
    format: {
      type: 'string',
      value: 'text|github',
      default: 'text',
      description: `github prints each problem as a GitHub Actions annotation, so a pull request shows it on
        the line it is about`,
    },
    ...COMMON_OPTIONS,
  },
  readOnly: true,
  // Not while it loads: only around the compiling (build.ts, check).
  setsJitBudget: true,
  async run({ values }, io) {
    const { format } = values;
    if (format !== 'text' && format !== 'github')
      throw new UsageError(`--format is text or github, not ${format}`, SEE_USAGE);
    const path = await import('node:path');
    const { check } = await import('../pipeline/build.js');
    const { problems, builds, notices } = check({ root: path.resolve(values.root) });
    if (problems.length === 0) {
      reportNotices(notices, io, format);
      io.out(`${count(builds.length, 'manifest is', 'manifests are')} valid`);
      return EXIT.ok;
    }
    reportProblems(problems, io, format, true);
    return EXIT.invalid;
  },
});
