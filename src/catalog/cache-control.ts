/**
 * `cache_control` of site.yaml: a response `Cache-Control` value that is written into every host's
 * syntax (both hosts' `_headers`, nginx, Caddy, Apache, `.htaccess`). It must be what RFC 9111
 * §5.2 describes, with the response directives of the IANA registry only: anything else would be
 * sent to every phone as is, or read by a host as its own syntax (`{env.X}` in Caddy, `$x` in nginx,
 * `%x` and `expr=` in Apache). The emitters escape for their syntax besides. Pure.
 */
import { nearest } from './problems.js';

/**
 * The response directives of the HTTP Cache Directive Registry (RFC 9111 §5.2.2, RFC 5861,
 * RFC 8246) and their argument: `seconds` (delta-seconds, required), `fields` (an optional quoted
 * list of field names), `none`.
 */
const RESPONSE_DIRECTIVES: Record<string, 'seconds' | 'fields' | 'none'> = {
  'max-age': 'seconds',
  's-maxage': 'seconds',
  'stale-while-revalidate': 'seconds',
  'stale-if-error': 'seconds',
  'must-revalidate': 'none',
  'must-understand': 'none',
  'proxy-revalidate': 'none',
  'no-store': 'none',
  'no-transform': 'none',
  public: 'none',
  immutable: 'none',
  'no-cache': 'fields',
  private: 'fields',
};

/** Directives a client sends in a request: meaningless in a response. */
const REQUEST_DIRECTIVES = ['max-stale', 'min-fresh', 'only-if-cached'];

/** RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What is wrong with `value` as a response Cache-Control header, or undefined when it is one:
 * comma-separated directives (RFC 9111 §5.2), each a registered response directive, at most
 * once, with the argument its definition gives it (`max-age=300`, `no-cache="Set-Cookie"`).
 */
export function cacheControlProblem(value: string): string | undefined {
  const example = 'e.g. "public, max-age=300"';
  if (!/^[\x20-\x7e]*$/.test(value))
    return `a header value is one line of printable ASCII; remove line breaks, tabs, control and non-ASCII characters (${example})`;
  if (value.trim() === '') return `expected a Cache-Control header value, ${example}`;
  const seen = new Set<string>();
  for (const element of splitList(value)) {
    const directive = /^([^=]*)(?:=(.*))?$/s.exec(element)!;
    const [name, argument] = [directive[1], directive[2]];
    if (name === '')
      return `an empty directive (two commas, or one at an end); separate directives with one comma, ${example}`;
    const lower = name.toLowerCase();
    if (!TOKEN.test(name))
      return `\`${name}\` is not a directive name: directives are words such as max-age and no-cache, separated by commas (${example})`;
    if (REQUEST_DIRECTIVES.includes(lower))
      return `\`${name}\` is a directive of requests, not of responses; remove it`;
    const kind = RESPONSE_DIRECTIVES[lower];
    if (kind === undefined) {
      const hint = nearest(lower, Object.keys(RESPONSE_DIRECTIVES));
      return `\`${name}\` is not a Cache-Control response directive${hint ? `; did you mean \`${hint}\`?` : ''} (directives: ${Object.keys(RESPONSE_DIRECTIVES).join(', ')})`;
    }
    if (seen.has(lower)) return `\`${lower}\` is given twice; keep one`;
    seen.add(lower);
    if (kind === 'seconds' && (argument === undefined || !/^\d{1,10}$/.test(argument)))
      return `\`${lower}\` takes a number of seconds, e.g. ${lower}=300`;
    if (kind === 'none' && argument !== undefined) return `\`${lower}\` takes no value; write it alone`;
    if (kind === 'fields' && argument !== undefined && !fieldNames(argument)) {
      return `\`${lower}=\` takes header names in double quotes, e.g. ${lower}="Set-Cookie" or ${lower}="Set-Cookie, Authorization"; or write \`${lower}\` alone`;
    }
  }
  if (seen.has('public') && seen.has('private')) return '`public` and `private` contradict each other; keep one';
  return undefined;
}

// --- internal ---

/** The elements of an RFC 9110 §5.6.1 list, trimmed of their whitespace; commas inside quotes stay. */
function splitList(value: string): string[] {
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      elements.push(current.trim());
      current = '';
    } else current += ch;
  }
  elements.push(current.trim());
  return elements;
}

/** A quoted list of field names (RFC 9111 §5.2.2.4): `"Set-Cookie, Authorization"`; no escapes. */
function fieldNames(argument: string): boolean {
  if (!/^"[^"\\]*"$/.test(argument)) return false;
  const names = argument
    .slice(1, -1)
    .split(',')
    .map((n) => n.trim());
  return names.every((name) => TOKEN.test(name));
}
