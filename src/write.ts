import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A rendered file of the output tree: path relative to the tree, forward slashes. */
export interface OutputFile {
  path: string;
  contents: string | Uint8Array;
}

/**
 * Writes a complete tree to `outDir` so that no reader ever sees a half-written one: the files go
 * into a fresh staging folder beside it, which then replaces the old tree by two renames. If the
 * process dies between the renames, the next run finds the previous tree and puts it back first.
 */
export function writeTree(outDir: string, files: readonly OutputFile[]): void {
  const tree = stageTree(outDir);
  try {
    const made = new Set<string>();
    for (const file of files) writeStagedFile(tree.staging, file, made);
  } catch (error) {
    tree.discard();
    throw error;
  }
  tree.commit();
}

/** A tree being written into its staging folder; {@link writeTree} in steps, for writers on several threads. */
export interface StagedTree {
  /** The staging folder: write into it with {@link writeStagedFile}. */
  staging: string;
  /** Swaps the staging folder in as the tree. */
  commit(): void;
  /** Removes the staging folder and leaves the tree as it was. */
  discard(): void;
}

/** Starts a tree for `outDir` (see {@link writeTree}). */
export function stageTree(outDir: string): StagedTree {
  const { staging, previous } = siblings(outDir);
  recoverTree(outDir);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  return {
    staging,
    commit() {
      try {
        if (existsSync(outDir)) renameSync(outDir, previous);
        renameSync(staging, outDir);
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        throw error;
      }
      rmSync(previous, { recursive: true, force: true });
    },
    discard: () => rmSync(staging, { recursive: true, force: true }),
  };
}

/** Writes one file into a staging folder; `made` remembers the folders this writer has created. */
export function writeStagedFile(staging: string, file: OutputFile, made: Set<string>): void {
  const target = path.join(staging, file.path);
  if (!target.startsWith(staging + path.sep)) throw new Error(`refusing to write outside the output folder: ${file.path}`);
  const dir = path.dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(target, file.contents);
}

/**
 * Puts a tree back that a killed run had moved aside, and removes staging folders that runs which
 * no longer exist left behind.
 */
export function recoverTree(outDir: string): void {
  const { parent, base } = siblings(outDir);
  if (!existsSync(parent)) return;
  const pattern = new RegExp(`^\\.${escapeRegExp(base)}\\.(staging|previous)-(\\d+)$`);
  for (const name of readdirSync(parent).sort()) {
    const match = pattern.exec(name);
    if (!match || isAlive(Number(match[2]))) continue;
    const leftover = path.join(parent, name);
    if (match[1] === 'previous' && !existsSync(outDir)) renameSync(leftover, outDir);
    else rmSync(leftover, { recursive: true, force: true });
  }
}

// --- internal ---

function siblings(outDir: string) {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(outDir);
  return {
    parent,
    base,
    staging: path.join(parent, `.${base}.staging-${process.pid}`),
    previous: path.join(parent, `.${base}.previous-${process.pid}`),
  };
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
