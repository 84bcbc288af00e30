/**
 * The changelog of a build: a small, strict subset of Markdown read into plain data, so that every
 * output (device page, changelog page, Atom entry, `/api/v2/changes`) renders it from the same
 * blocks and none of them ever passes raw text through. The subset: paragraphs, `-` / `*` list
 * items, headings (`#` to `###`), fenced code blocks, inline `code` and links `[text](https://…)`.
 * Anything else (HTML, emphasis, images) stays text and is shown as written, escaped. Pure.
 */
import { compareStrings } from './problems.js';

/** One block of a changelog. */
export type ChangelogBlock =
  | { kind: 'paragraph'; text: Inline[] }
  | { kind: 'heading'; text: Inline[] }
  | { kind: 'item'; text: Inline[] }
  | { kind: 'code'; text: string };

/** A piece of a line: text, inline code, or a link whose address is checked https. */
export type Inline =
  { kind: 'text'; text: string } | { kind: 'code'; text: string } | { kind: 'link'; text: string; href: string };

/** Something a changelog holds that the subset cannot show safely, at a 0-based line and column of the changelog text. */
export interface ChangelogProblem {
  line: number;
  col: number;
  message: string;
}

/** Longest changelog accepted: a page shows it whole, and the v2 answers carry it. */
const CHANGELOG_MAX_CHARS = 16384;

/** Reads a changelog; the problems say what to change (only links can be wrong: they must be https). */
export function parseChangelog(text: string): { blocks: ChangelogBlock[]; problems: ChangelogProblem[] } {
  const problems: ChangelogProblem[] = [];
  const blocks: ChangelogBlock[] = [];
  if (text.length > CHANGELOG_MAX_CHARS) {
    problems.push({
      line: 0,
      col: 0,
      message: `the changelog is ${text.length} characters long; keep it under ${CHANGELOG_MAX_CHARS} (link to a longer one)`,
    });
    return { blocks, problems };
  }
  const lines = (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text).split('\n');
  // The paragraph or item whose lines are being collected: its pieces grow line by line.
  let open: Inline[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Each kind of line starts with its own character after at most 3 spaces: the patterns run only then.
    let start = 0;
    while (start < 4 && line.charCodeAt(start) === 0x20) start++;
    const first = start < 4 ? line[start] : undefined;
    const fence = first === '`' || first === '~' ? /^ {0,3}(```+|~~~+)/.exec(line) : null;
    if (fence) {
      open = undefined;
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) body.push(lines[i]);
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      open = undefined;
      continue;
    }
    const heading = first === '#' ? /^ {0,3}(#{1,3}) +(.*?)[ #]*$/.exec(line) : null;
    if (heading) {
      open = undefined;
      const text: Inline[] = [];
      parseInline(text, heading[2], i, line.indexOf(heading[2]), problems);
      blocks.push({ kind: 'heading', text });
      continue;
    }
    // An item: its marker and at least one space (`^ {0,3}[-*+] +`), found without a pattern: most lines are items.
    let itemText = start + 1;
    if (first === '-' || first === '*' || first === '+') while (line.charCodeAt(itemText) === 0x20) itemText++;
    if (itemText > start + 1) {
      open = [];
      blocks.push({ kind: 'item', text: open });
      parseInline(open, line.slice(itemText), i, itemText, problems);
      continue;
    }
    const indent = line.length - line.trimStart().length;
    if (open) appendText(open, ' ');
    else blocks.push({ kind: 'paragraph', text: (open = []) });
    // The lines of a block are joined by spaces.
    parseInline(open, line.trim(), i, indent, problems);
  }
  return { blocks, problems };
}

/** The text of inline pieces as people read it without markup: link texts and code as written. */
export function plainText(text: readonly Inline[]): string {
  return text.map((piece) => piece.text).join('');
}

/** What {@link changelogAnchor} reads of a build. */
export interface AnchorFacts {
  placeholder: boolean;
  version: string;
  timestamp: number;
  id: string;
  /** The anchor {@link uniqueChangelogAnchors} settled, where the build would share its own with another. */
  anchor?: string;
}

/**
 * The anchor of a build on its device's changelog page: one per build, whatever lists it is in.
 * The first 16 characters of a SHA-256; all of a download key that is not one (an MD5, a version
 * name), which may share its first characters with another build's, as the device page's anchors
 * do (render/pages.ts, anchorTail). The portal merges changes by their `url`, which ends in it.
 * Where two builds of a device would share one, the anchor {@link uniqueChangelogAnchors} settled.
 */
export function changelogAnchor(build: AnchorFacts): string {
  if (build.anchor !== undefined) return build.anchor;
  if (build.placeholder) return `placeholder-${build.version}-${build.timestamp}`;
  return `build-${/^[0-9a-f]{64}$/.test(build.id) ? build.id.slice(0, 16) : build.id}`;
}

/** The address of a build's changelog on its device's changelog page (v1 `changes`, site.yaml `v1_changes: changelog_url`). */
export function changelogUrl(siteUrl: string | undefined, device: string, anchor: string): string {
  return `${siteUrl}/devices/${device}/changelog/#${anchor}`;
}

/**
 * The anchors that keep one device's builds apart where {@link changelogAnchor} gives two the same
 * (ids that are SHA-256s sharing their first 16 characters, or with a download key of those 16
 * characters; placeholders of one version and time), keyed by build; a build not in the map keeps
 * its own. Among builds sharing an anchor, each SHA-256 build takes its whole id (unique on a
 * device, and no other download key is 64 lowercase hex digits); of the placeholders, the first by
 * manifest path keeps it and the others take `~2`, `~3`, ... after it: `~` never ends a placeholder's
 * anchor (its timestamp does), nor a paragraph's id on the page (`<anchor>-<n>`).
 */
export function uniqueChangelogAnchors<B extends AnchorFacts & { source: string }>(
  builds: readonly B[],
): Map<B, string> {
  const byAnchor = new Map<string, B[]>();
  for (const build of builds) {
    const anchor = changelogAnchor(build);
    const sharing = byAnchor.get(anchor);
    if (sharing) sharing.push(build);
    else byAnchor.set(anchor, [build]);
  }
  const settled = new Map<B, string>();
  for (const [anchor, sharing] of byAnchor) {
    if (sharing.length === 1) continue;
    let placeholders = 0;
    for (const build of [...sharing].sort((a, b) => compareStrings(a.source, b.source))) {
      if (build.placeholder) {
        if (++placeholders > 1) settled.set(build, `${anchor}~${placeholders}`);
      } else if (/^[0-9a-f]{64}$/.test(build.id)) settled.set(build, `build-${build.id}`);
    }
  }
  return settled;
}

// --- internal ---

/** An address a page may link to: https, and only characters that need no escaping in a URL. */
const HTTPS_URL = /^https:\/\/[A-Za-z0-9.-]+(:\d+)?(\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*)?$/;

/** Appends the pieces of one line to `pieces`: `code`, [text](url) and text between, text next to text merged. */
function parseInline(pieces: Inline[], text: string, line: number, col: number, problems: ChangelogProblem[]): void {
  // Most lines are text alone.
  if (!text.includes('`') && !text.includes('[')) {
    if (text !== '') appendText(pieces, text);
    return;
  }
  const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]*)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) appendText(pieces, text.slice(last, match.index));
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
      appendText(pieces, match[2]);
    }
  }
  if (last < text.length) appendText(pieces, text.slice(last));
}

/** Appends text to the pieces, to the last one when it is text too. */
function appendText(pieces: Inline[], text: string): void {
  const previous = pieces.at(-1);
  if (previous?.kind === 'text') previous.text += text;
  else pieces.push({ kind: 'text', text });
}
