// The other updater families' files outside /api/ (site.yaml `formats`) in the hosts' limits: a
// folder of their own is one more `_headers` rule on both hosts and one more Netlify rule (its JSON
// 404); a file at the root is one `_headers` rule per list on Cloudflare (its pattern), a
// `_redirects` rule to itself per file written (static: each before the first dynamic one, where
// wrangler's parser counts them as static) and one to the JSON 404 per list (dynamic).
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { parseSite } from '../../src/catalog/site.js';
import { outputFloor, outputLimitProblems } from '../../src/hosts/limits.js';
import { CLOUDFLARE_LIMITS, cloudflareRuleProblems, cloudflareRules } from '../../src/hosts/cloudflare.js';
import { headerRules, routeTable } from '../../src/hosts/routes.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith, FORMATS_OUTSIDE_API_YAML } from '../helpers/host-table.js';

const base = 'download_base_url: https://images.example.org/builds\n';
const site = (yaml: string) => {
  const parsed = parseSite(base + yaml);
  expect(parsed.problems).toEqual([]);
  return parsed.site!;
};
const outside = site(FORMATS_OUTSIDE_API_YAML);
const plain = site('');

describe('formats outside /api/ in the hosts’ limits', () => {
  it('take one _headers rule per folder and per root pattern, one Netlify rule per JSON 404 folder, one dynamic _redirects rule per root pattern', () => {
    const rules = headerRules(outside);
    expect(rules.map((r) => r.for)).toEqual([
      '/api/*',
      '/aospa/updates/*',
      '/API/updater/*',
      '/OTA/device/*',
      // /builds/vanilla/ is inside /builds/, under its rule: Cloudflare would send both rules' headers.
      '/builds/*',
      '/:device.json',
    ]);
    // AOSPA's folder sends its files as text, the others as the API does.
    expect(rules.map((r) => r.values['Content-Type'])).toEqual([
      'application/json',
      'text/plain; charset=utf-8',
      'application/json',
      'application/json',
      'application/json',
      'application/json',
    ]);
    const [a, b] = [outputFloor(plain, 10), outputFloor(outside, 10)];
    // The folder of /OTA/device/{LIST}/{device}.json is one rule for every list.
    expect(b.headerRules - a.headerRules).toBe(5);
    // /aospa/updates/*, /API/updater/*, /OTA/device/*, /builds/vanilla/*, /builds/* and
    // /api/format-misses/*, each to its JSON 404.
    expect(b.rules - a.rules).toBe(6);
    expect(b.dynamicRedirects - a.dynamicRedirects).toBe(1);
  });

  it('the built site: a rule to itself per file at the root, with the static rules before the first rule with a placeholder, which is the rule to the JSON 404', () => {
    const compiled = compileWith(readContent(EXAMPLE), FORMATS_OUTSIDE_API_YAML);
    expect(compiled.problems).toEqual([]);
    const rules = String(compiled.files.find((f) => f.path === '_redirects')!.contents)
      .split('\n')
      .filter((l) => l.startsWith('/'));
    const written = compiled.files
      .filter((f) => !f.path.includes('/') && /^[A-Za-z0-9].*\.json$/.test(f.path))
      .map((f) => `/${f.path}`);
    expect(written.length).toBe(3);
    expect(rules.slice(0, 3)).toEqual(written.map((f) => `${f}  ${f}  200`));
    const firstDynamic = rules.findIndex((rule) => /[:*]/.test(rule.split(/\s+/)[0]));
    expect(rules.slice(firstDynamic).every((rule) => /[:*]/.test(rule.split(/\s+/)[0]))).toBe(true);
    expect(rules[firstDynamic]).toBe('/:device.json  /api/format-misses/missing  200');
    const headers = String(compiled.files.find((f) => f.path === '_headers')!.contents);
    expect(headers).toMatch(/^\/API\/updater\/\*$/m);
    expect(headers).toMatch(/^\/:device\.json$/m);
  });

  it(`refuses more files at the root than Cloudflare's ${CLOUDFLARE_LIMITS.staticRedirects} static rules, at the format's path in site.yaml`, () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => `/d${i}.json`);
    // The site-wide static rules (/api/v2/oems, /api/v2/changes, with and without the slash).
    const fixed = cloudflareRules(routeTable(outside)).filter(([from]) => !/[:*]/.test(from)).length;
    expect(fixed).toBe(4);
    expect(
      cloudflareRuleProblems(routeTable(outside, { rootFiles: files(CLOUDFLARE_LIMITS.staticRedirects - fixed) })),
    ).toEqual([]);
    const problems = cloudflareRuleProblems(
      routeTable(outside, { rootFiles: files(CLOUDFLARE_LIMITS.staticRedirects - fixed + 1) }),
    );
    expect(problems).toEqual([
      {
        file: 'content/site.yaml',
        line: 6,
        col: 11,
        field: 'formats.crdroid.path',
        message: `the formats' files at the root (1997, one per device and list) take one _redirects rule each on Cloudflare Pages, so that a missing one answers the JSON 404: 2001 static rules, over its limit of 2000; put the format in a folder of its own, e.g. /API/updater/{device}.json, which takes no rule per device`,
      },
    ]);
    // Under the limit, every file keeps its rule.
    expect(cloudflareRules(routeTable(outside, { rootFiles: files(3) })).slice(0, 3)).toEqual(
      files(3).map((f) => [f, f]),
    );
  });

  it(`refuses more _headers rules than Cloudflare's ${CLOUDFLARE_LIMITS.headerRules}, at the format's path in site.yaml`, () => {
    const lists = Array.from({ length: 100 }, (_, i) => `l${i}`);
    const many = site(
      `hosts: [cloudflare]\nchannels: [stable]\nlists:\n${lists.map((l) => `  ${l}: [stable]\n`).join('')}formats:\n  crdroid:\n    path: /{list}-{device}.json\n`,
    );
    expect(headerRules(many)).toHaveLength(101);
    const problems = outputLimitProblems(many, ['FP4']).filter((p) => p.field === 'formats.crdroid.path');
    expect(problems).toEqual([
      {
        file: 'content/site.yaml',
        line: 107,
        col: 11,
        field: 'formats.crdroid.path',
        message:
          'the formats take 101 _headers rules on Cloudflare Pages (one for /api/, one per folder of their own outside it, one per list of a format at the root), past its 100; publish fewer lists at the root, or put the format in a folder of its own, e.g. /ota/{list}/{device}.json, which is one rule for every list',
      },
    ]);
    // A site that does not deploy to Cloudflare has no such limit.
    const netlifyOnly = { ...many, hosts: ['netlify' as const] };
    expect(outputLimitProblems(netlifyOnly, ['FP4']).filter((p) => p.field === 'formats.crdroid.path')).toEqual([]);
  });
});
