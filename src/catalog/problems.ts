/** One thing wrong with the content, located at the YAML node it is about. */
export interface Problem {
  /** Path relative to the project root, with forward slashes, e.g. `content/FP4/e-2.5.yaml`. */
  file: string;
  /**
   * 1-based line and column of the node; 1:1 for problems about a whole file. 0:0 for what has no
   * line to point at: an option of the command line, or a file given on it that is no text (a zip).
   */
  line: number;
  col: number;
  /** Dotted field path (`md5sum`, `lists.1`), or `(file)` / `(folder)` for the file or folder itself. */
  field: string;
  /** What is wrong and what to write instead; no "Error:" prefix. */
  message: string;
}

/**
 * The 1-based line and column of a character offset in `text`: where a problem points, for every
 * reader that knows an offset (the flat YAML reader's, a position `JSON.parse` reports).
 */
export function lineColOf(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

/**
 * Formats a problem as `file:line:col  field  message`, the one shape every command prints (without
 * `:line:col` for a problem at no line, such as `--lists  lists  ...`). Always
 * one line: line breaks and other control or direction characters that a file name, key or value
 * carries are shown escaped (`\n`, `\u202e`), so hostile content cannot forge lines of the report
 * (or CI workflow commands such as `::error::`).
 */
export function formatProblem(p: Problem): string {
  const where = p.line === 0 ? oneLine(p.file) : `${oneLine(p.file)}:${p.line}:${p.col}`;
  return `${where}  ${oneLine(p.field)}  ${oneLine(p.message)}`;
}

/** Escapes control characters (C0, DEL, C1), line and paragraph separators and bidirectional controls. */
export function oneLine(text: string): string {
  return text.replace(UNSHOWN, escaped);
}

/**
 * Escapes what {@link oneLine} escapes but line breaks and tabs: text of many lines (a Caddyfile is
 * indented with tabs) as a terminal may show it, without the escape sequence that would recolour it
 * or, OSC 52, set its clipboard, or a carriage return that would overwrite a line.
 */
export function escapeControls(text: string): string {
  return text.replace(UNSHOWN, (c) => (c === '\n' || c === '\t' ? c : escaped(c)));
}

/** Sorts problems by file, then position, then field, so every run prints them in the same order. */
export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      compareStrings(a.file, b.file) ||
      a.line - b.line ||
      a.col - b.col ||
      compareStrings(a.field, b.field) ||
      compareStrings(a.message, b.message),
  );
}

/** Code-unit string comparison: independent of the locale, so output is the same on every machine. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Thrown by the edges (build, check) when content is invalid; carries every problem found. */
export class ContentError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the content`);
    this.name = 'ContentError';
  }
}

/** The hint of a {@link UsageError} about the shape of the command line: the CLI shows the command's usage. */
export const SEE_USAGE = Symbol('the usage of the command');

/**
 * A command line that cannot run as given, or a file it names that cannot be used (missing, a
 * folder, a manifest that exists already): the CLI prints `message`, then the hint saying what to
 * do, and exits 2 with nothing written. Thrown by every wing, mapped to the exit status by cli.ts
 * alone. Without a hint, the message says what to do itself.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** A line of its own after the message, or {@link SEE_USAGE} for the command's usage. */
    readonly hint?: string | typeof SEE_USAGE,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The closest candidate within a small edit distance, for "did you mean" hints. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

// --- internal ---

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** What {@link oneLine} and {@link escapeControls} escape. */
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escaped(c: string): string {
  return c === '\n'
    ? '\\n'
    : c === '\r'
      ? '\\r'
      : c === '\t'
        ? '\\t'
        : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
