/**
 * Merging an import's builds with each other and with the device's manifests (steps 2 and 3 of
 * plan-import.ts): a build already described gets the list added to its manifest, a new one gets
 * a manifest of its own, and manifests in the list that the source does not hold leave it. Pure.
 */
import { defaultLists, parseManifest, type Build } from '../catalog/manifest.js';
import { renderManifestText, type ManifestValues } from '../catalog/manifest-text.js';
import { yaml } from '../catalog/libraries.js';
import type { ManifestFile } from '../catalog/read.js';
import { renderRecord, type ApiRecord } from '../render/v1.js';
import type { Site } from '../catalog/site.js';
import { manifestFileName } from '../catalog/device.js';
import { addressClash, downloadEntries } from '../catalog/plan.js';
import { rawIdentity, RECORD_KEYS } from './read-record.js';

/** One file the import writes. */
export interface ManifestWrite {
  file: string;
  text: string;
  /** `created`, or what changed in an existing manifest. */
  action: string;
}

/** A valid record of the source and its manifest values (`invalid` once a check across records refuses it). */
export interface Candidate {
  index: number;
  values: ManifestValues & { placeholder?: true };
  invalid?: boolean;
  /**
   * The fields the record lacks and the import filled in: the source says nothing of them, so a
   * manifest of the same build that holds them is not contradicted (a v2 entry has no `incremental`).
   */
  assumed?: ReadonlySet<string>;
}

/** Where the builds go: the device and list imported into, the site, the device's manifests already in content/. */
export interface MergeTarget {
  device: string;
  list: string;
  site: Site;
  existing: ManifestFile[];
  /** Builds the source's format cannot hold (a v2 answer, placeholders): missing from it, they stay in the list. */
  unheld?: (build: Build) => boolean;
}

/**
 * The files to write for the valid records (`candidates`) of a listing's `records`: each checked
 * as the build will check it, then matched with the source's other records and the device's
 * manifests. A record refused here is marked `invalid` and its problem goes to `refuse`.
 */
export function mergeBuilds(
  candidates: Candidate[],
  records: readonly unknown[],
  target: MergeTarget,
  refuse: (index: number, field: string | undefined, message: string) => void,
): ManifestWrite[] {
  const { device, list, site } = target;
  const parsedExisting = target.existing
    .filter((m) => m.device === device)
    .map((m) => ({ manifest: m, build: parseManifest(m.bytes, m.file, m.device, site).build }))
    .filter((e): e is { manifest: ManifestFile; build: Build } => e.build !== undefined);
  const seen = new Map<string, number>();
  const matched = new Set<string>();
  const writes: ManifestWrite[] = [];
  const targets = new Map<string, number>();
  const added: Build[] = [];

  for (const candidate of candidates) {
    if (candidate.invalid) continue;
    const { index, values } = candidate;
    const report = (field: string | undefined, message: string) => {
      refuse(index, field, message);
      candidate.invalid = true;
    };
    // Validate exactly as the build will, before anything is compared or written.
    // With the list it is imported into: a channel that no list collects by default is fine then.
    const draft = parseManifest(
      renderManifestText({ ...values, lists: orderLists(site, [list]) }),
      `content/${device}/${manifestFileName(manifestName(values))}`,
      device,
      site,
    );
    if (!draft.build) {
      for (const p of draft.problems) report(p.field === '(file)' ? undefined : p.field.split('.')[0], p.message);
      continue;
    }
    const incoming = draft.build;
    const keys = buildKeys(values);
    const twin = keys.map((k) => seen.get(k)).find((i) => i !== undefined);
    if (twin !== undefined) {
      report(
        values.placeholder ? 'display_version' : 'id',
        `the same build as record ${twin} (${values.placeholder ? 'same display_version' : 'same id or file name'}); a list holds each build once, remove one`,
      );
      continue;
    }
    for (const k of keys) seen.set(k, index);

    const existing = parsedExisting.find(({ build }) => keys.some((k) => buildKeys(build).includes(k)));
    if (existing) {
      matched.add(existing.manifest.file);
      const differences = recordDifferences(
        renderRecord(existing.build, list),
        renderRecord(incoming, list),
        candidate.assumed,
      );
      if (differences.length > 0) {
        for (const [field, ours, theirs] of differences) {
          report(
            field,
            `the same build as ${existing.manifest.file} (same ${values.placeholder ? 'display_version' : 'id or file name'}), but ${field} is ${JSON.stringify(theirs)} there and ${JSON.stringify(ours)} here; correct one of them`,
          );
        }
        continue;
      }
      const lists = orderLists(site, [...existing.build.lists, list]);
      const update = withLists(existing.manifest, existing.build, lists, site);
      if (update) writes.push({ file: existing.manifest.file, text: update, action: `added to list ${list}` });
      continue;
    }

    const clash = sharedAddress(incoming, [...parsedExisting.map((e) => e.build), ...added]);
    if (clash !== undefined) {
      report('url', clash);
      continue;
    }
    added.push(incoming);
    let file = `content/${device}/${manifestFileName(manifestName(values))}`;
    const taken = (name: string) => targets.has(name) || target.existing.some((m) => m.file === name);
    // Placeholder names come from display_version, whose other characters become `_`: number the later ones.
    for (let n = 2; values.placeholder && taken(file); n++)
      file = `content/${device}/${manifestFileName(`${manifestName(values)}-${n}`)}`;
    const holder = parsedExisting.find((e) => e.manifest.file === file) ?? target.existing.find((m) => m.file === file);
    if (holder || targets.has(file)) {
      report(
        undefined,
        `its manifest would be ${file}, which ${targets.has(file) ? `record ${targets.get(file)} writes` : 'holds another build'}; rename one of them`,
      );
      continue;
    }
    const lists = orderLists(site, [list]);
    const sameAsDefault = lists.join() === defaultLists(site, String(values.channel)).join();
    const text = renderManifestText({ ...values, lists: sameAsDefault ? undefined : lists });
    targets.set(file, index);
    writes.push({ file, text, action: 'created' });
  }

  writes.push(...leavingBuilds(parsedExisting, records, matched, target));
  return writes;
}

/**
 * Why the build refuses `build` (catalog/plan.ts): an address of it that one of `others` holds with
 * other contents, as AxionOS's GMS and VANILLA records of a device naming one OneDrive folder.
 */
function sharedAddress(build: Build, others: readonly Build[]): string | undefined {
  const taken = new Map(others.flatMap(downloadEntries).map((e) => [e.url, e]));
  for (const entry of downloadEntries(build)) {
    const earlier = taken.get(entry.url);
    if (earlier && (earlier.sha256 !== entry.sha256 || earlier.size !== entry.size))
      return addressClash(entry, earlier).message;
  }
  return undefined;
}

/**
 * Manifests in the list that the source does not hold leave it (one that an invalid record names
 * stays: it is in the source, only not importable as it is), but for builds its format cannot
 * hold. An incremental package is in no listing of its own, only in the answers for its source
 * build: the listing never holds it.
 */
function leavingBuilds(
  parsedExisting: readonly { manifest: ManifestFile; build: Build }[],
  records: readonly unknown[],
  matched: ReadonlySet<string>,
  { list, site, unheld }: MergeTarget,
): ManifestWrite[] {
  const left: ManifestWrite[] = [];
  const named = new Set(
    records.flatMap((r) =>
      r !== null && typeof r === 'object' ? buildKeys(rawIdentity(r as Record<string, unknown>)) : [],
    ),
  );
  for (const { manifest, build } of parsedExisting) {
    if (
      build.appliesOn ||
      matched.has(manifest.file) ||
      buildKeys(build).some((k) => named.has(k)) ||
      !build.lists.includes(list) ||
      unheld?.(build)
    )
      continue;
    const update = withLists(
      manifest,
      build,
      build.lists.filter((l) => l !== list),
      site,
    );
    if (update !== undefined)
      left.push({ file: manifest.file, text: update, action: `removed from list ${list} (not in the source)` });
  }
  return left;
}

/** The site's lists among `lists`, in the site's order. */
export function orderLists(site: Site, lists: string[]): string[] {
  return site.lists.map((l) => l.name).filter((name) => lists.includes(name));
}

// --- internal ---

/** What identifies a physical build: its id and file name, or a placeholder's display_version. */
function buildKeys(b: {
  placeholder?: boolean;
  id?: unknown;
  filename?: unknown;
  display_version?: unknown;
}): string[] {
  if (b.placeholder) return [`display_version:${String(b.display_version)}`];
  return [`id:${String(b.id)}`, `filename:${String(b.filename)}`];
}

/** A new manifest's file name: the package's name, or `placeholder-<display_version>`. */
function manifestName(values: ManifestValues): string {
  if (values.placeholder) return `placeholder-${String(values.display_version).replace(/[^A-Za-z0-9._-]+/g, '_')}`;
  return String(values.filename).replace(/\.zip$/, '');
}

/**
 * The manifest's text with `lists` set to `lists` (left out when that is the channel's default),
 * keeping its comments and layout; `undefined` when its membership does not change.
 */
function withLists(manifest: ManifestFile, build: Build, lists: string[], site: Site): string | undefined {
  if (lists.join() === build.lists.join()) return undefined;
  const doc = yaml().parseDocument(Buffer.from(manifest.bytes).toString('utf8'));
  if (lists.join() === defaultLists(site, build.channel).join()) doc.delete('lists');
  else {
    const node = doc.createNode(lists);
    node.flow = true;
    doc.set('lists', node);
  }
  return doc.toString({ lineWidth: 0 });
}

/** Fields whose rendered values differ (romtype aside, which is the list's, and the fields the source lacks). */
function recordDifferences(
  existing: ApiRecord,
  incoming: ApiRecord,
  assumed: ReadonlySet<string> | undefined,
): [string, unknown, unknown][] {
  return RECORD_KEYS.filter(
    (k) => k !== 'romtype' && !assumed?.has(k) && JSON.stringify(existing[k]) !== JSON.stringify(incoming[k]),
  ).map((k) => [k, incoming[k], existing[k]]);
}
