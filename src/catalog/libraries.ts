/**
 * The `yaml` package, loaded the first time something needs it rather than with otapress: a build
 * of plain manifests and a plain site.yaml reads them all with yaml-flat.ts and never does. Loading
 * it took about 18 ms of each thread's start (reading and compiling its 260 kB, then running it),
 * in the calling thread and in every compile worker, before any manifest was read.
 *
 * A synchronous `require`, because reading and checking content is synchronous. From src/ (tsx)
 * it loads the package from node_modules; in lib/, the package built into one file of lib/vendor/
 * (.ci/build-lib.mjs rewrites {@link FROM} there, since the installed package has no dependencies).
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const load = createRequire(import.meta.url);

/** Where to load each library from; in lib/, a path relative to the module this ends up in. */
const FROM = { yaml: 'yaml' };

let yamlLibrary: typeof Yaml | undefined;

/** The `yaml` package (the same module as `import ... from 'yaml'` gives: it is CommonJS). */
export function yaml(): typeof Yaml {
  return (yamlLibrary ??= load(FROM.yaml) as typeof Yaml);
}


/**
 * A value made the first time it is asked for: the zod schemas. Most input never needs them (the
 * plain readers take plain manifests and settings), and building them all with otapress took about
 * 20 ms of each thread's start, running zod's constructors on cold code.
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
