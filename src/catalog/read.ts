/**
 * Wing `catalog/`: what the content is. Reading content/ (this file, the only reader), site.yaml,
 * one manifest (schema, rules, derived values), the YAML readers, file-name rules, cross-manifest
 * planning, problems, the manifest JSON Schema, writing a manifest. Pure except this reader and
 * write-manifest.ts. Imports no other wing.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  type Dirent,
} from 'node:fs';
import path from 'node:path';
import { DEVICE_FILE } from './device.js';
import { nameLengthProblem } from './path-limits.js';
import { DEVICE_NAME } from './plan.js';
import { compareStrings, type Problem } from './problems.js';
import { SITE_FILE } from './site.js';
import { MAX_SOURCE_BYTES, whatItHolds } from './yaml-source.js';

/** One manifest file as found on disk, not yet parsed. */
export interface ManifestFile {
  /** Path relative to the project root, forward slashes: `content/FP4/<name>.yaml`. */
  file: string;
  device: string;
  bytes: Uint8Array;
}

/** Everything the build reads from `content/`, sorted by path so that output never depends on disk order. */
export interface Content {
  /** Text of `content/site.yaml`, or `undefined` when it is missing. */
  site?: Uint8Array;
  manifests: ManifestFile[];
  /** Device folders that hold at least one manifest. */
  devices: string[];
  /** Layout problems: misplaced files, unsafe folder names, links, oversized files. */
  problems: Problem[];
}

/**
 * Reads the content folder: `site.yaml` and every `<device>/<name>.yaml`. Refuses symbolic links
 * (a link could point outside the repository) and files too large to be a manifest, without
 * reading them. Reports everything else that is out of place instead of guessing. With `devices`,
 * reads those device folders only (no `site.yaml`): the preview re-reads what changed.
 */
export function readContent(root: string, options: { devices?: readonly string[] } = {}): Content {
  const listing = listContent(root, options);
  const { manifests, problems } = readManifests(root, listing.files);
  return { site: listing.site, manifests, devices: listing.devices, problems: [...listing.problems, ...problems] };
}

/** The content folder without the manifests' bytes: what {@link readManifests} is to read. */
export interface ContentListing {
  /** Text of `content/site.yaml`, or `undefined` when it is missing. */
  site?: Uint8Array;
  /** Every manifest to read, sorted by path. */
  files: { file: string; device: string }[];
  /** Device folders that hold at least one manifest. */
  devices: string[];
  /** Layout problems; those of reading a manifest come from {@link readManifests}. */
  problems: Problem[];
  /**
   * Per device, the other entries of its folder (a README, a folder of notes...) in name order:
   * the build cache's key covers them (cache-key.ts), without listing the folder again.
   */
  others: Map<string, string[]>;
}

/**
 * The first half of {@link readContent}: lists the content folder and reads `site.yaml`, but not
 * the manifests, so that a build can read them a device at a time instead of all at once.
 */
export function listContent(root: string, { devices: only }: { devices?: readonly string[] } = {}): ContentListing {
  const contentDir = path.join(root, 'content');
  const problems: Problem[] = [];
  const problem = (file: string, field: string, message: string) =>
    problems.push({ file, line: 1, col: 1, field, message });
  const content: ContentListing = { files: [], devices: [], problems, others: new Map() };
  // content/ itself is refused like every link inside it: followed, it would publish another folder's devices.
  if (lstatSync(contentDir, { throwIfNoEntry: false })?.isSymbolicLink()) {
    problem(
      'content',
      '(folder)',
      'symbolic links are refused (a link can point outside the repository); replace it with the folder itself',
    );
    return content;
  }

  const devices = new Set<string>();
  for (const entry of listEntries(contentDir, only)) {
    if (entry.children === undefined) {
      // A file (or link, or other) directly in content/.
      const file = `content/${entry.name}`;
      if (refused(entry.dirent, contentDir, file, problem) || !/\.ya?ml$/i.test(entry.name)) continue;
      if (entry.name === 'site.yaml') content.site = readLimited(path.join(contentDir, entry.name), file, problem);
      else problem(file, '(file)', outsideDeviceFolder(entry.name));
      continue;
    }
    // A device folder, its entries in name order (that is, in path order).
    const device = entry.name;
    const folder = `content/${device}/`;
    let unusable: string | undefined | null = null; // Asked once per folder, at its first manifest.
    const first = content.files.length;
    // The folder's entries that are not manifests, in name order, as they are passed over.
    const others: string[] = [];
    for (const child of entry.children) {
      const file = folder + child.name;
      if (!isManifest(child, file)) others.push(child.name);
    }
    if (content.files.length > first) {
      devices.add(device);
      content.others.set(device, others);
    }

    /** Whether `child` is a manifest, which it then adds; reports what is out of place. */
    function isManifest(child: Dirent, file: string): boolean {
      if (refused(child, contentDir, file, problem)) return false;
      if (child.isDirectory()) {
        if (!device.startsWith('.') && !child.name.startsWith('.'))
          problem(
            file,
            '(folder)',
            'folders inside a device folder are not read; put manifests directly in content/<device>/',
          );
        return false;
      }
      if (!/\.ya?ml$/i.test(child.name)) return false; // READMEs, images and other notes may live beside the manifests.
      if (unusable === null) {
        unusable = deviceNameProblem(device);
        if (unusable) problem(`content/${device}`, '(folder)', unusable);
      }
      if (unusable) return false;
      if (child.name !== DEVICE_FILE && /^device\.ya?ml$/i.test(child.name)) {
        // Read as a manifest, it would be refused field by field for what a device file holds; on a
        // case-insensitive disk it is the device file, on another it is not: one name everywhere.
        problem(
          file,
          '(file)',
          `read as neither the device file nor a manifest: the device file is named ${DEVICE_FILE} exactly (lower case, .yaml); rename it so, or name a build's manifest after its zip`,
        );
        return false;
      }
      if (!child.name.endsWith('.yaml')) {
        problem(file, '(file)', `manifests end in .yaml; rename it to ${child.name.replace(/\.ya?ml$/i, '.yaml')}`);
        return false;
      }
      content.files.push({ file, device });
      return true;
    }
  }
  content.devices = [...devices].sort(compareStrings);
  if (content.site === undefined && !only && !problems.some((p) => p.file === SITE_FILE)) {
    problem(
      SITE_FILE,
      '(file)',
      'missing: run `npx otapress init` to start a catalog here, or create content/site.yaml with at least `download_base_url: https://...` (see the README)',
    );
  }
  return content;
}

/**
 * The second half of {@link readContent}: reads manifests that {@link listContent} found, in the
 * order given; one that cannot be read (gone, replaced by a pipe, too large) is left out with a problem.
 */
export function readManifests(
  root: string,
  files: readonly { file: string; device: string }[],
): { manifests: ManifestFile[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const problem = (file: string, field: string, message: string) =>
    problems.push({ file, line: 1, col: 1, field, message });
  const manifests: ManifestFile[] = [];
  // `file` is `content/<device>/<name>`, names as listed: joined without path.join's normalizing,
  // which took 0.7 % of a cold 100k build's CPU.
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  for (const { file, device } of files) {
    const bytes = readLimited(base + file, file, problem);
    if (bytes) manifests.push({ file, device, bytes });
  }
  return { manifests, problems };
}

/** Names the output already uses beside the device folders of `api/v1/`; a device of that name would clash. */
const RESERVED_DEVICE_NAMES = ['404.html', '404.json'];

/** Why a folder name cannot be a device code name, or `undefined` when it can (also for a folder of a git revision: diff/). */
export function deviceNameProblem(name: string): string | undefined {
  if (!DEVICE_NAME.test(name)) {
    return `\`${name}\` is not a usable device code name: it becomes a URL path segment, so use letters, digits, \`.\`, \`-\` and \`_\`, starting with a letter or digit and not ending with \`.\``;
  }
  if (RESERVED_DEVICE_NAMES.includes(name.toLowerCase())) {
    return `\`${name}\` is the name of a file otapress writes in api/v1/ (the JSON 404 answer); rename the folder to the device's code name`;
  }
  return nameLengthProblem(name, 'device code name');
}

// --- internal ---

/**
 * The entries of `content/`, each folder with its own entries, in the order of their paths (a
 * folder's entries follow it as `<folder>/<name>`, so `a-b/x` comes before `a/x`). A plain listing
 * rather than a glob: a glob silently skips names it cannot match (a line break in a file name),
 * and a manifest that is skipped without a word would be lost. Folders deeper down are reported,
 * never read. Each folder is sorted on its own (a few hundred names) and placed among the other
 * entries by the path its entries start with: one sort of 100,000 paths, with an object and a
 * split per entry, took 0.6 s of a cold 100k build before any device could be compiled (0.3 s now).
 */
function listEntries(
  contentDir: string,
  only?: readonly string[],
): { name: string; dirent: Dirent; children?: Dirent[] }[] {
  const list = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  const byName = (a: Dirent, b: Dirent) => compareStrings(a.name, b.name);
  const entries: { name: string; dirent: Dirent; children?: Dirent[]; key: string }[] = [];
  for (const dirent of list(contentDir)) {
    if (only && !only.includes(dirent.name)) continue;
    // A folder's own entry tells nothing (only its entries do): it is placed where they sort.
    if (dirent.isDirectory())
      entries.push({
        name: dirent.name,
        dirent,
        children: list(path.join(contentDir, dirent.name)).sort(byName),
        key: `${dirent.name}/`,
      });
    else entries.push({ name: dirent.name, dirent, key: dirent.name });
  }
  return entries.sort((a, b) => compareStrings(a.key, b.key));
}

/**
 * Reports an entry that is no plain file or folder (a link, a pipe, a socket, a device) and returns
 * true; `file` is its path from the root, `content/...`.
 */
function refused(
  dirent: Dirent,
  contentDir: string,
  file: string,
  problem: (file: string, field: string, message: string) => void,
): boolean {
  if (dirent.isSymbolicLink()) {
    const what = statSync(path.join(contentDir, file.slice('content/'.length)), {
      throwIfNoEntry: false,
    })?.isDirectory()
      ? 'folder'
      : 'file';
    problem(
      file,
      `(${what})`,
      `symbolic links are refused (a link can point outside the repository); replace it with the ${what} itself`,
    );
    return true;
  }
  if (!dirent.isDirectory() && !dirent.isFile()) {
    // A named pipe would block the build forever; sockets and devices are no manifests either.
    problem(file, '(file)', 'not a regular file (a pipe, socket or device); replace it with a plain file');
    return true;
  }
  return false;
}

/** Reads a file unless it is larger than any manifest could be; that case is reported by size. */
function readLimited(
  absolute: string,
  file: string,
  problem: (file: string, field: string, message: string) => void,
): Uint8Array | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a file replaced by a named pipe after listing must not hang the build.
    fd = openRead(absolute, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    problem(file, '(file)', unreadableMessage(error));
    return undefined;
  }
  try {
    // One read, into a buffer one byte larger than the limit: a plain file of at most the limit
    // reads whole and needs nothing else. A read of a regular file returns less than it was asked
    // for only at the end of the file (read(2)), so no second read looks for the end: it was one
    // system call per manifest, and 0.4 % of the instructions of a cold build of 50,000 manifests
    // on one thread, besides the kernel's part. (The listing has refused every entry that is no
    // regular file; what replaced one since is caught here, as below.) Only what the read says is
    // odd is looked at with fstat: a read that fails (a named pipe refuses reading at an offset),
    // reads nothing, or passes the limit. An fstat per file made a Stats object with four Dates
    // each time: 2 % of the CPU of a cold 100k build.
    let read = 0;
    let failure: unknown;
    try {
      read = readSync(fd, scratch, 0, MAX_SOURCE_BYTES + 1, 0);
    } catch (error) {
      failure = error;
    }
    if (failure !== undefined || read === 0 || read > MAX_SOURCE_BYTES) {
      const stat = fstatSync(fd);
      if (!stat.isFile()) {
        problem(file, '(file)', 'not a regular file (a pipe, socket or device); replace it with a plain file');
        return undefined;
      }
      if (failure !== undefined) throw failure;
      if (stat.size > MAX_SOURCE_BYTES || read > MAX_SOURCE_BYTES) {
        const size = Math.max(stat.size, read);
        problem(
          file,
          '(file)',
          `the file is ${size} bytes (${(size / 1048576).toFixed(1)} MiB), over the ${MAX_SOURCE_BYTES}-byte limit for one file; ${whatItHolds(file)}`,
        );
        return undefined;
      }
    }
    // A copy of its own, from the shared pool: a manifest is small, and one allocation per file is what costs.
    return Buffer.from(scratch.subarray(0, read));
  } catch (error) {
    problem(file, '(file)', unreadableMessage(error));
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Where {@link readLimited} reads each file: the limit and one byte more, one buffer per thread. */
const scratch = Buffer.allocUnsafeSlow(MAX_SOURCE_BYTES + 1);

/**
 * Whether opening with O_NOATIME is worth trying: Linux allows it to the files' owner (and root),
 * and refuses it to others with EPERM, after which plain opens are used.
 */
let noAtime = constants.O_NOATIME !== undefined;

/**
 * Opens a file to read it without updating its access time (O_NOATIME, Linux). In a fresh clone no
 * manifest has been read since it was written, so under the default `relatime` mount option the
 * first read of each one updates its access time: an inode write, which the build's flush to disk
 * then writes back too. Reading a fresh copy of 100,000 manifests took 1.0 s with the updates and
 * 0.8 s without.
 */
function openRead(absolute: string, flags: number): number {
  if (noAtime) {
    try {
      return openSync(absolute, flags | constants.O_NOATIME);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
      noAtime = false; // Not the owner: the access times will be updated, as by any reader.
    }
  }
  return openSync(absolute, flags);
}

function unreadableMessage(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return 'symbolic links are refused (a link can point outside the repository); replace it with the file itself';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied); make it readable';
  if (code === 'ENOENT') return 'disappeared while the build was reading content/; run the build again';
  return `cannot be read (${code ?? (error as Error).message}); check the file`;
}

/** What to do with a YAML file directly in content/ other than site.yaml: a device's files go in its folder. */
export function outsideDeviceFolder(name: string): string {
  return name === DEVICE_FILE
    ? `a device file describes one device and goes in its folder: move it to content/<device>/${DEVICE_FILE}`
    : 'manifests go in a device folder: move it to content/<device>/';
}
