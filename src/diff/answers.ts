/**
 * The answers phones read of a compiled catalog, taken apart into records: per device, dialect
 * (LineageOS v1, v2, each of `formats`) and list, for every phone and for phones on one source
 * build (the answers with incremental packages). Each record is tied to the build it offers.
 */
import type { Build } from '../catalog/manifest.js';
import { formatPath } from '../catalog/formats.js';
import type { Site } from '../catalog/site.js';
import { DIALECTS } from '../render/dialects.js';
import { API_FILES, fill } from '../render/urls.js';
import type { CompiledDevice } from '../pipeline/compile-device.js';

/** One answer a phone reads. */
export interface Answer {
  device: string;
  /** `v1`, `v2`, or the family of one of `formats` (`crdroid`). */
  dialect: string;
  list: string;
  /** The `ro.build.version.incremental` of the phones this answer is for; `undefined`: every other phone. */
  phonesOn?: string;
  /** The request path phones ask. */
  path: string;
  records: AnswerRecord[];
  /**
   * For phones on one build: its build time. They offer nothing that is not newer (so their own
   * answer leaves it out: catalog/incremental.ts), and records at or before it are no change to them.
   */
  since?: number;
}

/** One record of an answer: what a phone is offered of one build. */
export interface AnswerRecord {
  /**
   * The build it offers, the same on both sides: the full package's file name (an incremental
   * package's target's), or for a placeholder its version and build time.
   */
  build: string;
  /** The file phones download: the record's own (an incremental package's name in its answers). */
  filename: string;
  version: string;
  size?: number;
  /** The build time phones compare with theirs. */
  datetime: number;
  /** Whether the record is an incremental package. */
  incremental: boolean;
  /** Its bytes as written in the answer (compact JSON, or the dialect's line). */
  text: string;
  /** Each value by its key path (`size`, `files[boot.img].sha256`), as JSON text. */
  values: Map<string, string>;
}

/** Every answer of every device of a compiled side that compiled. */
export function answersOf(site: Site | undefined, devices: readonly CompiledDevice[]): Answer[] {
  if (site === undefined) return [];
  return devices.flatMap((device) => (device.problems.length > 0 ? [] : deviceAnswers(site, device)));
}

// --- internal ---

/** The answers of one device, in a fixed order: v1, v2, then the formats in site.yaml's order. */
function deviceAnswers(site: Site, compiled: CompiledDevice): Answer[] {
  const { device, listings } = compiled;
  const files = new Map(compiled.files.map((f) => [f.path, f.contents]));
  const read = (path: string): unknown => {
    const contents = files.get(path);
    if (contents === undefined) return undefined;
    const text = typeof contents === 'string' ? contents : Buffer.from(contents).toString('utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  const recordsOf = recordMaker(compiled.builds);
  const answers: Answer[] = [];
  const incrementals = compiled.summary?.incrementals ?? [];
  const lists = listings.map((l) => l.list);
  const since = (phonesOn: string | undefined) =>
    phonesOn === undefined
      ? {}
      : { since: compiled.builds.find((b) => !b.appliesOn && !b.placeholder && b.incremental === phonesOn)?.timestamp };
  for (const { list, phonesOn } of [
    ...lists.map((list) => ({ list, phonesOn: undefined })),
    ...incrementals.map((i) => ({ list: i.list, phonesOn: i.incremental })),
  ]) {
    const file = phonesOn === undefined ? API_FILES.listing : API_FILES.v1Incremental;
    const body = read(fill(file, { device, list, incremental: phonesOn ?? '' }).slice(1)) as { response?: unknown[] };
    const path = `/api/v1/${device}/${list}/${phonesOn ?? ''}`;
    answers.push({
      device,
      dialect: 'v1',
      list,
      phonesOn,
      path,
      records: recordsOf(body?.response ?? []),
      ...since(phonesOn),
    });
  }
  const sources = [undefined, ...new Set(incrementals.map((i) => i.incremental))];
  for (const phonesOn of sources) {
    const file = phonesOn === undefined ? API_FILES.v2Builds : API_FILES.v2Incremental;
    const entries = read(fill(file, { device, incremental: phonesOn ?? '' }).slice(1));
    const all = Array.isArray(entries) ? entries : [];
    const path = `/api/v2/devices/${device}/builds${phonesOn === undefined ? '' : `/${phonesOn}`}`;
    // One answer for every list; each entry carries its list in `type`.
    for (const list of lists) {
      const records = recordsOf(all.filter((e) => (e as { type?: unknown }).type === list));
      answers.push({ device, dialect: 'v2', list, phonesOn, path, records, ...since(phonesOn) });
    }
  }
  for (const format of site.formats) {
    const names = DIALECTS[format.family].wrapper === 'line' ? DIALECTS[format.family].keys.map((k) => k.key) : [];
    for (const list of format.lists) {
      const path = formatPath(format, device, list);
      const body = read(path.slice(1));
      const records = recordsOf(recordsIn(body), names);
      answers.push({ device, dialect: format.family, list, path, records });
    }
  }
  return answers;
}

/** The records of a dialect's file, whatever its wrapper (dialects.ts): an array, in `response` or `updates`, one object or one line. */
function recordsIn(body: unknown): unknown[] {
  if (body === undefined) return [];
  if (Array.isArray(body)) return body;
  if (typeof body === 'string') return body.trim() === '' ? [] : [body.trim()];
  const wrapped = body as { response?: unknown; updates?: unknown };
  if (Array.isArray(wrapped.response)) return wrapped.response;
  if (Array.isArray(wrapped.updates)) return wrapped.updates;
  return [body];
}

/** Makes the records of a device's answers, each tied to one of `builds` by its file name (or, on a line, its incremental). */
function recordMaker(
  builds: readonly Build[],
): (raw: readonly unknown[], lineKeys?: readonly string[]) => AnswerRecord[] {
  const byFilename = new Map(builds.filter((b) => !b.placeholder).map((b) => [b.filename, b]));
  const full = builds.filter((b) => !b.placeholder && b.appliesOn === undefined);
  const byIncremental = new Map(full.map((b) => [b.incremental, b]));
  // An incremental package stands for the full build it installs: same incremental, same build time.
  const targetOf = (b: Build) => full.find((f) => f.incremental === b.incremental && f.timestamp === b.timestamp) ?? b;
  return (raw, lineKeys = []) =>
    raw.map((record) => {
      const line = typeof record === 'string' ? record : undefined;
      const values = line === undefined ? flatten(record) : lineValues(line, lineKeys);
      const filename = line === undefined ? filenameIn(record) : undefined;
      const build =
        line !== undefined ? byIncremental.get(line.split(' ')[0]) : filename ? byFilename.get(filename) : undefined;
      const datetime = Number(values.get('datetime') ?? values.get('timestamp') ?? build?.timestamp ?? 0);
      const version = build?.version ?? String(JSON.parse(values.get('version') ?? '""'));
      const target = build && targetOf(build);
      return {
        build: target?.filename ?? filename ?? `placeholder ${version} (${datetime})`,
        filename: build?.filename ?? filename ?? '',
        version,
        ...(typeof build?.size === 'number' && { size: build.size }),
        datetime,
        incremental: build?.appliesOn !== undefined,
        text: line ?? JSON.stringify(record),
        values,
      };
    });
}

/** The file name a record offers: its `filename`, or its first file's (v2, PixelOS's feed); '' for a placeholder. */
function filenameIn(record: unknown): string | undefined {
  const r = record as { filename?: unknown; files?: { filename?: unknown }[] };
  const name = typeof r.filename === 'string' ? r.filename : r.files?.[0]?.filename;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** A line's values by the dialect's key names, in order. */
function lineValues(line: string, keys: readonly string[]): Map<string, string> {
  return new Map(line.split(' ').map((value, i) => [keys[i] ?? `[${i}]`, JSON.stringify(value)]));
}

/**
 * Every leaf of a record by its key path. In a list of files the first is the package, whatever
 * its name (an incremental package's answers change it); the others go by their file names.
 */
function flatten(value: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const name = (item as { filename?: unknown } | null)?.filename;
      flatten(item, `${prefix}[${i > 0 && typeof name === 'string' && name !== '' ? name : i}]`, into);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flatten(item, prefix === '' ? key : `${prefix}.${key}`, into);
  } else into.set(prefix, JSON.stringify(value));
  return into;
}
