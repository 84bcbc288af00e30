/** `otapress diff`: what phones are offered after a change of the catalog, answer by answer. */
import { COMMON_OPTIONS, defineCommand, EXIT, reportProblems, SEE_USAGE, UsageError } from '../io.js';

export const command = defineCommand({
  summary: 'show what phones will be offered after a change: the records of every answer that differ',
  synopsis: 'otapress diff <base> [<head>] [--root DIR] [--format text|markdown]',
  about: `Compiles content/ of the git revision <base> and of <head> (default: the working tree, uncommitted
files included) in memory, and prints, per device, dialect (v1, v2, each of formats) and list, the
records phones receive that differ: builds added, removed or changed (file, version, size and the
keys that changed), the source builds newly offered an incremental package, and the new notices;
with a warning where a list loses its newest build or a download key changes under the same file
name. Nothing is checked out or written. Exits 0 whatever differs; 1 with the problems when <head>
does not build.`,
  options: {
    format: {
      type: 'string',
      value: 'text|markdown',
      default: 'text',
      description: "markdown writes a pull request's job summary (>> $GITHUB_STEP_SUMMARY), every value escaped",
    },
    ...COMMON_OPTIONS,
  },
  readOnly: true,
  async run({ values, positionals }, io) {
    const { format } = values;
    if (format !== 'text' && format !== 'markdown')
      throw new UsageError(`--format is text or markdown, not ${format}`, SEE_USAGE);
    if (positionals.length < 1 || positionals.length > 2)
      throw new UsageError(
        positionals.length === 0
          ? 'diff needs the base revision to compare with (origin/main, HEAD~1)'
          : `diff takes a base and a head revision, not ${positionals.length} arguments`,
        SEE_USAGE,
      );
    const path = await import('node:path');
    const { diffCatalog } = await import('../diff/diff.js');
    const [base, head] = positionals;
    const { lines, problems } = diffCatalog({ root: path.resolve(values.root), base: base!, head, format });
    if (problems.length > 0) {
      reportProblems(problems, io, 'text', true);
      return EXIT.invalid;
    }
    if (io.lines) io.lines('out', lines);
    else for (const line of lines) io.out(line);
    return EXIT.ok;
  },
});
