/**
 * Wing `import/`: a saved v1 listing into manifests. This file plans the import: the listing and the
 * device's manifests in, the manifest files to write out, each build merged into the manifest that
 * already describes it. Pure. Imports only `render/` (to compare records) and `catalog/`.
 */
import { parseDocument } from 'yaml';
import { defaultLists, parseManifest, type Build } from '../catalog/manifest.js';
import { renderManifestText, type ManifestValues } from '../catalog/manifest-text.js';
import { compareStrings, sortProblems, type Problem } from '../catalog/problems.js';
import type { ManifestFile } from '../catalog/read.js';
import { renderRecord, type ApiRecord } from '../render/v1.js';
import type { Site } from '../catalog/site.js';
import { lineColOf, locateJson } from './locate-json.js';
import { FILLED, rawIdentity, readRecord, RECORD_KEYS, sameOrder, type FilledField } from './read-record.js';

/** What `import` is given: a saved listing, the device and request list it is, and the current content. */
export interface ImportInput {
  /** The listing's text (a v1 envelope `{"response": [...]}` or a bare array of records). */
  text: string;
  /** How messages name the source, e.g. `listing.json` or `<stdin>`. */
  sourceName: string;
  device: string;
  list: string;
  site: Site;
  /** The device's manifests already in content/, which the import merges into. */
  existing: ManifestFile[];
  /** Import the valid records and leave out the invalid ones (instead of importing nothing). */
  skipInvalid?: boolean;
}

/** One file the import writes. */
export interface ManifestWrite {
  file: string;
  text: string;
  /** `created`, or what changed in an existing manifest. */
  action: string;
}

/** The outcome: files to write (none when there are problems and `skipInvalid` is off), notes and problems. */
export interface ImportPlan {
  writes: ManifestWrite[];
  /** Normalisations, one per changed value, located in the source: what the build will publish differently. */
  notes: Problem[];
  problems: Problem[];
  /** Records of the source, and how many of them were left out as invalid. */
  records: number;
  skipped: number;
}

/**
 * Turns a saved v1 listing into manifests: validates every record (reporting each problem at its
 * record and field), normalises what can be published unchanged in meaning (and says so), and
 * merges each build with the device's existing manifest of the same build (same id, or same
 * display_version for placeholders) by adding the list to its `lists`. Manifests in the list that
 * the source does not hold leave it, so that the built list equals the source. Pure.
 */
export function planImport(input: ImportInput): ImportPlan {
  const { text, sourceName, device, list, site } = input;
  const locator = locateJson(text);
  const notes: Problem[] = [];
  const problems: Problem[] = [];
  const at = (path: (string | number)[], message: string, into: Problem[]) =>
    into.push({ file: sourceName, ...locator(path), field: path.join('.') || '(file)', message });
  const empty = (): ImportPlan => ({ writes: [], notes, problems, records: 0, skipped: 0 });

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message.split(', "')[0];
    const position = /at position (\d+)/.exec(message);
    problems.push({
      file: sourceName,
      ...(position ? lineColOf(text, Number(position[1])) : locator.firstError()),
      field: '(file)',
      message: `not valid JSON (${message}); save the listing exactly as the server sent it`,
    });
    return empty();
  }
  let records: unknown[];
  let base: (string | number)[];
  if (Array.isArray(json)) [records, base] = [json, []];
  else if (json !== null && typeof json === 'object' && Array.isArray((json as { response?: unknown }).response)) {
    [records, base] = [(json as { response: unknown[] }).response, ['response']];
  } else {
    at([], 'expected a v1 listing: {"id": null, "response": [records...], "error": null}, or an array of records', problems);
    return empty();
  }
  if (!site.lists.some((l) => l.name === list)) {
    problems.push({ file: sourceName, line: 1, col: 1, field: '--list', message: `\`${list}\` is not a request list of this site (lists: ${site.lists.map((l) => l.name).join(', ')})` });
    return empty();
  }

  // 1. Each record on its own: shape, types, normalisations.
  const candidates: Candidate[] = [];
  const filled = new Map<FilledField, { count: number; path: (string | number)[]; details: Set<string> }>();
  let keyOrderNoted = false;
  records.forEach((record, index) => {
    const path = [...base, index];
    const before = problems.length;
    const values = readRecord(record, {
      site,
      device,
      list,
      problem: (field, message) => at(field ? [...path, field] : path, `record ${index}: ${message}`, problems),
      note: (field, message) => at(field ? [...path, field] : path, `record ${index}: ${message}`, notes),
      filled: (field, detail) => {
        const entry = filled.get(field) ?? filled.set(field, { count: 0, path, details: new Set() }).get(field)!;
        entry.count++;
        if (detail !== undefined) entry.details.add(detail);
      },
    });
    if (values && !keyOrderNoted && !sameOrder(Object.keys(record as object))) {
      keyOrderNoted = true;
      at(path, `record ${index}: the keys are in another order than the interface's; the build writes every record in the interface's order`, notes);
    }
    if (values && problems.length === before) candidates.push({ index, path, values });
    else candidates.push({ index, path, invalid: true });
  });

  // Each filled-in field once for the whole listing, at the first record that lacks it.
  for (const [field, { count, path, details }] of filled) {
    const name = field.replace(/_from_name$/, '');
    const shown = [...details].sort(compareStrings);
    const detail = shown.length === 0 ? '' : ` (${shown.slice(0, 5).join(', ')}${shown.length > 5 ? `, and ${shown.length - 5} more` : ''})`;
    notes.push({
      file: sourceName,
      ...locator(path),
      field: name,
      message: `${count < records.length ? `${count} of ${records.length} records lack` : count === 1 ? 'the record lacks' : `all ${count} records lack`} \`${name}\`, which only the /e/ updater reads: ${FILLED[field]}${detail}`,
    });
  }

  // 2. Match with the source's other records and with the device's manifests.
  const parsedExisting = input.existing
    .filter((m) => m.device === device)
    .map((m) => ({ manifest: m, build: parseManifest(m.bytes, m.file, m.device, site).build }))
    .filter((e): e is { manifest: ManifestFile; build: Build } => e.build !== undefined);
  const seen = new Map<string, number>();
  const matched = new Set<string>();
  const writes: ManifestWrite[] = [];
  const targets = new Map<string, number>();

  for (const candidate of candidates) {
    if (candidate.invalid || !candidate.values) continue;
    const { index, path, values } = candidate;
    const report = (field: string | undefined, message: string) => {
      at(field ? [...path, field] : path, `record ${index}: ${message}`, problems);
      candidate.invalid = true;
    };
    // Validate exactly as the build will, before anything is compared or written.
    // With the list it is imported into: a channel that no list collects by default is fine then.
    const draft = parseManifest(renderManifestText({ ...values, lists: orderLists(site, [list]) }), `content/${device}/${manifestName(values)}.yaml`, device, site);
    if (!draft.build) {
      for (const p of draft.problems) report(p.field === '(file)' ? undefined : p.field.split('.')[0], p.message);
      continue;
    }
    const incoming = draft.build;
    const keys = buildKeys(values);
    const twin = keys.map((k) => seen.get(k)).find((i) => i !== undefined);
    if (twin !== undefined) {
      report(values.placeholder ? 'display_version' : 'id', `the same build as record ${twin} (${values.placeholder ? 'same display_version' : 'same id or file name'}); a list holds each build once, remove one`);
      continue;
    }
    for (const k of keys) seen.set(k, index);

    const existing = parsedExisting.find(({ build }) => keys.some((k) => buildKeys(build).includes(k)));
    if (existing) {
      matched.add(existing.manifest.file);
      const differences = recordDifferences(renderRecord(existing.build, list), renderRecord(incoming, list));
      if (differences.length > 0) {
        for (const [field, ours, theirs] of differences) {
          report(field, `the same build as ${existing.manifest.file} (same ${values.placeholder ? 'display_version' : 'id or file name'}), but ${field} is ${JSON.stringify(theirs)} there and ${JSON.stringify(ours)} here; correct one of them`);
        }
        continue;
      }
      const lists = orderLists(site, [...existing.build.lists, list]);
      const update = withLists(existing.manifest, existing.build, lists, site);
      if (update) writes.push({ file: existing.manifest.file, text: update, action: `added to list ${list}` });
      continue;
    }

    let file = `content/${device}/${manifestName(values)}.yaml`;
    const taken = (name: string) => targets.has(name) || input.existing.some((m) => m.file === name);
    // Placeholder names come from display_version, whose other characters become `_`: number the later ones.
    for (let n = 2; values.placeholder && taken(file); n++) file = `content/${device}/${manifestName(values)}-${n}.yaml`;
    const holder = parsedExisting.find((e) => e.manifest.file === file) ?? input.existing.find((m) => m.file === file);
    if (holder || targets.has(file)) {
      report(undefined, `its manifest would be ${file}, which ${targets.has(file) ? `record ${targets.get(file)} writes` : 'holds another build'}; rename one of them`);
      continue;
    }
    const lists = orderLists(site, [list]);
    const sameAsDefault = lists.join() === defaultLists(site, String(values.channel)).join();
    const text = renderManifestText({ ...values, lists: sameAsDefault ? undefined : lists });
    targets.set(file, index);
    writes.push({ file, text, action: 'created' });
  }

  // 3. Manifests in the list that the source does not hold leave it (one that an invalid record
  // names stays: it is in the source, only not importable as it is).
  const named = new Set(records.flatMap((r) => (r !== null && typeof r === 'object' ? buildKeys(rawIdentity(r as Record<string, unknown>)) : [])));
  for (const { manifest, build } of parsedExisting) {
    if (matched.has(manifest.file) || buildKeys(build).some((k) => named.has(k)) || !build.lists.includes(list)) continue;
    const update = withLists(manifest, build, build.lists.filter((l) => l !== list), site);
    if (update !== undefined) writes.push({ file: manifest.file, text: update, action: `removed from list ${list} (not in the source)` });
  }

  const skipped = candidates.filter((c) => c.invalid).length;
  writes.sort((a, b) => compareStrings(a.file, b.file));
  return { writes: problems.length > 0 && !input.skipInvalid ? [] : writes, notes: sortProblems(notes), problems: sortProblems(problems), records: records.length, skipped };
}

// --- internal ---

interface Candidate {
  index: number;
  path: (string | number)[];
  values?: ManifestValues & { placeholder?: true };
  invalid?: boolean;
}

/** What identifies a physical build: its id and file name, or a placeholder's display_version. */
function buildKeys(b: { placeholder?: boolean; id?: unknown; filename?: unknown; display_version?: unknown }): string[] {
  if (b.placeholder) return [`display_version:${String(b.display_version)}`];
  return [`id:${String(b.id)}`, `filename:${String(b.filename)}`];
}

/** A new manifest's file name: the package's name, or `placeholder-<display_version>`. */
function manifestName(values: ManifestValues): string {
  if (values.placeholder) return `placeholder-${String(values.display_version).replace(/[^A-Za-z0-9._-]+/g, '_')}`;
  return String(values.filename).replace(/\.zip$/, '');
}

function orderLists(site: Site, lists: string[]): string[] {
  return site.lists.map((l) => l.name).filter((name) => lists.includes(name));
}

/**
 * The manifest's text with `lists` set to `lists` (left out when that is the channel's default),
 * keeping its comments and layout; `undefined` when its membership does not change.
 */
function withLists(manifest: ManifestFile, build: Build, lists: string[], site: Site): string | undefined {
  if (lists.join() === build.lists.join()) return undefined;
  const doc = parseDocument(Buffer.from(manifest.bytes).toString('utf8'));
  if (lists.join() === defaultLists(site, build.channel).join()) doc.delete('lists');
  else {
    const node = doc.createNode(lists);
    node.flow = true;
    doc.set('lists', node);
  }
  return doc.toString({ lineWidth: 0 });
}

/** Fields whose rendered values differ (romtype aside, which is the list's). */
function recordDifferences(existing: ApiRecord, incoming: ApiRecord): [string, unknown, unknown][] {
  return RECORD_KEYS.filter((k) => k !== 'romtype' && JSON.stringify(existing[k]) !== JSON.stringify(incoming[k])).map((k) => [k, incoming[k], existing[k]]);
}

