import type { Build } from './manifest.js';
import type { Listing } from './plan.js';
import { compareStrings } from './problems.js';
import { renderHomePage } from './render-pages.js';
import { fileOf, URLS } from './urls.js';
import type { OutputFile } from './write.js';

/**
 * What the site-wide indexes need of one device: small, plain data, so a device compiled on its
 * own (another thread, a cache) can hand it back instead of its builds.
 */
export interface DeviceSummary {
  device: string;
  lists: {
    list: string;
    /** Records in the v1 listing, placeholders included. */
    count: number;
    /** The newest downloadable build by build time, or null when the list has none. */
    newest: NewestBuild | null;
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
      count: number;
      newest: NewestBuild | null;
    }[];
  }[];
}

/** The summary of one device from its listings. */
export function summarizeDevice(device: string, listings: readonly Listing[]): DeviceSummary {
  return {
    device,
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

/** The two indexes of all devices: `/api/devices.json` for scripts and the home page for people. */
export function renderIndexes(summaries: readonly DeviceSummary[]): OutputFile[] {
  return [
    { path: fileOf(URLS.deviceIndex), contents: renderDeviceIndex(summaries) },
    { path: fileOf(URLS.home), contents: renderHomePage(summaries) },
  ];
}

/**
 * The device index, so dashboards and scripts need not guess device names. It lives at
 * `/api/devices.json`, outside `/api/v1/`: it points into both API versions, and a name under
 * `/api/v1/` could collide with a device folder (`devices.json` is a valid code name).
 */
export function renderDeviceIndex(summaries: readonly DeviceSummary[]): string {
  const index: DeviceIndex = {
    devices: summaries.map(({ device, lists }) => ({
      device,
      page: URLS.devicePage(device),
      v2: URLS.v2Builds(device),
      lists: lists.map(({ list, count, newest }) => ({ list, url: URLS.listing(device, list), feed: URLS.feed(device, list), count, newest })),
    })),
  };
  return JSON.stringify(index);
}

/** The newest build that has a package, by build time (listing order puts newer platforms first). */
export function newestBuild(builds: readonly Build[]): Build | undefined {
  return builds
    .filter((b) => !b.placeholder)
    .sort((a, b) => b.timestamp - a.timestamp || compareStrings(a.filename, b.filename))[0];
}
