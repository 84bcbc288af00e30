// Hostile requests to a real `otapress serve` process over raw sockets:
// request targets that `new URL(target, base)` could not parse used to throw in the request
// handler and end the process; each now gets an answer, and the preview keeps serving.
import { appendFileSync, cpSync, renameSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, ROOT, tempProject } from '../helpers/helpers.js';
import { eventually, startServe } from '../helpers/serve-run.js';

/** Sends `request` as is and returns everything the server sent back before closing. */
function raw(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(20_000, () =>
      socket.destroy(new Error(`no answer in 20 s to ${JSON.stringify(String(request).slice(0, 60))}`)),
    );
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', (error) =>
      (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(received) : reject(error),
    );
    socket.on('close', () => resolve(received));
    socket.end(request);
  });
}

const get = (target: string, method = 'GET') =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
/** The body of an answer, its chunks joined when it is chunked. */
function body(answer: string): string {
  const [head, rest] = [answer.slice(0, answer.indexOf('\r\n\r\n')), answer.slice(answer.indexOf('\r\n\r\n') + 4)];
  if (!/\r\nTransfer-Encoding: chunked/i.test(head)) return rest;
  let joined = '';
  for (let at = 0; ;) {
    const size = parseInt(rest.slice(at, rest.indexOf('\r\n', at)), 16);
    if (!size) return joined;
    const start = rest.indexOf('\r\n', at) + 2;
    joined += rest.slice(start, start + size);
    at = start + size + 2;
  }
}

describe('hostile requests to a running preview', () => {
  it(
    'answers 400 with a JSON body to request targets that are not paths, and keeps serving',
    { timeout: 120_000 },
    async () => {
      const root = tempProject({ withContent: true });
      const serve = await startServe(process.execPath, [
        path.join(ROOT, 'src', 'bin.mjs'),
        'serve',
        '--port',
        '0',
        '--root',
        root,
      ]);
      for (const target of ['http://[/', 'http://a:99999/', 'http://x@/', '*']) {
        const answer = await raw(serve.port, get(target));
        expect(status(answer), `${target}: ${answer}`).toBe(400);
        expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/);
        expect(JSON.parse(body(answer))).toMatchObject({
          id: null,
          response: [],
          error: expect.stringMatching(/^bad request: /),
        });
      }
      // Origin-form paths that start with `//` are paths (the hosts answer them as such), not authorities.
      for (const target of ['//%5B', '//[', '//x@/', '//a:99999/', '//%zz', '//api/v1/FP4/stable/']) {
        const answer = await raw(serve.port, get(target));
        expect([404, 200], `${target}: ${answer}`).toContain(status(answer));
      }
      // What Node's parser refuses before the handler runs: an unknown method, a 100 KB target,
      // a header with a control character, a broken chunked body, a CONNECT, half a request.
      for (const request of [
        get('/', 'BREW'),
        get(`/api/v1/${'x'.repeat(100_000)}`),
        'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n',
        'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
        'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
        'GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nHost: x\r\n\r\n',
        'GET /api/v1/FP4/stable/ HTTP/1.1\r\nHost',
        Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]),
      ]) {
        const answer = await raw(serve.port, request);
        if (answer !== '')
          expect(status(answer), JSON.stringify(String(request).slice(0, 60))).toBeGreaterThanOrEqual(200);
      }
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'DELETE']) {
        const answer = await raw(serve.port, get('//%5B', method));
        expect(status(answer), method).toBeGreaterThanOrEqual(200);
      }
      expect(serve.child.exitCode, serve.printed()).toBeNull();
      const after = await raw(serve.port, get('/api/v1/FP4/stable/'));
      expect(status(after), serve.printed()).toBe(200);
      expect(JSON.parse(body(after)).response.length).toBeGreaterThan(0);
    },
  );
});

describe('a running preview when content/ itself is replaced', () => {
  const listing = async (port: number, device: string) =>
    (await fetch(`http://127.0.0.1:${port}/api/v1/${device}/stable/`)).status;

  it(
    'removed and made again (git checkout, git stash): serves the new folder, and follows changes in it',
    { timeout: 180_000 },
    async () => {
      const root = tempProject({ withContent: true });
      const content = path.join(root, 'content');
      const serve = await startServe(process.execPath, [
        path.join(ROOT, 'src', 'bin.mjs'),
        'serve',
        '--port',
        '0',
        '--root',
        root,
      ]);
      expect(await listing(serve.port, 'starlte')).toBe(200);

      rmSync(content, { recursive: true });
      expect(await eventually(() => /problem|rebuild failed/.test(serve.printed()), 60_000), serve.printed()).toBe(
        true,
      );
      cpSync(path.join(EXAMPLE, 'content'), content, { recursive: true });
      rmSync(path.join(content, 'starlte'), { recursive: true });
      expect(
        await eventually(async () => (await listing(serve.port, 'starlte')) === 404, 60_000),
        serve.printed(),
      ).toBe(true);
      expect(await listing(serve.port, 'FP4')).toBe(200);

      // The new folder is watched, its device folders too.
      rmSync(path.join(content, 'FP3'), { recursive: true });
      expect(await eventually(async () => (await listing(serve.port, 'FP3')) === 404, 60_000), serve.printed()).toBe(
        true,
      );
      appendFileSync(path.join(content, 'site.yaml'), 'cache_control: "public, max-age=7"\n');
      expect(
        await eventually(
          async () =>
            (await fetch(`http://127.0.0.1:${serve.port}/api/v1/FP4/stable/`)).headers.get('cache-control') ===
            'public, max-age=7',
          60_000,
        ),
        serve.printed(),
      ).toBe(true);
    },
  );

  it(
    'replaced by a rename (editors and tools that write a new folder and move it into place)',
    { timeout: 180_000 },
    async () => {
      const root = tempProject({ withContent: true });
      const content = path.join(root, 'content');
      const serve = await startServe(process.execPath, [
        path.join(ROOT, 'src', 'bin.mjs'),
        'serve',
        '--port',
        '0',
        '--root',
        root,
      ]);
      expect(await listing(serve.port, 'FP3')).toBe(200);

      cpSync(content, path.join(root, 'content.new'), { recursive: true });
      rmSync(path.join(root, 'content.new', 'FP3'), { recursive: true });
      renameSync(content, path.join(root, 'content.old'));
      renameSync(path.join(root, 'content.new'), content);
      expect(await eventually(async () => (await listing(serve.port, 'FP3')) === 404, 60_000), serve.printed()).toBe(
        true,
      );

      // The folder moved aside is no longer content/: changing it changes nothing served.
      rmSync(path.join(root, 'content.old', 'FP4'), { recursive: true });
      rmSync(path.join(content, 'starlte'), { recursive: true });
      expect(
        await eventually(async () => (await listing(serve.port, 'starlte')) === 404, 60_000),
        serve.printed(),
      ).toBe(true);
      expect(await listing(serve.port, 'FP4')).toBe(200);
    },
  );
});
