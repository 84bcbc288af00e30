/**
 * The names other listing formats (crDroid, Evolution X, LineageOS v1) give a manifest's fields,
 * and the "did you mean" of an unknown key, which knows them.
 */
import { nearest } from './problems.js';

/**
 * Keys of other listing formats and the manifest (or v1) key that holds the same value: crDroid
 * and Evolution X write `md5`, `sha256`, `download`, `timestamp` and `buildtype` (their updater
 * reads them); `romtype` and `datetime` are v1's names. `import` maps them; a manifest that uses
 * one gets the key to write instead.
 */
const FOREIGN_KEYS: Record<string, { ours: string; what: string }> = {
  md5: { ours: 'md5sum', what: "crDroid's and Evolution X's name for the MD5 of the zip" },
  sha256: {
    ours: 'id',
    what: "crDroid's and Evolution X's name for the SHA-256 of the zip (phones key downloads by it)",
  },
  download: { ours: 'url', what: "crDroid's and Evolution X's name for the download address" },
  buildtype: { ours: 'channel', what: "crDroid's and Evolution X's release type (weekly, OFFICIAL, ...)" },
  romtype: {
    ours: 'channel',
    what: 'the v1 release type, which the build sets to the list (a manifest names its channel, or `lists`)',
  },
  datetime: { ours: 'timestamp', what: "v1's build time, which the build sets equal to timestamp" },
  timestamp: { ours: 'timestamp', what: 'the build time in Unix seconds' },
};

/** The entry of {@link FOREIGN_KEYS} for `key`, if it has its own (never one of Object.prototype's, such as `__proto__`). */
export function foreignKey(key: string): { ours: string; what: string } | undefined {
  return Object.hasOwn(FOREIGN_KEYS, key) ? FOREIGN_KEYS[key] : undefined;
}

/**
 * The "did you mean" of an unknown key: the key other formats spell this way (`md5` → `md5sum`),
 * else the nearest of `keys` by spelling. `undefined` when nothing is close.
 */
export function suggestKey(key: string, keys: readonly string[]): { key: string; why?: string } | undefined {
  // A known key in capitals (`SHA256`) is that key, before any other format's meaning of it.
  if (keys.includes(key.toLowerCase())) return { key: key.toLowerCase() };
  const foreign = foreignKey(key.toLowerCase());
  if (foreign && keys.includes(foreign.ours)) return { key: foreign.ours, why: `\`${key}\` is ${foreign.what}` };
  const near = nearest(key, keys);
  return near === undefined ? undefined : { key: near };
}
