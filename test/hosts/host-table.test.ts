// The host table is generated from the route table; this pins the rows the issue names, so a route
// dropped from ENDPOINTS cannot silently drop its checks on every host.
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { hostTable } from '../helpers/host-table.js';

const compiled = compileSite(readContent(EXAMPLE));
const table = hostTable(compiled);
const row = (method: string, path: string) => table.find((p) => p.method === method && p.path === path);

describe('the host table', () => {
  it.each(compiled.listings.map((l) => ({ d: l.device, l: l.list })))('asks for /api/v1/$d/$l in every form a phone or browser uses', ({ d, l }) => {
    const file = `api/v1/${d}/${l}/index.json`;
    for (const path of [`/api/v1/${d}/${l}/`, `/api/v1/${d}/${l}`, `/api/v1/${d}/${l}/?format=api`]) {
      for (const method of ['GET', 'HEAD']) expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 200, file });
    }
    const withIncremental = table.filter((p) => p.file === file && new RegExp(`^/api/v1/${d}/${l}/[^/?]+$`).test(p.path));
    expect(withIncremental.map((p) => p.method).sort()).toEqual(['GET', 'HEAD']);
  });

  it('includes the 404s: unknown device, unknown list, too deep, a miss outside the API', () => {
    expect(row('GET', '/api/v1/no-such-device/stable/')).toMatchObject({ status: 404, kind: 'json', file: 'api/v1/404.html' });
    expect(row('GET', '/api/v1/FP3/no-such-list/')).toMatchObject({ status: 404, kind: 'json', file: 'api/v1/FP3/404.html' });
    expect(table.find((p) => /^\/api\/v1\/FP3\/stable\/[^/]+\/one\/more$/.test(p.path))).toMatchObject({ status: 404, kind: 'json', file: 'api/v1/FP3/404.html' });
    expect(row('GET', '/no-such-page')).toMatchObject({ status: 404, kind: 'html', file: '404.html' });
  });

  // The v2 directory, in both slash forms (the official server has strict_slashes off).
  it.each(['/api/v2/oems', '/api/v2/oems/'])('asks for the v2 vendor list at %s', (path) => {
    for (const method of ['GET', 'HEAD']) expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 200, kind: 'json', file: 'api/v2/oems.json' });
  });

  it.each(['FP3', 'FP4', 'starlte'])('asks for the v2 device answer of %s, with and without device.yaml', (d) => {
    for (const path of [`/api/v2/devices/${d}`, `/api/v2/devices/${d}/`]) {
      for (const method of ['GET', 'HEAD']) expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 200, kind: 'json', file: `api/v2/devices/${d}/index.json` });
    }
  });

  it('answers the first page of /api/v2/changes with the changes, every later page and a page that is not a number with the 404 that stops the portal', () => {
    for (const shape of ['/api/v2/changes', '/api/v2/changes/']) {
      for (const method of ['GET', 'HEAD']) {
        for (const path of [shape, `${shape}?page=0`]) expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 200, kind: 'json', file: 'api/v2/changes.json' });
        for (const path of [`${shape}?page=1`, `${shape}?page=x`]) expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 404, kind: 'json', file: 'api/v2/changes-past-end.json' });
      }
    }
  });

  it('answers v2 builds of an unknown device with 200 [], its description and v1 with JSON 404s', () => {
    for (const path of ['/api/v2/devices/no-such-device/builds', '/api/v2/devices/no-such-device/builds/']) {
      for (const method of ['GET', 'HEAD']) expect(row(method, path), `${method} ${path}`).toMatchObject({ status: 200, kind: 'json', file: 'api/v2/unknown-device-builds.json' });
    }
    expect(row('GET', '/api/v2/devices/no-such-device')).toMatchObject({ status: 404, kind: 'json', file: 'api/v2/devices/404.html' });
    expect(row('GET', '/api/v2/devices/FP3/builds/one/more')).toMatchObject({ status: 404, kind: 'json', file: 'api/v2/devices/404.html' });
    expect(row('GET', '/api/v2/oems/one/more')).toMatchObject({ status: 404, kind: 'json', file: 'api/404.html' });
    expect(row('GET', '/api/v1/no-such-device/stable/')).toMatchObject({ status: 404, kind: 'json' });
  });
});
