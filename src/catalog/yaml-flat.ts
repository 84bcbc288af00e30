import { yaml } from './libraries.js';

/**
 * A flat YAML mapping read without the `yaml` package's full parser, for the shape nearly every
 * manifest has: `key: value` lines, full-line comments, plain or simply quoted scalars and flow
 * lists of plain words; and one level of mapping below a key, of such lines (site.yaml's `lists:`).
 * It exists because composing a full YAML document costs about ten times the I/O of a build; this
 * reader costs a few microseconds per manifest. The first document `yaml` composes in a process
 * runs on cold code: reading a build's settings took 27 ms of a cold 1k build's start with it, 14
 * ms with this reader.
 *
 * It never guesses: any text outside that shape (other indentation, escapes, anchors, tags, block
 * scalars, duplicate keys, tabs, non-ASCII, CR, `---`, ...) returns `undefined`, and the caller
 * parses with `yaml`. Plain scalars are typed by the `yaml` package's own core-schema tags, so
 * `2.10`, `1e5`, `0x1f`, `~` and `True` mean what they mean to `yaml`; words and whole numbers, the
 * scalars of a plain manifest, are typed here as those tags type them, so that such a manifest is
 * read without loading `yaml` at all (libraries.ts). test/catalog/yaml-flat.test.ts compares both readers
 * on every manifest shape.
 */
export interface FlatYaml {
  value: Record<string, unknown>;
  /** Offset of each top-level key and of its value, by key. */
  offsets: Map<string, { key: number; value: number }>;
  /** Offset of the first key: where the mapping starts. */
  start: number;
}

/** Reads `text` if it is a flat mapping of the simple shape; `undefined` means "use `yaml`". */
export function readFlatYaml(text: string): FlatYaml | undefined {
  if (!SIMPLE_TEXT.test(text)) return undefined;
  const value: Record<string, unknown> = {};
  const offsets = new Map<string, { key: number; value: number }>();
  let start = -1;
  let offset = 0;
  // Read in place, by offsets into `text`: a string per line, a match per key and a wrapper per
  // value were most of what reading a manifest cost.
  while (offset < text.length) {
    let end = text.indexOf('\n', offset);
    if (end === -1) end = text.length;
    const lineStart = offset;
    offset = end + 1;
    if (end === lineStart || text.charCodeAt(lineStart) === HASH) continue;
    // A key `[a-z_][a-z0-9_]*` at column 0, `:` and one or more spaces before the value, or `:`
    // alone at the end of the line before a mapping on the lines below.
    const keyEnd = keyEndAt(text, lineStart, end);
    if (keyEnd === -1 || text.charCodeAt(keyEnd) !== COLON) return undefined;
    const below = keyEnd + 1 === end;
    if (!below && text.charCodeAt(keyEnd + 1) !== SPACE) return undefined;
    let valueAt = keyEnd + 2;
    while (valueAt < end && text.charCodeAt(valueAt) === SPACE) valueAt++;
    if (valueAt >= end && !below) return undefined;
    const key = text.slice(lineStart, keyEnd);
    if (!isFlatKey(key) || offsets.has(key)) return undefined;
    let parsed: unknown;
    if (below) {
      const mapping = readBlockMapping(text, offset);
      if (mapping === undefined) return undefined;
      parsed = mapping.value;
      valueAt = mapping.first;
      offset = mapping.next;
    } else if (valueAt + 1 === end && text.charCodeAt(valueAt) === PIPE) {
      // A literal block (a changelog): its lines follow, indented.
      const block = readLiteralBlock(text, offset);
      if (block === undefined) return undefined;
      parsed = block.value;
      offset = block.next;
    } else parsed = readValue(text, valueAt, end);
    if (parsed === NOT_FLAT) return undefined;
    value[key] = parsed;
    offsets.set(key, { key: lineStart, value: valueAt });
    if (start === -1) start = lineStart;
  }
  if (start === -1) return undefined;
  return { value, offsets, start };
}

// --- internal ---

/** Printable ASCII and newlines only; no tab, CR, BOM or non-ASCII character. */
const SIMPLE_TEXT = /^[\x20-\x7e\n]*$/;
/** A plain scalar of a block mapping value: no indicator first, no `: ` or ` #` inside. */
const PLAIN = /^[A-Za-z0-9._~+\/-](?:[^:#]|:(?! |$)|(?<! )#)*$/;
/** A plain scalar inside a flow list: also no `,`, `[`, `]`, `{`, `}`. */
const FLOW_PLAIN = /^[A-Za-z0-9._~+\/-](?:[^:#,[\]{}]|:(?![ ,[\]{}]|$)|(?<! )#)*$/;

/**
 * A literal block scalar (`key: |`, clip chomping) whose lines start at `from`: the indentation
 * of its first line, kept by every line up to the next line at column 0; blank lines are empty
 * (no spaces). `next` is where the rest of the mapping starts. Anything else (spaces on a blank
 * line, a line indented less but not at column 0, an end without a newline) is left to `yaml`.
 * The lines are only checked here; the value is then cut from the text in one piece, without its
 * trailing blank lines, and with the indentation taken off after each newline (a string per line,
 * sliced and joined again, cost a changelog more than the rest of its manifest).
 */
function readLiteralBlock(text: string, from: number): { value: string; next: number } | undefined {
  let indent = 0;
  let offset = from;
  // The newline ending the last line with text: the trailing blank lines are not part of the value.
  let end = -1;
  while (offset < text.length) {
    const lineEnd = text.indexOf('\n', offset);
    if (lineEnd === -1) return undefined;
    if (lineEnd > offset) {
      let spaces = 0;
      while (text.charCodeAt(offset + spaces) === 0x20) spaces++;
      if (offset + spaces === lineEnd) return undefined;
      if (indent === 0) indent = spaces;
      if (spaces === 0) break;
      if (spaces < indent) return undefined;
      end = lineEnd;
    } else if (indent === 0) return undefined;
    offset = lineEnd + 1;
  }
  if (end === -1) return undefined;
  return { value: text.slice(from + indent, end + 1).replaceAll(`\n${' '.repeat(indent)}`, '\n'), next: offset };
}

/**
 * A block mapping one level down, whose lines start at `from` (`lists:` above them, and below it
 * `  stable: [stable, official]`): every line indented by the spaces of the first, each one
 * `key: value` as the top level reads it, up to the next line at column 0; blank lines (no spaces)
 * may come between. `first` is where its first key starts, `next` where the rest of the text
 * does. Anything else (a comment, a line indented more or less, a list, a literal block, a level
 * further down, no line at all, which is a null) is left to `yaml`.
 */
function readBlockMapping(
  text: string,
  from: number,
): { value: Record<string, unknown>; first: number; next: number } | undefined {
  const value: Record<string, unknown> = {};
  let indent = 0;
  let first = -1;
  let offset = from;
  while (offset < text.length) {
    let end = text.indexOf('\n', offset);
    if (end === -1) end = text.length;
    if (end > offset) {
      let spaces = 0;
      while (text.charCodeAt(offset + spaces) === SPACE) spaces++;
      if (spaces === 0) break;
      if (indent === 0) indent = spaces;
      if (spaces !== indent) return undefined;
      const lineStart = offset + spaces;
      const keyEnd = keyEndAt(text, lineStart, end);
      if (keyEnd === -1 || text.charCodeAt(keyEnd) !== COLON || text.charCodeAt(keyEnd + 1) !== SPACE) return undefined;
      let valueAt = keyEnd + 2;
      while (valueAt < end && text.charCodeAt(valueAt) === SPACE) valueAt++;
      if (valueAt === end || (valueAt + 1 === end && text.charCodeAt(valueAt) === PIPE)) return undefined;
      const key = text.slice(lineStart, keyEnd);
      if (!isFlatKey(key) || Object.hasOwn(value, key)) return undefined;
      const parsed = readValue(text, valueAt, end);
      if (parsed === NOT_FLAT) return undefined;
      value[key] = parsed;
      if (first === -1) first = lineStart;
    }
    offset = end + 1;
  }
  return first === -1 ? undefined : { value, first, next: offset };
}

/** Whether a key read by {@link keyEndAt} is the text it says: not a null or a bool, not too long for an implicit key (1024), not `__proto__`. */
function isFlatKey(key: string): boolean {
  return key.length <= 1000 && key !== '__proto__' && resolvePlain(key) === key;
}

/** What {@link readValue} returns for a value it leaves to `yaml`. */
const NOT_FLAT = Symbol('not flat');

const HASH = 0x23;
const COLON = 0x3a;
const SPACE = 0x20;
const PIPE = 0x7c;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BRACKET = 0x5b;

/** Where the key `[a-z_][a-z0-9_]*` at `from` ends, or -1 when the line does not start with one. */
function keyEndAt(text: string, from: number, end: number): number {
  const first = text.charCodeAt(from);
  if (!((first >= 0x61 && first <= 0x7a) || first === 0x5f)) return -1;
  let at = from + 1;
  for (; at < end; at++) {
    const c = text.charCodeAt(at);
    if (!((c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x5f)) break;
  }
  return at;
}

/** Whether `[from, end)`, after a quoted scalar or a flow list, is spaces or nothing, or spaces and a comment (` *| +#.*`). */
function restIsBlank(text: string, from: number, end: number): boolean {
  let at = from;
  while (at < end && text.charCodeAt(at) === SPACE) at++;
  return at === end || (at > from && text.charCodeAt(at) === HASH);
}

/** The value of the line's text `[at, end)`, or {@link NOT_FLAT}. */
function readValue(text: string, at: number, end: number): unknown {
  const first = text.charCodeAt(at);
  if (first === QUOTE || first === APOSTROPHE) {
    const close = text.indexOf(text[at], at + 1);
    if (close === -1 || close >= end) return NOT_FLAT;
    const inner = text.slice(at + 1, close);
    if (first === QUOTE && inner.includes('\\')) return NOT_FLAT;
    if (!restIsBlank(text, close + 1, end)) return NOT_FLAT;
    return inner;
  }
  if (first === BRACKET) {
    const close = text.indexOf(']', at);
    if (close === -1 || close >= end || !restIsBlank(text, close + 1, end)) return NOT_FLAT;
    const inner = text.slice(at + 1, close);
    if (inner.trim() === '') return [];
    const items: unknown[] = [];
    for (const raw of inner.split(',')) {
      const item = raw.trim();
      if (!FLOW_PLAIN.test(item) || item.startsWith('- ') || item === '-') return NOT_FLAT;
      items.push(resolvePlain(item));
    }
    return items;
  }
  // A plain scalar runs to the end of the line or to a ` #` comment; trailing spaces are not part of it.
  let scalarEnd = end;
  for (let k = at + 1; k < end; k++) {
    if (text.charCodeAt(k) === HASH && text.charCodeAt(k - 1) === SPACE) {
      scalarEnd = k - 1;
      break;
    }
  }
  while (scalarEnd > at && text.charCodeAt(scalarEnd - 1) === SPACE) scalarEnd--;
  const scalar = text.slice(at, scalarEnd);
  if (!PLAIN.test(scalar) || scalar.startsWith('- ') || scalar === '-' || scalar.startsWith('? ') || scalar === '?')
    return NOT_FLAT;
  return resolvePlain(scalar);
}

/** A core-schema tag of the `yaml` package: its test, and how it reads a scalar that passes it. */
interface CoreTag {
  test: RegExp;
  resolve(text: string, onError: () => void, options: unknown): unknown;
}

/**
 * The core-schema tags of the `yaml` package, in its order (null, bool, int, float, ...), and the
 * options to resolve with; taken from `yaml` the first time a scalar needs them (see libraries.ts).
 */
let core: { tags: CoreTag[]; options: unknown } | undefined;
function coreTags(): { tags: CoreTag[]; options: unknown } {
  if (core) return core;
  const { schema, options } = yaml().parseDocument('');
  return (core = {
    tags: schema.tags.filter((tag) => tag.default === true && tag.test && !tag.collection) as unknown as CoreTag[],
    options,
  });
}

/**
 * The scalars starting with a letter that the core schema reads as null or a bool, and what they
 * read as (yaml's nullTag and boolTag: schema/common/null.js, schema/core/bool.js).
 */
const CORE_WORDS = new Map<string, null | boolean>([
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/** Types a plain scalar exactly as `yaml` does: the first default tag whose test matches. */
function resolvePlain(text: string): unknown {
  // Most values of a manifest start with a letter (file names, channels, incrementals, hashes that
  // do): in the core schema such a scalar is text unless it is a null or bool word, so it needs
  // none of the tags' tests. test/catalog/yaml-flat.test.ts compares the result with `yaml` on such words.
  const first = text.charCodeAt(0);
  if ((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) {
    const word = CORE_WORDS.get(text);
    return word === undefined ? text : word;
  }
  // Timestamps, sizes, and hashes that start with a digit: of the core tags, only int (all digits)
  // and float (digits with `.`, `e`, `E`, `+`, `-`) match a scalar starting with a digit, and
  // int's 0o and 0x forms; any other character makes it text.
  if (isDigit(first)) {
    let at = 1;
    while (at < text.length && isDigit(text.charCodeAt(at))) at++;
    // All digits: yaml's int tag, whose resolve is `parseInt(text, 10)` (intResolve in the core
    // schema of yaml 2, schema/core/int.js; intAsBigInt is off). Without loading yaml: a manifest's
    // timestamp and size are such scalars.
    if (at === text.length) return parseInt(text, 10);
    const prefixed = at === 1 && first === 0x30 && (text[1] === 'x' || text[1] === 'o');
    if (!prefixed && !onlyFloatCharacters(text, at)) return text;
  }
  const { tags, options } = coreTags();
  for (const tag of tags) {
    if (!tag.test.test(text)) continue;
    const resolved = tag.resolve(text, () => {}, options);
    return yaml().isScalar(resolved) ? resolved.value : resolved;
  }
  return text;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether `text` from `at` on has only digits and `.eE+-`, the characters of a float. */
function onlyFloatCharacters(text: string, at: number): boolean {
  for (let k = at; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (!isDigit(c) && c !== 0x2e && c !== 0x65 && c !== 0x45 && c !== 0x2b && c !== 0x2d) return false;
  }
  return true;
}
