import type { DeviceInfo } from '../catalog/device.js';
import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import { compareNewestFirst, type Listing } from '../catalog/plan.js';
import type { DialectAnswer, ZipRedirect } from './formats.js';

/**
 * What the site-wide indexes need of one device: small, plain data, so a device compiled on its
 * own (another thread, a cache) can hand it back instead of its builds.
 */
export interface DeviceSummary {
  device: string;
  /** What device.yaml says, when the device has one. */
  info?: DeviceInfo;
  lists: {
    list: string;
    /** Records in the v1 listing, placeholders included. */
    count: number;
    /** The newest downloadable, not withdrawn build by build time, or null when the list has none. */
    newest: NewestBuild | null;
  }[];
  /** The device's entries of `/api/v2/changes` in the compact form of `deviceChanges`, when a changelog lists any (left out otherwise, so summaries stay as they were). */
  changes?: string;
  /** The listings for phones on one build (`/api/v1/<device>/<list>/<incremental>`), for the hosts' rules; left out when there are none. */
  incrementals?: { list: string; incremental: string }[];
  /** The files of the other updater formats at the root of the site (`/akita.json`), for the hosts' rules; left out when there are none. */
  rootFiles?: string[];
  /** The device's answers in other updaters' dialects, for the home page; left out when there are none. */
  answers?: DialectAnswer[];
  /** The zip names GrapheneOS's updater asks, each redirected to its download by the hosts that can; left out when there are none. */
  downloads?: ZipRedirect[];
}

/** The facts about a list's newest build that dashboards show. */
export interface NewestBuild {
  version: string;
  display_version: string;
  android_version: string;
  datetime: number;
  filename: string;
  id: string;
  size: number;
  url: string;
}

/** The summary of one device from its listings. */
export function summarizeDevice(device: string, listings: readonly Listing[], info?: DeviceInfo): DeviceSummary {
  return {
    device,
    ...(info && { info }),
    lists: listings.map((listing) => {
      const newest = newestBuild(listing.builds);
      return {
        list: listing.list,
        count: listing.builds.length,
        newest: newest
          ? {
              version: newest.version,
              display_version: newest.display_version,
              android_version: newest.android_version,
              datetime: newest.timestamp,
              filename: newest.filename,
              id: newest.id,
              size: newest.size as number,
              url: newest.url!,
            }
          : null,
      };
    }),
  };
}

/** The newest build that has a package and is not withdrawn (`.disabled.zip`), by build time (listing order puts newer platforms first). */
function newestBuild(builds: readonly Build[]): Build | undefined {
  return builds.filter((b) => !b.placeholder && !isWithdrawn(b)).sort(compareNewestFirst)[0];
}
