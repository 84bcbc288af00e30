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
import { API_FILES, fill } from './urls.js';

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
  /**
   * The server fills in its wiki's address for every device; a catalog has only what device.yaml
   * `links.info` says, and null when it says nothing (the portal uses it as a link's href, where a
   * made-up address would be a wrong link).
   */
  info_url: string | null;
  /** The distinct `version` values of the device's v2 builds (the server's is a set, unordered). */
  versions: string[];
  dependencies: string[];
}

/** The display name of a device: device.yaml `name`, else its code name (as the official server's devices.json would have it). */
export function displayName(device: string, info: DeviceInfo = NO_DEVICE_INFO): string {
  return info.name ?? device;
}

/** The vendor of a device: device.yaml `oem`, else {@link UNKNOWN_OEM}. */
export function vendorOf(info: DeviceInfo = NO_DEVICE_INFO): string {
  return info.oem ?? UNKNOWN_OEM;
}

/**
 * `/api/v2/devices/<device>` from device.yaml and the distinct versions of the device's own v2
 * builds answer (`/api/v2/devices/<device>/builds`, as {@link RenderedV2} `versions` gives them), so
 * `versions` holds exactly the versions a client finds there: api_common.py's
 * `get_device_versions` takes them from the same builds.
 */
export function renderV2Device(device: string, info: DeviceInfo, versions: readonly string[]): OutputFile {
  const answer: V2Device = {
    name: displayName(device, info),
    model: device,
    oem: vendorOf(info),
    info_url: info.links.info ?? null,
    versions: [...versions].sort(newerVersionFirst),
    dependencies: info.dependencies,
  };
  return { path: fill(API_FILES.v2Device, { device }).slice(1), contents: JSON.stringify(answer) };
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
    .map(([name, list]) => ({ name, devices: list.sort((a, b) => byName(a.name, b.name) || compareStrings(a.model, b.model)) }));
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
