/**
 * The per-device JSON of crDroid and Evolution X (and ROMs that copied it):
 * `{"response":[{filename, download, timestamp, md5, sha256, size, version, buildtype, maintainer,
 * oem, device, forum, telegram, paypal, firmware, recovery, ...}]}`, read in
 * crdroidandroid/android_vendor_crDroidOTA (akita.json at 06ed3a27c0ca27e17c7c56d27c32425d81d46c95).
 * Its build fields map onto the v1 record's; the rest describes the device, not the build. And the
 * PixelExperience family's single object (below), whose build keys are the v1 ones but `filehash`.
 */

import { isDownloadUrl } from '../catalog/build-extras.js';
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
  for (const [theirs, ours] of Object.entries(CRDROID_BUILD_KEYS)) {
    if (r[theirs] === undefined || r[ours] !== undefined) continue;
    r[ours] = r[theirs];
    if (theirs !== 'timestamp') delete r[theirs];
    renamed.set(ours, theirs);
  }
  return renamed;
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

/** The links crDroid's records give each build, which manifests hold under the same names (catalog/fields.ts `shownLink`). */
const BUILD_LINKS = ['gapps', 'firmware', 'modem', 'bootloader', 'recovery'] as const;

/** The manifest's values of a record's build links. */
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
