// The I/O floor of a build: reads every file under content/ and writes the same number of output
// files, with the same sizes, as a real build wrote. No parsing, no rendering: no build can beat it.
// usage: node floor.mjs <root> <shape.json> <outDir>   (shape.json: [[relative path, bytes], ...])
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [root, shapeFile, outDir] = process.argv.slice(2);
let read = 0;
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(child);
    else read += readFileSync(child).length;
  }
};
walk(path.join(root, 'content'));

rmSync(outDir, { recursive: true, force: true });
const shape = JSON.parse(readFileSync(shapeFile, 'utf8'));
const made = new Set();
let written = 0;
for (const [relative, bytes] of shape) {
  const target = path.join(outDir, relative);
  const dir = path.dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(target, Buffer.alloc(bytes, 0x20));
  written += bytes;
}
console.log(`read ${read} bytes, wrote ${shape.length} files, ${written} bytes`);
