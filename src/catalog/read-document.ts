/**
 * The step every content file shares (a manifest, site.yaml, device.yaml): its text read as YAML,
 * checked to be a mapping, read by its schema (a plain reader first, zod for what that does not
 * take), each issue a located problem: `file:line:col field message`. What differs between the
 * files, their messages, is the {@link DocumentKind} each passes. Pure; never throws.
 */
import type * as Z from 'zod';
import type { Problem } from './problems.js';
import { readYamlSource, type YamlSource } from './yaml-source.js';

/** One issue zod found. */
type Issue = Z.core.$ZodIssue;

/** What a kind of file says where the shared reading finds a problem, and how it reads its mapping. */
export interface DocumentKind<T> {
  /** The message for a file whose value is not a mapping; `undefined` takes an empty file as nothing said. */
  notAMapping(found: 'nothing' | 'a list' | 'a single value'): string | undefined;
  /** The mapping as the schema should read it, when it is not the one written (a copy). */
  prepare?(raw: Record<string, unknown>): Record<string, unknown>;
  /** The values as the schema would return them, without zod; `undefined` leaves the mapping to zod. */
  plain?(raw: Record<string, unknown>): T | undefined;
  schema(): Z.ZodType<T>;
  /** The message for `key`, which the mapping at `path` may not hold. */
  unknownKey(key: string, path: readonly PropertyKey[]): string;
  /**
   * What to say of an issue other than an unknown key, when not zod's message at the value: a
   * message (`key`: at the key), or a problem placed elsewhere.
   */
  issue?(issue: Issue, document: YamlDocument<T>): { message: string; key?: boolean } | Problem | undefined;
  /** Report only the first issue of each field: the first check that fails says what to write. */
  firstIssueOnly?: boolean;
  /**
   * Fields are named by their dotted path (`lists.1`), as the manifest's rules report them, and
   * located by it: the name split at each `.`, digits as list indexes.
   */
  dotted?: boolean;
}

/** Where {@link YamlDocument.report} points: the key rather than the value; or the part `within` a one-line value. */
interface ReportAt {
  key?: boolean;
  /** The part of the value at `index` the message is about (for its column). */
  within?: { value: string; index: number };
}

/** A content file read as far as its schema. */
export interface YamlDocument<T> {
  source: YamlSource;
  /** The mapping as its schema read it; `undefined` when the file holds none (or could not be read). */
  raw?: Record<string, unknown>;
  /** The values as the schema returns them; `undefined` when any failed its check (or there is no mapping). */
  data?: T;
  /** The top-level fields that failed their own check: later rules skip them to avoid a second message. */
  bad: ReadonlySet<string>;
  /** Every problem found so far, in the order found; the caller adds its own through {@link report}. */
  problems: Problem[];
  /** Adds a problem about the value (or key) at `path`, located in the file. */
  report(path: readonly PropertyKey[], message: string, at?: ReportAt): void;
}

/** Reads one content file from its text with the schema and messages of its `kind`. */
export function readDocument<T>(input: string | Uint8Array, file: string, kind: DocumentKind<T>): YamlDocument<T> {
  const source = readYamlSource(input, file);
  const problems: Problem[] = [];
  const report: YamlDocument<T>['report'] = (path, message, at) =>
    problems.push(locate(source, file, path, message, at, kind.dotted));
  const document: YamlDocument<T> = { source, bad: NONE, problems, report };
  if (source.problems.length > 0) {
    problems.push(...source.problems);
    return document;
  }
  const value = source.value;
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    const nothing = value === null || value === undefined;
    const found = nothing ? 'nothing' : Array.isArray(value) ? 'a list' : 'a single value';
    const message = kind.notAMapping(found);
    if (message !== undefined) document.report([], message);
    return document;
  }
  const raw = kind.prepare ? kind.prepare(value as Record<string, unknown>) : (value as Record<string, unknown>);
  document.raw = raw;
  const plain = kind.plain?.(raw);
  if (plain !== undefined) {
    document.data = plain;
    return document;
  }
  const parsed = kind.schema().safeParse(raw);
  if (parsed.success) {
    document.data = parsed.data;
    return document;
  }
  reportIssues(parsed.error.issues, document, kind);
  document.bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  return document;
}

// --- internal ---

/** No field failed its own check. */
const NONE: ReadonlySet<string> = new Set();

function reportIssues<T>(issues: readonly Issue[], document: YamlDocument<T>, kind: DocumentKind<T>): void {
  const reported = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        document.report([...issue.path, key], kind.unknownKey(key, issue.path), { key: true });
      }
      continue;
    }
    const field = issue.path.join('.');
    if (kind.firstIssueOnly) {
      if (reported.has(field)) continue;
      reported.add(field);
    }
    const said = kind.issue?.(issue, document);
    if (said !== undefined && 'file' in said) document.problems.push(said);
    else document.report(issue.path, said?.message ?? issue.message, { key: said?.key });
  }
}

/** A problem at `path` in the file: its value's line and column, or its key's, or those of the part `within` it. */
function locate(
  source: YamlSource,
  file: string,
  path: readonly PropertyKey[],
  message: string,
  at: ReportAt = {},
  dotted = false,
): Problem {
  const field = path.join('.');
  const where = dotted ? (field ? field.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : []) : path;
  const { line, col } = source.locate(where, { key: at.key ?? false });
  const { within } = at;
  // A one-line value written as read (no escapes): point at the column of the part the message is about.
  const offset = within ? (source.sourceText(where)?.indexOf(within.value) ?? -1) : -1;
  const inside = offset >= 0 && !within!.value.includes('\n');
  return { file, line, col: inside ? col + offset + within!.index : col, field: field || '(file)', message };
}
