import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContentError } from './problems.js';

/**
 * Writes a file of the catalog (a manifest for add and import, package.json for init) through a
 * temporary file beside it and renames it over the target, so an interrupted or failed run never
 * leaves a partial file. The temporary name does not end in .yaml, so the build would not read a
 * leftover manifest either. Never through a folder that is a symbolic link ({@link linkedFolder}):
 * that is a located problem, and nothing is written.
 */
export function writeFileReplacing(root: string, file: string, text: string): void {
  const linked = linkedFolder(root, file);
  if (linked !== undefined) throw new ContentError([linkedFolderProblem(linked)]);
  const target = path.join(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.tmp-${process.pid}`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * The first folder on the way from `root` to `file` (both inside `root`, `file` relative to it)
 * that is a symbolic link, relative to `root` with forward slashes; undefined when there is none.
 * A link can point outside the repository, and check refuses links in content/ for that reason:
 * no command writes through one either. `root` itself is where the user said to work, and may be one.
 */
export function linkedFolder(root: string, file: string): string | undefined {
  const parts = path.normalize(file).split(/[\\/]/).slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    if (lstatSync(path.join(root, folder), { throwIfNoEntry: false })?.isSymbolicLink()) return folder;
  }
  return undefined;
}

/** The problem of a folder that is a symbolic link, in check's words. */
export function linkedFolderProblem(folder: string) {
  return {
    file: folder,
    line: 1,
    col: 1,
    field: '(folder)',
    message:
      'symbolic links are refused (a link can point outside the repository); nothing was written through it; replace it with the folder itself',
  };
}
