/**
 * What changes for phones between two compiled catalogs: per answer, the records whose bytes
 * differ, the warnings a reviewer must see, the source builds newly offered an incremental package,
 * and the notices the change brings. Pure.
 */
import { compareStrings, type Problem } from '../catalog/problems.js';
import type { Answer, AnswerRecord } from './answers.js';

/** One record added, removed or changed in an answer. */
export interface RecordChange {
  kind: 'added' | 'removed' | 'changed';
  /** The build, as {@link AnswerRecord.build}. */
  build: string;
  before?: AnswerRecord;
  after?: AnswerRecord;
  /** The key paths whose values differ (changed records only). */
  keys: string[];
}

/** What changes in one answer. */
export interface AnswerChange {
  device: string;
  dialect: string;
  list: string;
  phonesOn?: string;
  path: string;
  changes: RecordChange[];
  /** What phones lose or a reviewer must look at twice, each one sentence. */
  warnings: string[];
}

/** Phones on a source build newly offered an incremental package in some answers. */
export interface NewIncremental {
  device: string;
  phonesOn: string;
  /** The incremental package's file name. */
  filename: string;
  /** The full build it installs. */
  build: string;
  /** Where: `v1 stable`, `v2 stable`. */
  answers: string[];
}

/** Everything a reviewer sees of a change. */
export interface CatalogDiff {
  answers: AnswerChange[];
  incrementals: NewIncremental[];
  /** The head's notices that the base did not have. */
  notices: Problem[];
}

/** Compares the answers and notices of the base and the head. */
export function compareCatalogs(
  base: { answers: readonly Answer[]; notices: readonly Problem[] },
  head: { answers: readonly Answer[]; notices: readonly Problem[] },
): CatalogDiff {
  const before = byKey(base.answers);
  const after = byKey(head.answers);
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort(compareStrings);
  // What phones on one build got and get: their own answer, else every phone's.
  const side = (answers: Map<string, Answer>, key: string) => answers.get(key) ?? answers.get(defaultKey(key));
  // Each answer's changes as a whole: those of phones on one build are said only where they differ from every phone's.
  const whole = new Map<string, { changes: RecordChange[]; warnings: string[] }>();
  const answers: AnswerChange[] = [];
  const incrementals = new Map<string, NewIncremental>();
  // Every phone's answer sorts before those for phones on one build (keyOf).
  for (const key of keys) {
    const answer = (after.get(key) ?? before.get(key))!;
    const newer = (records: readonly AnswerRecord[] = []) =>
      answer.since === undefined ? records : records.filter((r) => r.datetime > answer.since!);
    const [old, now] = [newer(side(before, key)?.records), newer(side(after, key)?.records)];
    const changes = recordChanges(old, now);
    const warnings = answerWarnings(old, now, changes);
    whole.set(key, { changes, warnings });
    const every = answer.phonesOn === undefined ? undefined : whole.get(defaultKey(key));
    const own = every ? changes.filter((c) => !every.changes.some((e) => sameChange(e, c))) : changes;
    const ownWarnings = every ? warnings.filter((w) => !every.warnings.includes(w)) : warnings;
    if (own.length > 0 || ownWarnings.length > 0)
      answers.push({ ...where(answer), changes: own, warnings: ownWarnings });
    if (answer.phonesOn !== undefined) for (const c of own) newIncremental(incrementals, answer, c);
  }
  const known = new Set(base.notices.map(noticeKey));
  return {
    answers,
    incrementals: [...incrementals.values()],
    notices: head.notices.filter((n) => !known.has(noticeKey(n))),
  };
}

// --- internal ---

/** Answers by device, dialect, path or list, and phones: the key sorts every phone's answer before those for one build. */
function byKey(answers: readonly Answer[]): Map<string, Answer> {
  return new Map(answers.map((a) => [keyOf(a), a]));
}

/** v1, then v2, then the formats; within each, every phone's answer first. */
function keyOf(a: Answer): string {
  const lineage = a.dialect === 'v1' || a.dialect === 'v2';
  const dialect = `${lineage ? '0' : '1'}${a.dialect}`;
  return [a.device, dialect, a.list, lineage ? '' : a.path, a.phonesOn === undefined ? '' : `\u0001${a.phonesOn}`].join(
    '\0',
  );
}

/** The key of every phone's answer beside an answer for phones on one build. */
function defaultKey(key: string): string {
  return key.replace(/\0\u0001[^\0]*$/, '\0');
}

function where(a: Answer): Omit<AnswerChange, 'changes' | 'warnings'> {
  return {
    device: a.device,
    dialect: a.dialect,
    list: a.list,
    ...(a.phonesOn !== undefined && { phonesOn: a.phonesOn }),
    path: a.path,
  };
}

/** The records whose bytes differ, in the head's order, then those removed in the base's. */
function recordChanges(old: readonly AnswerRecord[], now: readonly AnswerRecord[]): RecordChange[] {
  const before = new Map(old.map((r) => [r.build, r]));
  const after = new Map(now.map((r) => [r.build, r]));
  const changes: RecordChange[] = [];
  for (const record of now) {
    const was = before.get(record.build);
    if (was === undefined) changes.push({ kind: 'added', build: record.build, after: record, keys: [] });
    else if (was.text !== record.text)
      changes.push({
        kind: 'changed',
        build: record.build,
        before: was,
        after: record,
        keys: changedKeys(was, record),
      });
  }
  for (const record of old)
    if (!after.has(record.build)) changes.push({ kind: 'removed', build: record.build, before: record, keys: [] });
  return changes;
}

function changedKeys(was: AnswerRecord, now: AnswerRecord): string[] {
  const keys = new Set([...was.values.keys(), ...now.values.keys()]);
  return [...keys].filter((k) => was.values.get(k) !== now.values.get(k));
}

/** Keys phones tell downloads apart by (render/dialects.ts `downloadKey`, the v1 `id`, v2's `sha256`). */
const DOWNLOAD_KEYS = new Set(['id', 'sha256', 'md5', 'md5sum']);

function answerWarnings(
  old: readonly AnswerRecord[],
  now: readonly AnswerRecord[],
  changes: readonly RecordChange[],
): string[] {
  const warnings: string[] = [];
  const newest = newestOf(old);
  if (newest !== undefined && !now.some((r) => r.build === newest.build)) {
    const next = newestOf(now);
    warnings.push(
      `loses its newest build ${newest.filename}: phones are offered ${next ? `${next.filename} at most` : 'nothing'}; those that installed it are offered nothing until a newer build is published`,
    );
  }
  for (const c of changes) {
    if (c.kind !== 'changed' || c.before!.filename !== c.after!.filename) continue;
    const keys = c.keys.filter((k) => DOWNLOAD_KEYS.has(k.slice(k.lastIndexOf('.') + 1)));
    if (keys.length > 0)
      warnings.push(
        `the download key of ${c.after!.filename} changes (${keys.join(', ')}) under the same file name: updaters that keyed a download by the old value treat it as another build, and a phone that fetched the old file finds it does not match; publish a changed zip under a new file name`,
      );
  }
  return warnings;
}

/** The newest record with a download, by build time. */
function newestOf(records: readonly AnswerRecord[]): AnswerRecord | undefined {
  return records.filter((r) => r.filename !== '').sort((a, b) => b.datetime - a.datetime)[0];
}

function sameChange(a: RecordChange, b: RecordChange): boolean {
  return (
    a.kind === b.kind && a.build === b.build && a.before?.text === b.before?.text && a.after?.text === b.after?.text
  );
}

/** Records an incremental package that phones on `answer.phonesOn` are offered now and were not before. */
function newIncremental(into: Map<string, NewIncremental>, answer: Answer, change: RecordChange): void {
  const pkg = change.after;
  if (pkg === undefined || !pkg.incremental || change.before?.filename === pkg.filename) return;
  const key = [answer.device, answer.phonesOn, pkg.filename].join('\0');
  const entry = into.get(key) ?? {
    device: answer.device,
    phonesOn: answer.phonesOn!,
    filename: pkg.filename,
    build: pkg.build,
    answers: [],
  };
  entry.answers.push(`${answer.dialect} ${answer.list}`);
  into.set(key, entry);
}

function noticeKey(p: Problem): string {
  return [p.file, p.field, p.message].join('\0');
}
