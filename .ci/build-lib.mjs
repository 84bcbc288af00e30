// Builds lib/, the JavaScript the installed package runs (npm's `prepare`: npm ci, npm pack and
// npm publish run it), with esbuild:
// - each file of src/ becomes one file at the same place in lib/, importing the others as the
//   sources do: commands keep loading lazily, file by file, and every path a module finds from
//   import.meta.url (the compile worker, package.json) is the same in lib/ as in src/;
// - the libraries (yaml, zod, yauzl), pinned to exact versions in package.json, are bundled into
//   shared chunks in lib/vendor/, so the package installs nothing else and a command loads a few
//   files instead of hundreds (zod alone is 124): half of otapress's start-up time was spent
//   resolving and loading them. Their licences go to lib/vendor/LICENSES.txt;
// - `yaml` and zod are the exception: src/catalog/libraries.ts loads them with `require` the
//   first time something needs them (a build of plain manifests never does), so each is built on
//   its own into lib/vendor/ (yaml.cjs; zod.cjs, only the functions libraries.ts lists), and
//   libraries.ts is built to load those files (see `librariesFromVendor`);
// - the two .mjs entries are plain JavaScript and are copied as they are: each loads the
//   compiled module beside it;
// - a compile worker thread loads one more file, lib/pipeline/compile-worker-bundle.js: all it runs
//   (compile-devices.ts and what it imports, the libraries included) in one module. A worker is a
//   V8 runtime of its own, which shares no module with the calling thread, and resolving and
//   linking sixty files was a fixed cost of every worker's start: cold 1k builds took 0.96x the
//   wall time and 0.94x the CPU time with the bundle (ten interleaved rounds, 2-core AMD EPYC);
// - the build and check commands load lib/pipeline/build-command.js, build.ts and all it imports as
//   one module, but for the few modules the CLI itself loads (see SHARED): with both bundles,
//   cold 1k builds took 0.87x the wall time and 0.84x the CPU time.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const lib = path.join(root, 'lib');
// Built in a folder beside lib/ first, then moved into lib/ file by file (placeBuilt, at the end).
const out = path.join(root, `.lib-building-${process.pid}`);
const sources = readdirSync(src, { recursive: true })
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .sort();

/**
 * Our own imports (`./x.js` from a file of src/) stay imports of the file built beside it; but the
 * build and check commands import pipeline/build.js as the one module build-command.js (see below).
 */
const ownModulesStay = {
  name: 'own-modules-stay',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point' || !args.importer.startsWith(src + path.sep)) return undefined;
      const command =
        path.dirname(args.importer) === path.join(src, 'commands') &&
        ['build.ts', 'check.ts'].includes(path.basename(args.importer));
      return {
        path: command && args.path === '../pipeline/build.js' ? '../pipeline/build-command.js' : args.path,
        external: true,
      };
    });
  },
};

/**
 * The modules a command's process loads before build-command.js or beside it, which it must share
 * with them rather than hold copies of its own (a class such as ContentError must be one class for
 * the CLI's `instanceof`; the worker pool started ahead must be the one the build uses): the CLI's
 * own (io, problems, out-dir) and what the build command loads first (worker-pool, cache-key).
 */
const SHARED = [
  'io.ts',
  'catalog/problems.ts',
  'pipeline/out-dir.ts',
  'pipeline/worker-pool.ts',
  'pipeline/cache-key.ts',
].map((f) => path.join(src, f));
const sharedStay = {
  name: 'shared-stay',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      if (!SHARED.includes(target)) return undefined;
      // Built into lib/pipeline/: the shared file's path from there.
      const from = path.relative(path.join(src, 'pipeline'), target).replace(/\.ts$/, '.js');
      return { path: from.startsWith('.') ? from : `./${from}`, external: true };
    });
  },
};

/**
 * libraries.ts as lib/ needs it: loading each library from its file in lib/vendor/ (built below)
 * instead of from node_modules, which the installed package does not have. Every module it is
 * built into (lib/catalog/libraries.js, and the bundles of lib/pipeline/) is one folder below lib/.
 */
const LIBRARIES = path.join(src, 'catalog', 'libraries.ts');
const librariesFromVendor = {
  name: 'libraries-from-vendor',
  setup(b) {
    b.onLoad({ filter: /[\\/]catalog[\\/]libraries\.ts$/ }, (args) => {
      if (args.path !== LIBRARIES) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const from = "const FROM = { yaml: 'yaml', zod: 'zod' };";
      if (!text.includes(from))
        throw new Error(`${args.path}: the line \`${from}\` that .ci/build-lib.mjs rewrites is gone`);
      return {
        contents: text.replace(from, "const FROM = { yaml: '../vendor/yaml.cjs', zod: '../vendor/zod.cjs' };"),
        loader: 'ts',
      };
    });
  },
};

/** The zod functions libraries.ts lists (ZOD_FUNCTIONS): what lib/vendor/zod.cjs exports. */
function zodFunctions() {
  const list = /export const ZOD_FUNCTIONS = \[([^\]]*)\] as const;/.exec(readFileSync(LIBRARIES, 'utf8'));
  if (!list) throw new Error(`${LIBRARIES}: ZOD_FUNCTIONS, which .ci/build-lib.mjs reads, is gone`);
  return [...list[1].matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1]);
}

rmSync(out, { recursive: true, force: true });
// Whatever stops this build, its half-built folder goes with it.
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
// The `yaml` package, and the functions of zod that otapress calls, each as one CommonJS file for
// libraries.ts to `require`.
const vendored = [
  ['yaml.cjs', "module.exports = require('yaml');", 'the yaml package'],
  ['zod.cjs', `export { ${zodFunctions().join(', ')} } from 'zod';`, 'the functions of zod that otapress calls'],
];
const vendorMetafiles = [];
for (const [name, contents, what] of vendored) {
  const built = await build({
    stdin: { contents, resolveDir: root, sourcefile: name, loader: 'js' },
    outfile: path.join(out, 'vendor', name),
    bundle: true,
    banner: {
      js: `// Built by .ci/build-lib.mjs: ${what}, loaded by catalog/libraries.js when content needs it; the licence is in LICENSES.txt.`,
    },
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
  });
  vendorMetafiles.push(built.metafile);
}
const { metafile } = await build({
  entryPoints: sources.filter((f) => f.endsWith('.ts')).map((f) => path.join(src, f)),
  outbase: src,
  outdir: out,
  bundle: true,
  splitting: true,
  chunkNames: 'vendor/[name]-[hash]',
  plugins: [ownModulesStay, librariesFromVendor],
  // yaml and yauzl are CommonJS and require Node's modules at run time.
  banner: {
    js: "import { createRequire as __otapressRequire } from 'node:module';\nconst require = __otapressRequire(import.meta.url);",
  },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  metafile: true,
  logLevel: 'warning',
});
for (const file of sources.filter((f) => f.endsWith('.mjs'))) {
  mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
  copyFileSync(path.join(src, file), path.join(out, file));
}

/**
 * One file of lib/pipeline/ holding `entry` and all it imports as one module (`plugins` keep some of
 * them shared), with the note `what` on top. In lib/pipeline/ like the files it bundles, so that the
 * paths their code finds from import.meta (package.json, lib/, the worker's entry) are the same.
 */
async function bundle(entry, name, what, plugins = []) {
  const built = await build({
    entryPoints: [path.join(src, 'pipeline', entry)],
    outfile: path.join(out, 'pipeline', name),
    bundle: true,
    plugins: [...plugins, librariesFromVendor],
    banner: {
      js: `// Built by .ci/build-lib.mjs: ${what}; the libraries' licences are in ../vendor/LICENSES.txt.\nimport { createRequire as __otapressRequire } from 'node:module';\nconst require = __otapressRequire(import.meta.url);`,
    },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
  });
  for (const input of Object.keys(built.metafile.inputs)) metafile.inputs[input] ??= built.metafile.inputs[input];
}

// The compile worker's module (see above).
await bundle(
  'compile-devices.ts',
  'compile-worker-bundle.js',
  'compile-devices.ts and all it imports, for the compile worker (compile-worker.mjs)',
);
// The build and check commands' module: build.ts and all it imports but the shared modules above.
// Loading sixty files one by one was a fixed cost of every build on the calling thread, before its
// first device.
await bundle(
  'build.ts',
  'build-command.js',
  'build.ts and all it imports, but for the modules shared with the CLI, for the build and check commands',
  [sharedStay],
);

for (const built of vendorMetafiles)
  for (const input of Object.keys(built.inputs)) metafile.inputs[input] ??= built.inputs[input];

// The licence of every package that went into lib/, as their licences ask.
const packages = [
  ...new Set(
    Object.keys(metafile.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []),
  ),
].sort();
const notices = packages.map((name) => {
  const dir = path.join(root, 'node_modules', name);
  const { version, license } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((f) => /^licen[cs]e(\.md|\.txt)?$/i.test(f));
  if (!file) throw new Error(`${name} has no licence file to ship with the code bundled from it`);
  return `${name} ${version} (${license})\n\n${readFileSync(path.join(dir, file), 'utf8').trim()}\n`;
});
if (existsSync(path.join(out, 'vendor'))) {
  writeFileSync(
    path.join(out, 'vendor', 'LICENSES.txt'),
    `Libraries bundled into this folder, and their licences.\n\n${notices.join('\n---\n\n')}`,
  );
}

placeBuilt(out, lib);

/**
 * Moves the tree built in `from` into `to` file by file, each with one rename over the file it
 * replaces, then removes from `to` what the build did not make. A process reading lib/ while it
 * is rebuilt (a test copying it, a build or `otapress serve` running from it, `npm run bench`
 * rebuilding it beside them) finds each file whole, the old one or the new one. Removing lib/
 * first, as this script did, left it missing or half-written for the second or two the build
 * takes: on a machine with more cores, where vitest runs test files side by side, the benchmark's
 * smoke test rebuilding lib/ could catch the build cache's test copying it.
 */
function placeBuilt(from, to) {
  const made = new Set();
  const move = (relative) => {
    const source = path.join(from, relative);
    const target = path.join(to, relative);
    const there = lstatSync(target, { throwIfNoEntry: false });
    if (lstatSync(source).isDirectory()) {
      if (there && !there.isDirectory()) rmSync(target, { force: true });
      mkdirSync(target, { recursive: true });
      for (const name of readdirSync(source).sort()) move(path.join(relative, name));
    } else {
      if (there?.isDirectory()) rmSync(target, { recursive: true, force: true });
      renameSync(source, target);
    }
    made.add(relative);
  };
  move('');
  const prune = (relative) => {
    for (const name of readdirSync(path.join(to, relative))) {
      const child = path.join(relative, name);
      if (!made.has(child)) rmSync(path.join(to, child), { recursive: true, force: true });
      else if (lstatSync(path.join(to, child)).isDirectory()) prune(child);
    }
  };
  prune('');
  rmSync(from, { recursive: true, force: true });
}
