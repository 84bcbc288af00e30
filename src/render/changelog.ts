import { plainText, type ChangelogBlock, type Inline } from '../catalog/changelog.js';
export { changelogAnchor } from '../catalog/changelog.js';
import type { Build } from '../catalog/manifest.js';
import { compareStrings } from '../catalog/problems.js';
import { html, raw, type Markup } from './markup.js';

// A build's changelog as markup, built only from the parsed blocks (catalog/changelog.ts) through
// the escaping `html` template: text can never become a tag, and a link is always the https
// address the parser checked. Used by the device page, the changelog page and the Atom entries.

/** The changelog as HTML: headings (`h4`), paragraphs, one list per run of items, code blocks; `idPrefix` gives each paragraph and item an id (`<prefix>-<n>`, counted as {@link changeTexts} counts). */
export function renderChangelog(blocks: readonly ChangelogBlock[], idPrefix?: string): Markup {
  const parts: Markup[] = [];
  let items: Markup[] = [];
  let n = 0;
  const id = () => (idPrefix === undefined ? '' : html` id="${idPrefix}-${++n}"`);
  const flush = () => {
    if (items.length > 0) parts.push(html`<ul>${raw(items.join(''))}</ul>`);
    items = [];
  };
  for (const block of blocks) {
    if (block.kind === 'item') {
      items.push(html`<li${id()}>${inline(block.text)}</li>`);
      continue;
    }
    flush();
    if (block.kind === 'heading') parts.push(html`<h4>${inline(block.text)}</h4>`);
    else if (block.kind === 'paragraph') parts.push(html`<p${id()}>${inline(block.text)}</p>`);
    else parts.push(html`<pre><code>${block.text}</code></pre>`);
  }
  flush();
  return raw(parts.join('\n'));
}

/** The changes a changelog lists, as plain text: each list item and paragraph (headings and code blocks are not changes). */
export function changeTexts(blocks: readonly ChangelogBlock[]): string[] {
  return blocks.filter((b) => b.kind === 'item' || b.kind === 'paragraph').map((b) => plainText((b as { text: Inline[] }).text));
}

/** The builds of a device that have a changelog, each once, newest first. */
export function buildsWithChangelog(builds: Iterable<Build>): Build[] {
  return [...new Set(builds)]
    .filter((b) => b.changelog !== undefined && b.changelog.length > 0)
    .sort((a, b) => b.timestamp - a.timestamp || compareStrings(a.display_version, b.display_version));
}

// --- internal ---

function inline(pieces: readonly Inline[]): Markup {
  return raw(
    pieces
      .map((p) => (p.kind === 'text' ? html`${p.text}` : p.kind === 'code' ? html`<code>${p.text}</code>` : html`<a href="${p.href}" rel="nofollow noopener">${p.text}</a>`))
      .join(''),
  );
}
