/**
 * kotlinx.serialization's `Json` (default configuration, `ignoreUnknownKeys`), as the Kotlin
 * updaters decode an answer with it (kotlinx.serialization `AbstractJsonLexer`, `StreamingJsonDecoder`,
 * `JsonConfiguration`). Not `JSON.parse`: kotlinx is strict where the Java readers are lenient and
 * lenient in its own places, and the phone's verdict follows those places:
 * - keys and String values must be quoted with `"`; a number or `null` where a non-null String is
 *   read fails; no comments, no trailing commas, nothing after the top value but whitespace
 *   (space, tab, CR, LF);
 * - a Long or Int is read by `consumeNumericLiteral`: an optional `-`, digits (leading zeros
 *   allowed), an optional exponent, and it may be quoted (`"size": "123"` is 123); a fraction, a
 *   `+`, or a value outside the type fails;
 * - an unknown key's value is skipped as long as it is well formed, and a value that is not an
 *   object or array is skipped by `consumeStringLenient`, so an unquoted word there is accepted;
 * - a repeated key is decoded again: the last one wins.
 * The text is what the reader hands over: OkHttp's `ResponseBody.string()` consumes a leading byte
 * order mark, `readByteArray().decodeToString()` does not ({@link parseKotlinx}'s `bomConsumed`).
 * Failures are `SerializationException`, modelled as {@link SerializationException}.
 */

/** kotlinx's `SerializationException` (and `JsonDecodingException`). */
export class SerializationException extends Error {}

/** A JSON value as kotlinx's lexer sees it before a type reads it: a quoted string keeps its quotes' meaning. */
export type KxValue =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'object'; readonly entries: Map<string, KxValue> }
  | { readonly kind: 'array'; readonly items: KxValue[] };

/**
 * The whole text as one value (`decodeFromString`). A U+FEFF first is dropped when the reader took
 * the body with OkHttp's `string()` (`bomConsumed`, the default); a reader that decodes the bytes
 * itself (`decodeToString()`) hands it to kotlinx, which refuses it.
 */
export function parseKotlinx(
  text: string,
  { bomConsumed = true, lenient = false }: { bomConsumed?: boolean; lenient?: boolean } = {},
): KxValue {
  const lexer = new Lexer(bomConsumed && text.startsWith('\ufeff') ? text.slice(1) : text, lenient);
  const value = lexer.value();
  lexer.expectEof();
  return value;
}

/** A field's declared type, with whether it may be null and whether it has a default (may be missing). */
export type KxField = { type: 'String' | 'Long' | 'Int'; nullable?: boolean; optional?: boolean };

/** The `Json { }` settings that change how a class is read. */
export interface KxConfiguration {
  /** `ignoreUnknownKeys` (or `@JsonIgnoreUnknownKeys` on the class); when false an unknown key fails. */
  ignoreUnknownKeys?: boolean;
  /** `isLenient`: a String may be an unquoted token (not `null` for a non-null one). */
  isLenient?: boolean;
}

/**
 * A `@Serializable` data class read from an object: every declared field, unknown keys ignored
 * unless the configuration says otherwise. A required field missing, or a value that its type
 * refuses, throws. Missing optional fields are `undefined`, explicit nulls of nullable ones `null`.
 */
export function decodeClass(
  value: KxValue,
  fields: Record<string, KxField>,
  { ignoreUnknownKeys = true, isLenient = false }: KxConfiguration = {},
): Record<string, string | number | null | undefined> {
  if (value.kind !== 'object') throw new SerializationException('Expected start of the object');
  if (!ignoreUnknownKeys) {
    for (const key of value.entries.keys()) {
      if (!(key in fields)) throw new SerializationException(`Encountered an unknown key '${key}'`);
    }
  }
  const out: Record<string, string | number | null | undefined> = {};
  for (const [name, field] of Object.entries(fields)) {
    const v = value.entries.get(name);
    if (v === undefined) {
      if (!field.optional) throw new SerializationException(`Field '${name}' is required`);
      out[name] = undefined;
      continue;
    }
    if (field.nullable && v.kind === 'literal' && v.text === 'null') {
      out[name] = null;
      continue;
    }
    const lenientString = isLenient && v.kind === 'literal' && v.text !== 'null';
    if (field.type !== 'String') out[name] = kxInteger(v, field.type);
    else out[name] = lenientString ? (v as { text: string }).text : kxString(v);
  }
  return out;
}

/** A `List<T>` field: a JSON array (a JSON null for a non-nullable list fails). */
export function kxList(value: KxValue): KxValue[] {
  if (value.kind !== 'array') throw new SerializationException('Expected start of the array');
  return value.items;
}

/** kotlinx's String: a quoted string only. */
function kxString(value: KxValue): string {
  if (value.kind !== 'string') throw new SerializationException('Expected quotation mark');
  return value.value;
}

/** kotlinx's Long or Int (`consumeNumericLiteral`): a numeric literal, quoted or not. */
function kxInteger(value: KxValue, type: 'Long' | 'Int'): number {
  const text = value.kind === 'string' ? value.value : value.kind === 'literal' ? value.text : undefined;
  if (text === undefined) throw new SerializationException('Expected numeric literal');
  const n = numericLiteral(text);
  const [min, max] = type === 'Long' ? [-(2n ** 63n), 2n ** 63n - 1n] : [-(2n ** 31n), 2n ** 31n - 1n];
  if (n < min || n > max) throw new SerializationException('Numeric value overflow');
  return Number(n);
}

// --- internal ---

/** `-`? digits, then an optional `e`/`E` with an optional sign and digits; the value must be a whole number. */
function numericLiteral(text: string): bigint {
  const match = /^(-?)(\d+)(?:[eE]([+-]?)(\d+))?$/.exec(text);
  if (!match) throw new SerializationException(`Unexpected symbol in numeric literal '${text}'`);
  let n = BigInt(match[2]);
  if (match[4] !== undefined) {
    // kotlinx multiplies as a Double and refuses a result with a fraction.
    const d = Number(n) * 10 ** ((match[3] === '-' ? -1 : 1) * Number(match[4]));
    if (!Number.isFinite(d) || Math.abs(d) > 2 ** 63) throw new SerializationException('Numeric value overflow');
    if (Math.floor(d) !== d) throw new SerializationException(`Can't convert ${d} to Long`);
    n = BigInt(d);
  }
  return match[1] === '-' ? -n : n;
}

const WHITESPACE = ' \t\r\n';
/** Characters that end an unquoted token (kotlinx's token classes other than TC_OTHER). */
const STRUCTURAL = ' \t\r\n,:{}[]"';

class Lexer {
  private pos = 0;
  constructor(
    private readonly s: string,
    /** `isLenient`: keys may be unquoted tokens too. */
    private readonly lenient = false,
  ) {}

  value(): KxValue {
    this.skipWhitespace();
    const c = this.s[this.pos];
    if (c === undefined) throw new SerializationException('Unexpected EOF');
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return { kind: 'string', value: this.string() };
    const text = this.literal();
    if (text === '') throw new SerializationException(`Unexpected token '${c}'`);
    return { kind: 'literal', text };
  }

  expectEof(): void {
    this.skipWhitespace();
    if (this.pos !== this.s.length) throw new SerializationException('Expected EOF after parsing, but had more');
  }

  private object(): KxValue {
    this.pos++;
    const entries = new Map<string, KxValue>();
    this.skipWhitespace();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.skipWhitespace();
      // Lenient mode reads an unquoted key as consumeStringLenient does.
      const key = this.s[this.pos] === '"' ? this.string() : this.lenient ? this.literal() : '';
      if (key === '' && this.s[this.pos - 1] !== '"') {
        throw new SerializationException('Expected quotation mark for a key');
      }
      this.expect(':');
      entries.set(key, this.value());
      this.skipWhitespace();
      const c = this.s[this.pos++];
      if (c === '}') return { kind: 'object', entries };
      if (c !== ',') throw new SerializationException("Expected ',' or '}'");
      this.skipWhitespace();
      if (this.s[this.pos] === '}') throw new SerializationException('Trailing comma before the end of JSON object');
    }
  }

  private array(): KxValue {
    this.pos++;
    const items: KxValue[] = [];
    this.skipWhitespace();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.value());
      this.skipWhitespace();
      const c = this.s[this.pos++];
      if (c === ']') return { kind: 'array', items };
      if (c !== ',') throw new SerializationException("Expected ',' or ']'");
      this.skipWhitespace();
      if (this.s[this.pos] === ']') throw new SerializationException('Trailing comma before the end of JSON array');
    }
  }

  /** A quoted string: the JSON escapes only; other characters, controls included, as they are. */
  private string(): string {
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.s[this.pos++];
      if (c === undefined) throw new SerializationException('Unexpected EOF in a string');
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.pos++];
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && simple[e] !== undefined) out += simple[e];
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.pos, this.pos + 4))) {
        out += String.fromCharCode(Number.parseInt(this.s.slice(this.pos, this.pos + 4), 16));
        this.pos += 4;
      } else throw new SerializationException(`Invalid escaped char '${e}'`);
    }
  }

  private literal(): string {
    const start = this.pos;
    while (this.pos < this.s.length && !STRUCTURAL.includes(this.s[this.pos])) this.pos++;
    return this.s.slice(start, this.pos);
  }

  private expect(c: string): void {
    this.skipWhitespace();
    if (this.s[this.pos] !== c) throw new SerializationException(`Expected '${c}'`);
    this.pos++;
  }

  private skipWhitespace(): void {
    while (this.pos < this.s.length && WHITESPACE.includes(this.s[this.pos])) this.pos++;
  }
}
