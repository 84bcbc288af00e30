/**
 * Wing `render/`: one file per output (v1 listing, v2 answer, pages, feeds, device index), the
 * markup escaping and where each output lives. Data in, files out: pure. Imports only `catalog/`.
 */
import { NO_DEVICE_INFO, type DeviceInfo } from '../catalog/device.js';
import type { Listing } from '../catalog/plan.js';
import type { IncrementalListing } from '../catalog/incremental.js';
import type { Problem } from '../catalog/problems.js';
import { renderFeeds } from './feeds.js';
import { renderChecksums } from './checksums.js';
import { summarizeDevice, type DeviceSummary } from './summary.js';
import { renderDevicePage } from './pages.js';
import { v1Notices } from './v1-notices.js';
import { renderV2, renderV2Answers } from './v2.js';
import { renderV2Device } from './v2-directory.js';
import { renderChangelogPage } from './changelog-page.js';
import { deviceChanges } from './v2-changes.js';
import { channelDownloads, dialectAnswers, renderFormats } from './formats.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from './output.js';
import { linksOf } from './urls.js';

/** Everything a device publishes beside its v1 listings, and what the site-wide indexes need of it. */
export interface RenderedDevice {
  /** The v2 answers (builds, device), the device page, the feeds of its lists and its files of the site's other formats. */
  files: OutputFile[];
  /** What v1 phones will do that the maintainer may not expect, and the builds the v2 answer leaves out, and why. */
  notices: Problem[];
  /** Builds that can never be in the v2 answer (see `renderV2`): the device is not published. */
  problems: Problem[];
  summary: DeviceSummary;
}

/**
 * Renders one device's v2 answer, page and feeds from its listings alone, so devices can be
 * rendered independently; the site-wide indexes need only the summaries (see `renderIndexes`).
 * `info` is the device's device.yaml, when it has one.
 */
export function renderDevice(
  device: string,
  listings: readonly Listing[],
  site: Site,
  info?: DeviceInfo,
  answers: readonly IncrementalListing[] = [],
): RenderedDevice {
  const v2 = renderV2(device, listings);
  const v2Device = renderV2Device(device, info ?? NO_DEVICE_INFO, v2.versions, site);
  const builds = listings.flatMap((l) => l.builds);
  const links = linksOf(site);
  const changelogPage = renderChangelogPage(device, builds, links);
  const changes = deviceChanges(device, builds, site, info);
  const formats =
    site.formats.length > 0
      ? renderFormats(device, listings, site, info ?? NO_DEVICE_INFO)
      : { files: [], notices: [] };
  const checksums = renderChecksums(device, [...listings, ...answers]);
  // The formats' files at the root of the site (a device writes nothing else there): each has a rule of its own on the hosts.
  const answered = dialectAnswers(device, site, formats.files);
  const rootFiles = formats.files.flatMap((f) => (f.path.includes('/') ? [] : [`/${f.path}`]));
  const downloads = channelDownloads(device, listings, site);
  return {
    files: [
      v2.file,
      ...renderV2Answers(device, listings, answers),
      v2Device,
      renderDevicePage(device, listings, info, checksums !== undefined, links, answered),
      ...(checksums ? [checksums] : []),
      ...(changelogPage ? [changelogPage] : []),
      ...renderFeeds(listings, site, info),
      ...formats.files,
    ],
    notices: [...v1Notices(device, listings), ...v2.notices, ...formats.notices, ...downloads.notices],
    problems: v2.problems,
    summary: {
      ...summarizeDevice(device, listings, info),
      ...(changes !== undefined && { changes }),
      ...(answers.length > 0 && { incrementals: answers.map((a) => ({ list: a.list, incremental: a.incremental })) }),
      ...(rootFiles.length > 0 && { rootFiles }),
      ...(answered.length > 0 && { answers: answered }),
      ...(downloads.redirects.length > 0 && { downloads: downloads.redirects }),
    },
  };
}
