// The new dialects at the paths their phones already ask (crDroid's `/{device}.json`, Evolution X's
// `/udc/builds/{device}.json`, AxionOS's `/OTA/GMS/{device}.json`, a GrapheneOS channel file, AOSPA's `updates/<device>` as text),
// through the preview, which answers from the same route table and header rules as the hosts: each
// file with the API headers, and a miss a JSON 404 that the updater reads as no answer.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { githubPagesNotices } from '../../src/hosts/github-pages.js';
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
  aospa:
    lists: [stable]
    path: /aospa/updates/{device}
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

  it('/aospa/updates/FP4 is served as text, which both AOSPA hubs read, and the Compose Hub reads only so', () => {
    const answer = respond(tree, 'GET', '/aospa/updates/FP4');
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['Access-Control-Allow-Origin']).toBe('*');
    const body = String(answer.body);
    const phone = { buildDate: 0, version: '0', androidVersion: '13', contentType: answer.headers['Content-Type'] };
    expect(dialectOracles.aospaHub(body, phone)).toEqual([JSON.parse(body).updates[0].filename]);
    expect(dialectOracles.aospaCompose(body, phone)!.length).toBe(1);
    expect(dialectOracles.aospaCompose(body, { ...phone, contentType: 'application/json' })).toBeUndefined();
  });

  it('says in check that GitHub Pages cannot send AOSPA’s file as text, nor redirect GrapheneOS’s zips', () => {
    const pages = { changes: false, incrementals: [], linksToFiles: true, copies: true };
    const notices = githubPagesNotices(compiled.site!, pages).filter((n) => n.field.startsWith('formats.'));
    expect(notices.map((n) => [n.field, n.message.split(':')[0]])).toEqual([
      ['formats.aospa.path', 'GitHub Pages sends /aospa/updates/{device} by its extension, and it has none'],
      ['formats.grapheneos.path', 'GitHub Pages (and raw.githubusercontent.com) cannot redirect'],
    ]);
    expect(notices[0].message).toContain('application/octet-stream');
  });

  const misses = [
    '/udc/builds/x.json',
    '/x.json',
    '/OTA/GMS/x.json',
    '/API/updater/x/x.json',
    '/releases/x-stable',
    '/aospa/updates/x',
  ];
  it.each(misses)('answers a miss at %s with a JSON 404, which no reader takes for builds', (path) => {
    const answer = respond(tree, 'GET', path);
    expect(answer.status).toBe(404);
    // A text dialect's folder sends its type on a miss too: the body is still the JSON envelope.
    const type = path.startsWith('/aospa/') ? 'text/plain; charset=utf-8' : 'application/json';
    expect(answer.headers['Content-Type']).toBe(type);
    expect(JSON.parse(String(answer.body))).toMatchObject({ response: [] });
  });
});
