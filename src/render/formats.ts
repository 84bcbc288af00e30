/**
 * The files of the other updater families a site publishes (`formats` in site.yaml): for each
 * format, list and device, the answer that family's updater reads, at the format's path. Pure.
 *
 * - crDroid family (crDroid, Evolution X, RisingOS and forks): `{"response": [...]}`, every build
 *   of the list, newest first. Decoded by kotlinx.serialization with unknown keys ignored
 *   (crdroidandroid/android_packages_apps_Updater, app/src/main/java/org/lineageos/updater/data/
 *   source/network/NetworkUpdate.kt at 617bc8b5e9f6716039335973c11fd3dd84ebe488): `filename`,
 *   `download`, `timestamp` (Long), `sha256` (the download key), `size` (Long) and `version` (text)
 *   are required, a missing one or a wrong type fails the whole answer; `md5`, `buildtype`, the
 *   device fields and `os_patch_level`, `os_sdk_level` (Int), `ota_property_files` are optional. A
 *   build is offered when `timestamp` is newer than the phone's build (UpdatesRepository.kt).
 * - PixelExperience family (PixelExperience, PixelOS up to 14, Project Elixir): one object, the
 *   newest build of the list. Read with org.json (PixelExperience/packages_apps_Updates,
 *   src/org/pixelexperience/ota/misc/Utils.java `parseJsonUpdate` at
 *   0c6f8d923ca08fac095f5e0f4954002e30e647fc): `datetime`, `size` getLong; `filename`, `id` (the
 *   download key), `url`, `version`, `filehash` getString, a missing one makes the phone see no
 *   update; `maintainers` (`name`, `github_username`), `donate_url`, `forum_url`, `website_url`,
 *   `news_url` optional. `version` is compared as text with the phone's own property.
 */
import { isWithdrawn } from '../catalog/filename.js';
import type { Build } from '../catalog/manifest.js';
import { compareNewestFirst, type Listing } from '../catalog/plan.js';
import type { Problem } from '../catalog/problems.js';
import type { DeviceInfo } from '../catalog/device.js';
import { sha256Of } from '../catalog/download-key.js';
import { formatPath, type FormatFamily, type OutputFormat } from '../catalog/formats.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from './output.js';

/** What each family is called in notices. */
export const FAMILY_NAMES: Record<FormatFamily, string> = { crdroid: 'crDroid-family', pixelexperience: 'PixelExperience-family' };

/** One build as crDroid's updater decodes it (NetworkUpdate), in the order crDroid's OTA repository writes keys. */
export interface CrDroidRecord {
  maintainer?: string;
  oem?: string;
  device?: string;
  filename: string;
  download: string;
  timestamp: number;
  md5?: string;
  sha256: string;
  size: number;
  version: string;
  forum?: string;
  paypal?: string;
  telegram?: string;
  os_patch_level?: string;
  os_sdk_level?: number;
  ota_property_files?: string;
}

/** The object PixelExperience's updater reads (parseJsonUpdate). */
export interface PixelExperienceAnswer {
  error: false;
  filename: string;
  datetime: number;
  size: number;
  url: string;
  filehash: string;
  version: string;
  id: string;
  maintainers: { name: string; github_username?: string }[];
  donate_url?: string;
  forum_url?: string;
  website_url?: string;
}

/** Every format file of one device, and the notices about builds a format leaves out. */
export function renderFormats(device: string, listings: readonly Listing[], site: Site, info: DeviceInfo): { files: OutputFile[]; notices: Problem[] } {
  const files: OutputFile[] = [];
  const notices: Problem[] = [];
  let deviceFields: CrDroidDevice | undefined;
  for (const format of site.formats) {
    for (const list of format.lists) {
      const listing = listings.find((l) => l.list === list);
      const path = formatPath(format, device, list);
      const { offered, notices: left } = offeredBuilds(format, listing?.builds ?? [], path);
      notices.push(...left);
      if (format.family === 'crdroid') {
        const fields = (deviceFields ??= crDroidDevice(info));
        files.push({ path: path.slice(1), contents: JSON.stringify({ response: offered.map((b) => crDroidRecordOf(b, fields)) }) });
      } else if (offered.length > 0) {
        files.push({ path: path.slice(1), contents: JSON.stringify(pixelExperienceAnswer(offered[0], info)) });
      }
    }
  }
  return { files, notices };
}

/** The newest build of a list as the PixelExperience family's updater reads it, with the maintainers and links it shows. */
function pixelExperienceAnswer(build: Build, info: DeviceInfo): PixelExperienceAnswer {
  return {
    error: false,
    filename: build.filename,
    datetime: build.timestamp,
    size: build.size as number,
    url: build.url!,
    filehash: build.md5sum,
    version: build.version,
    id: build.id,
    maintainers: info.maintainers.map((m) => {
      const user = m.url === undefined ? undefined : /^https:\/\/github\.com\/([A-Za-z0-9-]+)\/?$/.exec(m.url)?.[1];
      return { name: m.name, ...(user !== undefined && { github_username: user }) };
    }),
    ...(info.links.donate !== undefined && { donate_url: info.links.donate }),
    ...(info.links.forum !== undefined && { forum_url: info.links.forum }),
    ...(info.links.info !== undefined && { website_url: info.links.info }),
  };
}

// --- internal ---

/** The device fields of a crDroid-family record, the same for every build of the device. */
interface CrDroidDevice {
  maintainer?: string;
  oem?: string;
  device?: string;
  forum?: string;
  paypal?: string;
  telegram?: string;
}

function crDroidDevice(info: DeviceInfo): CrDroidDevice {
  const support = info.links.support;
  return {
    maintainer: info.maintainers.length > 0 ? info.maintainers.map((m) => m.name).join(', ') : undefined,
    oem: info.oem,
    device: info.name,
    forum: info.links.forum,
    paypal: info.links.donate,
    telegram: support !== undefined && /^https:\/\/(t\.me|telegram\.me)\//.test(support) ? support : undefined,
  };
}

/**
 * The record, keys in the order crDroid's OTA repository writes them, each optional one only when
 * it has a value. Built key by key: a record per build and list of a big catalog, and objects made
 * of conditional spreads went through V8's slow generic object building.
 */
function crDroidRecordOf(build: Build, d: CrDroidDevice): CrDroidRecord {
  const r = {} as CrDroidRecord;
  if (d.maintainer !== undefined) r.maintainer = d.maintainer;
  if (d.oem !== undefined) r.oem = d.oem;
  if (d.device !== undefined) r.device = d.device;
  r.filename = build.filename;
  r.download = build.url!;
  r.timestamp = build.timestamp;
  if (build.md5sum !== '') r.md5 = build.md5sum;
  // The zip's SHA-256: offeredBuilds keeps only builds that have one (their `id`, or `sha256` beside another key).
  r.sha256 = sha256Of(build)!;
  r.size = build.size as number;
  r.version = build.version;
  if (d.forum !== undefined) r.forum = d.forum;
  if (d.paypal !== undefined) r.paypal = d.paypal;
  if (d.telegram !== undefined) r.telegram = d.telegram;
  if (build.os_patch_level !== undefined) r.os_patch_level = build.os_patch_level;
  if (/^\d{1,9}$/.test(build.api_level)) r.os_sdk_level = Number(build.api_level);
  if (build.ota_property_files !== undefined) r.ota_property_files = build.ota_property_files;
  return r;
}

/**
 * The builds of a list the format can offer, newest first, and one notice per reason a build is
 * left out. Neither family can mark a build withdrawn or decode a placeholder; both check the
 * download against `size`; crDroid's updater keys downloads by `sha256` (the zip's: the `id` when
 * it is a SHA-256, else the manifest's `sha256`), PixelExperience's needs the MD5 `filehash`.
 */
function offeredBuilds(format: OutputFormat, builds: readonly Build[], path: string): { offered: Build[]; notices: Problem[] } {
  const offered: Build[] = [];
  const left = new Map<string, Build[]>();
  const leave = (why: string, build: Build) => left.set(why, [...(left.get(why) ?? []), build]);
  for (const build of [...builds].sort(compareNewestFirst)) {
    if (build.placeholder || build.url === undefined) continue;
    if (isWithdrawn(build)) leave('a `.disabled.zip` file is withdrawn, and this format cannot say so (phones would offer it)', build);
    else if (typeof build.size !== 'number' || build.size <= 0) leave('its size is 0: phones check the download against `size`; write the zip\'s size in bytes (stat -c %s FILE)', build);
    else if (format.family === 'crdroid' && sha256Of(build) === undefined) leave('its `id` is not a SHA-256 and it has no `sha256`, and crDroid\'s updater reads the download\'s `sha256`; write the SHA-256 of the zip (sha256sum FILE) in `sha256` (`otapress add --force ZIP` keeps the id and writes it)', build);
    else if (format.family === 'pixelexperience' && build.md5sum === '') leave('it has no `md5sum`, and the PixelExperience updater needs the `filehash`; add md5sum (md5sum FILE)', build);
    else offered.push(build);
    // A PixelExperience answer is the newest build alone: what is older than it is never offered, left out or not.
    if (format.family === 'pixelexperience' && offered.length > 0) break;
  }
  const notices = [...left].map(([why, [newest, ...older]]): Problem => ({
    file: newest.source,
    ...newest.at.file,
    field: '(build)',
    message: `left out of ${path} (the ${FAMILY_NAMES[format.family]} answer)${older.length > 0 ? `, with ${older.length} older build${older.length === 1 ? '' : 's'} of the list` : ''}: ${why}`,
  }));
  return { offered, notices };
}
