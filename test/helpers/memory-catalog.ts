import { compareStrings, ContentError } from '../../src/catalog/problems.js';
import { readContent, type Content } from '../../src/catalog/read.js';
import type { Host } from '../../src/hosts/host-files.js';
import { compileSite, type CompiledSite } from '../../src/pipeline/build.js';
import { EXAMPLE } from './helpers.js';

/**
 * A catalog as text: path from the project root (`content/site.yaml`, `content/<device>/<name>.yaml`)
 * → the file's text. Tests of what the build makes compile it here, without a disk: the build writes
 * what {@link compileSite} returns, byte for byte (the pipeline's tests hold that promise).
 */
export type CatalogFiles = Record<string, string>;

/**
 * What `readContent` returns for a project holding `files`: site.yaml, and every manifest sorted by
 * path, each in its device folder. Only for well-formed layouts: the reader's own refusals (links,
 * misplaced files, unusable folder names) are tested on a real disk.
 */
export function contentFromFiles(files: CatalogFiles): Content {
  const manifests: Content['manifests'] = [];
  let site: Uint8Array | undefined;
  // Sorting whole paths gives readContent's order: a device folder's entries follow `<folder>/`.
  for (const file of Object.keys(files).sort(compareStrings)) {
    const parts = file.split('/');
    const bytes = Buffer.from(files[file]!, 'utf8');
    if (file === 'content/site.yaml') site = bytes;
    else if (parts.length === 3 && parts[0] === 'content' && file.endsWith('.yaml')) {
      manifests.push({ file, device: parts[1]!, bytes });
    } else throw new Error(`${file}: not a place readContent reads a manifest from; test the reader on a real folder`);
  }
  const devices = [...new Set(manifests.map((m) => m.device))].sort(compareStrings);
  return { site, manifests, devices, problems: [] };
}

/** {@link compileSite} of `files`: the build's output, or its problems, without touching a disk. */
export function compileFiles(files: CatalogFiles, host: Host = 'all'): CompiledSite {
  return compileSite(contentFromFiles(files), host);
}

/** The output tree a build of `files` writes, as {@link builtTree} reads it. */
export interface BuiltTree {
  compiled: CompiledSite;
  /** The text of the file at `file`, relative to dist/; throws when the build writes no such file. */
  read(file: string): string;
  /** Whether the build writes `file`. */
  has(file: string): boolean;
  /** The names of the entries directly in the folder `dir` of dist/, sorted, as readdirSync lists them. */
  list(dir: string): string[];
}

/**
 * The tree `build()` writes for `files`; throws the ContentError build() throws when the content
 * has problems, so that a test of the output cannot pass on an empty tree.
 */
export function builtTree(files: CatalogFiles, host: Host = 'all'): BuiltTree {
  const compiled = compileFiles(files, host);
  if (compiled.problems.length > 0) throw new ContentError(compiled.problems);
  const byPath = new Map(compiled.files.map((f) => [f.path, f.contents]));
  return {
    compiled,
    read(file) {
      const contents = byPath.get(file);
      if (contents === undefined) throw new Error(`the build writes no ${file}`);
      return typeof contents === 'string' ? contents : Buffer.from(contents).toString('utf8');
    },
    has: (file) => byPath.has(file),
    list(dir) {
      const prefix = dir.endsWith('/') ? dir : `${dir}/`;
      const inside = compiled.files.filter((f) => f.path.startsWith(prefix));
      const names = new Set(inside.map((f) => f.path.slice(prefix.length).split('/')[0]!));
      return [...names].sort();
    },
  };
}

/** The example catalog (test/example/content) as {@link CatalogFiles}, as the build reads it. */
export function exampleFiles(): CatalogFiles {
  example ??= readContent(EXAMPLE);
  const files: CatalogFiles = { 'content/site.yaml': Buffer.from(example.site!).toString('utf8') };
  for (const { file, bytes } of example.manifests) files[file] = Buffer.from(bytes).toString('utf8');
  return files;
}

// --- internal ---

/** The example, read once per test file. */
let example: Content | undefined;
