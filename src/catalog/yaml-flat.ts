import { isScalar, parseDocument } from 'yaml';

/**
 * A flat YAML mapping read without the `yaml` package's full parser, for the shape nearly every
 * manifest has: `key: value` lines, full-line comments, plain or simply quoted scalars and flow
 * lists of plain words. It exists because composing a full YAML document costs about ten times
 * the I/O of a build; this reader costs a few microseconds per manifest.
 *
 * It never guesses: any text outside that shape (indentation, escapes, anchors, tags, block
 * scalars, duplicate keys, tabs, non-ASCII, CR, `---`, ...) returns `undefined`, and the caller
 * parses with `yaml`. Plain scalars are typed by the `yaml` package's own core-schema tags, so
 * `2.10`, `1e5`, `0x1f`, `~` and `True` mean what they mean to `yaml`. test/yaml-flat.test.ts
 * compares both readers on every manifest shape.
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
  while (offset < text.length) {
    let end = text.indexOf('\n', offset);
    if (end === -1) end = text.length;
    const line = text.slice(offset, end);
    const lineStart = offset;
    offset = end + 1;
    if (line === '' || line[0] === '#') continue;
    const match = KEY_LINE.exec(line);
    if (!match) return undefined;
    const key = match[1];
    if (key.length > 1000) return undefined; // An implicit key is limited to 1024 characters.
    if (key === '__proto__' || offsets.has(key) || resolvePlain(key) !== key) return undefined;
    const valueAt = match[0].length;
    let parsed: { value: unknown } | undefined;
    if (line.slice(valueAt) === '|') {
      // A literal block (a changelog): its lines follow, indented.
      const block = readLiteralBlock(text, offset);
      if (block === undefined) return undefined;
      parsed = { value: block.value };
      offset = block.next;
    } else parsed = readValue(line, valueAt);
    if (parsed === undefined) return undefined;
    value[key] = parsed.value;
    offsets.set(key, { key: lineStart, value: lineStart + valueAt });
    if (start === -1) start = lineStart;
  }
  if (start === -1) return undefined;
  return { value, offsets, start };
}

// --- internal ---

/** Printable ASCII and newlines only; no tab, CR, BOM or non-ASCII character. */
const SIMPLE_TEXT = /^[\x20-\x7e\n]*$/;
/** A key at column 0, `:` and one or more spaces before the value. */
const KEY_LINE = /^([a-z_][a-z0-9_]*): +(?=[^ ])/;
/** A plain scalar of a block mapping value: no indicator first, no `: ` or ` #` inside. */
const PLAIN = /^[A-Za-z0-9._~+\/-](?:[^:#]|:(?! |$)|(?<! )#)*$/;
/** A plain scalar inside a flow list: also no `,`, `[`, `]`, `{`, `}`. */
const FLOW_PLAIN = /^[A-Za-z0-9._~+\/-](?:[^:#,[\]{}]|:(?![ ,[\]{}]|$)|(?<! )#)*$/;
/** Comment or nothing after a quoted scalar or a flow list. */
const REST = /^(?: *| +#.*)$/;

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

function readValue(line: string, at: number): { value: unknown } | undefined {
  const first = line[at];
  if (first === '"' || first === "'") {
    const close = line.indexOf(first, at + 1);
    if (close === -1) return undefined;
    const inner = line.slice(at + 1, close);
    if (first === '"' && inner.includes('\\')) return undefined;
    if (!REST.test(line.slice(close + 1))) return undefined;
    return { value: inner };
  }
  if (first === '[') {
    const close = line.indexOf(']', at);
    if (close === -1 || !REST.test(line.slice(close + 1))) return undefined;
    const inner = line.slice(at + 1, close);
    if (inner.trim() === '') return { value: [] };
    const items: unknown[] = [];
    for (const raw of inner.split(',')) {
      const item = raw.trim();
      if (!FLOW_PLAIN.test(item) || item.startsWith('- ') || item === '-') return undefined;
      items.push(resolvePlain(item));
    }
    return { value: items };
  }
  // A plain scalar runs to the end of the line or to a ` #` comment; trailing spaces are not part of it.
  const comment = line.indexOf(' #', at);
  const scalar = (comment === -1 ? line.slice(at) : line.slice(at, comment)).trimEnd();
  if (!PLAIN.test(scalar) || scalar.startsWith('- ') || scalar === '-' || scalar.startsWith('? ') || scalar === '?') return undefined;
  return { value: resolvePlain(scalar) };
}

/** The core-schema tags of the `yaml` package, in its order: null, bool, int, float, ... */
const TAGS = parseDocument('').schema.tags.filter((tag) => tag.default === true && tag.test && !tag.collection) as unknown as {
  test: RegExp;
  resolve(text: string, onError: () => void, options: unknown): unknown;
}[];
const OPTIONS = parseDocument('').options;
/** The scalars starting with a letter that the core schema reads as null or a bool (yaml's nullTag and boolTag). */
const CORE_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** Types a plain scalar exactly as `yaml` does: the first default tag whose test matches. */
function resolvePlain(text: string): unknown {
  // Most values of a manifest start with a letter (file names, channels, incrementals, hashes that
  // do): in the core schema such a scalar is text unless it is a null or bool word, so it needs
  // none of the tags' tests. test/yaml-flat.test.ts compares the result with `yaml` on such words.
  const first = text.charCodeAt(0);
  if (((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) && !CORE_WORDS.has(text)) return text;
  for (const tag of TAGS) {
    if (tag.test.test(text)) {
      const resolved = tag.resolve(text, () => {}, OPTIONS);
      return isScalar(resolved) ? resolved.value : resolved;
    }
  }
  return text;
}
