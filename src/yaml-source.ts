import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { Problem } from './problems.js';
import { readFlatYaml, type FlatYaml } from './yaml-flat.js';

/** Largest manifest or settings file we read; real ones are well under 2 KiB. */
export const MAX_SOURCE_BYTES = 64 * 1024;

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
      `the file is ${byteLength} bytes, over the ${MAX_SOURCE_BYTES}-byte limit for one file; a manifest describes one build in a few lines`,
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
    text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(input);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const flat = readFlatYaml(text);
  return flat ? flatSource(flat, text, file) : composeYamlSource(text, file, problems);
}

/** A source read by {@link readFlatYaml}; anything but a top-level position asks the full parser. */
function flatSource(flat: FlatYaml, text: string, file: string): YamlSource {
  let full: YamlSource | undefined;
  const composed = () => (full ??= composeYamlSource(text, file));
  const pos = (offset: number) => {
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { line, col: offset - lineStart + 1 };
  };
  return {
    value: flat.value,
    problems: [],
    locate(path, options) {
      if (path.length === 0) return pos(flat.start);
      if (path.length === 1 && !Array.isArray(flat.value[path[0] as string])) {
        const at = flat.offsets.get(path[0] as string);
        return pos(at ? (options?.key ? at.key : at.value) : flat.start); // A missing key: where the mapping starts.
      }
      return composed().locate(path, options);
    },
    sourceText: (path) => composed().sourceText(path),
  };
}

/**
 * Parses text with the `yaml` package alone: every construct, exact positions, every syntax
 * problem. {@link readYamlSource} uses it for whatever {@link readFlatYaml} does not read.
 */
export function composeYamlSource(text: string, file: string, problems: Problem[] = []): YamlSource {
  const at = (line: number, col: number, field: string, message: string) =>
    problems.push({ file, line, col, field, message });
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (error) {
    at(1, 1, '(file)', `the YAML parser failed: ${(error as Error).message}`);
    return { value: undefined, problems, locate: () => ({ line: 1, col: 1 }), sourceText: () => undefined };
  }
  const pos = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: Math.max(line, 1), col: Math.max(col, 1) };
  };
  for (const error of doc.errors) {
    const { line, col } = pos(error.pos[0]);
    at(line, col, '(file)', yamlErrorMessage(error.code, error.message));
  }

  let value: unknown;
  if (doc.errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 50 });
    } catch (error) {
      at(1, 1, '(file)', `${(error as Error).message}; write the values out instead of using YAML aliases`);
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

function yamlErrorMessage(code: string, message: string): string {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  switch (code) {
    case 'DUPLICATE_KEY':
      return `${first}; each field may appear once, remove one of them`;
    case 'MULTIPLE_DOCS':
      return 'the file holds several YAML documents (a `---` line); write one build per file';
    case 'TAB_AS_INDENT':
      return `${first}; indent with spaces`;
    default:
      return `YAML syntax: ${first}`;
  }
}

/** Byte offset of the first invalid UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return -1;
  } catch {
    // Fall through to find where, only on the rare bad file.
  }
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
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
