/**
 * A repository's changelog file (crDroid `<device>_changelog.txt`, DerpFest `changelog_<device>.txt`,
 * PixelOS `API/changelogs/<device>.md`) as the `changelog` of the newest build the import writes for
 * its device: the catalog keeps a changelog per build (README, "Changelogs and build files"), and a
 * repository's file describes its newest build (and those before it). Pure.
 */
import { parseManifest } from '../catalog/manifest.js';
import type { Site } from '../catalog/site.js';
import { firstInvalidUtf8 } from '../catalog/yaml-source.js';
import type { ChangelogFile } from './folder-classify.js';
import type { ManifestWrite } from './plan-import.js';

/** What became of one changelog file: kept whole, kept in part (a note), or left out (why). */
export interface ChangelogOutcome {
  path: string;
  note?: string;
  leftOut?: string;
}

/** The most characters a build's changelog holds (catalog/changelog.ts). */
const MAX_CHARS = 16384;

/**
 * Adds the changelog to the newest build among the manifests `writes` creates for its device
 * (in place), when the build accepts it as the build would read it.
 */
export function attachChangelog(
  file: ChangelogFile,
  bytes: Uint8Array,
  writes: Map<string, ManifestWrite>,
  site: Site,
): ChangelogOutcome {
  const { path, device } = file;
  if (firstInvalidUtf8(bytes) !== -1) return { path, leftOut: 'not UTF-8 text; convert it (iconv -f latin1 -t utf-8)' };
  let text = new TextDecoder('utf-8')
    .decode(bytes)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
  if (text === '') return { path, leftOut: 'empty' };
  const newest = newestCreated(writes, device, site);
  if (newest === undefined) return { path, leftOut: `no build of ${device} is written by this import to hold it` };
  let note: string | undefined;
  if (text.length > MAX_CHARS) {
    const whole = text.length;
    // At a blank line when one is near the limit, else at a line break: the newest entries stay whole.
    const blank = text.lastIndexOf('\n\n', MAX_CHARS);
    text = text.slice(0, blank > MAX_CHARS * 0.75 ? blank : text.lastIndexOf('\n', MAX_CHARS)).trimEnd();
    note = `kept the first ${text.length} of ${whole} characters (its newest entries): a build's changelog holds at most ${MAX_CHARS}`;
  }
  const indicator = /^[ \t]/.test(text) ? '|2' : '|';
  const block = text
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
  const edited = `${newest.write.text}changelog: ${indicator}\n${block}\n`;
  const read = parseManifest(edited, newest.write.file, device, site);
  if (!read.build) {
    const first = read.problems[0];
    const at = first.field === 'changelog' ? '' : ` (${first.field})`;
    return { path, leftOut: `the catalog would not accept it${at}: ${first.message}` };
  }
  writes.set(newest.write.file, { ...newest.write, text: edited });
  return { path, ...(note !== undefined && { note }) };
}

// --- internal ---

/** The newest build (not a placeholder) among the manifests this import creates for `device`. */
function newestCreated(writes: Map<string, ManifestWrite>, device: string, site: Site) {
  let newest: { write: ManifestWrite; timestamp: number } | undefined;
  for (const write of writes.values()) {
    if (
      write.action !== 'created' ||
      !write.file.startsWith(`content/${device}/`) ||
      write.file.endsWith('/device.yaml')
    )
      continue;
    const build = parseManifest(write.text, write.file, device, site).build;
    if (build === undefined || build.placeholder) continue;
    if (newest === undefined || build.timestamp > newest.timestamp) newest = { write, timestamp: build.timestamp };
  }
  return newest;
}
