// Builds lib/, the JavaScript the installed package runs (`prepare`: npm ci, npm pack and npm
// publish run it). Each TypeScript file of src/ becomes one JavaScript file at the same place, so
// that the commands keep loading lazily, file by file, and every path a module finds from
// `import.meta.url` (the compile worker, the package.json) is the same in lib/ as in src/. The two
// .mjs entries are plain JavaScript and are copied as they are: each finds the compiled modules
// beside it. No bundling: the runtime dependencies stay ordinary dependencies that npm installs.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const lib = path.join(root, 'lib');
const sources = readdirSync(src, { recursive: true }).filter((f) => /\.(ts|mjs)$/.test(f)).sort();

rmSync(lib, { recursive: true, force: true });
await build({
  entryPoints: sources.filter((f) => f.endsWith('.ts')).map((f) => path.join(src, f)),
  outbase: src,
  outdir: lib,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
for (const file of sources.filter((f) => f.endsWith('.mjs'))) {
  mkdirSync(path.dirname(path.join(lib, file)), { recursive: true });
  copyFileSync(path.join(src, file), path.join(lib, file));
}
