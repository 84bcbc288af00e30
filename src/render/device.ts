/**
 * Wing `render/`: one file per output (v1 listing, v2 answer, pages, feeds, device index), the
 * markup escaping and where each output lives. Data in, files out: pure. Imports only `catalog/`.
 */
import type { Listing } from '../catalog/plan.js';
import type { Problem } from '../catalog/problems.js';
import { renderFeeds } from './feeds.js';
import { summarizeDevice, type DeviceSummary } from './summary.js';
import { renderDevicePage } from './pages.js';
import { renderV2 } from './v2.js';
import { renderChangelogPage } from './changelog-page.js';
import { deviceChanges } from './v2-changes.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from './output.js';

/** Everything a device publishes beside its v1 listings, and what the site-wide indexes need of it. */
export interface RenderedDevice {
  /** The v2 answer, the device page and the feeds of its lists. */
  files: OutputFile[];
  /** Builds the v2 answer leaves out, and why. */
  notices: Problem[];
  summary: DeviceSummary;
}

/**
 * Renders one device's v2 answer, page and feeds from its listings alone, so devices can be
 * rendered independently; the site-wide indexes need only the summaries (see `renderIndexes`).
 */
export function renderDevice(device: string, listings: readonly Listing[], site: Site): RenderedDevice {
  const v2 = renderV2(device, listings);
  const builds = listings.flatMap((l) => l.builds);
  const changelogPage = renderChangelogPage(device, builds);
  const changes = deviceChanges(device, builds, site);
  return {
    files: [v2.file, renderDevicePage(device, listings), ...(changelogPage ? [changelogPage] : []), ...renderFeeds(listings, site)],
    notices: v2.notices,
    summary: { ...summarizeDevice(device, listings), ...(changes.length > 0 && { changes }) },
  };
}
