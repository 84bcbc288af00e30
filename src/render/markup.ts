/**
 * Escapes text for HTML and XML, in element content and in quoted attributes alike. Every value
 * that comes from a manifest or site.yaml goes through this before it reaches a page or a feed.
 * Characters XML 1.0 forbids (C0 controls other than tab and newlines) are dropped so a feed stays
 * well-formed whatever a manifest holds.
 */
export function escapeMarkup(value: string | number | boolean): string {
  const text = typeof value === 'string' ? value : String(value);
  // Most values (versions, dates, hashes, names) need nothing: one test instead of a copy.
  if (!NEEDS_ESCAPING.test(text)) return text;
  // One pass; a loop over the characters is faster than a replace that calls back for each.
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let entity: string;
    if (c === 0x26) entity = '&amp;';
    else if (c === 0x3c) entity = '&lt;';
    else if (c === 0x3e) entity = '&gt;';
    else if (c === 0x22) entity = '&quot;';
    else if (c === 0x27) entity = '&#39;';
    else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) entity = '';
    else continue;
    out += text.slice(last, i) + entity;
    last = i + 1;
  }
  return out + text.slice(last);
}

/** escapeMarkup's stand-in for a value known to hold nothing to escape (see writtenAsIs, as-is.ts). */
export function asIs(value: string): string {
  return value;
}

/** Tagged template that escapes every interpolated value; nest pre-built markup with {@link raw}. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += toMarkup(values[i]) + strings[i + 1];
  return new Markup(out);
}

/** Markup already escaped: {@link html} inserts it as it is. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/**
 * `text` made one flat string now, for text a build keeps while it makes a device's pages (each
 * build's article, its changelog's forms). V8 keeps a string made with `+` or a template as a tree
 * of its pieces until something needs it whole; turning it into a number is such a need (the trick
 * of the `flatstr` package, github.com/davidmarkclements/flatstr). Flat, the text is one object
 * instead of hundreds: the collector copies a tree like that each time it survives a collection of
 * the young generation, and every page that holds the text walks the tree again.
 */
export function flatten<T extends string | Markup>(text: T): T {
  SINK.number = Number(typeof text === 'string' ? text : text.text);
  return text;
}

/** Where {@link flatten} puts the number, so that no compiler drops the conversion as unused. */
const SINK = { number: 0 };

/** Marks trusted, already escaped text as markup. */
export function raw(text: string): Markup {
  return new Markup(text);
}

/** Bytes in binary units as people read them: `1.29 GiB`, `512 KiB`, `0 B`. */
export function humanSize(bytes: number): string {
  const [value, unit] = scaleBytes(bytes);
  if (unit === 'B') return `${bytes} B`;
  return `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)} ${unit}`;
}

/**
 * Unix seconds as an RFC 3339 UTC time without milliseconds: `2024-11-08T12:00:00Z`. Whole seconds
 * from 1970 to 9999 (every build time) are converted by arithmetic, the date by Howard Hinnant's
 * `civil_from_days` (howardhinnant.github.io/date_algorithms.html), four times as fast as a `Date`
 * and its `toISOString`, and called several times per build (the last answer is kept); anything
 * else goes through `Date`. test/render/markup.test.ts compares both on fixed days and random times.
 */
export function isoTime(seconds: number): string {
  // Pages and feeds ask for the same build's time several times in a row (machine and readable forms).
  if (seconds === last.seconds) return last.iso;
  const iso =
    Number.isInteger(seconds) && seconds >= 0 && seconds < YEAR_10000
      ? formatUtc(seconds)
      : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  last.seconds = seconds;
  last.iso = iso;
  return iso;
}

/** Unix seconds as a short UTC date and time for people: `2024-11-08 12:00 UTC`. */
export function readableTime(seconds: number): string {
  return `${isoTime(seconds).slice(0, 16).replace('T', ' ')} UTC`;
}

// --- internal ---

const last = { seconds: NaN, iso: '' };
const YEAR_10000 = 253402300800;

/** What `Date#toISOString` gives for whole seconds from 1970 to 9999, without the milliseconds, four times faster (days to date: H. Hinnant's civil_from_days). */
function formatUtc(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const inDay = seconds - days * 86400;
  const hour = Math.floor(inDay / 3600);
  const minute = Math.floor((inDay - hour * 3600) / 60);
  const second = inDay - hour * 3600 - minute * 60;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * m + 2) / 5) + 1;
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}Z`;
}

/** `00` to `99`. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

function two(n: number): string {
  return TWO_DIGITS[n];
}

const NEEDS_ESCAPING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff&<>"']/;

function toMarkup(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(toMarkup).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeMarkup(value as string);
}

/** Bytes scaled to the largest binary unit (B, KiB, … TiB) that keeps the value at least 1. */
export function scaleBytes(bytes: number): [number, string] {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return [value, units[unit]];
}
