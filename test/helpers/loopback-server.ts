// A Node HTTP server on 127.0.0.1 for the host look-alikes (GitHub Pages, raw.githubusercontent.com):
// the host's rules live in a pure function from request to answer, this module only puts it on a port.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a host look-alike answers to one request: status, headers in the order the host sends them, body. */
export interface HostAnswer {
  status: number;
  headers: [string, string][];
  /** The body of a GET; a HEAD answer sends the same headers and no body. */
  body: Buffer;
}

/** The request a host look-alike decides on: the method, the raw request target, the request's headers. */
export interface HostRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A started look-alike: its origin (`http://127.0.0.1:<port>`) and a close that waits for the port to be free. */
export interface LoopbackServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves `answer` on an ephemeral port of 127.0.0.1. */
export async function serveOnLoopback(
  answer: (request: HostRequest, origin: string) => HostAnswer,
): Promise<LoopbackServer> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    let reply: HostAnswer;
    try {
      reply = answer({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }, origin);
    } catch (error) {
      // A fault of the look-alike must fail the test that hit it, not pass for a host answer.
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`look-alike failed: ${(error as Error).stack ?? String(error)}`);
      return;
    }
    res.writeHead(reply.status, reply.headers.flat());
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  });
  // Keep-alive sockets of fetch would hold close() open until their idle timeout.
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** An HTTP date (`Sat, 28 Nov 2026 14:00:00 GMT`) of `ms`, to the second. */
export function httpDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString();
}
