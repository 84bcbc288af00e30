import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { ENDPOINTS, notFoundScopes } from '../../src/hosts/routes.js';
import { fileOf, URLS } from '../../src/render/urls.js';
import { EXAMPLE } from '../helpers/helpers.js';

/** A route pattern as Cloudflare matches it: `:name` is one non-empty segment, the rest exact. */
const matcher = (route: string) =>
  new RegExp(`^${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/g, '[^/]+')}$`);
const rules = ENDPOINTS.flatMap((e) => e.paths.map((path) => ({ path, test: matcher(path) })));

describe('pages and feeds stay out of the API’s way', () => {
  const content = readContent(EXAMPLE);
  const compiled = compileSite(content);
  const humanFiles = compiled.files
    .map((f) => f.path)
    .filter((p) => p.endsWith('.html') || p.endsWith('.xml'))
    .filter((p) => !p.startsWith('api/'));
  const urls = humanFiles.map((p) => (p.endsWith('index.html') ? `/${p.slice(0, -'index.html'.length)}` : `/${p}`));

  it('writes the home page, one page per device and one feed per device and list', () => {
    expect(humanFiles).toEqual([
      '404.html',
      // Every device of the example has builds with changelogs, so a changelog page.
      ...content.devices.flatMap((d) => [
        `devices/${d}/changelog/index.html`,
        ...['community', 'dev'].map((l) => `devices/${d}/${l}.xml`),
        `devices/${d}/index.html`,
        ...['official', 'stable'].map((l) => `devices/${d}/${l}.xml`),
      ]),
      'index.html',
    ]);
  });

  it.each(urls)('%s is matched by no rewrite rule and lies in no JSON 404 folder', (url) => {
    expect(rules.filter((r) => r.test.test(url)).map((r) => r.path)).toEqual([]);
    expect(notFoundScopes(compiled.site!, content.devices).filter((s) => url.startsWith(s.folder))).toEqual([]);
  });

  it('would have been swallowed under /api/v1/<device>/<list>/: the reason feeds live elsewhere', () => {
    expect(rules.filter((r) => r.test.test('/api/v1/FP4/stable/feed.xml')).map((r) => r.path)).toEqual([
      '/api/v1/:device/:list/:incremental',
    ]);
  });

  it('links pages by folder URLs, whose file is the folder’s index.html', () => {
    expect([URLS.home, URLS.devicePage('FP4')].map(fileOf)).toEqual(['index.html', 'devices/FP4/index.html']);
    expect(fileOf(URLS.feed('FP4', 'stable'))).toBe('devices/FP4/stable.xml');
  });
});
