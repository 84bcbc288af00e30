/**
 * The changelog of a build: a small, strict subset of Markdown read into plain data, so that every
 * output (device page, changelog page, Atom entry, `/api/v2/changes`) renders it from the same
 * blocks and none of them ever passes raw text through. The subset: paragraphs, `-` / `*` list
 * items, headings (`#` to `###`), fenced code blocks, inline `code` and links `[text](https://…)`.
 * Anything else (HTML, emphasis, images) stays text and is shown as written, escaped. Pure.
 */

/** One block of a changelog. */
export type ChangelogBlock =
  | { kind: 'paragraph'; text: Inline[] }
  | { kind: 'heading'; text: Inline[] }
  | { kind: 'item'; text: Inline[] }
  | { kind: 'code'; text: string };

/** A piece of a line: text, inline code, or a link whose address is checked https. */
export type Inline = { kind: 'text'; text: string } | { kind: 'code'; text: string } | { kind: 'link'; text: string; href: string };

/** Something a changelog holds that the subset cannot show safely, at a 0-based line and column of the changelog text. */
export interface ChangelogProblem {
  line: number;
  col: number;
  message: string;
}

/** Longest changelog accepted: a page shows it whole, and the v2 answers carry it. */
export const CHANGELOG_MAX_CHARS = 16384;

/** Reads a changelog; the problems say what to change (only links can be wrong: they must be https). */
export function parseChangelog(text: string): { blocks: ChangelogBlock[]; problems: ChangelogProblem[] } {
  const problems: ChangelogProblem[] = [];
  const blocks: ChangelogBlock[] = [];
  if (text.length > CHANGELOG_MAX_CHARS) {
    problems.push({ line: 0, col: 0, message: `the changelog is ${text.length} characters long; keep it under ${CHANGELOG_MAX_CHARS} (link to a longer one)` });
    return { blocks, problems };
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  // The lines of the block being collected, with their line numbers, and what kind it is.
  let open: { kind: 'paragraph' | 'item'; parts: { text: string; line: number; col: number }[] } | undefined;
  const close = () => {
    if (open) blocks.push({ kind: open.kind, text: joinInline(open.parts.map((p) => parseInline(p.text, p.line, p.col, problems))) });
    open = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^ {0,3}(```+|~~~+)/.exec(line);
    if (fence) {
      close();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) body.push(lines[i]);
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      close();
      continue;
    }
    const heading = /^ {0,3}(#{1,3}) +(.*?)[ #]*$/.exec(line);
    if (heading) {
      close();
      blocks.push({ kind: 'heading', text: parseInline(heading[2], i, line.indexOf(heading[2]), problems) });
      continue;
    }
    const item = /^ {0,3}[-*+] +/.exec(line);
    if (item) {
      close();
      open = { kind: 'item', parts: [{ text: line.slice(item[0].length), line: i, col: item[0].length }] };
      continue;
    }
    const indent = line.length - line.trimStart().length;
    if (open) open.parts.push({ text: line.trim(), line: i, col: indent });
    else open = { kind: 'paragraph', parts: [{ text: line.trim(), line: i, col: indent }] };
  }
  close();
  return { blocks, problems };
}

/** The text of inline pieces as people read it without markup: link texts and code as written. */
export function plainText(text: readonly Inline[]): string {
  return text.map((piece) => piece.text).join('');
}

/** The anchor of a build on its device's changelog page: one per build, whatever lists it is in. */
export function changelogAnchor(build: { placeholder: boolean; version: string; timestamp: number; id: string }): string {
  return build.placeholder ? `placeholder-${build.version}-${build.timestamp}` : `build-${build.id.slice(0, 16)}`;
}

// --- internal ---

/** An address a page may link to: https, and only characters that need no escaping in a URL. */
const HTTPS_URL = /^https:\/\/[A-Za-z0-9.-]+(:\d+)?(\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*)?$/;

/** The pieces of one line: `code`, [text](url) and text between. */
function parseInline(text: string, line: number, col: number, problems: ChangelogProblem[]): Inline[] {
  const pieces: Inline[] = [];
  const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]*)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) pieces.push({ kind: 'text', text: text.slice(last, match.index) });
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      pieces.push({ kind: 'code', text: match[1] });
    } else if (HTTPS_URL.test(match[3])) {
      pieces.push({ kind: 'link', text: match[2], href: match[3] });
    } else {
      problems.push({
        line,
        col: col + match.index + match[2].length + 3,
        message: `the link to \`${match[3]}\` is not an https:// address${/^http:\/\//i.test(match[3]) ? ' (write https://)' : ''}; changelog links must be absolute https:// addresses, with spaces and quotes percent-encoded`,
      });
      pieces.push({ kind: 'text', text: match[2] });
    }
  }
  if (last < text.length) pieces.push({ kind: 'text', text: text.slice(last) });
  return pieces;
}

/** The lines of one block joined by spaces, neighbouring text pieces merged. */
function joinInline(lines: Inline[][]): Inline[] {
  const out: Inline[] = [];
  lines.forEach((pieces, i) => {
    for (const piece of i > 0 ? [{ kind: 'text' as const, text: ' ' }, ...pieces] : pieces) {
      const previous = out.at(-1);
      if (piece.kind === 'text' && previous?.kind === 'text') previous.text += piece.text;
      else out.push({ ...piece });
    }
  });
  return out;
}
