import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a file of the catalog (a manifest for add and import, package.json for init) through a
 * temporary file beside it and renames it over the target, so an interrupted or failed run never
 * leaves a partial file. The temporary name does not end in .yaml, so the build would not read a
 * leftover manifest either.
 */
export function writeFileReplacing(root: string, file: string, text: string): void {
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
