/**
 * Wing `import/`: a saved v1 listing into manifests. This file plans the import: the listing and the
 * device's manifests in, the manifest files to write out, each build merged into the manifest that
 * already describes it. Pure. Imports only `render/` (to compare records) and `catalog/`.
 */
import { defaultLists, parseManifest, type Build } from '../catalog/manifest.js';
import { renderManifestText, type ManifestValues } from '../catalog/manifest-text.js';
import { yaml } from '../catalog/libraries.js';
import { firstInvalidUtf8 } from '../catalog/yaml-source.js';
import { compareStrings, lineColOf, sortProblems, type Problem } from '../catalog/problems.js';
import type { ManifestFile } from '../catalog/read.js';
import { renderRecord, type ApiRecord } from '../render/v1.js';
import type { Site } from '../catalog/site.js';
import { locateJson } from './locate-json.js';
import { isSingleBuild, missingListMessage, whatTheFileIs } from './source-shapes.js';
import { deviceFileOf, type DeviceField } from './device-file.js';
import { manifestFileName } from '../catalog/device.js';
import { FILLED, NORMALISED, rawIdentity, readRecord, RECORD_KEYS, sameOrder, type FilledField, type NormalisedKind, type RecordContext } from './read-record.js';

/** What `import` is given: a saved listing, the device and request list it is, and the current content. */
export interface ImportInput {
  /** The listing (a v1 envelope `{"response": [...]}` or a bare array of records): its bytes (UTF-8, a BOM allowed), or its text. */
  text: string | Uint8Array;
  /** How messages name the source, e.g. `listing.json` or `<stdin>`. */
  sourceName: string;
  device: string;
  list: string;
  site: Site;
  /** The device's manifests already in content/, which the import merges into. */
  existing: ManifestFile[];
  /** Import the valid records and leave out the invalid ones (instead of importing nothing). */
  skipInvalid?: boolean;
  /** `--android-version`: for records that neither api_level nor the file name tells it of. */
  androidVersion?: string;
  /** Whether content/<device>/device.yaml exists (the import writes it only when it does not). */
  deviceFileExists?: boolean;
  /** The text of content/site.yaml, to name the line to edit when `list` is not one of its lists. */
  siteText?: Uint8Array;
}

/** Problems kept in full; past it they are only counted (a 4 MiB listing of empty records has millions). */
export const MAX_PROBLEMS = 100;

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
  /** The notes of {@link notes} about fields a record lacks and the import fills in, one per field. */
  filled: ReadonlySet<Problem>;
  problems: Problem[];
  /** Problems found past the first {@link MAX_PROBLEMS}, counted but not kept. */
  unshown: number;
  /** Records of the source, and how many of them were left out as invalid. */
  records: number;
  skipped: number;
  /** What the listing's device fields (crDroid's shape) became: kept in device.yaml, or left out. */
  device?: { file: string; written: boolean; kept: string[]; leftOut: string[] };
}

/**
 * Turns a saved v1 listing into manifests: validates every record (reporting each problem at its
 * record and field), normalises what can be published unchanged in meaning (and says so), and
 * merges each build with the device's existing manifest of the same build (same id, or same
 * display_version for placeholders) by adding the list to its `lists`. Manifests in the list that
 * the source does not hold leave it, so that the built list equals the source. Pure.
 */
export function planImport(input: ImportInput): ImportPlan {
  const { sourceName, device, list, site } = input;
  const notes: Problem[] = [];
  const filledNotes = new Set<Problem>();
  const problems: Problem[] = [];
  let locator: (path: (string | number)[]) => { line: number; col: number } = () => ({ line: 1, col: 1 });
  let unshown = 0;
  const at = (path: (string | number)[], message: string, into: Problem[]) => {
    if (into === problems && problems.length >= MAX_PROBLEMS) unshown++;
    else into.push({ file: sourceName, ...locator(path), field: path.join('.') || '(file)', message });
  };
  const finish = (plan: Omit<ImportPlan, 'notes' | 'problems' | 'unshown' | 'filled'>): ImportPlan => ({ ...plan, notes: sortProblems(notes), filled: filledNotes, problems: sortProblems(problems), unshown });
  const empty = () => finish({ writes: [], records: 0, skipped: 0 });

  const decoded = decodeListing(input.text);
  if (decoded.badByte !== undefined) {
    const { line, col } = lineColOf(decoded.text, decoded.text.length);
    problems.push({ file: sourceName, line, col, field: '(file)', message: `invalid UTF-8 at byte ${decoded.badByte} (0x${decoded.badValue}); a listing is UTF-8 JSON: convert it (iconv -f latin1 -t utf-8), do not let the bytes become U+FFFD` });
    return empty();
  }
  const text = decoded.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message.split(', "')[0];
    const position = /at position (\d+)/.exec(message);
    problems.push({
      file: sourceName,
      ...lineColOf(text, position ? Number(position[1]) : 0),
      field: '(file)',
      message: `not valid JSON (${message}); save the listing exactly as the server sent it`,
    });
    return empty();
  }
  let records: unknown[];
  let base: string[];
  // The PixelExperience family's answer is one build, the object itself: its record's path is the file's.
  let single = false;
  if (Array.isArray(json)) [records, base] = [json, []];
  else if (json !== null && typeof json === 'object' && Array.isArray((json as { response?: unknown }).response)) {
    [records, base] = [(json as { response: unknown[] }).response, ['response']];
  } else if (isSingleBuild(json)) {
    [records, base, single] = [[json], [], true];
  } else {
    at([], whatTheFileIs(json), problems);
    return empty();
  }
  locator = locateJson(text, base);
  if (!site.lists.some((l) => l.name === list)) {
    problems.push({ file: sourceName, line: 1, col: 1, field: '--list', message: missingListMessage(list, site, input.siteText) });
    return empty();
  }
  const recordPath = (i: number) => (single ? base : [...base, i]);

  // 1. Each record on its own: shape, types, normalisations.
  const candidates: Candidate[] = [];
  let invalidRecords = 0;
  const filled = new Map<FilledField, Tally>();
  const normalised = new Map<string, Tally & { kind: NormalisedKind; field: string }>();
  const deviceFields = new Map<string, DeviceField>();
  const tally = <T extends Tally>(map: Map<string, T> | Map<FilledField, T>, key: string, make: () => T, detail?: string) => {
    const entry = (map as Map<string, T>).get(key) ?? (map as Map<string, T>).set(key, make()).get(key)!;
    entry.count++;
    if (detail !== undefined && entry.details.size < 100) entry.details.add(detail);
  };
  let keyOrderNoted = false;
  // One context for every record (a listing may hold a million: no closures per record).
  let index = 0;
  let path: (string | number)[] = base;
  const context: RecordContext = {
    site,
    device,
    list,
    androidVersion: input.androidVersion,
    problem: (field, message) => {
      reportedFields.add(field ?? '');
      at(field ? [...path, field] : path, `record ${index}: ${message}`, problems);
    },
    note: (field, message) => at(field ? [...path, field] : path, `record ${index}: ${message}`, notes),
    filled: (field, detail) => tally(filled, field, () => ({ count: 0, path, details: new Set() }), detail),
    normalised: (kind, field, detail) => tally(normalised, `${kind}:${field}`, () => ({ kind, field, count: 0, path: [...path, field], details: new Set() }), detail),
    deviceField: (key, value) => {
      if (!deviceFields.has(key)) deviceFields.set(key, { value, record: index });
    },
    // A record with problems is checked as the build will check it too, so that one run says all.
    partial: (values) => {
      // Past the problems shown, a check would only be counted: a listing of a million broken records is not parsed twice.
      if (problems.length >= MAX_PROBLEMS) return;
      const draft = parseManifest(renderManifestText({ ...values, lists: orderLists(site, [list]) }), `content/${device}/record.yaml`, device, site);
      for (const p of draft.problems) {
        const field = p.field === '(file)' ? '' : p.field.split('.')[0];
        if (reportedFields.has(field) || p.message.startsWith('missing')) continue;
        reportedFields.add(field);
        at(field ? [...path, field] : path, `record ${index}: ${p.message}`, problems);
      }
    },
  };
  let reportedFields = new Set<string>();
  for (; index < records.length; index++) {
    const record = records[index];
    path = recordPath(index);
    reportedFields = new Set();
    const before = problems.length + unshown;
    const values = readRecord(record, context);
    // Only a record with every field of the interface can be in its order (LineageOS ones are alphabetical).
    if (values && !keyOrderNoted && RECORD_KEYS.every((k) => k in (record as object)) && !sameOrder(Object.keys(record as object))) {
      keyOrderNoted = true;
      at(path, `record ${index}: the keys are in another order than the interface's; the build writes every record in the interface's order`, notes);
    }
    if (values && problems.length + unshown === before) candidates.push({ index, values });
    else invalidRecords++;
  }

  // Each filled-in field and each normalisation once for the whole listing, at the first record.
  const counted = (count: number, what: string) => (count < records.length ? `${count} of ${records.length} ${what}s` : count === 1 ? `the ${what}` : `all ${count} ${what}s`);
  const shown = (details: Set<string>) => {
    const sorted = [...details].sort(compareStrings);
    return sorted.length === 0 ? '' : ` (${sorted.slice(0, 5).join(', ')}${sorted.length > 5 ? `, and ${sorted.length - 5} more` : ''})`;
  };
  for (const [field, { count, path, details }] of filled) {
    const name = field.replace(/_from_name$|_given$|_unknown$/, '');
    const lack = count < records.length ? `${count} of ${records.length} records lack` : count === 1 ? 'the record lacks' : `all ${count} records lack`;
    const reader = name === 'romtype' ? 'which phones compare with their release type' : 'which only the /e/ updater reads';
    const note = { file: sourceName, ...locator(path), field: name, message: `${lack} \`${name}\`, ${reader}: ${FILLED[field]}${shown(details)}` };
    notes.push(note);
    filledNotes.add(note);
  }
  for (const { kind, field, count, path, details } of normalised.values()) {
    notes.push({ file: sourceName, ...locator(path), field, message: `\`${field}\` ${NORMALISED[kind].replace('{count}', counted(count, 'record'))}${shown(details)}` });
  }

  // Past the cap nothing is written or shown: the checks across records wait until these are fixed.
  if (unshown > 0 && !input.skipInvalid) return finish({ writes: [], records: records.length, skipped: invalidRecords });

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
    if (candidate.invalid) continue;
    const { index, values } = candidate;
    const path = recordPath(index);
    const report = (field: string | undefined, message: string) => {
      at(field ? [...path, field] : path, `record ${index}: ${message}`, problems);
      candidate.invalid = true;
    };
    // Validate exactly as the build will, before anything is compared or written.
    // With the list it is imported into: a channel that no list collects by default is fine then.
    const draft = parseManifest(renderManifestText({ ...values, lists: orderLists(site, [list]) }), `content/${device}/${manifestFileName(manifestName(values))}`, device, site);
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

    let file = `content/${device}/${manifestFileName(manifestName(values))}`;
    const taken = (name: string) => targets.has(name) || input.existing.some((m) => m.file === name);
    // Placeholder names come from display_version, whose other characters become `_`: number the later ones.
    for (let n = 2; values.placeholder && taken(file); n++) file = `content/${device}/${manifestFileName(`${manifestName(values)}-${n}`)}`;
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
  // names stays: it is in the source, only not importable as it is). An incremental package is in
  // no listing of its own, only in the answers for its source build: the listing never holds it.
  const named = new Set(records.flatMap((r) => (r !== null && typeof r === 'object' ? buildKeys(rawIdentity(r as Record<string, unknown>)) : [])));
  for (const { manifest, build } of parsedExisting) {
    if (build.appliesOn || matched.has(manifest.file) || buildKeys(build).some((k) => named.has(k)) || !build.lists.includes(list)) continue;
    const update = withLists(manifest, build, build.lists.filter((l) => l !== list), site);
    if (update !== undefined) writes.push({ file: manifest.file, text: update, action: `removed from list ${list} (not in the source)` });
  }

  // 4. The device fields of a crDroid listing: device.yaml, written only when there is none.
  let deviceOutcome: ImportPlan['device'];
  if (deviceFields.size > 0) {
    const file = `content/${device}/device.yaml`;
    const made = deviceFileOf(deviceFields, sourceName.replace(/^.*\//, ''));
    const written = made.text !== undefined && !input.deviceFileExists;
    if (written) writes.push({ file, text: made.text!, action: 'created' });
    deviceOutcome = { file, written, kept: made.kept, leftOut: made.leftOut };
  }

  const skipped = invalidRecords + candidates.filter((c) => c.invalid).length;
  writes.sort((a, b) => compareStrings(a.file, b.file));
  const failed = problems.length > 0 && !input.skipInvalid;
  return finish({ writes: failed ? [] : writes, records: records.length, skipped, ...(deviceOutcome && { device: deviceOutcome }) });
}

// --- internal ---

/** A valid record of the source and its manifest values (`invalid` once a check across records refuses it). */
interface Candidate {
  index: number;
  values: ManifestValues & { placeholder?: true };
  invalid?: boolean;
}

/** How many records a note is about, the first one's path, and the first few values it names. */
interface Tally {
  count: number;
  path: (string | number)[];
  details: Set<string>;
}

/** The listing's text: UTF-8 with or without a BOM (as manifests are read), or the offset and value of the first invalid byte. */
function decodeListing(input: string | Uint8Array): { text: string; badByte?: number; badValue?: string } {
  if (typeof input === 'string') return { text: input.replace(/^\ufeff/, '') };
  const bad = firstInvalidUtf8(input);
  if (bad !== -1) return { text: new TextDecoder().decode(input.subarray(0, bad)), badByte: bad, badValue: input[bad].toString(16).toUpperCase().padStart(2, '0') };
  return { text: new TextDecoder('utf-8').decode(input) }; // TextDecoder drops a leading BOM.
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
  const doc = yaml().parseDocument(Buffer.from(manifest.bytes).toString('utf8'));
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

