// `otapress probe` against `otapress serve` of a small catalog whose downloads a loopback server
// holds as real OTA zips, and against a server in front of the preview that injects one fault at a
// time: each must be reported once, naming the updater, the URL and the rule, with exit 1.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-process.js';
import { ROOT } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { freePort, startGroupServer, type GroupServer } from '../helpers/process-group.js';

/** A zip as the catalog lists it. */
interface Zip {
  name: string;
  bytes: Buffer;
}

/** What the fault server does to one request path instead of passing it to the preview. */
type Fault = (req: IncomingMessage, res: ServerResponse, upstream: () => Promise<Response>) => Promise<void> | void;

let work: string;
let project: string;
let preview: GroupServer;
/** A file's bytes, its bytes without range support, a redirect to another path, or a file whose whole download stalls. */
type Held = Buffer | { whole: Buffer } | { location: string } | { stalls: Buffer };
let downloads: { origin: string; server: Server; files: Map<string, Held> };
let front: { origin: string; server: Server };
const faults = new Map<string, Fault>();
let zips: Zip[];

const V2_PATH = '/api/v2/devices/FP4/builds';
const V1_PATH = '/api/v1/FP4/official/';
const downloadPath = (zip: Zip) => `/builds/official/FP4/${zip.name}`;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'otapress-probe-'));
  zips = [];
  for (const [name, stamp] of [
    ['e-2.5-a14-20241108446322-official-FP4.zip', '1731067200'],
    ['e-2.6-a14-20241210450000-official-FP4.zip', '1733832000'],
  ]) {
    const file = path.join(work, name);
    await writeOtaZip(file, { metadata: FP4_METADATA.replace('1731067200', stamp), payloadSize: 64 * 1024 });
    zips.push({ name, bytes: readFileSync(file) });
  }
  downloads = await serveDownloads(new Map(zips.map((z): [string, Held] => [downloadPath(z), z.bytes])));
  project = path.join(work, 'project');
  writeCatalog(project, downloads.origin, zips);
  const port = await freePort();
  preview = await startGroupServer({
    name: 'otapress serve',
    command: process.execPath,
    args: [path.join(ROOT, 'src', 'bin.mjs'), 'serve', '--port', String(port), '--root', project],
    folder: project,
    env: { ...process.env, NO_COLOR: '1' },
    port,
    readyWithinMs: 60_000,
  });
  front = await serveFront(preview.url);
}, 120_000);

afterAll(async () => {
  await preview?.stop();
  for (const server of [downloads?.server, front?.server]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  rmSync(work, { recursive: true, force: true });
});

afterEach(() => {
  faults.clear();
  downloads.files.clear();
  for (const zip of zips) downloads.files.set(downloadPath(zip), zip.bytes);
});

/** Runs the probe in this process (the servers answer from its event loop); the problem lines and the code. */
async function probe(origin: string, ...args: string[]) {
  const saved = process.env.GITHUB_ACTIONS;
  process.env.GITHUB_ACTIONS = args.includes('--github') ? 'true' : 'false';
  try {
    const { code, out, err } = await runMain([
      'probe',
      origin,
      '--root',
      project,
      ...args.filter((a) => a !== '--github'),
    ]);
    const problems = [...out, ...err].filter(
      (line) =>
        /  (https|redirect|timeout|unreachable|status|content-type|size-cap|decode|download|content-length|zip|range|hash): /.test(
          line,
        ) || line.startsWith('::error'),
    );
    return { code, out, err, problems };
  } finally {
    if (saved === undefined) delete process.env.GITHUB_ACTIONS;
    else process.env.GITHUB_ACTIONS = saved;
  }
}

describe('otapress probe', () => {
  it('passes a preview whose downloads are the zips the listing says, and tallies what it asked', async () => {
    const { code, out, problems } = await probe(preview.url, '--deep');
    expect(problems).toEqual([]);
    expect(code).toBe(0);
    // Four v1 lists, the v2 answer (without the http downloads) and crDroid's; each download once per updater.
    expect(out.filter((l) => /^(LineageOS|crDroid|updater)/.test(l))).toEqual([
      'updater             answers  failing  downloads  failing',
      'LineageOS v1              4        0          2        0',
      'LineageOS 23.2+ v2        1        0          0        0',
      'crDroid (Kotlin)          1        0          2        0',
    ]);
  });

  it.each<[string, Fault, RegExp]>([
    [
      'a v2 answer sent as text/plain',
      async (_, res, upstream) => {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(await (await upstream()).text());
      },
      /^LineageOS 23\.2\+ v2  \S+\/api\/v2\/devices\/FP4\/builds  content-type: answered Content-Type text\/plain; charset=utf-8; the updater reads application\/json only \(LineageOS\/android_packages_apps_Updater .*UpdatesNetworkDataSource\.kt/,
    ],
    [
      'a redirect of the v2 answer',
      (_, res) => {
        res.writeHead(301, { Location: `${V2_PATH}.json` });
        res.end();
      },
      /^LineageOS 23\.2\+ v2  \S+\/api\/v2\/devices\/FP4\/builds  redirect: answered 301 to \S+\/builds\.json, and this updater follows no redirect/,
    ],
    [
      'a v2 answer over 32 KiB',
      (_, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(`[${' '.repeat(32768)}]`);
      },
      /^LineageOS 23\.2\+ v2  \S+\/api\/v2\/devices\/FP4\/builds  size-cap: the answer is over 32768 bytes/,
    ],
    [
      'a v2 answer that stalls',
      (_, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('[');
      },
      /^LineageOS 23\.2\+ v2  \S+\/api\/v2\/devices\/FP4\/builds  timeout: no complete answer in 2 s \(--timeout\)/,
    ],
  ])('reports %s once, naming updater, URL and rule', async (_, fault, line) => {
    faults.set(V2_PATH, fault);
    const { code, problems } = await probe(front.origin, '--timeout', '2');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(line);
    expect(code).toBe(1);
  });

  it('reports an http: download to another host for each updater that offers it, without fetching it', async () => {
    const cleartext = 'http://downloads.example.org/builds/e-2.6-a14-20241210450000-official-FP4.zip';
    faults.set(V1_PATH, async (_, res, upstream) => {
      const listing = (await (await upstream()).json()) as { response: { url: string }[] };
      listing.response[0].url = cleartext;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(listing));
    });
    const { code, problems } = await probe(front.origin);
    expect(problems).toEqual([`LineageOS v1  ${cleartext}  https: asks ${cleartext}: phones fetch https only`]);
    expect(code).toBe(1);
  });

  it.each<[string, (files: Map<string, Held>) => void, () => string]>([
    ['a download that is gone (404)', (files) => files.delete(downloadPath(zips[1])), () => 'download: answered 404'],
    [
      'a download whose length is not the listing size',
      (files) => files.set(downloadPath(zips[1]), Buffer.concat([zips[1].bytes, Buffer.alloc(10)])),
      () =>
        `content-length: the file is ${zips[1].bytes.length + 10} bytes, the listing says size ${zips[1].bytes.length}`,
    ],
  ])('reports %s for each updater that offers it, once', async (_, change, ruleOf) => {
    const rule = ruleOf();
    change(downloads.files);
    const { code, problems } = await probe(preview.url);
    const url = `${downloads.origin}${downloadPath(zips[1])}`;
    expect(problems.map((p) => p.slice(0, p.indexOf(rule) + rule.length))).toEqual([
      `LineageOS v1  ${url}  ${rule}`,
      `crDroid (Kotlin)  ${url}  ${rule}`,
    ]);
    expect(code).toBe(1);
  });

  it.each<[string, (files: Map<string, Held>, path: string) => void, string[]]>([
    [
      'range requests answered 200 (only crDroid publishes ota_property_files)',
      (files, at) => files.set(at, { whole: zips[1].bytes }),
      ['crDroid (Kotlin)  range: answered a range request with 200'],
    ],
    [
      'a download that is not a zip',
      (files, at) => files.set(at, Buffer.alloc(zips[1].bytes.length, 'x')),
      ['LineageOS v1  zip: begins with "xxxx", not a zip', 'crDroid (Kotlin)  zip: begins with "xxxx", not a zip'],
    ],
    [
      // The LineageOS Java download client follows one redirect (duplicate links); OkHttp's default follows on.
      'a download behind two redirects',
      (files, at) => {
        files.set(at, { location: `${at}.1` });
        files.set(`${at}.1`, { location: `${at}.2` });
        files.set(`${at}.2`, zips[1].bytes);
      },
      ['LineageOS v1  redirect: answered 302 to '],
    ],
  ])('applies each updater its own download rule: %s', async (_, change, expected) => {
    const at = downloadPath(zips[1]);
    change(downloads.files, at);
    const { code, problems } = await probe(preview.url);
    const url = `${downloads.origin}${at}`;
    const lines = expected.map((e) => e.replace('  ', `  ${url}  `));
    expect(problems.map((p, i) => p.slice(0, lines[i]?.length))).toEqual(lines);
    expect(code).toBe(1);
  });

  it('--deep finds a download that is another zip of the same size (its hashes differ)', async () => {
    const other = zips[0].bytes;
    expect(other.length).toBe(zips[1].bytes.length);
    downloads.files.set(downloadPath(zips[1]), other);
    const url = `${downloads.origin}${downloadPath(zips[1])}`;
    const shallow = await probe(preview.url);
    expect({ code: shallow.code, problems: shallow.problems }).toEqual({ code: 0, problems: [] });
    const { code, problems } = await probe(preview.url, '--deep');
    const sha = createHash('sha256').update(other).digest('hex');
    const md5 = createHash('md5').update(other).digest('hex');
    expect(problems).toEqual([
      `LineageOS v1  ${url}  hash: another file than the listing's (--deep): its md5 is ${md5}, the listing says ${md5Of(zips[1].bytes)}`,
      `crDroid (Kotlin)  ${url}  hash: another file than the listing's (--deep): its sha256 is ${sha}, the listing says ${sha256(zips[1].bytes)}; its md5 is ${md5}, the listing says ${md5Of(zips[1].bytes)}`,
    ]);
    expect(code).toBe(1);
  });

  it('--deep gives up on a download that stops sending, after --timeout seconds without a byte', async () => {
    downloads.files.set(downloadPath(zips[1]), { stalls: zips[1].bytes });
    const url = `${downloads.origin}${downloadPath(zips[1])}`;
    const { code, problems } = await probe(preview.url, '--deep', '--timeout', '2');
    const half = zips[1].bytes.length >> 1;
    expect(problems).toEqual(
      ['LineageOS v1', 'crDroid (Kotlin)'].map(
        (updater) =>
          `${updater}  ${url}  download: the whole download broke off after ${half} bytes (--deep): nothing came for 2 s`,
      ),
    );
    expect(code).toBe(1);
  });

  it('prints each problem as a GitHub annotation under GitHub Actions, escaped', async () => {
    faults.set(V2_PATH, (_, res) => {
      res.writeHead(302, { Location: '/elsewhere,100%' });
      res.end();
    });
    const { code, out } = await probe(front.origin, '--github');
    const annotation = out.find((l) => l.startsWith('::error'));
    expect(annotation).toMatch(
      /^::error title=LineageOS 23\.2\+ v2%3A redirect::http:\/\/127\.0\.0\.1:\d+\/api\/v2\/devices\/FP4\/builds {2}answered 302 to http:\/\/127\.0\.0\.1:\d+\/elsewhere,100%25, and this updater/,
    );
    expect(code).toBe(1);
  });

  it('--build-prop probes what that build asks: a 23.2 build with a v1 URI fails its v2 decoding', async () => {
    const prop = (uri: string) => {
      const file = path.join(work, 'build.prop');
      writeFileSync(
        file,
        `ro.product.device=FP4\nro.lineage.device=FP4\nro.lineage.releasetype=OFFICIAL\nro.lineage.build.version=23.2\nro.build.version.incremental=eng.root.1\nlineage.updater.uri=${uri}\n`,
      );
      return file;
    };
    const good = await probe(preview.url, '--build-prop', prop(`${preview.url}/api/v2/devices/{device}/builds/{incr}`));
    expect({ code: good.code, problems: good.problems }).toEqual({ code: 0, problems: [] });
    const v1Uri = await probe(preview.url, '--build-prop', prop(`${preview.url}/api/v1/{device}/{type}/{incr}`));
    expect(v1Uri.problems).toHaveLength(1);
    expect(v1Uri.problems[0]).toMatch(
      /^LineageOS 23\.2\+ v2  http:\/\/127\.0\.0\.1:\d+\/api\/v1\/FP4\/official\/eng\.root\.1  decode: the answer is not a JSON array: the update check fails/,
    );
    expect(v1Uri.code).toBe(1);
  });

  it('says in one line that a site cannot be reached, and refuses plain http to another host', async () => {
    const port = await freePort();
    const unreachable = await probe(`http://127.0.0.1:${port}`, '--timeout', '5');
    expect(unreachable.err).toEqual([
      `cannot reach http://127.0.0.1:${port}/: the request failed: ECONNREFUSED; check the address, and that the site is up`,
    ]);
    expect(unreachable.code).toBe(1);
    const cleartext = await probe('http://updates.example.org');
    expect(cleartext.err[0]).toBe(
      "http://updates.example.org: give the site's https:// address without query or fragment (http:// only on a loopback address, a preview)",
    );
    expect(cleartext.code).toBe(2);
  });
});

// --- helpers ---

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function md5Of(bytes: Buffer): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** The catalog: one device, both zips in `official`, with their real sizes and hashes and their ranges. */
function writeCatalog(root: string, origin: string, list: Zip[]): void {
  mkdirSync(path.join(root, 'content', 'FP4'), { recursive: true });
  // crDroid's answer carries the SHA-256 and the ranges; the v2 answer leaves out http downloads.
  writeFileSync(
    path.join(root, 'content', 'site.yaml'),
    `download_base_url: ${origin}/builds\nformats:\n  crdroid:\n    lists: [official]\n`,
  );
  list.forEach((zip, i) => {
    const manifest = [
      `filename: ${zip.name}`,
      `version: "2.${5 + i}"`,
      'channel: official',
      `timestamp: ${1731067200 + i * 2_765_000}`,
      'android_version: "14"',
      `incremental: "eng.root.2024110${i}.123456"`,
      `md5sum: ${md5Of(zip.bytes)}`,
      `id: ${sha256(zip.bytes)}`,
      `size: ${zip.bytes.length}`,
      'ota_property_files: "payload.bin:100:1000,metadata:69:20"',
      '',
    ].join('\n');
    writeFileSync(path.join(root, 'content', 'FP4', zip.name.replace(/\.zip$/, '.yaml')), manifest);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The download host: GET and HEAD of the files, with single `bytes=a-b` ranges answered 206 where it takes them. */
async function serveDownloads(files: Map<string, Held>) {
  const server = createServer((req, res) => {
    const held = files.get(req.url ?? '');
    if (held === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    if ('location' in held) {
      res.writeHead(302, { Location: held.location });
      res.end();
      return;
    }
    if ('stalls' in held && req.headers.range === undefined) {
      // Half the file, then nothing: the connection stays open.
      res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': held.stalls.length });
      res.write(held.stalls.subarray(0, held.stalls.length >> 1));
      return;
    }
    const bytes = Buffer.isBuffer(held) ? held : 'stalls' in held ? held.stalls : held.whole;
    const range = !('whole' in held) ? /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '') : null;
    const [start, end] = range
      ? [Number(range[1]), range[2] === '' ? bytes.length - 1 : Number(range[2])]
      : [0, bytes.length - 1];
    const part = bytes.subarray(start, end + 1);
    res.writeHead(range ? 206 : 200, {
      'Content-Type': 'application/zip',
      'Content-Length': part.length,
      ...(range && { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes ${start}-${end}/${bytes.length}` }),
    });
    res.end(req.method === 'HEAD' ? undefined : part);
  });
  server.keepAliveTimeout = 1;
  return { origin: await listen(server), server, files };
}

/** In front of the preview: each path with a fault gets it, every other request the preview's answer. */
async function serveFront(upstreamOrigin: string) {
  const server = createServer((req, res) => {
    const upstream = () => fetch(`${upstreamOrigin}${req.url}`, { method: req.method, redirect: 'manual' });
    // A folder's fault covers what a phone asks in it (`/api/v1/FP4/official/<its incremental>`).
    const asked = new URL(req.url ?? '/', 'http://x').pathname;
    const fault = [...faults].find(([at]) => asked === at || (at.endsWith('/') && asked.startsWith(at)))?.[1];
    const answer = fault
      ? fault(req, res, upstream)
      : upstream().then(async (r) => {
          // fetch has decoded the body: its framing headers no longer apply.
          const headers = [...r.headers].filter(
            ([name]) => !/^(content-encoding|content-length|transfer-encoding)$/.test(name),
          );
          res.writeHead(r.status, Object.fromEntries(headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        });
    void Promise.resolve(answer).catch((error: Error) => {
      res.writeHead(500);
      res.end(String(error.stack));
    });
  });
  server.keepAliveTimeout = 1;
  return { origin: await listen(server), server };
}
