// The host table is generated from the route table; this pins the rows the issue names, so a route
// dropped from ENDPOINTS cannot silently drop its checks on every host.
import { describe, expect, it } from 'vitest';
import { compileSite } from '../src/build/build.js';
import { readContent } from '../src/catalog/read.js';
import { EXAMPLE } from './helpers.js';
import { hostTable } from './host-table.js';

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
});
