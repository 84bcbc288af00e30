/**
 * Extra request paths (`request_paths` in site.yaml): patterns such as `/api/v1/{device}_{list}`
 * that phones built for another server ask, answered from the same listing files as the built-in
 * shapes. This file holds the pattern rules; the route table (hosts/routes.ts) turns each pattern
 * into every host's rules. Pure.
 */

/** One extra request path: the pattern, and the list it answers when the pattern has no `{list}`. */
export interface RequestPath {
  pattern: string;
  list?: string;
  /** Where site.yaml declares it, for problems found once the devices are known. */
  line: number;
  col: number;
}

/** Where request paths live: under `/api/v1/`, every host already sends the API headers and JSON 404s. */
const REQUEST_PATH_PREFIX = '/api/v1/';

/** The v1 request shapes every site answers, as patterns; the route table is built from them. */
export const BUILT_IN_V1_PATHS = [
  '/api/v1/{device}/{list}',
  '/api/v1/{device}/{list}/',
  '/api/v1/{device}/{list}/{incremental}',
] as const;

/** The files the build writes under /api/v1/: a request path must not answer their paths either. */
const V1_FILES = ['/api/v1/{device}/{list}/index.json', '/api/v1/{device}/404.json', '/api/v1/{device}/404.html'];

const PLACEHOLDERS = ['device', 'list', 'incremental'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];
type Part = { literal: string } | { name: Placeholder };

/**
 * What is wrong with `pattern`, or undefined when it is usable: `lists` are the site's list names,
 * `fixedList` the `list:` given beside it, `earlier` the patterns declared before it.
 */
export function requestPathProblem(
  pattern: string,
  { lists, fixedList, earlier }: { lists: readonly string[]; fixedList?: string; earlier: readonly string[] },
): string | undefined {
  if (!pattern.startsWith(REQUEST_PATH_PREFIX)) {
    return `a request path starts with ${REQUEST_PATH_PREFIX}, e.g. /api/v1/{device}_{list}: under it every host sends the API headers and the JSON 404s`;
  }
  const unknown = /\{([^}]*)\}/g.exec(pattern.replace(/\{(device|list|incremental)\}/g, ''));
  if (unknown) return `unknown placeholder {${unknown[1]}}; use {device}, {list} and {incremental}`;
  const literal = pattern.replace(/\{(device|list|incremental)\}/g, '');
  const bad = /[^A-Za-z0-9._~/-]/.exec(literal);
  if (bad)
    return `\`${bad[0]}\` cannot be part of a request path; use letters, digits, \`.\`, \`_\`, \`~\`, \`-\` and \`/\` besides the placeholders`;
  const segments = splitPattern(pattern);
  if (
    segments.slice(0, -1).some((s) => s.length === 0) ||
    segments.some((s) => s.length === 1 && 'literal' in s[0] && /^\.\.?$/.test(s[0].literal))
  ) {
    return 'a request path has no empty, `.` or `..` segments';
  }
  const count = (name: Placeholder) => segments.flat().filter((p) => 'name' in p && p.name === name).length;
  if (count('device') !== 1) return 'a request path has {device} exactly once';
  if (fixedList !== undefined && count('list') > 0) return `it has {list} and \`list: ${fixedList}\`; keep one of them`;
  if (fixedList === undefined && count('list') !== 1)
    return 'a request path has {list} once, or give the list it answers: `- path: /api/v1/{device}.json` with `list: stable` below it';
  if (count('incremental') > 1) return 'a request path has {incremental} at most once';
  for (const segment of segments) {
    for (let i = 1; i < segment.length; i++) {
      if ('name' in segment[i] && 'name' in segment[i - 1])
        return 'two placeholders next to each other cannot be told apart; put a character between them, e.g. {device}_{list}';
    }
  }
  const inSegment = segments.some((s) => s.length > 1 && s.some((p) => 'name' in p));
  if (count('incremental') === 1) {
    const last = segments[segments.length - 1];
    if (!(last.length === 1 && 'name' in last[0] && last[0].name === 'incremental'))
      return '{incremental} is the whole last segment of a request path, e.g. /api/v1/{device}/{list}/{incremental}';
    if (inSegment) {
      return '{incremental} needs {device} and {list} to be whole segments: Cloudflare Pages takes such a path as one rule per device and list, and its rules with a placeholder are limited to 100';
    }
  }
  for (const segment of segments) {
    const names = segment.filter((p): p is { name: Placeholder } => 'name' in p).map((p) => p.name);
    if (!(names.includes('device') && names.includes('list'))) continue;
    const at = segment.flatMap((p, i) => ('name' in p ? [i] : []));
    const [from, to] = [at[0], at[at.length - 1]];
    const between = segment
      .slice(from + 1, to)
      .map((p) => ('literal' in p ? p.literal : ''))
      .join('');
    const clash = lists.find((list) => list.includes(between));
    if (clash)
      return `ambiguous: the list \`${clash}\` contains \`${between}\`, which separates {device} from {list} here; pick a separator no list name has`;
  }
  for (const other of [...BUILT_IN_V1_PATHS, ...V1_FILES, ...earlier]) {
    if (overlaps(segments, splitPattern(other), lists)) {
      const what = earlier.includes(other)
        ? `the request path ${other} above`
        : (BUILT_IN_V1_PATHS as readonly string[]).includes(other)
          ? `the built-in ${other}`
          : `the file ${other} of dist/`;
      return `can ask for the same path as ${what}; make it differ by a fixed part`;
    }
  }
  return undefined;
}

/** True when a placeholder of `pattern` shares its path segment with fixed text (`{device}_{list}`, `{device}.json`). */
export function hasInSegmentPlaceholder(pattern: string): boolean {
  return splitPattern(pattern).some((s) => s.length > 1 && s.some((p) => 'name' in p));
}

/**
 * Whether two patterns (`{device}`, `{list}`, `{incremental}`) can ask for one path, or one for a
 * folder the other's path lies in (`/{device}.json` and `/x.json/{device}.json`, device `x`):
 * the other updater families' files (formats.ts) must not share a path or a folder with a file.
 */
export function patternsMeet(a: string, b: string, lists: readonly string[]): boolean {
  const [x, y] = [splitPattern(a), splitPattern(b)];
  const depth = Math.min(x.length, y.length);
  return overlaps(x.slice(0, depth), y.slice(0, depth), lists);
}

// --- internal ---

function splitPattern(pattern: string): Part[][] {
  return pattern
    .slice(1)
    .split('/')
    .map((segment) =>
      segment
        .split(/(\{(?:device|list|incremental)\})/)
        .filter((piece) => piece !== '')
        .map((piece): Part =>
          /^\{(device|list|incremental)\}$/.test(piece)
            ? { name: piece.slice(1, -1) as Placeholder }
            : { literal: piece },
        ),
    );
}

/**
 * Whether two patterns can match one path. A {list} beside fixed text matches the site's list
 * names only (as the hosts' rules do), so it is expanded into them; then every segment holds at
 * most one placeholder, which matches any non-empty text without `/`, and two such segments meet
 * exactly when their fixed starts and ends are compatible.
 */
function overlaps(a: Part[][], b: Part[][], lists: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((segment, i) =>
    expand(segment, lists).some((x) => expand(b[i], lists).some((y) => segmentsOverlap(x, y))),
  );
}

/** A segment as fixed text around at most one placeholder. */
interface Shape {
  head: string;
  tail: string;
  placeholder: boolean;
}

function expand(segment: Part[], lists: readonly string[]): Shape[] {
  let shapes: { text: string; placeholderAt?: number }[] = [{ text: '' }];
  for (const part of segment) {
    if ('literal' in part) shapes = shapes.map((s) => ({ ...s, text: s.text + part.literal }));
    else if (part.name === 'list' && segment.length > 1)
      shapes = shapes.flatMap((s) => lists.map((list) => ({ ...s, text: s.text + list })));
    else shapes = shapes.map((s) => ({ ...s, placeholderAt: s.text.length }));
  }
  return shapes.map(({ text, placeholderAt }) =>
    placeholderAt === undefined
      ? { head: text, tail: '', placeholder: false }
      : { head: text.slice(0, placeholderAt), tail: text.slice(placeholderAt), placeholder: true },
  );
}

function segmentsOverlap(a: Shape, b: Shape): boolean {
  if (!a.placeholder && !b.placeholder) return a.head === b.head;
  if (!a.placeholder || !b.placeholder) {
    const [fixed, open] = a.placeholder ? [b.head, a] : [a.head, b];
    return (
      fixed.length > open.head.length + open.tail.length && fixed.startsWith(open.head) && fixed.endsWith(open.tail)
    );
  }
  return (
    (a.head.startsWith(b.head) || b.head.startsWith(a.head)) && (a.tail.endsWith(b.tail) || b.tail.endsWith(a.tail))
  );
}
