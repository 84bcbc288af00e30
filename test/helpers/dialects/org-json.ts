/**
 * Android's org.json (libcore `json/src/main/java/org/json/`: JSONTokener, JSONObject, JSON), the
 * parser every Java updater reads its answer with. Android's tokener is not the reference org.json
 * of json.org: it is far more lenient, and that leniency is what phones accept. Transcribed here so
 * the dialect oracles read an answer as the phone does:
 * - a leading U+FEFF is skipped (`JSONTokener(String)`);
 * - `/* *\/`, `//` and `#` comments are whitespace; only tab, space, LF and CR are whitespace;
 * - strings may be quoted with `"` or `'`; any unknown escape stands for the character itself;
 * - an unquoted word is a literal: `null`/`true`/`false` (any case), an integer (`0x` hex, a
 *   leading `0` octal) as an Integer or a Long, else a Double, else the word itself as a String;
 * - names may be unquoted words; `:`, `=` or `=>` separate a name from its value; `,` or `;`
 *   separate members; a later duplicate name replaces the earlier value;
 * - in arrays a missing value (`[1,,2]`, `[1,]`) is null;
 * - `new JSONObject(text)` reads one value and ignores whatever follows it.
 * Failures are `JSONException`, modelled as {@link JSONException}.
 */

/** org.json's `JSONException`. */
export class JSONException extends Error {}

/** A Java number as the tokener makes it: `Integer`, `Long` or `Double`. */
export interface JavaNumber {
  readonly java: 'Integer' | 'Long' | 'Double';
  /** Integers exactly, as a bigint; a Double as a JS number. */
  readonly value: bigint | number;
}

/** `JSONObject.NULL`. */
export const NULL: unique symbol = Symbol('JSONObject.NULL');

/** A value org.json holds: String, Boolean, a Java number, NULL, a JSONObject (Map) or a JSONArray. */
export type JsonValue = string | boolean | JavaNumber | typeof NULL | JsonObject | JsonArray;
/** A `JSONObject`: insertion-ordered, like its LinkedHashMap. */
export type JsonObject = Map<string, JsonValue>;
/** A `JSONArray`; Java `null` elements (from `[1,,2]`) are `null`. */
export type JsonArray = (JsonValue | null)[];

/** `new JSONObject(String)`: the first value of the text must be an object; the rest of the text is not read. */
export function parseJSONObject(text: string): JsonObject {
  const value = new Tokener(text).nextValue();
  if (!(value instanceof Map)) throw new JSONException('Value is not a JSONObject');
  return value;
}

/** `JSONObject.get`: a missing name throws. */
function get(object: JsonObject, name: string): JsonValue {
  const value = object.get(name);
  if (value === undefined) throw new JSONException(`No value for ${name}`);
  return value;
}

/** `JSONObject.getString`: a String as is, any other value as `String.valueOf` writes it (NULL gives "null"). */
export function getString(object: JsonObject, name: string): string {
  return javaToString(get(object, name));
}

/** `JSONObject.optString(name)`: `""` when missing; NULL gives "null" like getString (Android's `JSON.toString`). */
export function optString(object: JsonObject, name: string, fallback = ''): string {
  const value = object.get(name);
  return value === undefined ? fallback : javaToString(value);
}

/** `JSONObject.getLong`: a number's `longValue()`, or a String read by `Double.parseDouble` then cast; else throws. */
export function getLong(object: JsonObject, name: string): number {
  const value = get(object, name);
  if (isJavaNumber(value)) return Number(numberLongValue(value));
  if (typeof value === 'string') {
    const parsed = javaParseDouble(value);
    if (parsed !== undefined) return Number(doubleToLong(parsed));
  }
  throw new JSONException(`Value at ${name} is not a long`);
}

/** `JSONObject.optBoolean(name, fallback)`: a Boolean, or the String "true"/"false" in any case; else the fallback. */
export function optBoolean(object: JsonObject, name: string, fallback: boolean): boolean {
  const value = object.get(name);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase())) {
    return value.toLowerCase() === 'true';
  }
  return fallback;
}

/** `JSONObject.optLong(name, fallback)`: what getLong reads, else the fallback. */
export function optLong(object: JsonObject, name: string, fallback: number): number {
  try {
    return getLong(object, name);
  } catch (error) {
    if (error instanceof JSONException) return fallback;
    throw error;
  }
}

/** `JSONObject.getJSONArray`. */
export function getJSONArray(object: JsonObject, name: string): JsonArray {
  const value = get(object, name);
  if (!Array.isArray(value)) throw new JSONException(`Value at ${name} is not a JSONArray`);
  return value;
}

/** `JSONObject.has`. */
export function has(object: JsonObject, name: string): boolean {
  return object.has(name);
}

/** `JSONObject.isNull`: missing or NULL. */
export function isNull(object: JsonObject, name: string): boolean {
  const value = object.get(name);
  return value === undefined || value === NULL;
}

/** `JSONArray.isNull(i)`. */
export function arrayIsNull(array: JsonArray, index: number): boolean {
  const value = array[index];
  return value === undefined || value === null || value === NULL;
}

/** `JSONArray.getJSONObject(i)`. */
export function arrayGetJSONObject(array: JsonArray, index: number): JsonObject {
  const value = array[index];
  if (!(value instanceof Map)) throw new JSONException(`Value at ${index} is not a JSONObject`);
  return value;
}

/**
 * What `BufferedReader.readLine` in a loop appending each line gives (the crDroid-family Java
 * readers read their downloaded file so): the text with every line terminator (LF, CR, CRLF)
 * removed, lines joined with nothing between them. A `//` or `#` comment then runs to the end of
 * the whole text.
 */
export function joinLines(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '');
}

/** `String.valueOf(value)` for a value org.json holds (`JSON.toString`). */
function javaToString(value: JsonValue | null): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value === NULL || value === null) return 'null';
  if (value instanceof Map || Array.isArray(value)) return stringify(value);
  return value.java === 'Double' ? javaDoubleToString(value.value as number) : String(value.value);
}

/**
 * Java's `Double.toString`: `1.0E10` style outside [10^-3, 10^7), at least one digit after the
 * point. JavaScript gives the shortest digits that round-trip, as Java does since JDK 19; older
 * runtimes can print one more digit for a few values.
 */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? 'Infinity' : '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(d);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = d.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/**
 * `Double.parseDouble`: leading and trailing characters up to U+0020 trimmed; optional sign;
 * `NaN`, `Infinity`, decimal digits with an optional point and exponent, or a hexadecimal
 * `0x…p…` form; an optional `f`/`F`/`d`/`D` suffix. `undefined` for a NumberFormatException.
 */
export function javaParseDouble(text: string): number | undefined {
  const s = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const special = /^([+-]?)(NaN|Infinity)$/.exec(s);
  if (special) return special[2] === 'NaN' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(s)) return Number(s.replace(/[fFdD]$/, ''));
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)[fFdD]?$/.exec(s);
  if (hex && (hex[2] !== '' || (hex[3] ?? '') !== '')) {
    const digits = `${hex[2]}${hex[3] ?? ''}`;
    const value = Number.parseInt(digits || '0', 16) * 2 ** (Number(hex[4]) - 4 * (hex[3] ?? '').length);
    return hex[1] === '-' ? -value : value;
  }
  return undefined;
}

// --- internal ---

function isJavaNumber(value: JsonValue): value is JavaNumber {
  return typeof value === 'object' && value !== null && !(value instanceof Map) && !Array.isArray(value);
}

function numberLongValue(n: JavaNumber): bigint {
  return n.java === 'Double' ? doubleToLong(n.value as number) : (n.value as bigint);
}

/** Java's `(long) d`: toward zero, NaN 0, saturating at the Long range. */
function doubleToLong(d: number): bigint {
  if (Number.isNaN(d)) return 0n;
  if (d >= 2 ** 63) return 2n ** 63n - 1n;
  if (d <= -(2 ** 63)) return -(2n ** 63n);
  return BigInt(Math.trunc(d));
}

/** `JSONObject.toString()` / `JSONArray.toString()` (JSONStringer, no indentation). */
function stringify(value: JsonValue | null): string {
  if (value === null || value === NULL) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${quote(k)}:${stringify(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(stringify).join(',')}]`;
  return numberToString(value);
}

/** `JSONObject.numberToString`: an integral Double is written as a long. */
function numberToString(n: JavaNumber): string {
  if (n.java !== 'Double') return String(n.value);
  const d = n.value as number;
  if (Object.is(d, -0)) return '-0';
  if (Number.isInteger(d) && Math.abs(d) < 2 ** 63) return BigInt(d).toString();
  return javaDoubleToString(d);
}

/** JSONStringer's string: `"`, `\`, `/` escaped, the short escapes, other controls as `\u00XX`. */
function quote(s: string): string {
  const short: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '/': '\\/',
    '\t': '\\t',
    '\b': '\\b',
    '\n': '\\n',
    '\r': '\\r',
    '\f': '\\f',
  };
  let out = '"';
  for (const c of s) {
    if (short[c] !== undefined) out += short[c];
    else if (c.charCodeAt(0) <= 0x1f) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

const LITERAL_END = '{}[]/\\:,=;# \t\f';

class Tokener {
  private pos = 0;
  private readonly in: string;

  constructor(text: string) {
    this.in = text.startsWith('\ufeff') ? text.slice(1) : text;
  }

  nextValue(): JsonValue {
    const c = this.nextCleanInternal();
    switch (c) {
      case -1:
        throw new JSONException('End of input');
      case 0x7b:
        return this.readObject();
      case 0x5b:
        return this.readArray();
      case 0x27:
      case 0x22:
        return this.nextString(String.fromCharCode(c));
      default:
        this.pos--;
        return this.readLiteral();
    }
  }

  private nextCleanInternal(): number {
    while (this.pos < this.in.length) {
      const c = this.in.charCodeAt(this.pos++);
      if (c === 0x09 || c === 0x20 || c === 0x0a || c === 0x0d) continue;
      if (c === 0x2f) {
        if (this.pos === this.in.length) return c;
        const peek = this.in[this.pos];
        if (peek === '*') {
          this.pos++;
          const end = this.in.indexOf('*/', this.pos);
          if (end === -1) throw new JSONException('Unterminated comment');
          this.pos = end + 2;
          continue;
        }
        if (peek === '/') {
          this.pos++;
          this.skipToEndOfLine();
          continue;
        }
        return c;
      }
      if (c === 0x23) {
        this.skipToEndOfLine();
        continue;
      }
      return c;
    }
    return -1;
  }

  private skipToEndOfLine(): void {
    for (; this.pos < this.in.length; this.pos++) {
      const c = this.in[this.pos];
      if (c === '\r' || c === '\n') {
        this.pos++;
        break;
      }
    }
  }

  private nextString(quote: string): string {
    let out = '';
    let start = this.pos;
    while (this.pos < this.in.length) {
      const c = this.in[this.pos++];
      if (c === quote) return out + this.in.slice(start, this.pos - 1);
      if (c === '\\') {
        if (this.pos === this.in.length) throw new JSONException('Unterminated escape sequence');
        out += this.in.slice(start, this.pos - 1) + this.readEscapeCharacter();
        start = this.pos;
      }
    }
    throw new JSONException('Unterminated string');
  }

  private readEscapeCharacter(): string {
    const escaped = this.in[this.pos++];
    switch (escaped) {
      case 'u': {
        if (this.pos + 4 > this.in.length) throw new JSONException('Unterminated escape sequence');
        const hex = this.in.slice(this.pos, this.pos + 4);
        this.pos += 4;
        // Integer.parseInt(hex, 16) also takes a sign: "-001" is -1, cast to char U+FFFF.
        if (!/^[+-]?[0-9a-fA-F]+$/.test(hex)) throw new JSONException(`Invalid escape sequence: ${hex}`);
        return String.fromCharCode(Number.parseInt(hex, 16) & 0xffff);
      }
      case 't':
        return '\t';
      case 'b':
        return '\b';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 'f':
        return '\f';
      default:
        return escaped;
    }
  }

  private readLiteral(): JsonValue {
    const literal = this.nextToInternal(LITERAL_END);
    if (literal.length === 0) throw new JSONException('Expected literal value');
    const lower = literal.toLowerCase();
    if (lower === 'null') return NULL;
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    if (!literal.includes('.')) {
      let base = 10;
      let number = literal;
      if (number.startsWith('0x') || number.startsWith('0X')) {
        number = number.slice(2);
        base = 16;
      } else if (number.startsWith('0') && number.length > 1) {
        number = number.slice(1);
        base = 8;
      }
      const long = parseJavaLong(number, base);
      if (long !== undefined) {
        return { java: long >= -(2n ** 31n) && long < 2n ** 31n ? 'Integer' : 'Long', value: long };
      }
    }
    const double = javaParseDouble(literal);
    if (double !== undefined) return { java: 'Double', value: double };
    return literal;
  }

  /** Up to one of `excluded`, CR or LF; trimmed as `String.trim` does (characters up to U+0020). */
  private nextToInternal(excluded: string): string {
    const start = this.pos;
    for (; this.pos < this.in.length; this.pos++) {
      const c = this.in[this.pos];
      if (c === '\r' || c === '\n' || excluded.includes(c)) break;
    }
    return this.in.slice(start, this.pos).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  }

  private readArray(): JsonArray {
    const result: JsonArray = [];
    let hasTrailingSeparator = false;
    for (;;) {
      const c = this.nextCleanInternal();
      if (c === -1) throw new JSONException('Unterminated array');
      if (c === 0x5d) {
        if (hasTrailingSeparator) result.push(null);
        return result;
      }
      if (c === 0x2c || c === 0x3b) {
        result.push(null);
        hasTrailingSeparator = true;
        continue;
      }
      this.pos--;
      result.push(this.nextValue());
      const after = this.nextCleanInternal();
      if (after === 0x5d) return result;
      if (after === 0x2c || after === 0x3b) {
        hasTrailingSeparator = true;
        continue;
      }
      throw new JSONException('Unterminated array');
    }
  }

  private readObject(): JsonObject {
    const result: JsonObject = new Map();
    const first = this.nextCleanInternal();
    if (first === 0x7d) return result;
    if (first !== -1) this.pos--;
    for (;;) {
      const name = this.nextValue();
      if (typeof name !== 'string') throw new JSONException('Names must be strings');
      const separator = this.nextCleanInternal();
      if (separator !== 0x3a && separator !== 0x3d) throw new JSONException(`Expected ':' after ${name}`);
      if (this.pos < this.in.length && this.in[this.pos] === '>') this.pos++;
      const value = this.nextValue();
      // JSONObject.put refuses NaN and infinities (JSON.checkDouble).
      if (isJavaNumber(value) && value.java === 'Double' && !Number.isFinite(value.value as number)) {
        throw new JSONException(`Forbidden numeric value: ${String(value.value)}`);
      }
      result.set(name, value);
      const after = this.nextCleanInternal();
      if (after === 0x7d) return result;
      if (after === 0x3b || after === 0x2c) continue;
      throw new JSONException('Unterminated object');
    }
  }
}

/** `Long.parseLong(s, radix)`: an optional sign, then digits of the radix, within 64 bits. */
function parseJavaLong(s: string, radix: number): bigint | undefined {
  const digits = { 8: '0-7', 10: '0-9', 16: '0-9a-fA-F' }[radix as 8 | 10 | 16];
  const match = new RegExp(`^([+-]?)([${digits}]+)$`).exec(s);
  if (!match) return undefined;
  const prefix = { 8: '0o', 10: '', 16: '0x' }[radix as 8 | 10 | 16];
  const magnitude = BigInt(`${prefix}${match[2]}`);
  const value = match[1] === '-' ? -magnitude : magnitude;
  return value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined;
}
