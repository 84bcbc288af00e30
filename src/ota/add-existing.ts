/**
 * What `add` keeps from, and refuses about, what the catalog already holds: the fields a zip cannot
 * tell when `--force` writes a manifest again, device folders that are links or differ by case, and
 * download addresses another build holds with other contents.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lowerHex } from '../catalog/build-extras.js';
import { yaml } from '../catalog/libraries.js';
import { isDownloadKey, SHA256 } from '../catalog/download-key.js';
import type { Build } from '../catalog/manifest.js';
import type { ManifestValues } from '../catalog/manifest-text.js';
import type { DerivedFacts } from './metadata.js';
import { addressClash, downloadEntries } from '../catalog/plan.js';
import { ContentError, UsageError as AddUsageError } from '../catalog/problems.js';
import { linkedFolder, linkedFolderProblem } from '../catalog/write-manifest.js';
import { AddRefusal } from './add-checks.js';

/** The options of `add` these rules read. */
interface GivenOptions {
  lists?: string[];
  url?: string;
  files?: string[];
  placeholder?: boolean;
}

/**
 * What a zip cannot tell, from the manifest `add --force` replaces: the lists, the changelog, the
 * download address and other files, the texts written by hand. An option given for one replaces it.
 */
const KEPT_ON_FORCE = [
  'display_version',
  'changes',
  'pre_version',
  'is_upgrade_supported',
  'lists',
  'url',
  'files',
  'changelog',
] as const;

/** The manifest `add --force` replaces, read as YAML: its mapping, or undefined when it holds none. */
export function readReplaced(target: string, file: string): Record<string, unknown> | undefined {
  // A pipe would never end its read, a link could lead out of the repository.
  if (!lstatSync(target).isFile())
    throw new AddUsageError(
      `${file} is not a regular file (a link, a named pipe or a folder); remove it, then add the zip again`,
    );
  let raw: unknown;
  try {
    raw = yaml().parse(readFileSync(target, 'utf8'));
  } catch (error) {
    throw new AddUsageError(
      `${file} cannot be read as YAML (${(error as Error).message.split('\n')[0]}), so what the zip cannot tell (lists, changelog, url, files) cannot be kept from it; fix it, or remove it and add the zip again`,
    );
  }
  return raw === null || typeof raw !== 'object' || Array.isArray(raw) ? undefined : (raw as Record<string, unknown>);
}

/** The fields of {@link KEPT_ON_FORCE} the replaced manifest holds, but those an option gives. */
export function keptFields(raw: Record<string, unknown> | undefined, options: GivenOptions): ManifestValues {
  if (raw === undefined) return {};
  const given: Partial<Record<(typeof KEPT_ON_FORCE)[number], unknown>> = {
    lists: options.lists,
    url: options.url,
    files: options.files,
  };
  const kept: ManifestValues = {};
  for (const field of KEPT_ON_FORCE) {
    const value = raw[field];
    // A placeholder has no package: no address and no other files to keep.
    const packageOnly = options.placeholder === true && (field === 'url' || field === 'files');
    if (value !== undefined && value !== null && given[field] === undefined && !packageOnly)
      kept[field] = value as ManifestValues[typeof field];
  }
  return kept;
}

/**
 * The channel and Android version `add --force` keeps from the manifest it replaces when neither
 * an option, the metadata nor the name tells them: a name that states no release type would
 * otherwise move the build to the site's first channel (another download address, another list's
 * phones), and an `--android-version` given to the first `add` would be dropped. Changes `derived`.
 */
export function keepFacts(derived: DerivedFacts, raw: Record<string, unknown> | undefined, file: string): void {
  if (raw === undefined) return;
  const keep = (field: 'channel' | 'android_version', guessed: boolean) => {
    const value = raw[field];
    if (!guessed || typeof value !== 'string' || value === '') return;
    derived.facts[field] = value;
    derived.origins = [...derived.origins.filter((o) => o.field !== field), { field, value, from: `${file} (kept)` }];
  };
  keep(
    'channel',
    derived.origins.find((o) => o.field === 'channel')?.from.startsWith("the site's first channel") === true,
  );
  keep('android_version', derived.facts.android_version === undefined);
}

/**
 * The download key `add --force` keeps: an `id` that is not a SHA-256 (an imported listing's MD5, a
 * random key), which phones in the field already know the build by, and what the manifest states
 * of the zip beside it (`md5sum`, `sha1`, `sha256`, `size`), which the zip must match. The zip's
 * SHA-256 then goes in `sha256` (render/v2.ts `v2Sha256` publishes it where a SHA-256 is shown).
 * A SHA-256 `id` is written again from the zip, as before.
 */
export interface KeptKey {
  id: string;
  stated: { md5sum?: string; sha1?: string; sha256?: string; size?: number };
}

export function keptKey(raw: Record<string, unknown> | undefined, options: GivenOptions): KeptKey | undefined {
  if (raw === undefined || options.placeholder === true || raw.placeholder === true) return undefined;
  const id = raw.id;
  if (typeof id !== 'string' || !isDownloadKey(id) || SHA256.test(id)) return undefined;
  const stated: KeptKey['stated'] = {};
  // Only values of the right form: another (an upper-case digest, a size as text) is written again from the zip.
  for (const [field, length] of [
    ['md5sum', 32],
    ['sha1', 40],
    ['sha256', 64],
  ] as const) {
    const value = raw[field];
    if (typeof value === 'string' && lowerHex(length).test(value)) stated[field] = value;
  }
  if (typeof raw.size === 'number' && Number.isSafeInteger(raw.size) && raw.size > 0) stated.size = raw.size;
  return { id, stated };
}

/**
 * Refuses a zip that is not the package the kept key names: a digest or size the replaced
 * manifest states differs from the zip's. Phones that know the key would take this zip for the one
 * they already have (or have half downloaded).
 */
export function refuseOtherPackage(
  key: KeptKey,
  digests: { md5: string; sha1: string; sha256: string; size: number },
  file: string,
  zip: string,
): void {
  const actual = { md5sum: digests.md5, sha1: digests.sha1, sha256: digests.sha256, size: digests.size };
  const differs = (Object.keys(key.stated) as (keyof KeptKey['stated'])[]).filter(
    (field) => key.stated[field] !== actual[field],
  );
  if (differs.length === 0) return;
  throw new AddRefusal(
    differs.map((field) => ({
      where: zip,
      field,
      message: `${file} keeps the download key ${key.id}, which phones already know, and says the zip's ${field} is ${key.stated[field]}; this zip's is ${actual[field]}, so it is another package than the one phones know by that key: check that this is the right file; to publish it in that one's place under a new download key (its SHA-256), remove \`id\` from ${file}, then run the same add again`,
    })),
  );
}

/** `values` with each kept field that they leave unset. */
export function withKept(values: ManifestValues, kept: ManifestValues): ManifestValues {
  const out = { ...values };
  for (const [field, value] of Object.entries(kept) as [keyof ManifestValues, ManifestValues[keyof ManifestValues]][])
    if (out[field] === undefined) out[field] = value;
  return out;
}

/** A kept value on one line of the report. */
export function summary(value: ManifestValues[keyof ManifestValues]): string {
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' ? String(v.filename ?? JSON.stringify(v)) : v)).join(', ');
  const text = String(value);
  return text.includes('\n') ? `${text.split('\n')[0]} … (${text.split('\n').length} lines)` : text;
}

/**
 * Refuses, before a byte is hashed, a device folder whose name differs from another's only by case
 * (phones ask with the exact name, and a case-insensitive disk would write into the other), and a
 * folder on the way to the manifest that is a symbolic link (it can point outside the repository).
 */
export function refuseFolder(root: string, device: string, file: string): void {
  const twin = readdirSync(path.join(root, 'content')).find(
    (name) => name !== device && name.toLowerCase() === device.toLowerCase(),
  );
  if (twin !== undefined) {
    throw new AddUsageError(
      `content/${twin} is a device folder whose name differs from ${device} only by case; phones ask with the exact name, so a device has one folder: pass --device ${twin} if that is this device, or rename the folder`,
    );
  }
  const linked = linkedFolder(root, file);
  if (linked !== undefined) throw new ContentError([linkedFolderProblem(linked)]);
}

/** Refuses a zip or `--file` whose download address another build of the device holds with other contents. */
export function refuseSharedAddress(build: Build | undefined, others: readonly Build[], zip: string): void {
  if (build === undefined) return;
  const taken = new Map(others.flatMap(downloadEntries).map((e) => [e.url, e]));
  const clashes = downloadEntries(build).flatMap((entry) => {
    const earlier = taken.get(entry.url);
    return earlier && (earlier.sha256 !== entry.sha256 || earlier.size !== entry.size)
      ? [addressClash(entry, earlier)]
      : [];
  });
  if (clashes.length > 0)
    throw new AddRefusal(
      clashes.map((p) => ({
        where: p.field.startsWith('files.') ? '--file' : zip,
        field: p.field.split('.')[0],
        message: p.message,
      })),
    );
}
