/**
 * A saved listing that is not strict JSON, read as the phone's own parser reads it, and no more
 * leniently: Android's org.json (the Java updaters) or kotlinx.serialization (the Kotlin ones).
 * Returns the value, each leniency used at its line and column, in words a maintainer reads, and a
 * locator for the records and keys; or the line and column where that parser fails. Pure.
 *
 * org.json's rules are those of libcore's `JSONTokener` (json/src/main/java/org/json/JSONTokener.java,
 * CyanogenMod/android_libcore at 5501a3d4b3d7657c183ed5446fe67fa011fbf70b; a leading U+FEFF is
 * skipped by the later AOSP constructor): `/* *\/`, `//` and `#` comments; `'` or `"` quotes; any
 * unknown escape is its character; an unquoted word is `null`/`true`/`false` in any case, a
 * number (`0x` hexadecimal, a leading `0` octal, else `Double.valueOf`), else the word as text;
 * `:`, `=` or `=>` after a name, `,` or `;` between members; a separator without a value in an
 * array is null; nothing after the first value is read. The Java updaters read the downloaded
 * file line by line and append the lines with nothing between them (LineageOS's
 * `Utils.parseJson`, and every fork of it), so a `//` or `#` comment runs to the end of the file.
 *
 * kotlinx's (`AbstractJsonLexer`, `StreamingJsonDecoder`): quoted keys and strings, no comments,
 * no trailing comma, nothing after the value; an unquoted token is read where a number is
 * declared (`consumeNumericLiteral`: leading zeros allowed) and skipped under a key the class
 * does not declare; `isLenient` also reads unquoted keys and strings. OkHttp's `string()` drops a
 * byte order mark before kotlinx sees the text; `decodeToString()` does not.
 */
import { positionOf, startsOfLines, type JsonLocator } from './locate-json.js';

/** The declared type of a value a kotlinx reader decodes: a String, a Long or Int, a list, or a class of fields. */
export type KxType =
  'String' | 'Long' | 'Int' | { readonly list: KxType } | { readonly fields: Record<string, KxType> };

/** How one updater parses its answer. */
export type JsonReader =
  | {
      readonly parser: 'org-json';
      /** The file's lines are appended with nothing between them before parsing (every Java updater). */
      readonly joinsLines: boolean;
    }
  | {
      readonly parser: 'kotlinx';
      readonly isLenient: boolean;
      /** The body went through OkHttp's `string()`, which drops a byte order mark. */
      readonly bomConsumed: boolean;
      /** The class the answer is decoded into; keys it does not declare are skipped (`ignoreUnknownKeys`). */
      readonly root: KxType;
    };

/** One leniency used: where, and what the phone makes of it. */
export interface Leniency {
  line: number;
  col: number;
  what: string;
}

/** What reading leniently gives: the value (as JSON.parse would give it) with the leniencies and a locator, or where the parser fails. */
export type LenientRead =
  | {
      ok: true;
      value: unknown;
      /** The first {@link MAX_LENIENCIES} leniencies, in the order of the text. */
      leniencies: Leniency[];
      /** How many leniencies the text uses in all. */
      leniencyCount: number;
      locate: JsonLocator;
    }
  | { ok: false; line: number; col: number; reason: string };

/**
 * Reads `text` (without its byte order mark; `bom` says whether the file had one) as `reader`
 * does. Every position is the text's own line and column, also where the reader joins lines.
 * `locating: false` locates nothing but the document (for a reading only compared with another).
 */
export function readLenientJson(text: string, reader: JsonReader, bom = false, locating = true): LenientRead {
  const source = reader.parser === 'org-json' && reader.joinsLines ? joinedLines(text) : { text, origin: undefined };
  const lines = startsOfLines(text);
  const place = (offset: number) => {
    const original = source.origin ? source.origin[Math.min(offset, source.origin.length - 1)] : offset;
    return positionOf(lines, original);
  };
  // The text the parser reads (org.json's with its lines joined), where each value's offset is.
  const parsed = reader.parser === 'org-json' ? source.text : text;
  const parser =
    reader.parser === 'org-json'
      ? new OrgJsonParser(parsed, place, locating)
      : new KotlinxParser(parsed, place, locating, reader);
  if (bom) {
    if (reader.parser === 'kotlinx' && !reader.bomConsumed) return { ok: false, line: 1, col: 1, reason: BOM_REFUSED };
    const by = reader.parser === 'org-json' ? "the phone's parser" : 'OkHttp';
    parser.lenient(0, `a byte order mark (U+FEFF) before the JSON, which ${by} drops`);
  }
  try {
    const { value, node } = parser.document();
    const { leniencies, leniencyCount } = parser;
    return { ok: true, value, leniencies, leniencyCount, locate: locator(node, place, parsed) };
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    return { ok: false, ...place(error.offset), reason: error.message };
  }
}

// --- internal ---

/** Leniencies kept in full; past it they are only counted (a listing of a million records may use one in each). */
const MAX_LENIENCIES = 100;

const BOM_REFUSED =
  'a byte order mark (U+FEFF) before the JSON: this updater decodes the bytes itself (decodeToString) and kotlinx refuses the mark';

/**
 * Where a value starts, and for a container where its members (`keys` beside `children`) or
 * elements do. Kept to the depth of a record's members (`response.3.size`), which is all the
 * import locates: a 4 MiB listing of small records stays a few hundred megabytes.
 */
interface Node {
  at: number;
  keys?: string[];
  children?: Node[];
}

/** The deepest nesting read; past it the text is refused, not read by recursion until the stack runs out. */
const MAX_DEPTH = 512;

/** The depth of containers (the document's own is 1) whose members or elements are located. */
const LOCATED_DEPTH = 3;

class ParseFailure extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** The text with its line terminators removed, and for each offset of it the offset in the text. */
function joinedLines(text: string): { text: string; origin: Int32Array | undefined } {
  if (!/[\r\n]/.test(text)) return { text, origin: undefined };
  const origin = new Int32Array(text.length + 1);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x0d && c !== 0x0a) origin[n++] = i;
  }
  origin[n] = text.length;
  return { text: text.replace(/[\r\n]/g, ''), origin: origin.subarray(0, n + 1) };
}

/**
 * The line and column of a path's value, else of its nearest existing parent; and the text of a
 * value written as a word (a number as written: `4.10`), read from `text` up to where the
 * tokener ends a literal.
 */
function locator(root: Node, place: (offset: number) => { line: number; col: number }, text: string): JsonLocator {
  const nodeAt = (path: readonly (string | number)[]): { node: Node; found: boolean } => {
    let node = root;
    for (const step of path) {
      const index =
        typeof step === 'number' ? (node.keys === undefined ? step : -1) : (node.keys?.lastIndexOf(step) ?? -1);
      const next = index === -1 ? undefined : node.children?.[index];
      if (next === undefined) return { node, found: false };
      node = next;
    }
    return { node, found: true };
  };
  return Object.assign((path: readonly (string | number)[]) => place(nodeAt(path).node.at), {
    literal(path: readonly (string | number)[]) {
      const { node, found } = nodeAt(path);
      return found ? /^[^{}[\]/\\:,=;#\s"']+/.exec(text.slice(node.at, node.at + 400))?.[0] : undefined;
    },
  });
}

/** Sets a member as JSON.parse does: `__proto__` is an own key, not the object's prototype. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** A token as JSON writes it: `null`, `true`, `false` or a number. */
const JSON_LITERAL = /^(?:null|true|false|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/** A token or text as a message quotes it: short, its line breaks and quotes visible. */
function shown(text: string): string {
  const body = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"');
  return `\`${body.length > 40 ? `${body.slice(0, 37)}...` : body}\``;
}

/** What both parsers share: the text, where a leniency is, and the failure at an offset. */
abstract class Parser {
  readonly leniencies: Leniency[] = [];
  leniencyCount = 0;
  protected pos = 0;
  /** How many containers are open at `pos`. */
  protected depth = 0;
  constructor(
    protected readonly s: string,
    protected readonly place: (offset: number) => { line: number; col: number },
    private readonly locating: boolean,
  ) {}

  abstract document(): { value: unknown; node: Node };

  /** Records where a member (with its key) or an element starts, down to {@link LOCATED_DEPTH}. */
  protected track(node: Node, child: Node, key?: string): void {
    if (this.depth > LOCATED_DEPTH || !this.locating) return;
    if (key !== undefined) (node.keys ??= []).push(key);
    (node.children ??= []).push(child);
  }

  /** Reads a container one level deeper. */
  protected nested<T>(at: number, read: () => T): T {
    // Both parsers read nesting by recursion: far before this depth a phone's stack would give out.
    if (++this.depth > MAX_DEPTH)
      this.fail(
        at,
        `arrays or objects nested more than ${MAX_DEPTH} deep, which no listing is and the phone's parser does not read`,
      );
    const result = read();
    this.depth--;
    return result;
  }

  lenient(offset: number, what: string): void {
    if (++this.leniencyCount <= MAX_LENIENCIES) this.leniencies.push({ ...this.place(offset), what });
  }

  protected fail(offset: number, message: string): never {
    throw new ParseFailure(offset, message);
  }
}

/** The characters that end an unquoted org.json word (besides CR and LF). */
const ORG_WORD_END = '{}[]/\\:,=;# \t\f';
const ORG_ESCAPES: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f' };

class OrgJsonParser extends Parser {
  /** Where a `//` or `#` comment ran to the end of the text, taking later lines with it. */
  private swallowed: number | undefined;

  document(): { value: unknown; node: Node } {
    const start = this.clean();
    if (start === -1) this.fail(this.s.length, this.ended('the file holds no JSON'));
    if (this.s[start] !== '{') this.fail(start, 'the file does not start with `{`: the phone reads one JSON object');
    this.pos = start;
    const read = this.value();
    const rest = this.s.slice(this.pos).search(/[^ \t\r\n]/);
    if (rest !== -1)
      this.lenient(this.pos + rest, `text after the end of the JSON, which the phone's parser does not read`);
    return read;
  }

  /** The next value: its first character is the next one not blank or comment. */
  private value(): { value: unknown; node: Node } {
    const at = this.clean();
    if (at === -1) this.fail(this.s.length, this.ended('the file ends where a value should be'));
    const c = this.s[at];
    if (c === '{') return this.nested(at, () => this.object(at));
    if (c === '[') return this.nested(at, () => this.array(at));
    if (c === '"' || c === "'") return { value: this.string(at), node: { at } };
    this.pos = at;
    return { value: this.word(at), node: { at } };
  }

  private ended(what: string): string {
    if (this.swallowed === undefined) return what;
    return `${what}: the comment at ${this.where(this.swallowed)} runs to the end of the file, because the phone reads the file's lines joined into one; remove it or write it as /* ... */`;
  }

  private where(offset: number): string {
    const { line, col } = this.place(offset);
    return `${line}:${col}`;
  }

  /** Skips blanks and comments (noting each comment); the offset of the next character, or -1 at the end. */
  private clean(): number {
    while (this.pos < this.s.length) {
      const at = this.pos;
      const c = this.s[this.pos++];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
      const next = this.s[this.pos];
      const kind = c === '#' ? '#' : c === '/' && (next === '*' || next === '/') ? next : '';
      if (kind === '') return at; // consumed, as the tokener's nextCleanInternal does
      if (kind === '*') {
        const end = this.s.indexOf('*/', this.pos + 1);
        if (end === -1) this.fail(at, 'a /* comment is never closed');
        this.pos = end + 2;
      } else {
        // To the end of the line, and past its terminator; with the lines joined, to the end of the text.
        while (this.pos < this.s.length && this.s[this.pos] !== '\n' && this.s[this.pos] !== '\r') this.pos++;
        if (this.pos < this.s.length) this.pos++;
        else if (this.place(this.s.length).line > this.place(at).line) this.swallowed = at;
      }
      const text = this.s.slice(at, this.pos).replace(/[\r\n]$/, '');
      this.lenient(at, `a comment ${shown(text)}, which the phone's parser skips`);
    }
    return -1;
  }

  /** A string quoted with `quote` (at `at`), as the tokener unescapes it. */
  private string(at: number): string {
    const quote = this.s[at];
    if (quote === "'") this.lenient(at, `a string in single quotes, which the phone's parser reads as text`);
    let out = '';
    let start = this.pos;
    let odd: string | undefined;
    let oddAt = at;
    const mark = (offset: number, what: string) => {
      if (odd === undefined) [oddAt, odd] = [offset, what];
    };
    while (this.pos < this.s.length) {
      const c = this.s[this.pos++];
      if (c === quote) {
        out += this.s.slice(start, this.pos - 1);
        if (this.place(this.pos - 1).line !== this.place(at).line)
          mark(
            at,
            `a string broken over lines, which the phone reads with the line break left out (it joins the file's lines)`,
          );
        if (odd) this.lenient(oddAt, odd);
        return out;
      }
      if (c < ' ')
        mark(
          this.pos - 1,
          `a control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} inside a string, which the phone keeps as it is`,
        );
      if (c !== '\\') continue;
      if (this.pos === this.s.length) this.fail(this.pos - 1, 'an escape `\\` at the very end of the file');
      out += this.s.slice(start, this.pos - 1);
      const e = this.s[this.pos++];
      if (e === 'u') {
        const hex = this.s.slice(this.pos, this.pos + 4);
        if (hex.length < 4 || !/^[+-]?[0-9a-fA-F]+$/.test(hex))
          this.fail(this.pos - 2, `an escape ${shown(`\\u${hex}`)} that is not four hexadecimal digits`);
        this.pos += 4;
        out += String.fromCharCode(Number.parseInt(hex, 16) & 0xffff);
        if (!/^[0-9a-fA-F]{4}$/.test(hex))
          mark(
            this.pos - 6,
            `an escape ${shown(`\\u${hex}`)}, which the phone reads as U+${(Number.parseInt(hex, 16) & 0xffff).toString(16).toUpperCase()}`,
          );
      } else {
        out += ORG_ESCAPES[e] ?? e;
        if (!`"\\/tbnrf`.includes(e))
          mark(
            this.pos - 2,
            `an escape ${shown(`\\${e}`)} that JSON does not have, which the phone reads as ${shown(e)}`,
          );
      }
      start = this.pos;
    }
    this.fail(at, `a string that is never closed (the quote ${quote} here)`);
  }

  /** An unquoted word at `at` (`this.pos`): up to a structural character or a line break, trimmed as `String.trim` does. */
  private wordAt(at: number): string {
    let end = at;
    while (end < this.s.length && this.s[end] !== '\r' && this.s[end] !== '\n' && !ORG_WORD_END.includes(this.s[end]))
      end++;
    this.pos = end;
    return this.s.slice(at, end).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  }

  /** An unquoted value: what the tokener makes of the word, noted unless JSON writes it the same. */
  private word(at: number): unknown {
    const literal = this.wordAt(at);
    if (literal === '') this.fail(at, `no value here (${this.whatIsAt(at)}): write the value, or remove the key`);
    const read = orgWord(literal);
    const broken = this.place(this.pos - 1).line !== this.place(at).line;
    if (JSON_LITERAL.test(literal) && !broken) return read.value;
    const how =
      read.kind === 'text'
        ? `an unquoted value ${shown(literal)}, which the phone reads as the text "${shown(literal).slice(1, -1)}"`
        : `${shown(literal)}, which the phone reads as ${read.kind === 'number' ? `the number ${String(read.value)}${read.base ? ` (${read.base})` : ''}` : String(read.value)}`;
    this.lenient(at, broken ? `a value broken over lines: ${how}, once the phone joins the file's lines` : how);
    return read.value;
  }

  private whatIsAt(at: number): string {
    return at >= this.s.length ? 'the file ends' : `${shown(this.s[at])} where the value should start`;
  }

  private object(at: number): { value: unknown; node: Node } {
    const value: Record<string, unknown> = {};
    const node: Node = { at };
    if (this.peekClean() === '}') {
      this.clean();
      return { value, node };
    }
    for (;;) {
      const name = this.name();
      const separator = this.clean();
      if (separator === -1) this.fail(this.s.length, this.ended(`the file ends after the key ${shown(name)}`));
      if (this.s[separator] !== ':' && this.s[separator] !== '=')
        this.fail(separator, `\`:\` is missing after the key ${shown(name)}`);
      const arrow = this.s[this.pos] === '>';
      if (arrow) this.pos++;
      if (arrow || this.s[separator] === '=')
        this.lenient(
          separator,
          `${shown(this.s.slice(separator, this.pos))} after the key ${shown(name)}, which the phone's parser reads as \`:\``,
        );
      const member = this.value();
      if (typeof member.value === 'number' && !Number.isFinite(member.value))
        this.fail(member.node.at, 'NaN or an infinite number, which org.json refuses as the value of a key');
      setMember(value, name, member.value);
      this.track(node, member.node, name);
      const after = this.clean();
      if (after === -1) this.fail(this.s.length, this.ended('the file ends inside an object: a `}` is missing'));
      const c = this.s[after];
      if (c === '}') return { value, node };
      if (c === ';') this.lenient(after, "`;` between two members, which the phone's parser reads as `,`");
      else if (c !== ',')
        this.fail(
          after,
          `${shown(c)} where \`,\` or \`}\` should follow the value of ${shown(name)} (a comma missing?)`,
        );
    }
  }

  /** The next significant character without consuming it (comments before it are read and noted). */
  private peekClean(): string | undefined {
    const at = this.clean();
    if (at === -1) return undefined;
    this.pos = at;
    return this.s[at];
  }

  /** A member's name: a string, or an unquoted word that is not a number, a boolean or null. */
  private name(): string {
    const at = this.clean();
    if (at === -1) this.fail(this.s.length, this.ended('the file ends where a key should be'));
    const c = this.s[at];
    if (c === '"' || c === "'") return this.string(at);
    if (c === '{' || c === '[') this.fail(at, `${shown(c)} where a key should be: a key is text`);
    const literal = this.wordAt(at);
    if (literal === '')
      this.fail(
        at,
        `${shown(c)} where a key should be${c === '}' ? ': a comma before `}`, which org.json refuses' : ''}`,
      );
    const read = orgWord(literal);
    if (read.kind !== 'text')
      this.fail(
        at,
        `the key ${shown(literal)}, which the phone's parser reads as ${read.kind === 'number' ? 'a number' : String(read.value)}, not as text: quote it`,
      );
    this.lenient(
      at,
      `an unquoted key ${shown(literal)}, which the phone's parser reads as the text "${shown(literal).slice(1, -1)}"`,
    );
    return literal;
  }

  private array(at: number): { value: unknown; node: Node } {
    const value: unknown[] = [];
    const node: Node = { at };
    let separated = false;
    for (;;) {
      const next = this.clean();
      if (next === -1) this.fail(this.s.length, this.ended('the file ends inside an array: a `]` is missing'));
      const c = this.s[next];
      if (c === ']') {
        if (separated) {
          this.lenient(next, "a comma before `]`, which the phone's parser reads as one more element, null");
          value.push(null);
          this.track(node, { at: next });
        }
        return { value, node };
      }
      if (c === ',' || c === ';') {
        this.lenient(next, `\`${c}\` without a value before it, which the phone's parser reads as a null element`);
        value.push(null);
        this.track(node, { at: next });
        separated = true;
        continue;
      }
      this.pos = next;
      const element = this.value();
      value.push(element.value);
      this.track(node, element.node);
      const after = this.clean();
      if (after === -1) this.fail(this.s.length, this.ended('the file ends inside an array: a `]` is missing'));
      const d = this.s[after];
      if (d === ']') return { value, node };
      if (d !== ',' && d !== ';')
        this.fail(after, `${shown(d)} where \`,\` or \`]\` should follow an element (a comma missing?)`);
      if (d === ';') this.lenient(after, "`;` between two elements, which the phone's parser reads as `,`");
      separated = true;
    }
  }
}

/** What org.json's tokener makes of an unquoted word (`readLiteral`). */
function orgWord(literal: string): { kind: 'null' | 'boolean' | 'number' | 'text'; value: unknown; base?: string } {
  const lower = literal.toLowerCase();
  if (lower === 'null') return { kind: 'null', value: null };
  if (lower === 'true' || lower === 'false') return { kind: 'boolean', value: lower === 'true' };
  if (!literal.includes('.')) {
    const hex = /^0[xX]/.test(literal);
    const octal = !hex && literal.startsWith('0') && literal.length > 1;
    const digits = hex || octal ? literal.slice(hex ? 2 : 1) : literal;
    const radix = hex ? 16 : octal ? 8 : 10;
    const long = javaLong(digits, radix);
    if (long !== undefined)
      return {
        kind: 'number',
        value: Number(long),
        base: hex ? 'hexadecimal' : octal ? 'octal: a leading 0' : undefined,
      };
  }
  const double = javaDouble(literal);
  if (double !== undefined) return { kind: 'number', value: double };
  return { kind: 'text', value: literal };
}

/** `Long.parseLong(digits, radix)`: a sign, digits of the radix, within 64 bits. */
function javaLong(digits: string, radix: 8 | 10 | 16): bigint | undefined {
  const pattern = { 8: /^([+-]?)([0-7]+)$/, 10: /^([+-]?)(\d+)$/, 16: /^([+-]?)([0-9a-fA-F]+)$/ }[radix];
  const match = pattern.exec(digits);
  if (!match) return undefined;
  const magnitude = BigInt(`${{ 8: '0o', 10: '', 16: '0x' }[radix]}${match[2]}`);
  const value = match[1] === '-' ? -magnitude : magnitude;
  return value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined;
}

/** `Double.valueOf`: trimmed; a sign; NaN, Infinity, decimal or `0x…p…` hexadecimal; an optional f/F/d/D. */
function javaDouble(text: string): number | undefined {
  const s = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const special = /^([+-]?)(NaN|Infinity)$/.exec(s);
  if (special) return special[2] === 'NaN' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(s)) return Number(s.replace(/[fFdD]$/, ''));
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)[fFdD]?$/.exec(s);
  if (!hex || (hex[2] === '' && (hex[3] ?? '') === '')) return undefined;
  const fraction = hex[3] ?? '';
  const value = Number.parseInt(`${hex[2]}${fraction}` || '0', 16) * 2 ** (Number(hex[4]) - 4 * fraction.length);
  return hex[1] === '-' ? -value : value;
}

/** The characters that end an unquoted kotlinx token. */
const KX_TOKEN_END = ' \t\r\n,:{}[]"';
const KX_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class KotlinxParser extends Parser {
  constructor(
    text: string,
    place: (offset: number) => { line: number; col: number },
    locating: boolean,
    private readonly reader: Extract<JsonReader, { parser: 'kotlinx' }>,
  ) {
    super(text, place, locating);
  }

  document(): { value: unknown; node: Node } {
    const read = this.value(this.reader.root);
    this.blank();
    if (this.pos < this.s.length)
      this.fail(this.pos, 'text after the end of the JSON, which kotlinx refuses (comments too)');
    return read;
  }

  private blank(): void {
    while (this.pos < this.s.length && ' \t\r\n'.includes(this.s[this.pos])) this.pos++;
  }

  private value(type: KxType | undefined): { value: unknown; node: Node } {
    this.blank();
    const at = this.pos;
    const c = this.s[at];
    if (c === undefined) this.fail(at, 'the file ends where a value should be');
    if (c === '{') return this.nested(at, () => this.object(at, type));
    if (c === '[') return this.nested(at, () => this.array(at, type));
    if (c === '"') return { value: this.string(), node: { at } };
    const token = this.token();
    if (token === '') this.fail(at, `${this.what(at)} where a value should start`);
    return { value: this.tokenValue(token, at, type), node: { at } };
  }

  private token(): string {
    const start = this.pos;
    while (this.pos < this.s.length && !KX_TOKEN_END.includes(this.s[this.pos])) this.pos++;
    return this.s.slice(start, this.pos);
  }

  /** The character at `offset` as a message names it: a comment's start is named as one. */
  private what(offset: number): string {
    if (offset >= this.s.length) return 'the end of the file';
    return /^(?:\/[*/]|#)/.test(this.s.slice(offset, offset + 2))
      ? 'a comment, which kotlinx does not read,'
      : shown(this.s[offset]);
  }

  /** An unquoted token: JSON's own literals as JSON reads them; any other as the declared type reads it. */
  private tokenValue(token: string, at: number, type: KxType | undefined): unknown {
    if (JSON_LITERAL.test(token)) return JSON.parse(token);
    if (type !== undefined && /^(?:\/[*/]|#)/.test(token)) this.fail(at, `${this.what(at)} where a value should be`);
    if (type === undefined) {
      this.lenient(
        at,
        `an unquoted value ${shown(token)} under a key the phone does not read (kotlinx skips it), imported as the text "${shown(token).slice(1, -1)}"`,
      );
      return token;
    }
    if (type === 'String') {
      if (!this.reader.isLenient)
        this.fail(
          at,
          `an unquoted value ${shown(token)} where the phone reads text: kotlinx needs it in double quotes`,
        );
      this.lenient(
        at,
        `an unquoted value ${shown(token)}, which the phone reads as the text "${shown(token).slice(1, -1)}"`,
      );
      return token;
    }
    if (typeof type !== 'string')
      this.fail(at, `${shown(token)} where the phone reads ${'list' in type ? 'an array' : 'an object'}`);
    const number = /^(-?)(\d+)(?:[eE]([+-]?)(\d+))?$/.exec(token);
    const value = number && kxWholeNumber(number, type);
    if (value === undefined || value === null)
      this.fail(at, `${shown(token)} where the phone reads a whole number (${type}), which kotlinx refuses`);
    this.lenient(at, `the number ${shown(token)}, which the phone reads as ${value}`);
    return value;
  }

  private object(at: number, type: KxType | undefined): { value: unknown; node: Node } {
    const fields = typeof type === 'object' && 'fields' in type ? type.fields : undefined;
    const value: Record<string, unknown> = {};
    const node: Node = { at };
    this.pos++;
    this.blank();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return { value, node };
    }
    for (;;) {
      this.blank();
      const keyAt = this.pos;
      let key: string;
      if (this.s[keyAt] === '"') key = this.string();
      else {
        key = this.reader.isLenient ? this.token() : '';
        if (key === '')
          this.fail(keyAt, `${shown(this.s[keyAt] ?? '')} where a key in double quotes should be, which kotlinx needs`);
        this.lenient(
          keyAt,
          `an unquoted key ${shown(key)}, which the phone reads as the text "${shown(key).slice(1, -1)}"`,
        );
      }
      this.blank();
      if (this.s[this.pos] !== ':') this.fail(this.pos, `\`:\` is missing after the key ${shown(key)}`);
      this.pos++;
      const member = this.value(fields && Object.hasOwn(fields, key) ? fields[key] : undefined);
      setMember(value, key, member.value);
      this.track(node, member.node, key);
      this.blank();
      const c = this.s[this.pos++];
      if (c === '}') return { value, node };
      if (c !== ',')
        this.fail(
          this.pos - 1,
          `${this.what(this.pos - 1)} where \`,\` or \`}\` should follow the value of ${shown(key)} (a comma missing?)`,
        );
      this.blank();
      if (this.s[this.pos] === '}') this.fail(this.pos - 1, 'a comma before `}`, which kotlinx refuses');
    }
  }

  private array(at: number, type: KxType | undefined): { value: unknown; node: Node } {
    const items = typeof type === 'object' && 'list' in type ? type.list : undefined;
    const value: unknown[] = [];
    const node: Node = { at };
    this.pos++;
    this.blank();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return { value, node };
    }
    for (;;) {
      const element = this.value(items);
      value.push(element.value);
      this.track(node, element.node);
      this.blank();
      const c = this.s[this.pos++];
      if (c === ']') return { value, node };
      if (c !== ',')
        this.fail(
          this.pos - 1,
          `${this.what(this.pos - 1)} where \`,\` or \`]\` should follow an element (a comma missing?)`,
        );
      this.blank();
      if (this.s[this.pos] === ']') this.fail(this.pos - 1, 'a comma before `]`, which kotlinx refuses');
    }
  }

  /** A string in double quotes: JSON's escapes only; a control character is kept (and noted). */
  private string(): string {
    const at = this.pos++;
    let out = '';
    let noted = false;
    for (;;) {
      const c = this.s[this.pos++];
      if (c === undefined) this.fail(at, 'a string that is never closed (the quote " here)');
      if (c === '"') return out;
      if (c < ' ' && !noted) {
        noted = true;
        this.lenient(
          this.pos - 1,
          `a control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} inside a string, which the phone keeps as it is`,
        );
      }
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.pos++];
      const hex = this.s.slice(this.pos, this.pos + 4);
      if (e !== undefined && KX_ESCAPES[e] !== undefined) out += KX_ESCAPES[e];
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(hex)) {
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.pos += 4;
      } else this.fail(this.pos - 2, `an escape ${shown(`\\${e ?? ''}`)} that kotlinx refuses`);
    }
  }
}

/** kotlinx's whole number (`consumeNumericLiteral`): the exponent applied as a Double, the result within the type. */
function kxWholeNumber(match: RegExpExecArray, type: 'Long' | 'Int'): number | undefined {
  let n = BigInt(match[2]);
  if (match[4] !== undefined) {
    const d = Number(n) * 10 ** ((match[3] === '-' ? -1 : 1) * Number(match[4]));
    if (!Number.isFinite(d) || Math.abs(d) > 2 ** 63 || Math.floor(d) !== d) return undefined;
    n = BigInt(d);
  }
  if (match[1] === '-') n = -n;
  const bits = type === 'Long' ? 63n : 31n;
  return n >= -(2n ** bits) && n < 2n ** bits ? Number(n) : undefined;
}
