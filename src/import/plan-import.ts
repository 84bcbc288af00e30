import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { displayVersionOf } from '../catalog/filename.js';
import { API_LEVELS, defaultLists, parseManifest, type Build } from '../catalog/manifest.js';
import { renderManifestText, type ManifestValues } from '../catalog/manifest-text.js';
import { compareStrings, sortProblems, type Problem } from '../catalog/problems.js';
import type { ManifestFile } from '../catalog/read.js';
import { renderRecord, type ApiRecord } from '../render/v1.js';
import type { Site } from '../catalog/site.js';

/** The keys of a v1 record in the order of interface.md (and of every listing otapress writes). */
export const RECORD_KEYS = [
  'incremental',
  'api_level',
  'url',
  'timestamp',
  'md5sum',
  'changes',
  'channel',
  'filename',
  'romtype',
  'datetime',
  'version',
  'pre_version',
  'display_version',
  'android_version',
  'id',
  'size',
  'is_upgrade_supported',
] as const;

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
    });
    if (values && !keyOrderNoted && !sameOrder(Object.keys(record as object))) {
      keyOrderNoted = true;
      at(path, `record ${index}: the keys are in another order than the interface's; the build writes every record in the interface's order`, notes);
    }
    if (values && problems.length === before) candidates.push({ index, path, values });
    else candidates.push({ index, path, invalid: true });
  });

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

interface RecordContext {
  site: Site;
  device: string;
  list: string;
  problem(field: string | undefined, message: string): void;
  note(field: string | undefined, message: string): void;
}

/** Fields the interface types as strings that servers also send as JSON numbers. */
const NUMERIC_TEXT = new Set(['incremental', 'api_level', 'android_version']);

/** Checks one record's shape and types; returns the manifest values it stands for. */
function readRecord(record: unknown, c: RecordContext): (ManifestValues & { placeholder?: true }) | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    c.problem(undefined, `expected a record (a JSON object), found ${record === null ? 'null' : Array.isArray(record) ? 'an array' : typeof record}`);
    return undefined;
  }
  const r = record as Record<string, unknown>;
  const placeholder = r.url === undefined && r.filename === '';
  for (const key of RECORD_KEYS) {
    if (r[key] === undefined && !(key === 'url' && placeholder)) {
      c.problem(key, `missing \`${key}\`${key === 'url' ? ' (only a placeholder, with filename, id and size "", has no url)' : ''}`);
    }
  }
  for (const key of Object.keys(r)) {
    if (!(RECORD_KEYS as readonly string[]).includes(key)) c.note(key, `\`${key}\` is not a field of the v1 interface; it is left out`);
  }

  const text = (key: string): string | undefined => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (v === null) {
      c.problem(key, `${key} is JSON null; phones read it as the text "null"; write the value, or "" for none`);
      return undefined;
    }
    if (typeof v === 'number' && NUMERIC_TEXT.has(key) && Number.isSafeInteger(v) && v >= 0) {
      c.note(key, `${key} is the number ${v}; published as the text "${v}", as the interface types it`);
      return String(v);
    }
    if (typeof v !== 'string') {
      c.problem(key, `expected text for ${key}, found ${describe(v)}`);
      return undefined;
    }
    return v;
  };
  const seconds = (key: string): number | undefined => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    c.problem(key, `expected Unix seconds as a JSON number, e.g. 1731067200, found ${describe(v)}`);
    return undefined;
  };
  const hex = (key: string, length: number): string | undefined => {
    const v = text(key);
    if (v === undefined || v === '') return v;
    if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(v)) {
      c.problem(key, `expected ${length} hex characters for ${key}, found ${describe(v)}`);
      return undefined;
    }
    if (v !== v.toLowerCase()) c.note(key, `${key} is in upper-case hex; published in lowercase`);
    return v.toLowerCase();
  };

  const values = {
    incremental: text('incremental'),
    api_level: text('api_level'),
    timestamp: seconds('timestamp'),
    datetime: seconds('datetime'),
    md5sum: hex('md5sum', 32),
    changes: text('changes'),
    channel: text('channel'),
    filename: text('filename'),
    romtype: text('romtype'),
    version: text('version'),
    pre_version: text('pre_version'),
    display_version: text('display_version'),
    android_version: text('android_version'),
    id: hex('id', 64),
  };
  const url = placeholder ? undefined : text('url');
  let size: number | '' | undefined;
  const rawSize = r.size;
  if (typeof rawSize === 'number' && Number.isSafeInteger(rawSize) && rawSize >= 0) size = rawSize;
  else if (typeof rawSize === 'string' && /^\d{1,15}$/.test(rawSize)) {
    size = Number(rawSize);
    c.note('size', `size is the text "${rawSize}"; published as the number ${size}`);
  } else if (rawSize === '' && placeholder) size = '';
  else if (rawSize !== undefined) c.problem('size', `expected the size in bytes as a whole number${placeholder ? ', or "" in a placeholder' : ''}, found ${describe(rawSize)}`);
  const upgrade = r.is_upgrade_supported;
  if (upgrade !== undefined && typeof upgrade !== 'boolean') c.problem('is_upgrade_supported', `expected true or false, found ${describe(upgrade)}`);

  if (values.datetime !== undefined && values.timestamp !== undefined && values.datetime !== values.timestamp) {
    c.problem('datetime', `datetime ${values.datetime} differs from timestamp ${values.timestamp}; phones compare datetime with their build time, so otapress publishes one build time: make them equal`);
  }
  if (values.romtype !== undefined && values.romtype !== c.list) {
    c.note('romtype', `romtype is \`${values.romtype}\`; published as \`${c.list}\`, the list it is in (phones offer a record only when romtype is their release type)`);
  }
  if (placeholder) {
    if (values.id !== '' && values.id !== undefined) c.problem('id', 'a placeholder (no url, filename "") has id ""; a phone would otherwise treat it as a download');
    if (size !== '' && size !== undefined) c.problem('size', 'a placeholder (no url, filename "") has size ""; a numeric size would make a phone offer it');
  } else if (r.url !== undefined && r.filename === '') {
    c.problem('filename', 'a record with a url needs its file name; a placeholder has neither');
  }
  if (Object.values(values).some((v) => v === undefined) || size === undefined || upgrade === undefined || (!placeholder && url === undefined)) return undefined;
  const v = values as { [K in keyof typeof values]-?: NonNullable<(typeof values)[K]> };
  // Keep only what the build would not derive by itself, as a maintainer would write it.
  if (placeholder) {
    return {
      placeholder: true,
      version: v.version,
      channel: v.channel,
      timestamp: v.timestamp,
      android_version: v.android_version,
      api_level: v.api_level || undefined,
      incremental: v.incremental || undefined,
      md5sum: v.md5sum || undefined,
      display_version: v.display_version,
      changes: v.changes || undefined,
      pre_version: v.pre_version || undefined,
      is_upgrade_supported: upgrade === true ? true : undefined,
    };
  }
  const defaultUrl = `${c.site.downloadBaseUrl}/${v.channel}/${c.device}/${v.filename}`;
  return {
    filename: v.filename,
    version: v.version,
    channel: v.channel,
    timestamp: v.timestamp,
    android_version: v.android_version,
    api_level: v.api_level === API_LEVELS[v.android_version] ? undefined : v.api_level,
    incremental: v.incremental,
    md5sum: v.md5sum,
    id: v.id,
    size: size as number,
    url: url === defaultUrl ? undefined : url,
    display_version: v.display_version === displayVersionOf(v.filename) ? undefined : v.display_version,
    changes: v.changes || undefined,
    pre_version: v.pre_version || undefined,
    is_upgrade_supported: upgrade === true ? true : undefined,
  };
}

/** What identifies a physical build: its id and file name, or a placeholder's display_version. */
function buildKeys(b: { placeholder?: boolean; id?: unknown; filename?: unknown; display_version?: unknown }): string[] {
  if (b.placeholder) return [`display_version:${String(b.display_version)}`];
  return [`id:${String(b.id)}`, `filename:${String(b.filename)}`];
}

/** What a record, valid or not, says about which build it is. */
function rawIdentity(r: Record<string, unknown>): { placeholder: boolean; id: unknown; filename: unknown; display_version: unknown } {
  return { placeholder: r.url === undefined && r.filename === '', id: typeof r.id === 'string' ? r.id.toLowerCase() : r.id, filename: r.filename, display_version: r.display_version };
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

function sameOrder(keys: string[]): boolean {
  const known = keys.filter((k) => (RECORD_KEYS as readonly string[]).includes(k));
  const expected = RECORD_KEYS.filter((k) => known.includes(k));
  return known.join() === expected.join();
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `${v}`;
  return Array.isArray(v) ? 'an array' : 'an object';
}

/** Line and column of a JSON path in the text (JSON is YAML, whose parser keeps positions). */
function locateJson(text: string): ((path: (string | number)[]) => { line: number; col: number }) & { firstError(): { line: number; col: number } } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const pos = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: Math.max(line, 1), col: Math.max(col, 1) };
  };
  const locate = (path: (string | number)[]) => {
    let node: unknown = doc.contents;
    for (const segment of path) {
      if (!(isMap(node) || isSeq(node))) break;
      const next = node.get(segment as never, true);
      if (next === undefined) break;
      node = next;
    }
    const range = (node as Node | undefined)?.range;
    return range ? pos(range[0]) : { line: 1, col: 1 };
  };
  return Object.assign(locate, { firstError: () => (doc.errors[0] ? pos(doc.errors[0].pos[0]) : { line: 1, col: 1 }) });
}

function lineColOf(text: string, offset: number): { line: number; col: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, col: lines[lines.length - 1].length + 1 };
}
