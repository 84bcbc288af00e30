/**
 * The report `add` prints of the manifest it made: each value, and where it came from (the zip's
 * metadata or name, an option, the digests, the manifest it replaces), for the maintainer to review.
 */
import type { Build } from '../catalog/manifest.js';
import { MANIFEST_ORDER } from '../catalog/fields.js';
import type { ManifestValues } from '../catalog/manifest-text.js';
import type { Site } from '../catalog/site.js';
import { summary, type KeptKey } from './add-existing.js';
import type { SourceBuild } from './incremental.js';
import type { DerivedFacts } from './metadata.js';
import type { signingFacts } from './signature.js';

/** What `add` decided and read before the zip's digests: the facts, where they came from, what the catalog holds. */
export interface Draft {
  facts: Required<DerivedFacts['facts']>;
  derived: DerivedFacts;
  source: SourceBuild | undefined;
  signing: ReturnType<typeof signingFacts>;
  site: Site;
  /** The manifest's path relative to the root. */
  file: string;
  /** What `--force` keeps from the manifest it replaces. */
  kept: ManifestValues;
  key: KeptKey | undefined;
  /** The device's other builds. */
  others: Build[];
}

/** The digests and size of one read of a file. */
export type Digests = { md5: string; sha1: string; sha256: string; size: number };
/** A `files:` entry of the manifest. */
export type FileEntry = { filename: string; size: number; sha256: string; sha1: string };

/** The `field  origin  value` lines of the report: where each value of the manifest came from. */
export function reportLines(
  draft: Draft,
  values: ManifestValues,
  digests: Digests,
  files: FileEntry[],
  unusable: { message: string } | undefined,
  options: { placeholder?: boolean; lists?: string[]; url?: string },
): string[] {
  const { derived, facts, source, signing, key, kept, file } = draft;
  const report = derived.origins.map((o) => [
    o.field,
    o.value,
    o.field === 'api_level' && values.api_level === undefined && !options.placeholder
      ? `${o.from} (implied by Android ${facts.android_version}, not written)`
      : o.field === 'ota_property_files' && unusable
        ? `${o.from} (not written: ${unusable.message.split(';')[0]})`
        : o.from,
  ]);
  for (const o of source?.origins ?? []) report.push([o.field, o.value, o.from]);
  report.push(...signing.report);
  report.push(['md5sum', digests.md5, 'MD5 of the zip']);
  if (options.placeholder) {
    // A placeholder names no package: its file name only gives the display_version.
    report.splice(
      report.findIndex((r) => r[0] === 'filename'),
      1,
    );
    report.push(['display_version', String(values.display_version), 'the file name']);
  } else if (key) {
    report.push(
      ['sha1', digests.sha1, 'SHA-1 of the zip'],
      ['id', key.id, `kept from ${file} (the download key phones know; not a SHA-256)`],
      ['sha256', digests.sha256, 'SHA-256 of the zip'],
      ['size', String(digests.size), 'size of the zip'],
    );
  } else
    report.push(
      ['sha1', digests.sha1, 'SHA-1 of the zip'],
      ['id', digests.sha256, 'SHA-256 of the zip'],
      ['size', String(digests.size), 'size of the zip'],
    );
  if (values.filename_differs)
    report.push(['filename_differs', (values.filename_differs as string[]).join(', '), '--filename-differs']);
  if (options.lists) report.push(['lists', options.lists.join(', '), '--lists']);
  for (const f of files)
    report.push(['files', `${f.filename} ${f.size} bytes, SHA-256 ${f.sha256}, SHA-1 ${f.sha1}`, '--file']);
  if (options.url) report.push(['url', options.url, '--url']);
  for (const [field, value] of Object.entries(kept))
    if (values[field as keyof ManifestValues] === value) report.push([field, summary(value), `kept from ${file}`]);
  const order = ['device', ...MANIFEST_ORDER] as string[];
  // Stable: the files stay in the order given.
  report.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  const width = Math.max(...report.map((r) => r[0].length));
  const fromWidth = Math.max(...report.map((r) => r[2].length));
  return report.map(([f, v, o]) => `  ${f.padEnd(width)}  ${o.padEnd(fromWidth)}  ${v}`);
}
