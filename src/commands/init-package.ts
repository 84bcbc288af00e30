/**
 * Where a catalog repository gets otapress from, for `otapress init`. Until otapress is on the
 * npm registry it is installed from a tarball (`npm pack` of this repository), and npm writes that
 * tarball's path into package.json (`file:../otapress-0.2.0.tgz`): a path outside the catalog,
 * which a fresh clone, its CI and the hosts' build images do not have, so their `npm ci` fails.
 * init therefore keeps the package inside the catalog, as `vendor/otapress-<version>.tgz` with the
 * dependency `file:vendor/otapress-<version>.tgz`: committed with the catalog, it installs offline
 * with an empty npm cache, wherever the repository is cloned. A package installed from a registry
 * keeps its registry range (`npm install otapress` once it is published).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The folder of the catalog repository that holds the package, and the dependency naming it. */
const VENDOR_FOLDER = 'vendor';

/** The vendored tarball's path in the catalog, e.g. `vendor/otapress-0.2.0.tgz`. */
export function vendoredTarball(version: string): string {
  return `${VENDOR_FOLDER}/otapress-${version}.tgz`;
}

/**
 * What the catalog's otapress dependency should be: `keep` a spec that installs anywhere (a
 * registry range, a git URL, a tarball inside the catalog); `vendor` the running package when the
 * spec is missing and the package did not come from a registry, or when it names a path outside
 * the catalog (which no clone has).
 */
export function dependencyPlan(
  spec: string | undefined,
  root: string,
  fromRegistry: boolean,
): { action: 'keep' } | { action: 'add-range' } | { action: 'vendor'; why: string } {
  if (spec === undefined)
    return fromRegistry
      ? { action: 'add-range' }
      : { action: 'vendor', why: 'otapress was not installed from a registry' };
  const local = localPath(spec);
  if (local === undefined) return { action: 'keep' };
  const target = path.resolve(root, local);
  const inside = path.relative(root, target);
  if (inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside)) return { action: 'keep' };
  return {
    action: 'vendor',
    why: `${JSON.stringify(spec)} is a path outside the catalog, which a fresh clone, its CI and the hosts' builds do not have`,
  };
}

/**
 * True when the running package was installed from a registry: npm's hidden lock file
 * (`node_modules/.package-lock.json`, beside the package) records where it was resolved from.
 * A package run from a folder (this repository, a link) or installed from a tarball is not.
 */
export function installedFromRegistry(packageRoot: string): boolean {
  const modules = path.dirname(packageRoot);
  if (path.basename(modules) !== 'node_modules') return false;
  try {
    const lock = JSON.parse(readFileSync(path.join(modules, '.package-lock.json'), 'utf8')) as {
      packages?: Record<string, { resolved?: unknown }>;
    };
    const entry = Object.entries(lock.packages ?? {}).find(
      ([key]) => key === 'node_modules/otapress' || key.endsWith('/node_modules/otapress'),
    );
    const resolved = entry?.[1].resolved;
    return typeof resolved === 'string' && /^https?:\/\//.test(resolved);
  } catch {
    return false;
  }
}

/**
 * The npm tarball of the package at `packageRoot`: `package/package.json` and what its `files`
 * names (lib/), plus the README and licence npm always packs. Byte-identical for the same files:
 * sorted entries, a fixed time, owner 0 and modes 644/755, as `npm pack` makes them. `undefined`
 * when the folder has no built lib/ to pack (the TypeScript sources alone do not install).
 */
export function packTarball(packageRoot: string): Buffer | undefined {
  const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {
    files?: string[];
    bin?: Record<string, string>;
  };
  if (!existsSync(path.join(packageRoot, 'lib', 'bin.mjs'))) return undefined;
  const executables = new Set(Object.values(manifest.bin ?? {}).map((file) => path.posix.normalize(file)));
  const files = new Set<string>(['package.json']);
  for (const name of readdirSync(packageRoot)) if (/^(readme|licen[cs]e)(\.md|\.txt)?$/i.test(name)) files.add(name);
  for (const entry of manifest.files ?? []) {
    const top = entry.replace(/\/+$/, '');
    const full = path.join(packageRoot, top);
    if (!existsSync(full)) continue;
    if (!statSync(full).isDirectory()) files.add(top);
    else
      for (const file of readdirSync(full, { recursive: true }) as string[])
        if (statSync(path.join(full, file)).isFile()) files.add(`${top}/${file.split(path.sep).join('/')}`);
  }
  const blocks: Buffer[] = [];
  for (const file of [...files].sort()) {
    const contents = readFileSync(path.join(packageRoot, file));
    blocks.push(
      tarHeader(`package/${file}`, contents.length, executables.has(file) ? 0o755 : 0o644),
      contents,
      Buffer.alloc((512 - (contents.length % 512)) % 512),
    );
  }
  blocks.push(Buffer.alloc(1024)); // two zero blocks end the archive
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

// --- internal ---

/** The path a `file:` spec or a bare path spec (`../x.tgz`, `./dir`) names; `undefined` for a registry range, tag or URL. */
function localPath(spec: string): string | undefined {
  if (spec.startsWith('file:')) return spec.slice('file:'.length);
  if (spec.startsWith('link:')) return spec.slice('link:'.length);
  if (/^(\.{1,2}\/|\/|~\/)/.test(spec)) return spec.replace(/^~(?=\/)/, process.env.HOME ?? '~');
  return undefined;
}

/** 1985-10-26T08:15:00Z, the time npm gives every entry of a packed tarball. */
const NPM_PACK_TIME = 499162500;

/** A POSIX ustar header; a name over 100 bytes is split at a `/` into the 155-byte prefix. */
function tarHeader(name: string, size: number, mode: number): Buffer {
  const header = Buffer.alloc(512);
  let prefix = '';
  let rest = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new Error(`${name}: too long a path for a tarball entry`);
    prefix = name.slice(0, cut);
    rest = name.slice(cut + 1);
  }
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  header.write(rest, 0, 100, 'utf8');
  header.write(octal(mode, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii'); // uid
  header.write(octal(0, 8), 116, 'ascii'); // gid
  header.write(octal(size, 12), 124, 'ascii');
  header.write(octal(NPM_PACK_TIME, 12), 136, 'ascii');
  header.write(' '.repeat(8), 148, 'ascii'); // the checksum counts its own field as spaces
  header.write('0', 156, 'ascii'); // a regular file
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}
