// The host table is generated from the route table; this pins the rows the issue names, so a route
// dropped from ENDPOINTS cannot silently drop its checks on every host.
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { cloudflareRuleProblems, cloudflareRules } from '../../src/hosts/cloudflare.js';
import { routeTable } from '../../src/hosts/routes.js';
import {
  compileWith,
  FORMATS_OUTSIDE_API_YAML,
  hostTable,
  INCREMENTAL_EXAMPLE,
  REQUEST_PATHS_YAML,
} from '../helpers/host-table.js';

const compiled = compileSite(readContent(EXAMPLE));
const table = hostTable(compiled);
const row = (method: string, path: string) => table.find((p) => p.method === method && p.path === path);

describe('the host table', () => {
  it.each(compiled.listings.map((l) => ({ d: l.device, l: l.list })))(
    'asks for /api/v1/$d/$l in every form a phone or browser uses',
    ({ d, l }) => {
      const file = `api/v1/${d}/${l}/index.json`;
      for (const path of [`/api/v1/${d}/${l}/`, `/api/v1/${d}/${l}`, `/api/v1/${d}/${l}/?format=api`]) {
        for (const method of ['GET', 'HEAD'])
          expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 200, file });
      }
      const withIncremental = table.filter(
        (p) => p.file === file && new RegExp(`^/api/v1/${d}/${l}/[^/?]+$`).test(p.path),
      );
      expect(withIncremental.map((p) => p.method).sort()).toEqual(['GET', 'HEAD']);
    },
  );

  it('includes the 404s: unknown device, unknown list, too deep, a miss outside the API', () => {
    expect(row('GET', '/api/v1/no-such-device/stable/')).toMatchObject({
      status: 404,
      kind: 'json',
      file: 'api/v1/404.html',
    });
    expect(row('GET', '/api/v1/FP3/no-such-list/')).toMatchObject({
      status: 404,
      kind: 'json',
      file: 'api/v1/FP3/404.html',
    });
    expect(table.find((p) => /^\/api\/v1\/FP3\/stable\/[^/]+\/one\/more$/.test(p.path))).toMatchObject({
      status: 404,
      kind: 'json',
      file: 'api/v1/FP3/404.html',
    });
    expect(row('GET', '/no-such-page')).toMatchObject({ status: 404, kind: 'html', file: '404.html' });
  });

  // The v2 directory, in both slash forms (the official server has strict_slashes off).
  it.each(['/api/v2/oems', '/api/v2/oems/'])('asks for the v2 vendor list at %s', (path) => {
    for (const method of ['GET', 'HEAD'])
      expect(row(method, path), `${method} ${path}`).toMatchObject({
        status: 200,
        kind: 'json',
        file: 'api/v2/oems.json',
      });
  });

  it.each(['FP3', 'FP4', 'starlte'])('asks for the v2 device answer of %s, with and without device.yaml', (d) => {
    for (const path of [`/api/v2/devices/${d}`, `/api/v2/devices/${d}/`]) {
      for (const method of ['GET', 'HEAD'])
        expect(row(method, path), `${method} ${path}`).toMatchObject({
          status: 200,
          kind: 'json',
          file: `api/v2/devices/${d}/index.json`,
        });
    }
  });

  it('answers the first page of /api/v2/changes with the changes, every later page and a page that is not a number with the 404 that stops the portal', () => {
    for (const shape of ['/api/v2/changes', '/api/v2/changes/']) {
      for (const method of ['GET', 'HEAD']) {
        for (const path of [shape, `${shape}?page=0`])
          expect(row(method, path), `${method} ${path}`).toMatchObject({
            status: 200,
            kind: 'json',
            file: 'api/v2/changes.json',
          });
        for (const path of [`${shape}?page=1`, `${shape}?page=x`])
          expect(row(method, path), `${method} ${path}`).toMatchObject({
            status: 404,
            kind: 'json',
            file: 'api/v2/changes-past-end.json',
          });
      }
    }
  });

  it('answers v2 builds of an unknown device with 200 [], its description and v1 with JSON 404s', () => {
    for (const path of ['/api/v2/devices/no-such-device/builds', '/api/v2/devices/no-such-device/builds/']) {
      for (const method of ['GET', 'HEAD'])
        expect(row(method, path), `${method} ${path}`).toMatchObject({
          status: 200,
          kind: 'json',
          file: 'api/v2/unknown-device-builds.json',
        });
    }
    expect(row('GET', '/api/v2/devices/no-such-device')).toMatchObject({
      status: 404,
      kind: 'json',
      file: 'api/v2/devices/404.html',
    });
    expect(row('GET', '/api/v2/devices/FP3/builds/one/more')).toMatchObject({
      status: 404,
      kind: 'json',
      file: 'api/v2/devices/404.html',
    });
    expect(row('GET', '/api/v2/oems/one/more')).toMatchObject({ status: 404, kind: 'json', file: 'api/404.html' });
    expect(row('GET', '/api/v1/no-such-device/stable/')).toMatchObject({ status: 404, kind: 'json' });
  });
});

describe('the host table of a catalog with an incremental package', () => {
  const withIncremental = hostTable(compileWith(readContent(EXAMPLE), REQUEST_PATHS_YAML, INCREMENTAL_EXAMPLE));
  const at = (path: string) =>
    withIncremental.filter((p) => p.path === path).map((p) => `${p.method} ${p.status} ${p.file}`);

  it('asks for the answer of its source build on every request shape with {incremental}, in each list of its target', () => {
    for (const list of ['stable', 'official']) {
      for (const path of [
        `/api/v1/FP4/${list}/eng.root.20241108.123456`,
        `/api/v1/legacy/FP4/${list}/eng.root.20241108.123456`,
      ]) {
        expect(at(path)).toEqual([
          `GET 200 api/v1/FP4/${list}/eng.root.20241108.123456.json`,
          `HEAD 200 api/v1/FP4/${list}/eng.root.20241108.123456.json`,
        ]);
      }
    }
    // The target is in no other list, so no other list has an answer for the source build.
    expect(
      withIncremental
        .filter(
          (p) =>
            p.file.endsWith('.json') &&
            !/\/(index|404)\.json$|^api\/v2\//.test(p.file) &&
            !p.file.endsWith('eng.root.20241108.123456.json'),
        )
        .map((p) => p.file),
    ).toEqual([]);
  });

  it('asks the v2 path with {incr} with the source build, answered by its v2 answer, and with another build, by the device’s', () => {
    expect(at('/api/v2/devices/FP4/builds/eng.root.20241108.123456')).toEqual([
      'GET 200 api/v2/devices/FP4/builds/eng.root.20241108.123456.json',
      'HEAD 200 api/v2/devices/FP4/builds/eng.root.20241108.123456.json',
    ]);
    const rows = withIncremental.filter(
      (p) => /^\/api\/v2\/devices\/FP4\/builds\/[^/?]+$/.test(p.path) && p.method === 'GET',
    );
    expect(rows.map((p) => p.file).sort()).toEqual([
      'api/v2/devices/FP4/builds.json',
      'api/v2/devices/FP4/builds/eng.root.20241108.123456.json',
    ]);
  });

  it('asks the shapes with {incremental} with a build no package applies on too, answered by the listing', () => {
    const rows = withIncremental.filter((p) => /^\/api\/v1\/FP4\/stable\/[^/?]+$/.test(p.path) && p.method === 'GET');
    expect(rows.map((p) => p.file).sort()).toEqual([
      'api/v1/FP4/stable/eng.root.20241108.123456.json',
      'api/v1/FP4/stable/index.json',
    ]);
  });
});

describe('the host table of a catalog with formats outside /api/', () => {
  const withFormats = hostTable(compileWith(readContent(EXAMPLE), FORMATS_OUTSIDE_API_YAML));
  const at = (path: string) =>
    withFormats
      .filter((p) => p.path === path)
      .map((p) => `${p.method} ${p.status} ${p.kind} ${p.file}${p.rootFormat ? ' (root format)' : ''}`);

  it('asks for the files at the root and in /API/updater/, each at its path', () => {
    expect(at('/FP4.json')).toEqual(['GET 200 json FP4.json', 'HEAD 200 json FP4.json']);
    expect(at('/API/updater/FP4.json')).toEqual([
      'GET 200 json API/updater/FP4.json',
      'HEAD 200 json API/updater/FP4.json',
    ]);
  });

  it('asks for each file of a format with a path per list at its own path, each folder with its own JSON 404', () => {
    const rows = withFormats.filter((p) => /^\/builds\/(vanilla\/)?(FP4|no-such-device)\.json$/.test(p.path));
    expect(rows.map((p) => `${p.method} ${p.path} ${p.status} ${p.kind} ${p.file}`).sort()).toEqual([
      'GET /builds/FP4.json 200 json builds/FP4.json',
      'GET /builds/no-such-device.json 404 json builds/404.html',
      'GET /builds/vanilla/FP4.json 200 json builds/vanilla/FP4.json',
      'GET /builds/vanilla/no-such-device.json 404 json builds/vanilla/404.html',
      'HEAD /builds/FP4.json 200 json builds/FP4.json',
      'HEAD /builds/vanilla/FP4.json 200 json builds/vanilla/FP4.json',
    ]);
  });

  it('asks for the JSON 404s of a missing file: its folder’s, or at the root the one for the formats’ files there', () => {
    expect(at('/no-such-device.json')).toEqual(['GET 404 json api/format-misses/404.html (root format)']);
    expect(at('/API/updater/no-such-device.json')).toEqual(['GET 404 json API/updater/404.html']);
    expect(at('/API/updater/no/such/path')).toEqual(['GET 404 json API/updater/404.html']);
  });

  it('keeps the case: /api/updater/ is a miss under /api/; other misses at the root are HTML', () => {
    expect(at('/api/updater/fp4.json')).toEqual(['GET 404 json api/404.html']);
    expect(at('/no/such/page.json')).toEqual(['GET 404 html 404.html']);
    expect(at('/no-such-page')).toEqual(['GET 404 html 404.html']);
  });
});

describe("Cloudflare's limit on the answers for phones on one build", () => {
  const site = compileSite(readContent(EXAMPLE)).site!;
  const answers = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ device: 'FP4', list: 'stable', incremental: `eng.root.${i}` }));

  it('writes one static rule per answer, before every rule with a placeholder', () => {
    const rules = cloudflareRules(routeTable(site, { devices: ['FP4'], incrementals: answers(2) }));
    expect(rules.filter(([from]) => from.includes('eng.root.'))).toEqual([
      ['/api/v1/FP4/stable/eng.root.0', '/api/v1/FP4/stable/eng.root.0.json'],
      ['/api/v1/FP4/stable/eng.root.1', '/api/v1/FP4/stable/eng.root.1.json'],
      ['/api/v2/devices/FP4/builds/eng.root.0', '/api/v2/devices/FP4/builds/eng.root.0.json'],
      ['/api/v2/devices/FP4/builds/eng.root.1', '/api/v2/devices/FP4/builds/eng.root.1.json'],
    ]);
    expect(rules.slice(0, 2)).toEqual([
      ['/api/v1/FP4/stable/eng.root.0', '/api/v1/FP4/stable/eng.root.0.json'],
      ['/api/v1/FP4/stable/eng.root.1', '/api/v1/FP4/stable/eng.root.1.json'],
    ]);
    const firstDynamic = rules.findIndex(([from]) => from.includes(':'));
    expect(rules.slice(firstDynamic).every(([from]) => from.includes(':'))).toBe(true);
    expect(rules.slice(firstDynamic)).toContainEqual([
      '/api/v1/:device/:list/:incremental',
      '/api/v1/:device/:list/index.json',
    ]);
  });

  it('refuses more answers than the rules Cloudflare takes, saying what to do', () => {
    expect(cloudflareRuleProblems(routeTable(site, { devices: ['FP4'], incrementals: answers(990) }))).toEqual([]);
    expect(
      cloudflareRuleProblems(routeTable(site, { devices: ['FP4'], incrementals: answers(1001) })).map(
        (p) => `${p.file}:${p.line}:${p.col}  ${p.field}  ${p.message}`,
      ),
    ).toEqual([
      'content/site.yaml:1:1  (incremental packages)  the answers for phones on one build (1001, one per list and build an incremental package applies on, and one per device and build for LineageOS v2) take one _redirects rule each on Cloudflare Pages: 2006 static rules (with the site-wide ones), over its limit of 2000; remove the manifests of incremental packages from builds few phones still run',
    ]);
  });
});
