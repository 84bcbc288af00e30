/**
 * The per-device JSON of crDroid and Evolution X (and ROMs that copied it):
 * `{"response":[{filename, download, timestamp, md5, sha256, size, version, buildtype, maintainer,
 * oem, device, forum, telegram, paypal, firmware, recovery, ...}]}`, read in
 * crdroidandroid/android_vendor_crDroidOTA (akita.json at 06ed3a27c0ca27e17c7c56d27c32425d81d46c95).
 * Its build fields map onto the v1 record's; the rest describes the device, not the build. And the
 * PixelExperience family's single object (below), whose build keys are the v1 ones but `filehash`.
 */

import { isDownloadUrl } from '../catalog/build-extras.js';
import { BUILD_LINKS } from '../catalog/fields.js';
import type { ManifestValues } from '../catalog/manifest-text.js';

/** crDroid's build keys and the v1 keys that carry the same value. */
const CRDROID_BUILD_KEYS: Record<string, string> = {
  download: 'url',
  timestamp: 'datetime',
  sha256: 'id',
  md5: 'md5sum',
  buildtype: 'romtype',
};

/**
 * Whether a record has crDroid's shape: a `download` address and no v1 `url` (a v1 record always
 * has `url`, a LineageOS phone drops one without it).
 */
export function isCrDroidRecord(r: Record<string, unknown>): boolean {
  return r.download !== undefined && r.url === undefined;
}

/**
 * Renames a crDroid record's build keys to the v1 ones, in place; returns which (v1 key → crDroid
 * key), so that messages name the key the file has. `timestamp` stays too: it is also the /e/
 * field that equals `datetime`.
 */
export function mapCrDroidRecord(r: Record<string, unknown>): Map<string, string> {
  const renamed = new Map<string, string>();
  // The md5-keyed readers (crDroid 11.0–14.0 Java, Matrixx, Project Infinity-X, VoltageOS) read no
  // `sha256`: `md5` is their download id (Utils.parseJsonUpdate, `update.setDownloadId(getString("md5"))`,
  // test/helpers/dialects/crdroid-java.ts), and a LineageOS v1 phone takes any unique id too.
  if (r.sha256 === undefined && r.id === undefined && r.md5 !== undefined) {
    r.id = r.md5;
    renamed.set('id', 'md5');
  }
  for (const [theirs, ours] of Object.entries(CRDROID_BUILD_KEYS)) {
    if (r[theirs] === undefined || r[ours] !== undefined) continue;
    r[ours] = r[theirs];
    if (theirs !== 'timestamp') delete r[theirs];
    renamed.set(ours, theirs);
  }
  return renamed;
}

/**
 * Whether a record is an entry of a LineageOS v2 answer (`/api/v2/devices/<device>/builds`, what
 * otapress writes and lineageos-infra/updater api_v2.py answers): `files`, no `url` of its own.
 */
export function isV2Entry(r: Record<string, unknown>): boolean {
  return Array.isArray(r.files) && r.url === undefined && r.download === undefined;
}

/** The keys of a v2 entry's `files[0]` (the zip phones install) and the v1 keys that carry the same value. */
const V2_FILE_KEYS: Record<string, string> = { filename: 'filename', sha256: 'id', size: 'size', url: 'url' };

/**
 * Renames, in place, a v2 entry's keys to the v1 ones: `files[0]`'s `filename`, `sha256` (its
 * download key), `size`, `url`, and `type` (the list) as `romtype`; its `os_patch_level`,
 * `ota_property_files` and `os_sdk_level` stay beside them, as the crDroid family has them. The
 * copies a v2 file repeats (`date`, `datetime`, `type`, `filepath`) are dropped: the build derives
 * them. Returns the renamed keys (v1 key → the entry's path) and, as `extras`, the zip's `sha1`
 * and the build's other files.
 */
export function mapV2Entry(r: Record<string, unknown>): { renamed: Map<string, string>; extras: V2Extras } {
  const renamed = new Map<string, string>();
  const extras: V2Extras = {};
  const [zip, ...others] = r.files as unknown[];
  if (isObject(zip)) {
    for (const [theirs, ours] of Object.entries(V2_FILE_KEYS)) {
      if (zip[theirs] === undefined) continue;
      r[ours] = zip[theirs];
      renamed.set(ours, `files.0.${theirs}`);
    }
    for (const key of ['os_patch_level', 'ota_property_files', 'os_sdk_level'])
      if (zip[key] !== undefined) r[key] = zip[key];
    if (typeof zip.sha1 === 'string') extras.sha1 = zip.sha1;
    // The build's other files (images, firmware): the manifest's `files`, checked there; an address
    // beside the zip's is derived by the build, so only another one is kept.
    const folder = typeof zip.url === 'string' ? zip.url.slice(0, zip.url.lastIndexOf('/') + 1) : undefined;
    if (others.length > 0)
      extras.files = others.map((f) => {
        const entry: Record<string, string | number> = {};
        for (const key of ['filename', 'size', 'sha256', 'sha1', 'url'] as const) {
          const v = isObject(f) ? f[key] : undefined;
          if (typeof v === 'string' || typeof v === 'number') entry[key] = v;
        }
        if (folder !== undefined && entry.url === `${folder}${String(entry.filename)}`) delete entry.url;
        return entry;
      });
  }
  if (r.type !== undefined) {
    r.romtype = r.type;
    renamed.set('romtype', 'type');
  }
  for (const key of ['files', 'type', 'date']) delete r[key];
  return { renamed, extras };
}

/** What a v2 entry holds beyond the v1 record that a manifest keeps: the zip's SHA-1 and the build's other files. */
export interface V2Extras {
  sha1?: string;
  files?: Record<string, string | number>[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Whether a record is the PixelExperience family's single object (PixelExperience, PixelOS up to
 * 14, Project Elixir; read by PixelExperience/packages_apps_Updates, misc/Utils.java
 * `parseJsonUpdate` at 0c6f8d923ca08fac095f5e0f4954002e30e647fc): the v1 build keys but `filehash`
 * for the MD5, with `maintainers` and links beside them, and `error: false` around them.
 */
export function isPixelExperienceRecord(r: Record<string, unknown>): boolean {
  return r.filehash !== undefined || Array.isArray(r.maintainers) || typeof r.error === 'boolean';
}

/**
 * Renames a PixelExperience object's build keys to the v1 ones, in place (`filehash` → `md5sum`),
 * and drops the envelope's `error`; returns the renamed keys (v1 key → theirs). Its `maintainers`
 * and links stay: they describe the device (device-file.ts).
 */
export function mapPixelExperienceRecord(r: Record<string, unknown>): Map<string, string> {
  const renamed = new Map<string, string>();
  if (r.filehash !== undefined && r.md5sum === undefined) {
    r.md5sum = r.filehash;
    renamed.set('md5sum', 'filehash');
  }
  delete r.filehash;
  delete r.error;
  return renamed;
}

/** The manifest's values of a record's build links (crDroid's records give them under the manifest's names). */
export type BuildLinks = Pick<ManifestValues, (typeof BUILD_LINKS)[number]>;

/**
 * Takes a record's build links out of it: each address the manifest accepts (the rules of `url`),
 * none for `""` (what crDroid's files write for none, and what the build writes back), and a note
 * for any other value, which is left out.
 */
export function takeBuildLinks(r: Record<string, unknown>, note: (key: string, message: string) => void): BuildLinks {
  const links: BuildLinks = {};
  // A placeholder (no url, filename "") has no build to flash: its keys stay, noted as no v1 field.
  if (r.url === undefined && r.filename === '') return links;
  for (const key of BUILD_LINKS) {
    const v = r[key];
    delete r[key];
    if (v === undefined || v === '') continue;
    if (typeof v === 'string' && isDownloadUrl(v)) links[key] = v;
    else {
      const shown =
        typeof v === 'string'
          ? JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)
          : v !== null && typeof v === 'object'
            ? Array.isArray(v)
              ? 'an array'
              : 'an object'
            : String(v);
      note(key, `\`${key}\` is ${shown}, not an http(s) address the build can publish; it is left out`);
    }
  }
  return links;
}

/**
 * Whether a record is Paranoid Android's (`{"updates": [...]}`, read by the Java Hub and the
 * Compose Hub, test/helpers/dialects/aospa.ts): `build_type` and `version_code`, no v1 `romtype`.
 */
export function isAospaRecord(r: Record<string, unknown>): boolean {
  return r.build_type !== undefined && r.version_code !== undefined && r.romtype === undefined;
}

/** AOSPA's build keys and the v1 (or manifest) keys that carry the same value; `version` is its display name ("Topaz"). */
const AOSPA_BUILD_KEYS: [string, string][] = [
  ['version', 'display_version'],
  ['version_code', 'version'],
  ['android_spl', 'os_patch_level'],
  ['changelog_device', 'changes'],
  ['recovery_sha256', 'sha256'],
];

/**
 * AOSPA's keys no manifest holds: the build date (derived from `datetime`), the delta package and
 * the fastboot images with their hashes, the mirror and the Telegram post. Each one with a value is
 * noted as left out.
 */
const AOSPA_UNHELD = ['date', 'delta', 'delta_sha256', 'fastboot', 'fastboot_sha256', 'mirror', 'telegram'];

/**
 * Renames, in place, an AOSPA record's keys to the v1 ones ({@link AOSPA_BUILD_KEYS}); `build_type`
 * (which picked the record's list) goes, as do the keys of {@link AOSPA_UNHELD}. Returns the
 * renamed keys (v1 key → AOSPA's) and the unheld keys that held something.
 */
export function mapAospaRecord(r: Record<string, unknown>): {
  renamed: Map<string, string>;
  unheld: [string, string][];
} {
  const renamed = new Map<string, string>();
  for (const [theirs, ours] of AOSPA_BUILD_KEYS) {
    const v = r[theirs];
    delete r[theirs];
    if (v === undefined) continue;
    r[ours] = v;
    renamed.set(ours, theirs);
  }
  delete r.build_type;
  const unheld = AOSPA_UNHELD.filter((key) => key !== 'date' && r[key] !== undefined && r[key] !== '').map(
    (key): [string, string] => [key, typeof r[key] === 'string' ? r[key] : JSON.stringify(r[key])],
  );
  for (const key of AOSPA_UNHELD) delete r[key];
  return { renamed, unheld };
}
