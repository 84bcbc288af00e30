import { lstatSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ContentError, formatProblem } from '../catalog/problems.js';
import { changedDevicesRebuild, type Rebuild, type RebuildResult } from './rebuild.js';
import { errorAnswer, respond, type Answer, type ServedTree } from '../hosts/respond.js';
import { basePath } from '../render/urls.js';

/** Options of {@link startPreview}. */
export interface PreviewOptions {
  root: string;
  /** 0 picks a free port. */
  port?: number;
  hostname?: string;
  /** Where the preview prints (the CLI's `Io`). */
  io: { out(line: string): void; err(line: string): void };
  rebuild?: Rebuild;
  /** Quiet time after the last change in `content/` before rebuilding (default 20 ms): editors write in bursts, a save takes a few ms. */
  debounceMs?: number;
}

/** A running preview: where it listens, and how to stop it. */
export interface Preview {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the compiled site from memory, answering as the hosts do ({@link respond}), and rebuilds
 * when anything under `content/` changes. An invalid change prints its problems and keeps the last
 * good tree in service. Throws {@link ContentError} when the content is invalid from the start.
 */
export async function startPreview({
  root,
  port = 8788,
  hostname = '127.0.0.1',
  io,
  rebuild = changedDevicesRebuild(root),
  debounceMs = 20,
}: PreviewOptions): Promise<Preview> {
  const first = rebuild([]);
  if (!first.tree) throw new ContentError(first.problems);
  let current: ServedTree = first.tree;

  const server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    let answer: Answer;
    try {
      answer = respond(current, method, withoutBase(request.url ?? '/', basePath(current.site)));
    } catch (error) {
      // respond() answers every request target itself (400 for what is not a path); should
      // anything else in it throw, one request gets a 500, and the preview keeps serving.
      io.err(`answering ${method} ${JSON.stringify(request.url)} failed (${(error as Error).message}); answered 500`);
      answer = errorAnswer(500, method, 'the preview failed to answer this request; see its output');
    }
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => resolve());
  });

  const contentDir = path.join(root, 'content');
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const runRebuild = () => {
    timer = undefined;
    const changed = [...pending].sort();
    pending.clear();
    let result: RebuildResult;
    const started = performance.now();
    try {
      result = rebuild(changed);
    } catch (error) {
      // A file vanishing mid-read and the like: say so, keep serving, and try again on the next change.
      io.err(`rebuild failed (${(error as Error).message}); still serving the last good build.`);
      return;
    }
    if (result.tree) {
      current = result.tree;
      io.out(
        `rebuilt after changes to ${changed.join(', ') || 'content/'} in ${Math.round(performance.now() - started)} ms`,
      );
    } else {
      for (const problem of result.problems) io.err(formatProblem(problem));
      io.err(
        `${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} found; still serving the last good build.`,
      );
    }
  };
  const watcher = watchContent(contentDir, (relative) => {
    pending.add(path.posix.join('content', relative));
    clearTimeout(timer);
    timer = setTimeout(runRebuild, debounceMs);
  });

  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostname}:${bound}${basePath(first.tree.site)}/`,
    port: bound,
    close: async () => {
      watcher.close();
      clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// --- internal ---

/**
 * Watches `content/` and each folder directly in it, which is every place a manifest can be: one
 * watch per folder. Node's recursive watch on Linux walks the tree and keeps state for every file:
 * at 100,000 manifests that took 1.4 s and 240 MB. Tells `changed` the path (relative to
 * `content/`, forward slashes) of whatever changed; follows folders as they come and go.
 *
 * `content/` itself can be replaced (`git checkout`, `git stash`, a tool that writes a new folder
 * and renames it into place): a watch follows the folder it was opened on, which is then deleted
 * or somewhere else. So the project folder is watched too, for its `content` entry only: when that
 * is another folder than the one watched, or gone, every watch starts again on what is there now,
 * and `changed('')` asks for a full rebuild.
 */
function watchContent(contentDir: string, changed: (relative: string) => void): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  let top: { watcher: FSWatcher; inode: number } | undefined;
  const unwatch = (folder: string) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  const follow = (folder: string) => {
    unwatch(folder); // A folder removed and made again is another folder: watch the new one.
    if (!lstatSync(path.join(contentDir, folder), { throwIfNoEntry: false })?.isDirectory()) return;
    try {
      const watcher = watch(path.join(contentDir, folder), (_event, name) =>
        changed(name ? `${folder}/${String(name)}` : folder),
      );
      watcher.on('error', () => unwatch(folder)); // The folder went away; content/'s watcher says so.
      watchers.set(folder, watcher);
    } catch {
      // Gone again already: content/'s watcher reports that.
    }
  };
  const stop = () => {
    top?.watcher.close();
    top = undefined;
    for (const folder of [...watchers.keys()]) unwatch(folder);
  };
  const start = () => {
    stop();
    const stat = lstatSync(contentDir, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return; // The project folder's watcher starts again when it is back.
    try {
      const watcher = watch(contentDir, (_event, name) => {
        if (!name) return changed('');
        changed(String(name));
        follow(String(name));
      });
      watcher.on('error', () => (top?.watcher === watcher ? stop() : watcher.close()));
      top = { watcher, inode: stat.ino };
      for (const entry of readdirSync(contentDir, { withFileTypes: true })) if (entry.isDirectory()) follow(entry.name);
    } catch {
      // Removed while we looked: the project folder's watcher sees that and starts again.
    }
  };
  const replaced = () => {
    const stat = lstatSync(contentDir, { throwIfNoEntry: false });
    return stat?.isDirectory() ? stat.ino !== top?.inode : top !== undefined;
  };
  const name = path.basename(contentDir);
  const project = watch(path.dirname(contentDir), (_event, entry) => {
    if ((entry === null || String(entry) === name) && replaced()) {
      start();
      changed('');
    }
  });
  project.on('error', () => project.close());
  start();
  return {
    close: () => {
      project.close();
      stop();
    },
  };
}

/**
 * A request under the site's base path (`/<repository>/…`, from site_url), as the site's own path:
 * the pages link under it, as the site is served where it is published; elsewhere, as it is.
 */
function withoutBase(url: string, base: string): string {
  if (base === '' || !(url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`))) return url;
  const rest = url.slice(base.length);
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}
