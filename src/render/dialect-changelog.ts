/**
 * The changelog file a format's updater fetches for a device (`changelog` of a format in
 * site.yaml): crDroid, DerpFest and Evolution X open theirs in a browser, PixelOS's strict feed
 * reads `API/updater/changelogs/<device>.md` of at most 256 KiB. Written from the catalog's
 * changelogs, newest build first, as Markdown that reads as plain text. Pure.
 */
import { isWithdrawn } from '../catalog/filename.js';
import type { Inline } from '../catalog/changelog.js';
import type { Build } from '../catalog/manifest.js';
import { buildsWithChangelog } from './changelog.js';
import { isoTime } from './markup.js';

/**
 * The most bytes any of these updaters reads: PixelOS's `MAX_CHANGELOG_BYTES` (256 KiB,
 * PixelOS-AOSP/android_packages_apps_Updater UpdatesNetworkDataSource.kt); older entries go first.
 */
export const CHANGELOG_MAX_BYTES = 256 * 1024;

/** The changelog of a list's builds, or `undefined` when none of them has one. */
export function renderDialectChangelog(builds: readonly Build[]): string | undefined {
  const shown = buildsWithChangelog(builds.filter((b) => !b.placeholder && !isWithdrawn(b)));
  let text = '';
  for (const build of shown) {
    const entry = `${text === '' ? '' : '\n'}${entryOf(build)}`;
    if (Buffer.byteLength(text + entry) > CHANGELOG_MAX_BYTES) break;
    text += entry;
  }
  return text === '' ? undefined : text;
}

// --- internal ---

/** One build: `# <version> (<date>)`, then its blocks, each ending in a line break. */
function entryOf(build: Build): string {
  const lines = [`# ${build.display_version || build.version} (${isoTime(build.timestamp).slice(0, 10)})`, ''];
  for (const block of build.changelog ?? []) {
    if (block.kind === 'code') lines.push('```', block.text, '```');
    else if (block.kind === 'heading') lines.push(`## ${inline(block.text)}`);
    else if (block.kind === 'item') lines.push(`- ${inline(block.text)}`);
    else lines.push(inline(block.text));
  }
  return `${lines.join('\n')}\n`;
}

/** Inline text as written, a link as its text and its address (`text <https://...>`), readable either way. */
function inline(text: readonly Inline[]): string {
  const written = (piece: Inline) =>
    piece.kind === 'link' ? `${piece.text} <${piece.href}>` : piece.kind === 'code' ? `\`${piece.text}\`` : piece.text;
  return text.map(written).join('');
}
