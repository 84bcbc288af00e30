// The I/O floor of a build: reads every file under content/ and writes the same number of output
// files, with the same sizes, as a real build wrote. No parsing, no rendering: no build can beat it.
// usage: node floor.mjs <root> <shape.json> <outDir>   (shape.json: [[relative path, bytes], ...])
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

// The previous output goes out of the way and is removed by an `rm -rf` nobody waits for, as
// otapress removes the tree a build replaced (src/pipeline/disk.ts): removing a tree waits on the disk
// (seconds at 100k), and no build has to wait for it.
if (existsSync(outDir)) {
  const trash = `${outDir}.trash-${process.pid}`;
  renameSync(outDir, trash);
  spawn('rm', ['-rf', '--', trash], { stdio: 'ignore', detached: true }).unref();
}
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
