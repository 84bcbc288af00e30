/**
 * Positions in a saved listing's JSON text, so that every problem names its line and column. The
 * text has already passed `JSON.parse`; this scans it without building a second tree, so a listing
 * of a million records costs one offset per record (a YAML document of every node
 * took gigabytes for a 4 MiB `[{},{},...]`).
 */

/** Line and column (1-based) of a JSON path such as `['response', 3, 'size']`: the value's first character, else its nearest existing parent's. */
export type JsonLocator = ((path: readonly (string | number)[]) => { line: number; col: number }) & {
  /** The source text of the value at `path` (a number as written: `4.10`), or `undefined` when there is none. */
  literal(path: readonly (string | number)[]): string | undefined;
};

/** A locator for `text`, whose records are the elements of the array at `base` (`[]` or `['response']`). */
export function locateJson(text: string, base: readonly string[]): JsonLocator {
  let lineStarts: number[] | undefined;
  let elements: number[] | undefined;
  let array: number | undefined;
  const position = (offset: number) => positionOf((lineStarts ??= startsOfLines(text)), offset);
  /** The offset of the deepest value along `path` that exists, and whether it is the whole path's. */
  const offsetOf = (path: readonly (string | number)[]): { offset: number; found: boolean } => {
    if (array === undefined) {
      let offset = skipSpace(text, 0);
      for (const key of base) offset = memberOffset(text, offset, key) ?? offset;
      array = offset;
      elements = elementOffsets(text, array);
    }
    const [index, ...rest] = path.slice(base.length);
    if (typeof index !== 'number' || elements![index] === undefined)
      return { offset: path.length <= base.length ? array : 0, found: path.length === base.length };
    let offset = elements![index];
    // Below a record (a v2 entry's `files.0.url`): each member or element in turn.
    for (const step of rest) {
      const next = typeof step === 'number' ? elementOffsets(text, offset)[step] : memberOffset(text, offset, step);
      if (next === undefined) return { offset, found: false };
      offset = next;
    }
    return { offset, found: true };
  };
  const locate = (path: readonly (string | number)[]) => position(offsetOf(path).offset);
  return Object.assign(locate, {
    literal(path: readonly (string | number)[]) {
      const { offset, found } = offsetOf(path);
      return found ? text.slice(offset, skipValue(text, offset)) : undefined;
    },
  });
}

// --- internal ---

/** The offset at which each line of `text` starts. */
export function startsOfLines(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Line and column (1-based) of `offset`, by the line starts of {@link startsOfLines}. */
export function positionOf(starts: readonly number[], offset: number): { line: number; col: number } {
  let [low, high] = [0, starts.length - 1];
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, col: offset - starts[low] + 1 };
}

function skipSpace(text: string, i: number): number {
  while (
    i < text.length &&
    (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t' || text[i] === '\ufeff')
  )
    i++;
  return i;
}

/** The offset just past the string that starts at `i` (a `"`). */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}

/** The offset just past the value that starts at `i`. */
function skipValue(text: string, i: number): number {
  if (text[i] === '"') return skipString(text, i);
  if (text[i] !== '{' && text[i] !== '[') {
    while (i < text.length && !',]}'.includes(text[i]) && !/\s/.test(text[i])) i++;
    return i;
  }
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i) - 1;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return i;
}

/** Where the value of member `key` of the object at `i` starts (the last one, as JSON.parse keeps), or `undefined`. */
function memberOffset(text: string, i: number, key: string): number | undefined {
  if (text[i] !== '{') return undefined;
  let found: number | undefined;
  i = skipSpace(text, i + 1);
  while (i < text.length && text[i] === '"') {
    const end = skipString(text, i);
    const name = JSON.parse(text.slice(i, end)) as string;
    const value = skipSpace(text, skipSpace(text, end) + 1);
    if (name === key) found = value;
    i = skipSpace(text, skipValue(text, value));
    if (text[i] !== ',') break;
    i = skipSpace(text, i + 1);
  }
  return found;
}

/** Where each element of the array at `i` starts. */
function elementOffsets(text: string, i: number): number[] {
  const offsets: number[] = [];
  if (text[i] !== '[') return offsets;
  i = skipSpace(text, i + 1);
  while (i < text.length && text[i] !== ']') {
    offsets.push(i);
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ',') break;
    i = skipSpace(text, i + 1);
  }
  return offsets;
}
