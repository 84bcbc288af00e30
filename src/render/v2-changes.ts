import type { Build } from '../catalog/manifest.js';
import type { Site } from '../catalog/site.js';
import { buildsWithChangelog, changelogAnchor, changeTexts } from './changelog.js';
import type { OutputFile } from './output.js';
import { API_FILES, URLS } from './urls.js';

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
  /** `android_device_<device>`: the portal shows a "device specific" change only for devices whose `dependencies` name it, and only when it starts with `android_`. */
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

/** The changes of one device's builds, newest first; placeholders' changes are the portal's "next build" changes. */
export function deviceChanges(device: string, builds: Iterable<Build>, site: Site): V2Change[] {
  const changes: V2Change[] = [];
  for (const build of buildsWithChangelog(builds)) {
    const anchor = changelogAnchor(build);
    changeTexts(build.changelog!).forEach((subject, i) => {
      changes.push({
        branch: build.version,
        project: `android_device_${device}`,
        repository: `android_device_${device}`,
        subject,
        submitted: build.timestamp,
        type: 'device specific',
        updated: build.timestamp,
        url: `${site.siteUrl ?? ''}${URLS.changelogPage(device)}#${anchor}-${i + 1}`,
      });
    });
  }
  return changes;
}

/**
 * `/api/v2/changes`: the changes of every device, newest first, at most {@link V2_CHANGES_MAX};
 * `[]` when no build has a changelog, as the official server answers when it has none (the portal
 * fails on an error answer).
 */
export function renderV2Changes(perDevice: readonly (readonly V2Change[] | undefined)[]): OutputFile {
  const all = perDevice.flatMap((changes) => changes ?? []);
  all.sort((a, b) => b.submitted - a.submitted); // Stable: devices in site order, items as written.
  return { path: API_FILES.v2Changes.slice(1), contents: JSON.stringify(all.slice(0, V2_CHANGES_MAX)) };
}
