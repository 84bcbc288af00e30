import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ENDPOINTS } from '../../src/routes.js';

/** A running static server: its origin, and a function that stops it. */
export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

/**
 * Serves a built `dist/` on 127.0.0.1 (a free port) the way both hosts do for what pages link to:
 * the API rewrites of the route table, `index.html` for folder URLs, a 308 from `/x` to `/x/` for
 * folders, and the root `404.html` with status 404 for everything else.
 */
export async function serveDist(dist: string): Promise<StaticServer> {
  const rewrites = ENDPOINTS.flatMap((endpoint) =>
    endpoint.paths.map((from) => ({ pattern: patternOf(from), file: endpoint.file })),
  );
  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    let target = decodeURIComponent(pathname);
    for (const { pattern, file } of rewrites) {
      const match = pattern.exec(target);
      if (match) {
        target = file.replace(/:([a-z]+)/g, (_, name: string) => match.groups![name]);
        break;
      }
    }
    let file = path.join(dist, target);
    if (!file.startsWith(dist)) file = dist;
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!target.endsWith('/')) {
        response.writeHead(308, { Location: `${pathname}/` }).end();
        return;
      }
      file = path.join(file, 'index.html');
    }
    if (!existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404, { 'Content-Type': TYPES['.html'] }).end(readFileSync(path.join(dist, '404.html')));
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // the browser keeps connections alive
      }),
  };
}

// --- internal ---

function patternOf(route: string): RegExp {
  const source = route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z]+)/g, '(?<$1>[^/]+)');
  return new RegExp(`^${source}$`);
}
