/**
 * The two libraries otapress reads content with, loaded the first time something needs them
 * rather than with otapress: `yaml` for a file the flat reader (yaml-flat.ts) does not take, and
 * zod for a manifest, site.yaml or device.yaml the plain readers do not take (plainFields,
 * plainSettings) and for the JSON Schemas. A build of plain manifests and a plain site.yaml needs
 * neither. Loading them took about 18 ms (yaml: reading and compiling its 260 kB, then running it)
 * and 10 ms (zod) of each thread's start, in the calling thread and in every compile worker,
 * before any manifest was read; building the schemas ({@link lazily}) about 20 ms more.
 *
 * A synchronous `require`, because reading and checking content is synchronous. From src/ (tsx)
 * it loads the packages from node_modules; in lib/, each package built into one file of lib/vendor/
 * (.ci/build-lib.mjs rewrites {@link FROM} there, since the installed package has no dependencies).
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as Zod from 'zod';

const load = createRequire(import.meta.url);

/** Where to load each library from; in lib/, a path relative to the module this ends up in. */
const FROM = { yaml: 'yaml', zod: 'zod' };

/**
 * The functions of zod that otapress calls: all that lib/vendor/zod.cjs holds (.ci/build-lib.mjs
 * builds it from this list, so that it holds a fifth of zod), and all that {@link zod} types.
 */
export const ZOD_FUNCTIONS = [
  'array',
  'boolean',
  'enum',
  'number',
  'preprocess',
  'record',
  'strictObject',
  'string',
  'toJSONSchema',
  'unknown',
] as const;

/** What {@link zod} gives: {@link ZOD_FUNCTIONS}. */
export type ZodFunctions = Pick<typeof Zod, (typeof ZOD_FUNCTIONS)[number]>;

let yamlLibrary: typeof Yaml | undefined;
let zodLibrary: ZodFunctions | undefined;

/** The `yaml` package (the same module as `import ... from 'yaml'` gives: it is CommonJS). */
export function yaml(): typeof Yaml {
  return (yamlLibrary ??= load(FROM.yaml) as typeof Yaml);
}

/** zod's functions (its CommonJS build: the same API as `import * as z from 'zod'`). */
export function zod(): ZodFunctions {
  return (zodLibrary ??= load(FROM.zod) as ZodFunctions);
}

/**
 * A value made the first time it is asked for: the zod schemas. Most input never needs them (the
 * plain readers take plain manifests and settings), and building them all with otapress took about
 * 20 ms of each thread's start, running zod's constructors on cold code. The function that makes
 * one takes zod from {@link zod}.
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
