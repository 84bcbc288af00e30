import type { Build } from '../catalog/manifest.js';
import type { Site } from '../catalog/site.js';
import { buildsWithChangelog, changelogAnchor, changeTexts } from './changelog.js';
import type { OutputFile } from './output.js';
import { API_FILES, URLS } from './urls.js';
import { changesRepository } from './v2-directory.js';
import type { DeviceInfo } from '../catalog/device.js';

/**
 * One change of `/api/v2/changes`, with the keys of the official server (lineageos-infra/updater,
 * api_v2.py `api_v2_changes` at ad9188930d83e7f4d9be1c5d91c9c8bb3523fe87; Flask sorts the keys)
 * and of the download portal's `Change` (lineageos-infra/updater-client, src/stores/change.ts at
 * 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa). The server's changes are Gerrit changes; ours are the
 * items (and paragraphs) of a build's changelog, shaped so the portal files each under its build.
 */
export interface V2Change {
  /** The build's version: the portal keeps a change for a device when `branch` contains one of its versions, and under the build with that version. */
  branch: string;
  project: string;
  /** The device's {@link changesRepository}, one of its `dependencies` in `/api/v2/devices/<device>`: the portal shows a "device specific" change only there. */
  repository: string;
  /** The item as plain text (the portal shows it as text). */
  subject: string;
  /** The build time: the portal files a change under the oldest build of its version built at or after it, so under this build. */
  submitted: number;
  type: 'device specific';
  /** Equal to `submitted`: a later one would make the portal treat the change as merged again later. */
  updated: number;
  /** The item on the device's changelog page; unique, which the portal needs (it merges changes by `url`). */
  url: string;
}

/** At most this many changes, the newest: the portal pages through the answer, and a static answer has one page for every `?page=`. */
export const V2_CHANGES_MAX = 1000;

/**
 * The changes of one device's builds as its summary carries them to {@link renderV2Changes}, or
 * `undefined` when its changelogs list none: lines of JSON, the first `[the changelog page's address
 * up to its #, the repository its changes are filed under]`, then one per build with changes, newest first: `[submitted, branch, anchor,
 * subject, ...]` (placeholders' changes are the portal's "next build" changes); at most the
 * device's newest {@link V2_CHANGES_MAX} changes (no more of them can be in the answer). Text, not
 * {@link V2Change} objects: every device's summary stays in memory until the indexes are written,
 * and a catalog of 100,000 builds with changelogs has half a million changes, of which the answer
 * keeps a thousand; as objects (and strings that kept their manifests' text alive) they took
 * 270 MB and the collector's time. A line per build, so that the answer parses only the builds it
 * reaches: parsed whole, every device's changes cost the end of the build a quarter of a second.
 */
export function deviceChanges(
  device: string,
  builds: Iterable<Build>,
  site: Site,
  info?: DeviceInfo,
): string | undefined {
  const lines = [
    JSON.stringify([`${site.siteUrl ?? ''}${URLS.changelogPage(device)}#`, changesRepository(device, info)]),
  ];
  let count = 0;
  for (const build of buildsWithChangelog(builds)) {
    if (count >= V2_CHANGES_MAX) break;
    const subjects = changeTexts(build.changelog!).slice(0, V2_CHANGES_MAX - count);
    if (subjects.length === 0) continue;
    count += subjects.length;
    lines.push(JSON.stringify([build.timestamp, build.version, changelogAnchor(build), ...subjects]));
  }
  return lines.length > 1 ? lines.join('\n') : undefined;
}

/**
 * `/api/v2/changes`: the changes of every device (as {@link deviceChanges} gives them), newest
 * first, devices in the given order and items as written where the time is the same, at most
 * {@link V2_CHANGES_MAX}; `[]` when no build has a changelog, as the official server answers when
 * it has none (the portal fails on an error answer).
 */
export function renderV2Changes(devices: readonly { device: string; changes?: string }[]): OutputFile {
  const heads = devices.flatMap(({ changes }) => {
    if (changes === undefined) return [];
    const pageEnd = changes.indexOf('\n');
    const [page, repository] = JSON.parse(changes.slice(0, pageEnd)) as [string, string];
    const head: Head = { page, repository, text: changes, next: pageEnd + 1 };
    advance(head);
    return [head];
  });
  const all: V2Change[] = [];
  // Each device's builds are newest first: take the newest head each time, the first device on a tie.
  while (all.length < V2_CHANGES_MAX) {
    let newest: Head | undefined;
    for (const head of heads) {
      if (head.build !== undefined && (newest === undefined || head.build[0] > newest.build![0])) newest = head;
    }
    if (newest === undefined) break;
    const [submitted, branch, anchor, ...subjects] = newest.build!;
    advance(newest);
    const { repository } = newest;
    for (const [i, subject] of subjects.slice(0, V2_CHANGES_MAX - all.length).entries()) {
      all.push({
        branch,
        project: repository,
        repository,
        subject,
        submitted,
        type: 'device specific',
        updated: submitted,
        url: `${newest.page}${anchor}-${i + 1}`,
      });
    }
  }
  return { path: API_FILES.v2Changes.slice(1), contents: JSON.stringify(all) };
}

// --- internal ---

/** Where the merge is in one device's changes: its build to take next, parsed only once it is next. */
interface Head {
  page: string;
  repository: string;
  text: string;
  /** Where the line after `build` starts. */
  next: number;
  build?: [number, string, string, ...string[]];
}

/** Moves `head` on to its next build (none at the end of its text). */
function advance(head: Head): void {
  if (head.next >= head.text.length) {
    head.build = undefined;
    return;
  }
  let end = head.text.indexOf('\n', head.next);
  if (end === -1) end = head.text.length;
  head.build = JSON.parse(head.text.slice(head.next, end)) as Head['build'];
  head.next = end + 1;
}
