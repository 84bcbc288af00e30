/**
 * The per-device JSON of crDroid and Evolution X (and ROMs that copied it):
 * `{"response":[{filename, download, timestamp, md5, sha256, size, version, buildtype, maintainer,
 * oem, device, forum, telegram, paypal, firmware, recovery, ...}]}`, read in
 * crdroidandroid/android_vendor_crDroidOTA (akita.json at 06ed3a27c0ca27e17c7c56d27c32425d81d46c95).
 * Its build fields map onto the v1 record's; the rest describes the device, not the build. And the
 * PixelExperience family's single object (below), whose build keys are the v1 ones but `filehash`.
 */

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
 * hands its first maintainer to `deviceField` as crDroid's `maintainer` (and their GitHub page as
 * `maintainer_url`) and drops the envelope's `error`; returns the renamed keys (v1 key → theirs).
 */
export function mapPixelExperienceRecord(
  r: Record<string, unknown>,
  deviceField: (key: string, value: unknown) => void,
): Map<string, string> {
  const renamed = new Map<string, string>();
  if (r.filehash !== undefined && r.md5sum === undefined) {
    r.md5sum = r.filehash;
    renamed.set('md5sum', 'filehash');
  }
  delete r.filehash;
  delete r.error;
  const maintainers = Array.isArray(r.maintainers) ? r.maintainers : [];
  const first = maintainers.find(
    (m): m is Record<string, unknown> =>
      m !== null && typeof m === 'object' && typeof (m as { name?: unknown }).name === 'string',
  );
  if (first) {
    deviceField('maintainer', first.name);
    if (typeof first.github_username === 'string' && /^[A-Za-z0-9-]{1,39}$/.test(first.github_username))
      deviceField('maintainer_url', `https://github.com/${first.github_username}`);
  }
  delete r.maintainers;
  return renamed;
}
