// The new dialects at the paths their phones already ask (crDroid's `/{device}.json`, Evolution X's
// `/udc/builds/{device}.json`, AxionOS's `/OTA/GMS/{device}.json`, a GrapheneOS channel file),
// through the preview, which answers from the same route table and header rules as the hosts: each
// file with the API headers, and a miss a JSON 404 that the updater reads as no answer.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { dialectOracles } from '../helpers/dialects/index.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const YAML = `
formats:
  crdroid-java:
    lists: [stable]
    path: /udc/builds/{device}.json
  md5-six:
    lists: [stable]
    path: /{device}.json
  lineage-v1:
    lists: [stable]
    path: /OTA/GMS/{device}.json
  pixelos15:
    path: /API/updater/{list}/{device}.json
  grapheneos:
    path: /releases/{device}-{list}
`;

const compiled = compileWith(readContent(EXAMPLE), YAML);
const tree = servedTree(compiled.site!, compiled.files);

describe('dialects at their phones’ own paths, through the preview', () => {
  it('builds without problems', () => expect(compiled.problems).toEqual([]));

  it.each([
    ['/udc/builds/FP4.json', 'evolutionxUdc'],
    ['/FP4.json', 'voltageos'],
    ['/OTA/GMS/FP4.json', 'derpfest'],
    ['/API/updater/stable/FP4.json', 'pixelos15'],
    ['/releases/FP4-stable', 'grapheneos'],
  ] as const)('%s is served with the API headers, and %s reads it', (path, reader) => {
    const answer = respond(tree, 'GET', path);
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('application/json');
    expect(answer.headers['Access-Control-Allow-Origin']).toBe('*');
    const file = compiled.files.find((f) => `/${f.path}` === path)!;
    expect(String(answer.body)).toBe(String(file.contents));
    const phone = { buildDate: 0, device: 'FP4', channel: 'stable', incremental: 'x' };
    expect(dialectOracles[reader](String(answer.body), phone)!.length).toBeGreaterThan(0);
  });

  const misses = ['/udc/builds/x.json', '/x.json', '/OTA/GMS/x.json', '/API/updater/x/x.json', '/releases/x-stable'];
  it.each(misses)('answers a miss at %s with a JSON 404, which no reader takes for builds', (path) => {
    const answer = respond(tree, 'GET', path);
    expect(answer.status).toBe(404);
    expect(answer.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(answer.body))).toMatchObject({ response: [] });
  });
});
