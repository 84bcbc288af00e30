/**
 * For each dialect otapress writes, the updaters whose reading code (test/helpers/dialects/) must
 * decode its file, and what the catalog's lists say such a phone can install: the downloadable
 * builds of the list newer than the phone's own, that have what that updater needs, one per
 * download key (the newest), or the newest alone for a one-object dialect.
 */
import { isWithdrawn } from '../../src/catalog/filename.js';
import type { FormatFamily } from '../../src/catalog/formats.js';
import { sha256Of } from '../../src/catalog/download-key.js';
import type { Build } from '../../src/catalog/manifest.js';
import type { DialectName } from './dialects/index.js';

/** One dialect's readers and what a build must have for them. */
export interface DialectCase {
  readers: DialectName[];
  /** Besides a download, a size above 0 and not being withdrawn, which every dialect needs. */
  carries: (b: Build) => boolean;
  /** The key the updater tells downloads apart by. */
  key: (b: Build) => string;
  newestOnly?: boolean;
  /** The name the reader gives an offered build, when not its file name. */
  name?: (b: Build) => string;
}

const md5 = (b: Build) => b.md5sum !== '';

export const DIALECT_CASES: Record<FormatFamily, DialectCase> = {
  crdroid: { readers: ['crdroidKotlin'], carries: (b) => sha256Of(b) !== undefined, key: (b) => sha256Of(b)! },
  pixelexperience: { readers: ['pixelexperience'], carries: md5, key: (b) => b.id, newestOnly: true },
  'crdroid-java': {
    readers: [
      'crdroidJava',
      'evolutionxUdc',
      'evolutionxVic',
      'alphadroid',
      'cherishos',
      'matrixx',
      'infinityx',
      'voltageos',
    ],
    carries: md5,
    key: (b) => b.md5sum,
  },
  'md5-six': { readers: ['matrixx', 'infinityx', 'voltageos'], carries: md5, key: (b) => b.md5sum },
  'lineage-v1': { readers: ['derpfest'], carries: () => true, key: (b) => b.id },
  pixelos15: { readers: ['pixelos15'], carries: () => true, key: (b) => b.id },
  'pixelos-feed': {
    readers: ['pixelosFeed', 'pixelosFeedIncremental'],
    carries: (b) =>
      sha256Of(b) !== undefined &&
      (b.os_patch_level ?? '').trim() !== '' &&
      /^[1-9]\d{0,8}$/.test(b.api_level) &&
      b.version.trim() !== '' &&
      b.url!.startsWith('https://'),
    key: (b) => sha256Of(b)!,
  },
  // The Java Hub reads the first element only: the newest build the file carries. The Compose Hub,
  // which tells builds apart by version code, has a property of its own (dialects-properties.test.ts).
  aospa: {
    readers: ['aospaHub'],
    carries: (b) => /^\d{1,9}(\.\d{1,9})?$/.test(b.version) && /^\d{1,9}(\.\d{1,9})?$/.test(b.android_version),
    key: (b) => b.version,
    newestOnly: true,
  },
  grapheneos: {
    readers: ['grapheneos'],
    carries: (b) => /^\S+$/.test(b.incremental) && b.ota_type !== 'BLOCK',
    key: (b) => b.incremental,
    newestOnly: true,
    name: (b) => `${b.device}-ota_update-${b.incremental}.zip`,
  },
};

/** Downloadable, a size above 0, not withdrawn: what any phone can install at all. */
function downloadable(b: Build): boolean {
  return !b.placeholder && b.url !== undefined && !isWithdrawn(b) && typeof b.size === 'number' && b.size > 0;
}

/** The builds of a list the dialect's phones can install, newest first, one per download key. */
export function installable(dialect: DialectCase, builds: readonly Build[]): Build[] {
  const keys = new Set<string>();
  return builds
    .filter((b) => downloadable(b) && dialect.carries(b))
    .sort((a, b) => b.timestamp - a.timestamp || (a.filename < b.filename ? -1 : 1))
    .filter((b) => !keys.has(dialect.key(b)) && keys.add(dialect.key(b)) !== undefined);
}

/** The file names a phone built at `buildDate` is offered from `installable` builds. */
export function expectedOffers(dialect: DialectCase, builds: readonly Build[], buildDate: number): string[] {
  const newer = builds.filter((b) => b.timestamp > buildDate);
  return (dialect.newestOnly ? newer.slice(0, 1) : newer).map(dialect.name ?? ((b) => b.filename)).sort();
}
