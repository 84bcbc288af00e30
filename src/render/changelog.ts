import { plainText, type ChangelogBlock, type Inline } from '../catalog/changelog.js';
export { changelogAnchor } from '../catalog/changelog.js';
import type { Build } from '../catalog/manifest.js';
import { compareStrings } from '../catalog/problems.js';
import { escapeMarkup, flatten, raw, type Markup } from './markup.js';

// A build's changelog as markup, built only from the parsed blocks (catalog/changelog.ts), every
// text and address escaped: text can never become a tag, and a link is always the https address
// the parser checked. Used by the device page, the changelog page and the Atom entries.

/** The changelog as HTML: headings (`h4`), paragraphs, one list per run of items, code blocks; `idPrefix` gives each paragraph and item an id (`<prefix>-<n>`, counted as {@link changeTexts} counts). */
export function renderChangelog(blocks: readonly ChangelogBlock[], idPrefix?: string): Markup {
  return raw(render(blocks, HTML, idPrefix === undefined ? undefined : escapeMarkup(idPrefix)));
}

/**
 * The changelog's HTML ({@link renderChangelog}, without ids) escaped once more, as an Atom
 * `<content type="html">` carries it: rendered so directly, once per build whatever feeds carry it.
 */
export function changelogForAtom(blocks: readonly ChangelogBlock[]): string {
  let text = FOR_ATOM.get(blocks);
  if (text === undefined) FOR_ATOM.set(blocks, (text = render(blocks, ATOM)));
  return text;
}

/** The changes a changelog lists, as plain text: each list item and paragraph (headings and code blocks are not changes). */
export function changeTexts(blocks: readonly ChangelogBlock[]): string[] {
  return blocks
    .filter((b) => b.kind === 'item' || b.kind === 'paragraph')
    .map((b) => plainText((b as { text: Inline[] }).text));
}

/** Whether a build has a changelog to show (a manifest's empty one shows nothing). */
export function hasChangelog(build: Build): build is Build & { changelog: ChangelogBlock[] } {
  return build.changelog !== undefined && build.changelog.length > 0;
}

/** The builds of a device that have a changelog, each once, newest first. */
export function buildsWithChangelog(builds: Iterable<Build>): Build[] {
  return [...new Set(builds)]
    .filter(hasChangelog)
    .sort((a, b) => b.timestamp - a.timestamp || compareStrings(a.display_version, b.display_version));
}

// --- internal ---

const FOR_ATOM = new WeakMap<readonly ChangelogBlock[], string>();

/** The tags of a rendering, and how its text is escaped. */
interface Form {
  text: (text: string) => string;
  tags: typeof TAGS;
}

const TAGS = {
  ul: '<ul>',
  ulEnd: '</ul>',
  li: '<li',
  liEnd: '</li>',
  p: '<p',
  pEnd: '</p>',
  h4: '<h4>',
  h4End: '</h4>',
  pre: '<pre><code>',
  preEnd: '</code></pre>',
  open: '>',
  id: ' id="',
  idEnd: '"',
  code: '<code>',
  codeEnd: '</code>',
  a: '<a href="',
  aText: '" rel="nofollow noopener">',
  aEnd: '</a>',
};

const HTML: Form = { text: escapeMarkup, tags: TAGS };
/** Escaping distributes over concatenation (it maps each character alone), so the escaped HTML is the HTML of escaped tags and twice-escaped text. */
const ATOM: Form = {
  text: (text) => escapeMarkup(escapeMarkup(text)),
  tags: Object.fromEntries(Object.entries(TAGS).map(([name, tag]) => [name, escapeMarkup(tag)])) as typeof TAGS,
};

/** The blocks as markup of `form`, parts (a heading, a paragraph, a list, a code block) on lines of their own; `prefix` is escaped. */
function render(blocks: readonly ChangelogBlock[], { text, tags }: Form, prefix?: string): string {
  let out = '';
  let inList = false;
  let n = 0;
  const id = () => (prefix === undefined ? '' : `${tags.id}${prefix}-${++n}${tags.idEnd}`);
  for (const block of blocks) {
    if (block.kind === 'item') {
      if (!inList) out += out === '' ? tags.ul : `\n${tags.ul}`;
      inList = true;
      out += `${tags.li}${id()}${tags.open}${inline(block.text, text, tags)}${tags.liEnd}`;
      continue;
    }
    if (inList) out += tags.ulEnd;
    inList = false;
    if (out !== '') out += '\n';
    if (block.kind === 'heading') out += `${tags.h4}${inline(block.text, text, tags)}${tags.h4End}`;
    else if (block.kind === 'paragraph')
      out += `${tags.p}${id()}${tags.open}${inline(block.text, text, tags)}${tags.pEnd}`;
    else out += `${tags.pre}${text(block.text)}${tags.preEnd}`;
  }
  if (inList) out += tags.ulEnd;
  return flatten(out);
}

function inline(pieces: readonly Inline[], text: Form['text'], tags: typeof TAGS): string {
  let out = '';
  for (const p of pieces) {
    if (p.kind === 'text') out += text(p.text);
    else if (p.kind === 'code') out += `${tags.code}${text(p.text)}${tags.codeEnd}`;
    else out += `${tags.a}${text(p.href)}${tags.aText}${text(p.text)}${tags.aEnd}`;
  }
  return out;
}
