import { NO_DEVICE_INFO, type DeviceInfo } from '../catalog/device.js';
import type { OutputFile } from './output.js';
import { renderHomePage } from './pages.js';
import type { DeviceSummary, NewestBuild } from './summary.js';
import { fileOf, URLS, type Links } from './urls.js';
import { displayName, renderV2Oems, renderV2UnknownDeviceBuilds } from './v2-directory.js';
import { renderV2Changes } from './v2-changes.js';
import type { OutputFormat } from '../catalog/formats.js';
import { renderDeviceInfo } from './device-info.js';

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
    /** From device.yaml: the display name (default: the code name) and the vendor (null when it names none). */
    name: string;
    oem: string | null;
    models: string[];
    maintainers: DeviceInfo['maintainers'];
    links: DeviceInfo['links'];
    dependencies: string[];
    /** The LineageOS v2 description of the device (`/api/v2/devices/<device>`). */
    v2_device: string;
  }[];
}

/**
 * The indexes of all devices: `/api/devices.json` for scripts, the home page for people, and the
 * LineageOS v2 directory (`/api/v2/oems`, and the `[]` that answers a device not in it). The home
 * page and the device index link as `links` says (urls.ts linksOf).
 */
export function renderIndexes(
  summaries: readonly DeviceSummary[],
  links: Links = URLS,
  formats: readonly OutputFormat[] = [],
): OutputFile[] {
  return [
    ...renderDeviceInfo(formats, summaries),
    { path: fileOf(URLS.deviceIndex), contents: renderDeviceIndex(summaries, links) },
    { path: fileOf(URLS.home), contents: renderHomePage(summaries, links) },
    renderV2Oems(summaries),
    renderV2UnknownDeviceBuilds(),
    renderV2Changes(summaries),
  ];
}

/**
 * The device index, so dashboards and scripts need not guess device names. It lives at
 * `/api/devices.json`, outside `/api/v1/`: it points into both API versions, and a name under
 * `/api/v1/` could collide with a device folder (`devices.json` is a valid code name).
 */
function renderDeviceIndex(summaries: readonly DeviceSummary[], links: Links): string {
  const index: DeviceIndex = {
    devices: summaries.map(({ device, lists, info = NO_DEVICE_INFO }) => ({
      device,
      page: links.devicePage(device),
      v2: links.v2Builds(device),
      lists: lists.map(({ list, count, newest }) => ({
        list,
        url: links.listing(device, list),
        feed: links.feed(device, list),
        count,
        newest,
      })),
      name: displayName(device, info),
      oem: info.oem ?? null,
      models: info.models,
      maintainers: info.maintainers,
      links: info.links,
      dependencies: info.dependencies,
      v2_device: links.v2Device(device),
    })),
  };
  return JSON.stringify(index);
}
