// site.yaml values that reach the hosts' files: cache_control has the grammar
// of RFC 9111's response directives; every emitter also escapes for its own syntax, so a value
// that its grammar lets through (a `$` or `%` in a field name) reaches the phone literally.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { renderHostFiles } from '../../src/hosts/host-files.js';
import { NETLIFY_TOML, renderNetlifyRedirects } from '../../src/hosts/netlify.js';
import { routeTable } from '../../src/hosts/routes.js';
import { catalogProject } from '../helpers/catalog.js';
import { loadNetlifySite } from '../helpers/netlify-engine.js';

const BASE = 'download_base_url: https://dl.example.org\n';
const problems = (text: string) => parseSite(BASE + text).problems.map(formatProblem);

describe('cache_control: response directives of RFC 9111 only', () => {
  it.each([
    'public, max-age=300',
    'no-store',
    'no-cache',
    'public,max-age=0,must-revalidate',
    'max-age=60, s-maxage=600, stale-while-revalidate=30, stale-if-error=86400',
    'private="Set-Cookie, Authorization", max-age=10',
    'no-cache="Set-Cookie"',
    'public, max-age=31536000, immutable',
    'Public, Max-Age=5',
    // Tokens may hold `$` and `%` (RFC 9110 §5.6.2): the emitters escape them.
    'no-cache="$document_root", private="%z"',
  ])('accepts %j', (value) => {
    expect(problems(`cache_control: '${value}'\n`)).toEqual([]);
    expect(parseSite(`${BASE}cache_control: '${value}'\n`).site?.cacheControl).toBe(value);
  });

  const at = (message: string) => `content/site.yaml:2:16  cache_control  ${message}`;
  it.each([
    ['a Caddy placeholder', 'max-age={env.SECRET}', at('`max-age` takes a number of seconds, e.g. max-age=300')],
    [
      'a Caddy placeholder as a directive',
      '{env.SECRET}',
      at(
        '`{env.SECRET}` is not a directive name: directives are words such as max-age and no-cache, separated by commas (e.g. "public, max-age=300")',
      ),
    ],
    [
      'an nginx variable',
      'public, $document_root',
      at(
        '`$document_root` is not a Cache-Control response directive (directives: max-age, s-maxage, stale-while-revalidate, stale-if-error, must-revalidate, must-understand, proxy-revalidate, no-store, no-transform, public, immutable, no-cache, private)',
      ),
    ],
    ['an Apache format tag', 'max-age=%z', at('`max-age` takes a number of seconds, e.g. max-age=300')],
    [
      'an Apache expression',
      'expr=%{HTTP_HOST}',
      at(
        '`expr` is not a Cache-Control response directive (directives: max-age, s-maxage, stale-while-revalidate, stale-if-error, must-revalidate, must-understand, proxy-revalidate, no-store, no-transform, public, immutable, no-cache, private)',
      ),
    ],
    [
      'a Cloudflare placeholder',
      'no-cache=":splat"',
      at(
        '`no-cache=` takes header names in double quotes, e.g. no-cache="Set-Cookie" or no-cache="Set-Cookie, Authorization"; or write `no-cache` alone',
      ),
    ],
    [
      'a typo',
      'public, max_age=300',
      at(
        '`max_age` is not a Cache-Control response directive; did you mean `max-age`? (directives: max-age, s-maxage, stale-while-revalidate, stale-if-error, must-revalidate, must-understand, proxy-revalidate, no-store, no-transform, public, immutable, no-cache, private)',
      ),
    ],
    [
      'spaces around =',
      'max-age = 300',
      at(
        '`max-age ` is not a directive name: directives are words such as max-age and no-cache, separated by commas (e.g. "public, max-age=300")',
      ),
    ],
    ['a request directive', 'max-stale=5', at('`max-stale` is a directive of requests, not of responses; remove it')],
    ['a directive twice', 'max-age=5, Max-Age=6', at('`max-age` is given twice; keep one')],
    [
      'an empty element',
      'public,, max-age=5',
      at(
        'an empty directive (two commas, or one at an end); separate directives with one comma, e.g. "public, max-age=300"',
      ),
    ],
    ['a value where none is taken', 'public=yes', at('`public` takes no value; write it alone')],
    ['a quoted number', 'max-age="300"', at('`max-age` takes a number of seconds, e.g. max-age=300')],
    ['public and private', 'public, private', at('`public` and `private` contradict each other; keep one')],
    [
      'a TOML escape',
      'no-cache="a\\u0022b"',
      at(
        '`no-cache=` takes header names in double quotes, e.g. no-cache="Set-Cookie" or no-cache="Set-Cookie, Authorization"; or write `no-cache` alone',
      ),
    ],
    ['blank', ' ', at('expected a Cache-Control header value, e.g. "public, max-age=300"')],
  ])('refuses %s', (_, value, message) => {
    expect(problems(`cache_control: '${value}'\n`)).toEqual([message]);
  });

  it('refuses a line break and a tab', () => {
    expect(problems('cache_control: "public\\n/x/*\\n  X: y"\n')).toEqual([
      'content/site.yaml:2:16  cache_control  a header value is one line of printable ASCII; remove line breaks, tabs, control and non-ASCII characters (e.g. "public, max-age=300")',
    ]);
    expect(problems('cache_control: "public,\\tmax-age=1"\n')).toHaveLength(1);
  });
});

describe('cache_control in the Cloudflare and Netlify rule files', () => {
  const value = 'no-cache="$document_root, %z, $host", max-age=60';

  it("a value with `$` and `%` reaches both hosts' _headers literally, through Netlify's own parser too", async () => {
    const root = catalogProject([{}], `${BASE}cache_control: '${value}'\n`);
    build({ root });
    expect(readFileSync(path.join(root, 'dist', '_headers'), 'utf8')).toContain(`\n  Cache-Control: ${value}\n`);
    build({ root, host: 'netlify' });
    writeFileSync(path.join(root, 'netlify.toml'), NETLIFY_TOML);
    const site = await loadNetlifySite(path.join(root, 'netlify.toml'), path.join(root, 'dist'));
    expect(site.errors).toEqual([]);
    expect(site.headers.find((h) => h.for === '/api/*')?.values['Cache-Control']).toBe(value);
  });

  it.each([
    ['a Cloudflare placeholder', 'no-cache=":splat"'],
    ['a line break', 'max-age=1\n/*\n  X-Evil: 1'],
  ])('_headers refuses %s that got past the grammar, rather than write it, for either host', (_, cacheControl) => {
    const { site } = parseSite(BASE);
    expect(() =>
      renderHostFiles({ ...site!, cacheControl }, 'all', routeTable({ ...site!, cacheControl }, { devices: ['FP4'] })),
    ).toThrow(/cannot be written literally in _headers/);
    expect(() =>
      renderHostFiles(
        { ...site!, cacheControl },
        'netlify',
        routeTable({ ...site!, cacheControl }, { devices: ['FP4'] }),
      ),
    ).toThrow(/cannot be written literally in _headers/);
  });

  it.each(['/api/v1/a b/{device}/{list}', '/api/v1/#x/{device}/{list}', '/api/v1/\x7f/{device}/{list}'])(
    "Netlify's _redirects refuses a path that would not be one field (%j) rather than write it",
    (pattern) => {
      const { site } = parseSite(BASE);
      const requestPaths = [{ pattern, line: 1, col: 1 }];
      expect(() => renderNetlifyRedirects(routeTable({ ...site!, requestPaths }, { devices: ['FP4'] }))).toThrow(
        /cannot be written as one field of _redirects/,
      );
    },
  );
});
