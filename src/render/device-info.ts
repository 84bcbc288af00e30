/**
 * DerpFest's device list (`device_info:` of the lineage-v1 format, `info/device-info.json` in its
 * OTA repository): one file for the site, `{"devices": [...]}`, an entry per device with what its
 * updater's banner shows. Pure.
 */
import { NO_DEVICE_INFO } from '../catalog/device.js';
import type { OutputFormat } from '../catalog/formats.js';
import type { OutputFile } from './output.js';
import type { DeviceSummary } from './summary.js';

/**
 * The device lists of `formats` (lineage-v1 with `device_info`). DerpFest's reader
 * (DerpFest-AOSP/android_packages_apps_Updater, NetworkDeviceInfo.kt at
 * a62acd8d67dc5d5f37b9e35d7034199298fc91ed, kotlinx) requires `codename` and takes `device_name`,
 * `maintainer` and `support_group` as Strings or null, unknown keys ignored; `oem` is shown by the
 * ROM's own site. `status` is left out: the catalog says nothing of it, and the updater never reads it.
 */
export function renderDeviceInfo(formats: readonly OutputFormat[], summaries: readonly DeviceSummary[]): OutputFile[] {
  return formats.flatMap((format) => {
    if (format.deviceInfo === undefined) return [];
    const devices = summaries.map(({ device, info = NO_DEVICE_INFO }) => ({
      codename: device,
      device_name: info.name ?? null,
      oem: info.oem ?? null,
      maintainer: info.maintainers.length > 0 ? info.maintainers.map((m) => m.name).join(', ') : null,
      support_group: info.links.support ?? null,
    }));
    return [{ path: format.deviceInfo.slice(1), contents: JSON.stringify({ devices }) }];
  });
}
