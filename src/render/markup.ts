/**
 * Escapes text for HTML and XML, in element content and in quoted attributes alike. Every value
 * that comes from a manifest or site.yaml goes through this before it reaches a page or a feed.
 * Characters XML 1.0 forbids (C0 controls other than tab and newlines) are dropped so a feed stays
 * well-formed whatever a manifest holds.
 */
export function escapeMarkup(value: string | number | boolean): string {
  const text = String(value);
  // Most values (versions, dates, hashes, names) need nothing: one test instead of two copies.
  if (!NEEDS_ESCAPING.test(text)) return text;
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Tagged template that escapes every interpolated value; nest pre-built markup with {@link raw}. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0];
  values.forEach((value, i) => {
    out += toMarkup(value) + strings[i + 1];
  });
  return new Markup(out);
}

/** Markup already escaped: {@link html} inserts it as it is. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

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
 * and its `toISOString`, and called several times per build; anything else goes through `Date`.
 * test/markup.test.ts compares both on random times.
 */
export function isoTime(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds >= YEAR_10000) return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
  const days = Math.floor(seconds / 86400);
  const time = seconds - days * 86400;
  // Days since 0000-03-01, in 400-year eras of 146,097 days; March first, so that February ends the year.
  const fromMarch = days + 719468;
  const era = Math.floor(fromMarch / 146097);
  const dayOfEra = fromMarch - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(Math.floor(time / 3600))}:${twoDigits(Math.floor(time / 60) % 60)}:${twoDigits(time % 60)}Z`;
}

/** Unix seconds as a short UTC date and time for people: `2024-11-08 12:00 UTC`. */
export function readableTime(seconds: number): string {
  return `${isoTime(seconds).slice(0, 16).replace('T', ' ')} UTC`;
}

// --- internal ---

/** 10000-01-01T00:00:00Z in Unix seconds: from there on, years have five digits. */
const YEAR_10000 = 253402300800;

function twoDigits(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

const NEEDS_ESCAPING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff&<>"']/;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

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
