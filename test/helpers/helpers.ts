import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The example catalog the tests read: a project root holding `content/` and the `netlify.toml`
 * `otapress init` writes. A copy, so that replacing the repository's own content/ breaks no test.
 */
export const EXAMPLE = path.join(ROOT, 'test', 'example');

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary project folder, removed after the test; `withContent` copies the example catalog (test/example/content) in. */
export function tempProject({ withContent = false } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'otapress-'));
  made.push(dir);
  if (withContent) cpSync(path.join(EXAMPLE, 'content'), path.join(dir, 'content'), { recursive: true });
  return dir;
}

/** Every file under `dir` as relative path → bytes, sorted: for exact comparison of whole trees. */
export function snapshotTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(dir, relative)).sort()) {
      const child = relative ? `${relative}/${name}` : name;
      if (statSync(path.join(dir, child)).isDirectory()) walk(child);
      else files[child] = readFileSync(path.join(dir, child), 'latin1');
    }
  };
  walk('');
  return files;
}

/** Polls `done` every 50 ms until it holds or `ms` have passed; whether it held. The assertions after it say what was expected. */
export async function eventually(done: () => boolean, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Waits for the old trees that builds in `root` set aside (`.dist.trash-*`) to be removed by their background `rm -rf`. */
export async function oldTreesRemoved(root: string): Promise<void> {
  await eventually(() => !readdirSync(root).some((name) => name.startsWith('.dist.trash-')));
}

/** `text` matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
