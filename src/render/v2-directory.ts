/**
 * The LineageOS v2 directory: `/api/v2/oems` (every vendor and its devices) and
 * `/api/v2/devices/<device>` (one device), in the shapes the official server answers and the
 * download portal reads. Read in lineageos-infra/updater at ad9188930d83e7f4d9be1c5d91c9c8bb3523fe87
 * (api_v2.py `api_v2_oems`, `api_v2_device`; api_common.py `get_oems`, `get_device_versions`) and
 * lineageos-infra/updater-client at 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa
 * (src/services/ApiService.ts, src/stores/device.ts). Pure.
 */
import { NO_DEVICE_INFO, UNKNOWN_OEM, type DeviceInfo } from '../catalog/device.js';
import { compareStrings } from '../catalog/problems.js';
import type { OutputFile } from './output.js';
import type { RenderedV2 } from './v2.js';
import { API_FILES, fill, URLS } from './urls.js';
import { SITE_FILE, type Site } from '../catalog/site.js';
import type { Problem } from '../catalog/problems.js';

/** One vendor of `/api/v2/oems`: `{"name", "devices": [{"model", "name"}]}`. */
export interface V2Oem {
  name: string;
  devices: { model: string; name: string }[];
}

/** `/api/v2/devices/<device>`, the key order of api_v2.py. */
export interface V2Device {
  name: string;
  model: string;
  oem: string;
  /** Always an address: the portal links it as the device's "wiki guides" and "Guides & info" (see {@link infoUrl}). */
  info_url: string;
  /** The distinct `version` values of the device's v2 builds (the server's is a set, unordered). */
  versions: string[];
  /** device.yaml `dependencies`, with {@link changesRepository} first when they do not name it. */
  dependencies: string[];
}

/**
 * The repository a device's changes are filed under in `/api/v2/changes`: the download portal
 * (lineageos-infra/updater-client at 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa, ApiService.ts
 * `isChangeForDependencies`) shows a "device specific" change on a device's changes tab only when
 * its `repository` starts with `android_` and is one of the device's `dependencies`. The device's
 * own tree among its dependencies (`android_device_fairphone_FP4` for FP4: `android_` and ending in
 * `_<device>`), not simply the first: that can be a `-common` repository other devices list too,
 * whose tabs would then show this device's changes. Without one, `android_device_<device>`, which
 * {@link renderV2Device} adds to the dependencies.
 */
export function changesRepository(device: string, info: DeviceInfo = NO_DEVICE_INFO): string {
  const suffix = `_${device.toLowerCase()}`;
  return (
    info.dependencies.find(
      (repository) => repository.startsWith('android_') && repository.toLowerCase().endsWith(suffix),
    ) ?? `android_device_${device}`
  );
}

/** The display name of a device: device.yaml `name`, else its code name (as the official server's devices.json would have it). */
export function displayName(device: string, info: DeviceInfo = NO_DEVICE_INFO): string {
  return info.name ?? device;
}

/** The vendor of a device: device.yaml `oem`, else {@link UNKNOWN_OEM}. */
function vendorOf(info: DeviceInfo = NO_DEVICE_INFO): string {
  return info.oem ?? UNKNOWN_OEM;
}

/**
 * `/api/v2/devices/<device>` from device.yaml and the distinct versions of the device's own v2
 * builds answer (`/api/v2/devices/<device>/builds`, as {@link RenderedV2} `versions` gives them), so
 * `versions` holds exactly the versions a client finds there: api_common.py's
 * `get_device_versions` takes them from the same builds.
 */
export function renderV2Device(
  device: string,
  info: DeviceInfo,
  versions: readonly string[],
  site: Pick<Site, 'siteUrl'>,
): OutputFile {
  const answer: V2Device = {
    name: displayName(device, info),
    model: device,
    oem: vendorOf(info),
    info_url: infoUrl(device, info, site),
    versions: [...versions].sort(newerVersionFirst),
    dependencies: publishedDependencies(device, info),
  };
  return { path: fill(API_FILES.v2Device, { device }).slice(1), contents: JSON.stringify(answer) };
}

/**
 * `info_url` of `/api/v2/devices/<device>`: the official server fills in its wiki's page of the
 * device (api_v2.py `api_v2_device`, `Config.WIKI_INFO_URL`), and the portal links it from every
 * device (BuildsTab.vue, DeviceView.vue at 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa), where `null`
 * is a link to nowhere. device.yaml `links.info`, else the device's page on this site: absolute
 * with `site_url`, else its path ({@link infoUrlNotice} says what that does in the portal).
 */
function infoUrl(device: string, info: DeviceInfo, site: Pick<Site, 'siteUrl'>): string {
  return info.links.info ?? `${site.siteUrl ?? ''}${URLS.devicePage(device)}`;
}

/**
 * A notice when some devices' `info_url` is only a path ({@link infoUrl}): the portal runs on
 * another site and would open that path there. Once for the site, naming the first few devices.
 */
export function infoUrlNotice(
  site: Site,
  devices: readonly { device: string; info?: DeviceInfo }[],
): Problem | undefined {
  if (site.siteUrl !== undefined) return undefined;
  const without = devices.filter((d) => d.info?.links.info === undefined).map((d) => d.device);
  if (without.length === 0) return undefined;
  const named =
    without.length > 3 ? `${without.slice(0, 3).join(', ')} and ${without.length - 3} more` : without.join(', ');
  return {
    file: SITE_FILE,
    line: 1,
    col: 1,
    field: 'site_url',
    message: `${named} ${without.length === 1 ? 'has' : 'have'} no links.info in device.yaml and the site no site_url: v2 \`info_url\` is then a path on this site (${URLS.devicePage(without[0])}), which the LineageOS download portal opens on its own site; set site_url to the address this site is published at, or links.info in content/${without[0]}/device.yaml`,
  };
}

/** The `dependencies` of `/api/v2/devices/<device>`: device.yaml's, with {@link changesRepository} first when they do not name it. */
function publishedDependencies(device: string, info: DeviceInfo): string[] {
  const repository = changesRepository(device, info);
  return info.dependencies.includes(repository) ? [...info.dependencies] : [repository, ...info.dependencies];
}

/**
 * `/api/v2/oems`: every device of the catalog under its vendor, devices without one under
 * {@link UNKNOWN_OEM}. The server keeps the order of its devices.json; the portal sorts vendors and
 * devices by name itself (ApiService.sortOems), so ours are sorted by name the same way, with a
 * comparison that does not depend on the machine's locale (case-insensitive, then exact, then code name).
 */
export function renderV2Oems(devices: readonly { device: string; info?: DeviceInfo }[]): OutputFile {
  const oems = new Map<string, V2Oem['devices']>();
  for (const { device, info } of devices) {
    const oem = vendorOf(info);
    if (!oems.has(oem)) oems.set(oem, []);
    oems.get(oem)!.push({ model: device, name: displayName(device, info) });
  }
  const answer: V2Oem[] = [...oems]
    .sort(([a], [b]) => byName(a, b))
    .map(([name, list]) => ({
      name,
      devices: list.sort((a, b) => byName(a.name, b.name) || compareStrings(a.model, b.model)),
    }));
  return { path: API_FILES.v2Oems.slice(1), contents: JSON.stringify(answer) };
}

/** The answer for the builds of a device the catalog does not have: an empty list, as api_common.py `get_device_builds` returns. */
export function renderV2UnknownDeviceBuilds(): OutputFile {
  return { path: API_FILES.v2UnknownDeviceBuilds.slice(1), contents: '[]' };
}

/** Names in the order people expect: ignoring case first, then exactly, so the order is total. */
export function byName(a: string, b: string): number {
  return compareStrings(a.toLowerCase(), b.toLowerCase()) || compareStrings(a, b);
}

// --- internal ---

/** Dotted versions, newest first: numeric parts compared as numbers (`22.1` before `21.0`, `2.10` before `2.9`). */
function newerVersionFirst(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i] ?? '', pb[i] ?? ''];
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(y) - Number(x) || compareStrings(y, x);
    return compareStrings(y, x);
  }
  return 0;
}
