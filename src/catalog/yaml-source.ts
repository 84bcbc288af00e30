import { isUtf8 } from 'node:buffer';
import type { Document, Node } from 'yaml';
import { yaml } from './libraries.js';
import { lineColOf, type Problem } from './problems.js';
import { readFlatYaml, type FlatYaml } from './yaml-flat.js';

/** One decoder for every file (decoding keeps no state between calls); it drops a leading BOM. */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: false });

/** Largest manifest or settings file we read; real ones are well under 2 KiB. */
export const MAX_SOURCE_BYTES = 64 * 1024;

/** Deepest nesting of mappings and lists we accept; a manifest has two levels (`lists: [...]`). */
const MAX_DEPTH = 16;

/** Explicit YAML tags that only restate a plain type (`version: !!str 2.10`); every other tag is refused. */
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/** A parsed YAML file that can point at the line and column of any of its fields. */
export interface YamlSource {
  /** The plain value of the document (`undefined` when the file could not be parsed). */
  value: unknown;
  /** Problems found while reading the text (encoding, syntax, duplicate keys, size). */
  problems: Problem[];
  /** The position of the node at `path` (the key for a missing or unknown field), or of its parent. */
  locate(path: readonly PropertyKey[], { key }?: { key?: boolean }): { line: number; col: number };
  /** The exact source text of the scalar at `path`, as the maintainer typed it. */
  sourceText(path: readonly PropertyKey[]): string | undefined;
  /**
   * Only for a file the flat reader read (yaml-flat.ts): its text, and the offset in it of what
   * `locate([key])` points at (the value of a top-level key, or the start of the mapping for a
   * missing key); `undefined` for a key whose value is a list or a mapping. With both, a position
   * can be found later, from the text alone (`lineColOf`, problems.ts), without keeping the source.
   */
  flat?: { text: string; offsetOf(key: string): number | undefined };
}

/**
 * Parses one YAML file from its bytes or text. Never throws: every trap (invalid UTF-8, a BOM,
 * several documents, aliases that expand without bound, duplicate keys) becomes a located problem.
 */
export function readYamlSource(input: string | Uint8Array, file: string): YamlSource {
  const problems: Problem[] = [];
  const at = (line: number, col: number, field: string, message: string) =>
    problems.push({ file, line, col, field, message });
  const unreadable = (message: string, line = 1, col = 1): YamlSource => {
    at(line, col, '(file)', message);
    return { value: undefined, problems, locate: () => ({ line, col }), sourceText: () => undefined };
  };

  const byteLength = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (byteLength > MAX_SOURCE_BYTES) {
    return unreadable(
      `the file is ${byteLength} bytes, over the ${MAX_SOURCE_BYTES}-byte limit for one file; ${whatItHolds(file)}`,
    );
  }
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    const bad = firstInvalidUtf8(input);
    if (bad !== -1) {
      const before = new TextDecoder().decode(input.subarray(0, bad));
      const lines = before.split('\n');
      return unreadable(
        `invalid UTF-8 at byte ${bad}; save the file as UTF-8`,
        lines.length,
        lines[lines.length - 1].length + 1,
      );
    }
    text = UTF8.decode(input);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const flat = readFlatYaml(text);
  return flat ? flatSource(flat, text, file) : composeYamlSource(text, file, problems);
}

/** A source read by {@link readFlatYaml}; anything but a top-level position asks the full parser. */
function flatSource(flat: FlatYaml, text: string, file: string): YamlSource {
  let full: YamlSource | undefined;
  const composed = () => (full ??= composeYamlSource(text, file));
  const offsetOf = (key: string, { key: ofKey = false } = {}) => {
    const value = flat.value[key];
    if (typeof value === 'object' && value !== null) return undefined;
    const at = flat.offsets.get(key);
    return at ? (ofKey ? at.key : at.value) : flat.start; // A missing key: where the mapping starts.
  };
  return {
    value: flat.value,
    problems: [],
    locate(path, options) {
      if (path.length === 0) return lineColOf(text, flat.start);
      const offset = path.length === 1 ? offsetOf(path[0] as string, options) : undefined;
      return offset === undefined ? composed().locate(path, options) : lineColOf(text, offset);
    },
    sourceText: (path) => composed().sourceText(path),
    flat: { text, offsetOf },
  };
}

/**
 * Parses text with the `yaml` package alone: every construct, exact positions, every syntax
 * problem. {@link readYamlSource} uses it for whatever {@link readFlatYaml} does not read.
 */
export function composeYamlSource(text: string, file: string, problems: Problem[] = []): YamlSource {
  const { LineCounter, parseDocument, isMap, isSeq, isScalar } = yaml();
  const at = (line: number, col: number, field: string, message: string) =>
    problems.push({ file, line, col, field, message });
  const unreadable = (message: string): YamlSource => {
    at(1, 1, '(file)', message);
    return { value: undefined, problems, locate: () => ({ line: 1, col: 1 }), sourceText: () => undefined };
  };
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    // Duplicate keys are found below, with a message that names the key and its first line.
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, strict: true });
  } catch (error) {
    return unreadable(parserFailure(error, file));
  }
  const pos = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: Math.max(line, 1), col: Math.max(col, 1) };
  };
  for (const error of doc.errors) {
    // The parser turns its own stack overflow into an error at a position that depends on the stack size.
    if (/call stack/i.test(error.message)) return unreadable(parserFailure(new RangeError(error.message), file));
    const { line, col } = pos(error.pos[0]);
    at(line, col, '(file)', yamlErrorMessage(error.code, error.message, file));
  }
  if (doc.errors.length === 0) {
    for (const { offset, field, message } of structureProblems(doc, text, file, pos)) {
      const { line, col } = pos(offset);
      at(line, col, field, message);
    }
  }

  let value: unknown;
  if (problems.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 50 });
    } catch (error) {
      at(
        1,
        1,
        '(file)',
        error instanceof RangeError
          ? parserFailure(error, file)
          : `${(error as Error).message}; write the values out instead of using YAML aliases`,
      );
    }
  }

  const nodeAt = (path: readonly PropertyKey[]): Node | undefined => {
    // Walk from the root so that a missing leaf still yields its nearest parent.
    let node: unknown = doc.contents;
    for (const segment of path) {
      if (isMap(node) || isSeq(node)) {
        const next = node.get(segment as never, true);
        if (next === undefined) return node as Node;
        node = next;
      } else break;
    }
    return node as Node | undefined;
  };
  const keyNode = (path: readonly PropertyKey[]): Node | undefined => {
    const parent = nodeAt(path.slice(0, -1));
    if (!isMap(parent)) return undefined;
    const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[path.length - 1]);
    return pair?.key as Node | undefined;
  };

  return {
    value,
    problems,
    locate(path, { key = false } = {}) {
      const node = (key ? keyNode(path) : undefined) ?? nodeAt(path);
      return node?.range ? pos(node.range[0]) : { line: 1, col: 1 };
    },
    sourceText(path) {
      const node = doc.getIn(path as PropertyKey[], true);
      return isScalar(node) && node.range ? text.slice(node.range[0], node.range[1]).trim() : undefined;
    },
  };
}

// --- internal ---

/**
 * What the schema cannot see once the document is plain data: keys written twice (the second would
 * silently win), tags that make other types (`!!binary`, `!!timestamp`, `!custom`), keys that are
 * not text, aliases of collections (an alias bomb) and nesting deeper than any manifest (a stack
 * bomb). Walks without recursion and without expanding aliases.
 */
function structureProblems(
  doc: Document.Parsed,
  text: string,
  file: string,
  pos: (offset: number) => { line: number; col: number },
): { offset: number; field: string; message: string }[] {
  const { isAlias, isMap, isNode, isPair, isScalar, isSeq } = yaml();
  const found: { offset: number; field: string; message: string }[] = [];
  const stack: { node: unknown; path: (string | number)[] }[] = [{ node: doc.contents, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const field = path.join('.') || '(file)';
    if (!isNode(node)) continue;
    const start = node.range?.[0] ?? 0;
    if (isAlias(node)) {
      // An alias of a list or mapping is how a few lines expand into billions of nodes; a value alias cannot.
      if (!isScalar(node.resolve(doc))) {
        const more = countCollectionAliases(stack, doc);
        found.push({
          offset: start,
          field,
          message: `the alias *${node.source} repeats a list or mapping${more > 0 ? ` (and ${more} more aliases do)` : ''}, which is refused: such aliases can expand without bound; write the values out`,
        });
        break;
      }
      continue;
    }
    if (path.length > MAX_DEPTH) {
      found.push({ offset: start, field, message: `nested more than ${MAX_DEPTH} levels deep; ${kindOf(file).shape}` });
      break;
    }
    if (node.tag !== undefined && !PLAIN_TAGS.has(node.tag)) {
      // The node's range starts after its tag; find the tag as written just before it.
      const written = /(![^\s]*)[ \t]*$/.exec(text.slice(Math.max(0, start - 200), start));
      const offset = written ? start - written[0].length : start;
      found.push({
        offset,
        field,
        message: `the YAML tag ${written?.[1] ?? node.tag} is not accepted; remove it and write the value as plain text`,
      });
      continue;
    }
    if (isMap(node)) {
      const first = new Map<string, number>();
      const children: { node: unknown; path: (string | number)[] }[] = [];
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyOffset = (pair.key as Node | null)?.range?.[0] ?? start;
        if (!isScalar(pair.key)) {
          found.push({
            offset: keyOffset,
            field,
            message: 'a key must be a plain name, not a list or mapping; write `name: value`',
          });
          continue;
        }
        const name = String(pair.key.value);
        const earlier = first.get(name);
        if (earlier !== undefined) {
          found.push({
            offset: keyOffset,
            field: [...path, name].join('.'),
            message: `\`${name}\` is written twice (first on line ${pos(earlier).line}); each field may appear once, keep one`,
          });
        } else first.set(name, keyOffset);
        children.push({ node: pair.value, path: [...path, name] });
      }
      // Reversed, so that the walk visits the document in reading order.
      stack.push(...children.reverse());
    } else if (isSeq(node)) {
      stack.push(...node.items.map((item, i) => ({ node: item, path: [...path, i] })).reverse());
    }
  }
  return found.sort((a, b) => a.offset - b.offset);
}

/** How many more aliases of collections the rest of the document holds, without expanding any. */
function countCollectionAliases(stack: { node: unknown }[], doc: Document.Parsed): number {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  let count = 0;
  const rest = stack.map((entry) => entry.node);
  while (rest.length > 0) {
    const node = rest.pop();
    if (isAlias(node)) count += isScalar(node.resolve(doc)) ? 0 : 1;
    else if (isMap(node)) for (const pair of node.items) rest.push(pair.key, pair.value);
    else if (isSeq(node)) rest.push(...node.items);
  }
  return count;
}

/** The kinds of YAML file in `content/`, each described in its own words in the messages about its shape. */
const KINDS = {
  device: {
    holds: 'a device file describes one device in a few lines',
    shape: 'a device file is a mapping of a few fields, its lists and links one level below',
    documents: "write the device's fields in one document",
  },
  site: {
    holds: 'site.yaml holds the settings of the site in a few lines',
    shape: 'site.yaml is a mapping of settings, its lists a level or two below',
    documents: 'write the settings in one document',
  },
  manifest: {
    holds: 'a manifest describes one build in a few lines',
    shape: 'a manifest is a flat list of fields',
    documents: 'write one build per file',
  },
} as const;

/** Which kind of file `file` is, by its path: a device file (`…/device.yaml`), site.yaml, or a manifest. */
function kindOf(file: string): (typeof KINDS)[keyof typeof KINDS] {
  if (file.slice(file.lastIndexOf('/') + 1) === 'device.yaml') return KINDS.device;
  if (file === 'content/site.yaml') return KINDS.site;
  return KINDS.manifest;
}

/** What a file of `content/` holds, for the messages about one too large: each kind in its own words. */
export function whatItHolds(file: string): string {
  return kindOf(file).holds;
}

/** The message for a parser that gave up; a stack overflow means nesting no manifest needs. */
function parserFailure(error: unknown, file: string): string {
  return error instanceof RangeError
    ? `the YAML is nested too deeply to read (${error.message}); ${kindOf(file).shape}`
    : `the YAML parser failed: ${(error as Error).message}`;
}

function yamlErrorMessage(code: string, message: string, file: string): string {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  switch (code) {
    case 'MULTIPLE_DOCS':
      return `the file holds several YAML documents (a \`---\` line); ${kindOf(file).documents}`;
    case 'TAB_AS_INDENT':
      return `${first}; indent with spaces`;
    default:
      return `YAML syntax: ${first}`;
  }
}

/** Byte offset of the first invalid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  // Node's own validator (simdutf): no text is made, and nothing is thrown for the common case.
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return -1;
}
