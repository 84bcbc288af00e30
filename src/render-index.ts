import type { Build } from './manifest.js';
import type { Listing } from './plan.js';
import { compareStrings } from './problems.js';
import { URLS } from './urls.js';

/** `/api/devices.json`: every device, its lists, and the count and newest build of each. */
export interface DeviceIndex {
  devices: {
    device: string;
    /** The HTML page of the device. */
    page: string;
    /** The LineageOS v2 answer of the device. */
    v2: string;
    lists: {
      list: string;
      /** The v1 listing (`GET` it as it is, or with the phone's incremental appended). */
      url: string;
      /** The Atom feed of the list. */
      feed: string;
      /** Records in the v1 listing, placeholders included. */
      count: number;
      /** The newest downloadable build by build time, or null when the list has none. */
      newest: NewestBuild | null;
    }[];
  }[];
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

/**
 * The device index, so dashboards and scripts need not guess device names. It lives at
 * `/api/devices.json`, outside `/api/v1/`: it points into both API versions, and a name under
 * `/api/v1/` could collide with a device folder (`devices.json` is a valid code name).
 */
export function renderDeviceIndex(listings: readonly Listing[]): string {
  const index: DeviceIndex = { devices: [] };
  for (const listing of listings) {
    let entry = index.devices.at(-1);
    if (entry?.device !== listing.device) {
      entry = { device: listing.device, page: URLS.devicePage(listing.device), v2: URLS.v2Builds(listing.device), lists: [] };
      index.devices.push(entry);
    }
    const newest = newestBuild(listing.builds);
    entry.lists.push({
      list: listing.list,
      url: URLS.listing(listing.device, listing.list),
      feed: URLS.feed(listing.device, listing.list),
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
    });
  }
  return JSON.stringify(index);
}

/** The newest build that has a package, by build time (listing order puts newer platforms first). */
export function newestBuild(builds: readonly Build[]): Build | undefined {
  return builds
    .filter((b) => !b.placeholder)
    .sort((a, b) => b.timestamp - a.timestamp || compareStrings(a.filename, b.filename))[0];
}
