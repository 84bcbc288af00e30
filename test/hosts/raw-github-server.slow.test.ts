// The raw.githubusercontent.com look-alike (test/helpers/raw-github-server.ts) does what the raw host
// does, as its comments cite: real HTTP requests on 127.0.0.1 to a branch's files written here, at
// the paths the ROM projects' updaters fetch.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawGitHubServer, type RawServer } from '../helpers/raw-github-server.js';

const FILES: Record<string, string | Buffer> = {
  'API/updater/FP4.json': '[{"datetime":1}]\n',
  'OTA/device/GAPPS/FP4.json': '{"response":[]}\n',
  'FP4.json': '{"response":[]}\n',
  'changelog_FP4.txt': 'first build\n',
  'API/updater/changelogs/FP4.md': '# FP4\n',
  'index.html': '<!doctype html><title>home</title>',
  'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'icon.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'eng.root.20241108.123456': '{"response":[]}\n',
};
/** The headers a raw file answer carries (Node adds Date, Connection and Keep-Alive itself). */
const FILE_HEADERS = [
  'access-control-allow-origin',
  'cache-control',
  'content-length',
  'content-security-policy',
  'content-type',
  'etag',
  'expires',
  'x-content-type-options',
];

let root: string;
let raw: RawServer;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-raw-'));
  for (const [name, bytes] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), bytes);
  }
  raw = await startRawGitHubServer({ owner: 'rom-project', repo: 'OTA', branch: 'sixteen', root });
});

afterAll(async () => {
  await raw?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, init: RequestInit = {}) => fetch(url, { redirect: 'manual', ...init });
const headerNames = (response: Response) =>
  [...response.headers.keys()].filter((name) => !['date', 'connection', 'keep-alive'].includes(name)).sort();

describe('raw.githubusercontent.com look-alike: files', () => {
  it('serves the branch at /<owner>/<repo>/<branch>/', () => {
    expect(raw.base).toBe(`${raw.origin}/rom-project/OTA/sixteen/`);
  });

  it.each(Object.keys(FILES))('serves %s as text/plain; charset=utf-8, byte for byte, by either form', async (name) => {
    for (const url of [`${raw.base}${name}`, `${raw.origin}/rom-project/OTA/refs/heads/sixteen/${name}`]) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('text/plain; charset=utf-8');
      expect(Buffer.from(await response.arrayBuffer()), url).toEqual(Buffer.from(FILES[name]));
    }
  });

  it('sends the fixed headers and no others on a file', async () => {
    const response = await get(`${raw.base}API/updater/FP4.json`);
    expect(headerNames(response)).toEqual(FILE_HEADERS);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('max-age=300');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
    expect(response.headers.get('content-security-policy')).toBe(policy);
    const digest = createHash('sha256').update(FILES['API/updater/FP4.json']).digest('hex');
    expect(response.headers.get('etag')).toBe(`"${digest}"`);
    const expires = Date.parse(response.headers.get('expires')!) - Date.parse(response.headers.get('date')!);
    expect(expires).toBeGreaterThanOrEqual(299_000);
    expect(expires).toBeLessThanOrEqual(301_000);
  });

  it('answers HEAD with the status and headers of GET and no body', async () => {
    for (const name of ['FP4.json', 'missing.json']) {
      const head = await get(`${raw.base}${name}`, { method: 'HEAD' });
      const getAnswer = await get(`${raw.base}${name}`);
      expect(head.status, name).toBe(getAnswer.status);
      expect(headerNames(head), name).toEqual(headerNames(getAnswer));
      expect(head.headers.get('content-length'), name).toBe(getAnswer.headers.get('content-length'));
      expect(await head.text(), name).toBe('');
    }
  });

  it('answers 304 to a matching If-None-Match, 200 otherwise', async () => {
    const url = `${raw.base}FP4.json`;
    const etag = (await get(url)).headers.get('etag')!;
    const current = await get(url, { headers: { 'If-None-Match': etag } });
    expect(current.status).toBe(304);
    expect(await current.text()).toBe('');
    expect((await get(url, { headers: { 'If-None-Match': '"0"' } })).status).toBe(200);
  });

  it('refuses other methods', async () => {
    expect((await get(`${raw.base}FP4.json`, { method: 'POST', body: '' })).status).toBe(405);
  });
});

describe('raw.githubusercontent.com look-alike: misses', () => {
  it.each([
    ['a missing file', 'rom-project/OTA/sixteen/missing.json'],
    ['a folder', 'rom-project/OTA/sixteen/API/updater'],
    ['a folder with its slash', 'rom-project/OTA/sixteen/API/updater/'],
    ['the branch root, though it has an index.html', 'rom-project/OTA/sixteen/'],
    ['the branch without a slash', 'rom-project/OTA/sixteen'],
    ['a file with a trailing slash', 'rom-project/OTA/sixteen/FP4.json/'],
    ['another branch', 'rom-project/OTA/fifteen/FP4.json'],
    ['another branch by refs/heads', 'rom-project/OTA/refs/heads/fifteen/FP4.json'],
    ['another repository', 'rom-project/other/sixteen/FP4.json'],
    ['another owner', 'someone/OTA/sixteen/FP4.json'],
    ['no branch at all', 'rom-project/OTA/FP4.json'],
    ['a way out of the branch', 'rom-project/OTA/sixteen/..%2F..%2Fetc%2Fhostname'],
  ])('answers %s with a plain-text 404: Not Found, no redirect', async (_what, name) => {
    const response = await get(`${raw.origin}/${name}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('404: Not Found');
  });
});
