// The shape of a build's output, which the I/O floor (floor.mjs) writes again with plain fs calls:
// every file's path and size, in a fixed order. Shared by the main benchmark and --incrementals.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under `dir`: its path relative to `dir` and its size in bytes, folders walked in name order. */
export function treeShape(dir: string): [string, number][] {
  const shape: [string, number][] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(dir, relative)).sort()) {
      const child = relative ? `${relative}/${name}` : name;
      const stat = statSync(path.join(dir, child));
      if (stat.isDirectory()) walk(child);
      else shape.push([child, stat.size]);
    }
  };
  walk('');
  return shape;
}
