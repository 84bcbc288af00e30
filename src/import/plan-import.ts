/**
 * Wing `import/`: a saved listing (LineageOS v1 or v2, or another updater family's file) into
 * manifests. This file plans the import: the listing and the device's manifests in, the manifest
 * files to write out, each build merged into the manifest that already describes it (merge-builds.ts). Pure. The wing imports only `render/` (to compare
 * records) and `catalog/`; import-listing.ts alone reads and writes files.
 */
import { parseManifest, type Build } from '../catalog/manifest.js';
import { isWithdrawn } from '../catalog/filename.js';
import { renderManifestText } from '../catalog/manifest-text.js';
import { firstInvalidUtf8 } from '../catalog/yaml-source.js';
import { compareStrings, lineColOf, sortProblems, type Problem } from '../catalog/problems.js';
import type { ManifestFile } from '../catalog/read.js';
import type { Site } from '../catalog/site.js';
import { buildTypeOf } from '../catalog/formats.js';
import { locateJson, type JsonLocator } from './locate-json.js';
import { readListingText } from './listing-readers.js';
import { isSingleBuild, missingListMessage, whatTheFileIs } from './source-shapes.js';
import { deviceFileOf, type DeviceField } from './device-file.js';
import { mergeBuilds, orderLists, type Candidate, type ManifestWrite } from './merge-builds.js';
import { FILLED, NORMALISED, readRecord, RECORD_KEYS, sameOrder } from './read-record.js';
import type { FilledField, NormalisedKind, RecordContext } from './read-record.js';
import { familyOf, SOURCE_FAMILIES, type SourceFamily } from './source-families.js';

export type { ManifestWrite } from './merge-builds.js';

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
  const report = createReport(input.sourceName);
  const finish = (plan: Omit<ImportPlan, 'notes' | 'problems' | 'unshown' | 'filled'>): ImportPlan => ({
    ...plan,
    notes: sortProblems(report.notes),
    filled: report.filledNotes,
    problems: sortProblems(report.problems),
    unshown: report.unshown,
  });
  const listing = readListing(input, report);
  if (!listing) return finish({ writes: [], records: 0, skipped: 0 });
  const records = listing.records.length;
  // 1. Each record on its own: shape, types, normalisations.
  const read = readRecords(listing, input, report);
  // Past the cap nothing is written or shown: the checks across records wait until these are fixed.
  if (report.unshown > 0 && !input.skipInvalid) return finish({ writes: [], records, skipped: read.invalidRecords });
  // 2. and 3. Each build merged with the source's other records and the device's manifests.
  const writes = mergeLists(read, listing, input, (index, field, message) => {
    const path = listing.recordPath(index);
    const key = field && (read.fileKeys.get(index) ?? String)(field);
    report.at(key ? [...path, ...fieldPath(key)] : path, `record ${index}: ${message}`, report.problems);
  });
  // 4. The device fields of a crDroid listing: device.yaml, written only when there is none.
  let device: ImportPlan['device'];
  if (read.deviceFields.size > 0) {
    const file = `content/${input.device}/device.yaml`;
    const made = deviceFileOf(read.deviceFields, input.sourceName.replace(/^.*\//, ''));
    const written = made.text !== undefined && !input.deviceFileExists;
    if (written) writes.push({ file, text: made.text!, action: 'created' });
    device = { file, written, kept: made.kept, leftOut: made.leftOut };
  }
  const skipped = read.invalidRecords + read.candidates.filter((c) => c.invalid).length;
  writes.sort((a, b) => compareStrings(a.file, b.file));
  const failed = report.problems.length > 0 && !input.skipInvalid;
  return finish({ writes: failed ? [] : writes, records, skipped, ...(device && { device }) });
}

// --- internal ---

/** A listing's records, the JSON path of each (a single build's is the file's own), and the updater family that reads it. */
interface Listing {
  records: unknown[];
  recordPath: (index: number) => (string | number)[];
  family: SourceFamily;
  /** A LineageOS v2 answer: each entry goes to the list its `type` names. */
  v2: boolean;
  /** AOSPA's `{"updates": [...]}`: each record goes to the list its `build_type` names. */
  aospa: boolean;
}

/** Where the plan's problems and notes go, located in the source; past {@link MAX_PROBLEMS} problems, only counted. */
interface Report {
  notes: Problem[];
  /** The notes about fields records lack, one per field (see {@link ImportPlan.filled}). */
  filledNotes: Set<Problem>;
  problems: Problem[];
  unshown: number;
  /** The line and column of a JSON path in the source (1:1 until the source is parsed), and the text of its value. */
  locator: JsonLocator;
  at(path: (string | number)[], message: string, into: Problem[]): void;
}

function createReport(sourceName: string): Report {
  const report: Report = {
    notes: [],
    filledNotes: new Set(),
    problems: [],
    unshown: 0,
    locator: Object.assign(() => ({ line: 1, col: 1 }), { literal: () => undefined }),
    at(path, message, into) {
      if (into === report.problems && report.problems.length >= MAX_PROBLEMS) report.unshown++;
      else into.push({ file: sourceName, ...report.locator(path), field: path.join('.') || '(file)', message });
    },
  };
  return report;
}

/** The listing's records and the JSON path of each; `undefined` (the problem reported) when it holds none to read. */
function readListing(input: ImportInput, report: Report): Listing | undefined {
  const { sourceName } = input;
  const decoded = decodeListing(input.text);
  if (decoded.badByte !== undefined) {
    const { line, col } = lineColOf(decoded.text, decoded.text.length);
    const field = '(file)';
    report.problems.push({
      file: sourceName,
      line,
      col,
      field,
      message: `invalid UTF-8 at byte ${decoded.badByte} (0x${decoded.badValue}); a listing is UTF-8 JSON: convert it (iconv -f latin1 -t utf-8), do not let the bytes become U+FFFD`,
    });
    return undefined;
  }
  const text = decoded.text;
  let json: unknown;
  let lenient: JsonLocator | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // Not strict JSON: read as the phones of its shape read it (listing-readers.ts), or refused where they fail.
    const read = readListingText(
      text,
      decoded.bom,
      input.site.formats.map((f) => f.family),
    );
    if (!read.ok) {
      const { line, col, message } = read;
      report.problems.push({ file: sourceName, line, col, field: '(file)', message });
      return undefined;
    }
    [json, lenient] = [read.value, read.locate];
    if (read.note) report.notes.push({ file: sourceName, ...read.note, field: '(file)' });
  }
  let records: unknown[];
  let base: string[];
  // The PixelExperience family's answer is one build, the object itself: its record's path is the file's.
  let single = false;
  if (Array.isArray(json)) [records, base] = [json, []];
  else if (json !== null && typeof json === 'object' && Array.isArray((json as { response?: unknown }).response)) {
    [records, base] = [(json as { response: unknown[] }).response, ['response']];
  } else if (isAospaListing(json)) {
    [records, base] = [json.updates, ['updates']];
  } else if (isSingleBuild(json)) {
    [records, base, single] = [[json], [], true];
  } else {
    report.at([], whatTheFileIs(json), report.problems);
    return undefined;
  }
  report.locator = lenient ?? locateJson(text, base);
  if (!input.site.lists.some((l) => l.name === input.list)) {
    const message = missingListMessage(input.list, input.site, input.siteText);
    report.problems.push({ file: sourceName, line: 1, col: 1, field: '--list', message });
    return undefined;
  }
  const family = familyOf(records);
  return {
    records,
    recordPath: (i) => (single ? base : [...base, i]),
    family: SOURCE_FAMILIES[family],
    v2: family === 'lineage-v2' || family === 'pixelos-feed',
    aospa: family === 'aospa',
  };
}

/** What reading the records on their own found, for the checks across records and the device file. */
interface RecordsRead {
  candidates: Candidate[];
  /** The list each record goes to (a v2 entry's own `type` when the site has that list), by index. */
  lists: string[];
  /** The file's key of each v1 field, by record, for the records of another shape (crDroid's `download` for `url`). */
  fileKeys: ReadonlyMap<number, (field: string) => string>;
  invalidRecords: number;
  deviceFields: Map<string, DeviceField>;
}

/**
 * Reads every record (read-record.ts), reporting its problems and notes at its fields; each
 * filled-in field and each normalisation is noted once for the whole listing, at the first record.
 */
function readRecords(listing: Listing, input: ImportInput, report: Report): RecordsRead {
  const { records } = listing;
  const { site, device, list } = input;
  const candidates: Candidate[] = [];
  let invalidRecords = 0;
  const filled = new Map<FilledField, Tally>();
  const normalised = new Map<string, Tally & { kind: NormalisedKind; field: string }>();
  const deviceFields = new Map<string, DeviceField>();
  const { problems, notes } = report;
  let keyOrderNoted = false;
  // One context for every record (a listing may hold a million: no closures per record).
  let index = 0;
  let path: (string | number)[] = listing.recordPath(0);
  let reportedFields = new Set<string>();
  const lists: string[] = [];
  // The file's keys of the record read (of another shape than v1), and of each such valid one, for the checks after reading.
  let fileKey: ((field: string) => string) | undefined;
  // The fields the record read lacks; one set per combination, shared by the records that lack the same.
  let assumed: string[] = [];
  const assumedSets = new Map<string, ReadonlySet<string>>();
  const fileKeys = new Map<number, (field: string) => string>();
  const context: RecordContext = {
    site,
    device,
    list,
    androidVersion: input.androidVersion,
    family: listing.family,
    literal: (key) => report.locator.literal([...path, ...fieldPath(key)]),
    problem: (field, message) => {
      reportedFields.add(field ?? '');
      report.at(field ? [...path, ...fieldPath(field)] : path, `record ${index}: ${message}`, problems);
    },
    note: (field, message) =>
      report.at(field ? [...path, ...fieldPath(field)] : path, `record ${index}: ${message}`, notes),
    filled: (field, detail) => {
      assumed.push(filledName(field));
      tally(filled, field, () => ({ count: 0, path, details: new Set() }), detail);
    },
    normalised: (kind, field, detail) =>
      tally(
        normalised,
        `${kind}:${field}`,
        () => ({ kind, field, count: 0, path: [...path, ...fieldPath(field)], details: new Set() }),
        detail,
      ),
    deviceField: (key, value) => {
      if (!deviceFields.has(key)) deviceFields.set(key, { value, record: index });
    },
    fileKeys: (keys) => (fileKey = keys),
    // A record with problems is checked as the build will check it too, so that one run says all.
    partial: (values) => {
      // Past the problems shown, a check would only be counted: a listing of a million broken records is not parsed twice.
      if (problems.length >= MAX_PROBLEMS) return;
      const draft = parseManifest(
        renderManifestText({ ...values, lists: orderLists(site, [context.list]) }),
        `content/${device}/record.yaml`,
        device,
        site,
      );
      for (const p of draft.problems) {
        const field = p.field === '(file)' ? '' : (fileKey ?? String)(p.field.split('.')[0]);
        if (reportedFields.has(field) || p.message.startsWith('missing')) continue;
        reportedFields.add(field);
        report.at(field ? [...path, ...fieldPath(field)] : path, `record ${index}: ${p.message}`, problems);
      }
    },
  };
  for (; index < records.length; index++) {
    const record = records[index];
    path = listing.recordPath(index);
    reportedFields = new Set();
    fileKey = undefined;
    assumed = [];
    if (listing.v2) context.list = entryList(record, input);
    else if (listing.aospa) context.list = buildTypeList(record, input);
    lists.push(context.list);
    const before = problems.length + report.unshown;
    const values = readRecord(record, context);
    if (values && !keyOrderNoted && inAnotherOrder(record)) {
      keyOrderNoted = true;
      report.at(
        path,
        `record ${index}: the keys are in another order than the interface's; the build writes every record in the interface's order`,
        notes,
      );
    }
    if (values && problems.length + report.unshown === before) {
      const key = assumed.join();
      if (!assumedSets.has(key)) assumedSets.set(key, new Set(assumed));
      candidates.push({ index, values, assumed: assumedSets.get(key) });
      if (fileKey) fileKeys.set(index, fileKey);
    } else invalidRecords++;
  }
  noteTallies(filled, normalised, records.length, listing.family, input.sourceName, report);
  return { candidates, lists, invalidRecords, deviceFields, fileKeys };
}

/** Whether a record with every field of the interface (only such a one can be in its order) has them in another (LineageOS ones are alphabetical). */
function inAnotherOrder(record: unknown): boolean {
  return RECORD_KEYS.every((k) => k in (record as object)) && !sameOrder(Object.keys(record as object));
}

/** Each filled-in field and each normalisation once for the whole listing, at the first record it is about. */
function noteTallies(
  filled: Map<FilledField, Tally>,
  normalised: Map<string, Tally & { kind: NormalisedKind; field: string }>,
  records: number,
  family: SourceFamily,
  sourceName: string,
  report: Report,
): void {
  const counted = (count: number, what: string) =>
    count < records ? `${count} of ${records} ${what}s` : count === 1 ? `the ${what}` : `all ${count} ${what}s`;
  const shown = (details: Set<string>) => {
    const sorted = [...details].sort(compareStrings);
    return sorted.length === 0
      ? ''
      : ` (${sorted.slice(0, 5).join(', ')}${sorted.length > 5 ? `, and ${sorted.length - 5} more` : ''})`;
  };
  for (const [field, { count, path, details }] of filled) {
    const name = filledName(field);
    const lack =
      count < records
        ? `${count} of ${records} records lack`
        : count === 1
          ? 'the record lacks'
          : `all ${count} records lack`;
    const reader = name === 'romtype' ? family.typeMissing : 'which only the /e/ updater reads';
    const note = {
      file: sourceName,
      ...report.locator(path),
      field: name,
      message: `${lack} \`${name}\`, ${reader}: ${FILLED[field].replace('{noMd5}', family.noMd5)}${shown(details)}`,
    };
    report.notes.push(note);
    report.filledNotes.add(note);
  }
  for (const { kind, field, count, path, details } of normalised.values()) {
    report.notes.push({
      file: sourceName,
      ...report.locator(path),
      field,
      message: `\`${field}\` ${NORMALISED[kind](family).replace('{count}', counted(count, 'record'))}${shown(details)}`,
    });
  }
}

/** The record's field a filled-in kind is about (`android_version_given` → `android_version`). */
function filledName(field: FilledField): string {
  return field.replace(/_from_name$|_given$|_unknown$/, '');
}

/** A field as a JSON path: a v2 entry's `files.0.url` is three steps. */
function fieldPath(field: string): (string | number)[] {
  return field.includes('.') ? field.split('.').map((step) => (/^\d+$/.test(step) ? Number(step) : step)) : [field];
}

/** The list a v2 entry goes to: the one its `type` names when the site has it, else the one given. */
function entryList(record: unknown, input: ImportInput): string {
  const type = record !== null && typeof record === 'object' ? (record as { type?: unknown }).type : undefined;
  return input.site.lists.find((l) => l.name === type)?.name ?? input.list;
}

/**
 * The list an AOSPA record goes to: the one site.yaml's aospa `buildtype:` gives its `build_type`,
 * else the site's list of that name in lower case (`Stable` → stable), else the one given.
 */
function buildTypeList(record: unknown, input: ImportInput): string {
  const type =
    record !== null && typeof record === 'object' ? (record as { build_type?: unknown }).build_type : undefined;
  if (typeof type !== 'string') return input.list;
  const mapped = input.site.formats
    .filter((f) => f.family === 'aospa')
    .flatMap((f) => f.lists.filter((list) => buildTypeOf(f, list) === type));
  const named = input.site.lists.find((l) => l.name === type.toLowerCase())?.name;
  return mapped[0] ?? named ?? input.list;
}

/** AOSPA's file: `{"updates": [...]}` and no other key (the Compose Hub refuses any other). */
function isAospaListing(json: unknown): json is { updates: unknown[] } {
  return (
    json !== null &&
    typeof json === 'object' &&
    !Array.isArray(json) &&
    Array.isArray((json as { updates?: unknown }).updates)
  );
}

/**
 * Steps 2 and 3 for each list the records go to (one, but for a v2 answer): each list's builds
 * merged as mergeBuilds does, the manifests written for one list being those the next one reads.
 */
function mergeLists(
  read: RecordsRead,
  { records, family }: Listing,
  input: ImportInput,
  refuse: (index: number, field: string | undefined, message: string) => void,
): ManifestWrite[] {
  // Only the /e/ interface's listings hold placeholders and withdrawn builds; no other file can.
  const unheld = family.placeholders ? undefined : (b: Build) => b.placeholder || isWithdrawn(b);
  const names = new Set(read.lists);
  if (names.size <= 1)
    return mergeBuilds(read.candidates, records, { ...input, list: read.lists[0] ?? input.list, unheld }, refuse);
  const writes = new Map<string, ManifestWrite>();
  let existing = input.existing;
  for (const list of names) {
    const mine = new Set(read.lists.flatMap((l, i) => (l === list ? [i] : [])));
    // Records of other lists are no part of this list's source: they are out of its view.
    const listRecords = records.map((r, i) => (mine.has(i) ? r : undefined));
    const candidates = read.candidates.filter((c) => mine.has(c.index));
    for (const write of mergeBuilds(candidates, listRecords, { ...input, list, existing, unheld }, refuse)) {
      const before = writes.get(write.file);
      writes.set(write.file, before ? { ...write, action: `${before.action}, ${write.action}` } : write);
      const file = { file: write.file, device: input.device, bytes: Buffer.from(write.text) };
      existing = [...existing.filter((m) => m.file !== write.file), file];
    }
  }
  return [...writes.values()];
}

/** How many records a note is about, the first one's path, and the first few values it names. */
interface Tally {
  count: number;
  path: (string | number)[];
  details: Set<string>;
}

/** Counts one more record for the note `key` of `map` (made by `make` for the first), keeping the first 100 `detail`s. */
function tally<T extends Tally>(
  map: Map<string, T> | Map<FilledField, T>,
  key: string,
  make: () => T,
  detail?: string,
): void {
  const entry = (map as Map<string, T>).get(key) ?? (map as Map<string, T>).set(key, make()).get(key)!;
  entry.count++;
  if (detail !== undefined && entry.details.size < 100) entry.details.add(detail);
}

/** The listing's text: UTF-8 with or without a BOM (as manifests are read; `bom` says which), or the offset and value of the first invalid byte. */
function decodeListing(input: string | Uint8Array): {
  text: string;
  bom: boolean;
  badByte?: number;
  badValue?: string;
} {
  if (typeof input === 'string') return { text: input.replace(/^\ufeff/, ''), bom: input.startsWith('\ufeff') };
  const bom = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
  const bad = firstInvalidUtf8(input);
  if (bad !== -1)
    return {
      text: new TextDecoder().decode(input.subarray(0, bad)),
      bom,
      badByte: bad,
      badValue: input[bad].toString(16).toUpperCase().padStart(2, '0'),
    };
  return { text: new TextDecoder('utf-8').decode(input), bom }; // TextDecoder drops a leading BOM.
}
