/**
 * What each file of an OTA repository is, for `otapress import <folder>`: a device's listing in
 * one updater's dialect (with its device, its list folder and the path template it lies at), a
 * changelog beside it, DerpFest's device list, or something else, named and left alone. Pure:
 * a file's path and text in, what it is out.
 */
import { DEVICE_NAME } from '../catalog/plan.js';
import type { FormatFamily } from '../catalog/formats.js';
import { isSingleBuild, whatTheFileIs } from './source-shapes.js';

/** A device's listing, in a dialect import reads. */
export interface ListingFile {
  kind: 'listing';
  /** Path in the repository, forward slashes. */
  path: string;
  dialect: ImportedDialect;
  device: string;
  /** The list folder it lies in (`GAPPS`, `vanilla`), when there is one. */
  listFolder?: string;
  /**
   * The list folder is named in capitals but is none of the known variant names ({@link LIST_FOLDERS}):
   * it is a list only beside another such folder holding the same devices (folder-plan.ts).
   */
  capitalsOnly?: true;
  /** The release type its records state (crDroid's `buildtype`, v1's `romtype`), most common first. */
  releaseTypes: string[];
  /**
   * Where it lies, as a format's path: `/API/updater/{device}.json`, `/OTA/{list}/{device}.json`,
   * `/OTA/device/{LIST}/{device}.json` (a list folder named in capitals).
   */
  template: string;
  /** The build time of its newest record (0 when none reads as one). */
  newest: number;
  /** Not strict JSON: the dialect is guessed from the keys in the text (the import's reader says what is wrong). */
  guessed?: true;
}

/** A changelog named after a device, by one of the layouts ROM projects use. */
export interface ChangelogFile {
  kind: 'changelog';
  path: string;
  device: string;
  /** Its path as a format's `changelog:` (`/API/changelogs/{device}.md`). */
  template: string;
}

/** DerpFest's device list (`info/device-info.json`): `{"devices": [{codename, device_name, ...}]}`. */
export interface DeviceListFile {
  kind: 'device-list';
  path: string;
  devices: Record<string, unknown>[];
  /** Why the build cannot write it back where it lies (folder-plan.ts): it is then left alone. */
  unwritable?: string;
}

/** Anything else: named once and left alone, with the reason. */
export interface OtherFile {
  kind: 'other';
  path: string;
  why: string;
}

/** What one file of the repository is. */
export type RepositoryFile = ListingFile | ChangelogFile | DeviceListFile | OtherFile;

/** The dialects `import` reads a listing of, and writes back (render/dialects.ts). */
export type ImportedDialect = Extract<
  FormatFamily,
  'crdroid' | 'crdroid-java' | 'md5-six' | 'lineage-v1' | 'pixelos15' | 'pixelos-feed' | 'pixelexperience' | 'aospa'
>;

/** The folders that hold one list's files in ROM repositories (RisingOS `OTA/GAPPS`, Infinity-X `vanilla`). */
const LIST_FOLDERS = /^(gapps|vanilla|gms|core|stable|beta|official|unofficial)$/i;

/**
 * Whether a folder's name is a variant's (`gapps/`, `vanilla/`, Matrixx's `vanila/`): a dialect's
 * files in such folders and beside them are one list each (folder-plan.ts `listFolderPaths`).
 */
export function isVariantFolder(name: string): boolean {
  return LIST_FOLDERS.test(name) || /^vanila$/i.test(name);
}

/** A folder name in capitals that could be a list's (`GAPPS`, `MICROG`): a letter, then capitals, digits, `_`, `-`. */
const CAPITALS = /^[A-Z][A-Z0-9_-]*$/;

/** The keys crDroid's Java updater reads only to show them (crdroidandroid/android_packages_apps_Updater 14.0, misc/Utils.java). */
const CRDROID_SHOWN = ['maintainer', 'buildtype', 'forum', 'telegram', 'gapps', 'firmware', 'paypal'];

/** The six keys the md5 readers read (Matrixx 14.0 misc/Utils.java `parseJsonUpdate`). */
const MD5_SIX = new Set(['timestamp', 'filename', 'md5', 'size', 'download', 'version']);

/**
 * What the file at `path` (in the repository) is. `text` is its content; `json` what JSON.parse
 * made of it, or `undefined` when it is not strict JSON (then the keys are looked for in the text,
 * and the import's reader says what is wrong with it).
 */
export function classifyFile(path: string, text: string, json: unknown): RepositoryFile {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const folder = path.slice(0, path.length - name.length);
  if (/\.(txt|md)$/i.test(name)) return classifyText(path, folder, name);
  const aospa =
    /(^|\/)updates\/$/.test(folder) && !/\.json$/i.test(name) ? aospaListing(path, folder, name, json) : undefined;
  if (aospa !== undefined) return aospa;
  if (!/\.json$/i.test(name)) return { kind: 'other', path, why: 'not a JSON listing or a changelog' };
  const stem = name.slice(0, -'.json'.length);
  if (json !== undefined && isDeviceList(json))
    return { kind: 'device-list', path, devices: (json as { devices: Record<string, unknown>[] }).devices };
  const records = recordsOf(json, text);
  if (records === undefined) {
    const why = json === undefined ? 'not JSON, and no listing keys in it' : notAListing(json);
    return { kind: 'other', path, why };
  }
  if (json !== undefined && !records.some((r) => DOWNLOAD_KEYS.some((k) => k in r)))
    return { kind: 'other', path, why: OPENDELTA };
  const dialect = dialectOf(records, json);
  if (dialect === undefined)
    return {
      kind: 'other',
      path,
      why: 'a LineageOS v2 answer (builds with `files`), which no format of the site publishes: import it alone (otapress import FILE --device D --list L) once the device is in the site',
    };
  // crDroid's `device` is the display name ("Pixel 8a" in akita.json), so only a `codename` names the device.
  const codenames = new Set(records.flatMap((r) => (typeof r.codename === 'string' ? [r.codename] : [])));
  // A project's list of all its devices (SuperiorOS's `devices.json`, builds and all): phones ask
  // for their own device's file, never this one.
  if (codenames.size > 1)
    return {
      kind: 'other',
      path,
      why: `its records name ${codenames.size} devices: a list of devices, not a device's listing`,
    };
  const device = DEVICE_NAME.test(stem) ? stem : codenames.size === 1 ? [...codenames][0] : undefined;
  if (device === undefined || !DEVICE_NAME.test(device))
    return { kind: 'other', path, why: 'its name is not a device code name, and its records name none' };
  const segments = folder.split('/').filter((s) => s !== '');
  // A known variant folder anywhere, else the file's own folder when its name is in capitals
  // (RisingOS's `OTA/device/GAPPS/`, `VANILLA/`, `CORE/`, `MICROG/`).
  const known = segments.map((s) => LIST_FOLDERS.test(s)).lastIndexOf(true);
  const last = segments.length - 1;
  const capitalsOnly = known === -1 && last > 0 && CAPITALS.test(segments[last]);
  const listIndex = capitalsOnly ? last : known;
  const listFolder = listIndex === -1 ? undefined : segments[listIndex];
  // `{list}` stands for the folder when the folder's name is the list's (lowercase), `{LIST}` when
  // it is the list's in capitals, and only when the folder is not at the root (a format's file lies
  // in a folder of its own, catalog/formats.ts); another spelling (`Gapps`) stays as it is, and a
  // dialect has one path, so the other folders' files are then left out.
  const placeholder = (s: string) => (s === s.toLowerCase() ? '{list}' : CAPITALS.test(s) ? '{LIST}' : s);
  const templateSegments = segments.map((s, i) => (i === listIndex && i > 0 ? placeholder(s) : s));
  const file = name === `${device}.json` ? '{device}.json' : name;
  return {
    kind: 'listing',
    path,
    dialect,
    device,
    ...(listFolder !== undefined && { listFolder }),
    ...(capitalsOnly && { capitalsOnly }),
    releaseTypes: releaseTypesOf(records),
    template: `/${[...templateSegments, file].join('/')}`,
    newest: Math.max(0, ...records.map((r) => Number(r.datetime ?? r.timestamp)).filter((t) => Number.isFinite(t))),
    ...(json === undefined && { guessed: true }),
  };
}

// --- internal ---

/**
 * Paranoid Android's `updates/<device>` (no extension, as the hubs ask `<base>updates/<device>`):
 * `{"updates": [...]}` of records with `build_type` and `version_code`. Its release types are the
 * `build_type`s in the order the file first names them (AOSPA writes its Stable builds first, and
 * the Java Hub reads the first record only), each becoming a list.
 */
function aospaListing(path: string, folder: string, name: string, json: unknown): ListingFile | undefined {
  const updates = (json as { updates?: unknown } | null | undefined)?.updates;
  if (!Array.isArray(updates) || !DEVICE_NAME.test(name)) return undefined;
  const records = updates.filter(
    (r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
  if (records.length === 0 || !records.every((r) => r.build_type !== undefined && r.version_code !== undefined))
    return undefined;
  const types = records.flatMap((r) =>
    typeof r.build_type === 'string' && r.build_type.trim() !== '' ? [r.build_type.trim()] : [],
  );
  return {
    kind: 'listing',
    path,
    dialect: 'aospa',
    device: name,
    releaseTypes: [...new Set(types)],
    template: `/${folder}{device}`,
    newest: Math.max(0, ...records.map((r) => Number(r.datetime)).filter((t) => Number.isFinite(t))),
  };
}

/** crDroid `<device>_changelog.txt`, DerpFest `changelog_<device>.txt`, `changelogs/<device>.md|txt` (PixelOS, RisingOS). */
function classifyText(path: string, folder: string, name: string): RepositoryFile {
  const patterns: [RegExp, (device: string) => string][] = [
    [/^(.+)_changelog\.txt$/, () => '{device}_changelog.txt'],
    [/^changelog_(.+)\.txt$/, () => 'changelog_{device}.txt'],
  ];
  if (/(^|\/)changelogs\/$/i.test(folder))
    patterns.push([/^(.+)\.(md|txt)$/i, () => name.replace(/^.+\./, '{device}.')]);
  for (const [pattern, template] of patterns) {
    const device = pattern.exec(name)?.[1];
    if (device !== undefined && DEVICE_NAME.test(device) && !/^readme$/i.test(device)) {
      return { kind: 'changelog', path, device, template: `/${folder}${template(device)}` };
    }
  }
  return { kind: 'other', path, why: 'not a JSON listing or a changelog named after a device' };
}

function isDeviceList(json: unknown): boolean {
  const devices = (json as { devices?: unknown } | null)?.devices;
  return (
    Array.isArray(devices) &&
    devices.length > 0 &&
    devices.every(
      (d) => d !== null && typeof d === 'object' && typeof (d as { codename?: unknown }).codename === 'string',
    )
  );
}

/** The records of a listing: `{"response": [...]}`, a bare array, or the PixelExperience object; `undefined` for anything else. */
function recordsOf(json: unknown, text: string): Record<string, unknown>[] | undefined {
  if (json === undefined) {
    // Not strict JSON: the import's reader reports where; the keys say which dialect it would be.
    const keys = [...text.matchAll(/["']?([a-z_]+)["']?\s*:/g)].map((m) => m[1]);
    if (!['response', 'filename', 'datetime', 'timestamp'].some((k) => keys.includes(k))) return undefined;
    return [Object.fromEntries(keys.map((k) => [k, '']))];
  }
  const candidates = Array.isArray(json)
    ? json
    : Array.isArray((json as { response?: unknown } | null)?.response)
      ? (json as { response: unknown[] }).response
      : isSingleBuild(json)
        ? [json]
        : undefined;
  if (candidates === undefined || candidates.length === 0) return undefined;
  const objects = candidates.filter(
    (r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r),
  );
  // Objects none of which has a key any updater reads a build by (CherishOS's `devices.json`,
  // Spark's `API/features.json`) are a website's data, not a listing.
  return objects.some((r) => BUILD_KEYS.some((k) => k in r)) ? objects : undefined;
}

/** The keys that say where a build is or what it holds: a record with none of them names only a file. */
const DOWNLOAD_KEYS = ['url', 'download', 'files', 'id', 'size', 'md5', 'sha256', 'filehash'];

/**
 * YAAP's OpenDelta updater reads only `filename` of `{"response": [...]}` (and `url`, `sha256url`,
 * `payload` when present) and builds the download address from its own base
 * (yaap/packages_apps_OpenDelta fifteen, UpdateService.java at 36344e00963968f9ec7499a39dcc85c05e724a8c).
 */
const OPENDELTA =
  "records with a file name and no download address, size or hash, as YAAP's OpenDelta updater reads them (it builds the address itself): no format of otapress writes that; add each build with otapress add <zip>";

/** The keys a build record has in every dialect import reads (a v2 entry's `files`, crDroid's `download`, ...). */
const BUILD_KEYS = ['filename', 'datetime', 'timestamp', 'download', 'url', 'files'];

function notAListing(json: unknown): string {
  const response = (json as { response?: unknown } | null)?.response;
  if (Array.isArray(response) && response.length === 0)
    return 'a listing with no builds: nothing to import (the build writes the file again once the device has a build)';
  return whatTheFileIs(json).startsWith('expected') ? 'not a listing (no build records in it)' : whatTheFileIs(json);
}

/** The dialect a listing's records are written in, as the files of render/dialects.ts write it. */
function dialectOf(records: Record<string, unknown>[], json: unknown): ImportedDialect | undefined {
  const has = (key: string) => records.some((r) => r[key] !== undefined);
  // A v2-shaped entry: PixelOS's strict feed says `type: "ci"` (its validator requires it); a
  // LineageOS v2 answer is the site's own answer, no format's file.
  if (has('files') && !has('filename')) return records.every((r) => r.type === 'ci') ? 'pixelos-feed' : undefined;
  if (has('download') && !has('url')) {
    if (!has('md5')) return 'crdroid';
    if (records.every((r) => Object.keys(r).every((k) => MD5_SIX.has(k)))) return 'md5-six';
    return CRDROID_SHOWN.some(has) || !has('sha256') ? 'crdroid-java' : 'crdroid';
  }
  // `json` is undefined for a file that is not strict JSON: its keys alone tell the dialect.
  const single = json !== undefined && !Array.isArray(json) && (json as { response?: unknown }).response === undefined;
  if (single) return 'pixelexperience';
  return has('romtype') ? 'lineage-v1' : 'pixelos15';
}

/** The release types the records state, most common first (then by name). */
function releaseTypesOf(records: Record<string, unknown>[]): string[] {
  const counts = new Map<string, number>();
  for (const r of records) {
    const type = typeof r.buildtype === 'string' ? r.buildtype : typeof r.romtype === 'string' ? r.romtype : undefined;
    if (type !== undefined && type.trim() !== '') counts.set(type.trim(), (counts.get(type.trim()) ?? 0) + 1);
  }
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([t]) => t);
}
