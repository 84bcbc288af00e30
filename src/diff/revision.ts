/**
 * Wing `diff/`: what phones are offered before and after a change of the catalog. A git revision's
 * content/ read in memory (this file, the only one here that runs git), both sides compiled, the
 * answers phones read taken apart record by record, compared, and reported. Imports `pipeline/` and
 * the wings below it; only the commands import it.
 */
import { spawnSync } from 'node:child_process';
import { DEVICE_FILE } from '../catalog/device.js';
import { compareStrings, oneLine, UsageError, type Problem } from '../catalog/problems.js';
import { deviceNameProblem, outsideDeviceFolder, type Content, type ManifestFile } from '../catalog/read.js';
import { SITE_FILE } from '../catalog/site.js';
import { MAX_SOURCE_BYTES, whatItHolds } from '../catalog/yaml-source.js';

/** A revision's content/ as the build reads it from a folder, and the commit it was read at. */
export interface RevisionContent {
  content: Content;
  /** The full object name of the commit. */
  commit: string;
}

/**
 * Reads `content/` of the git revision `revision` of the repository `root` is in, without checking
 * it out or writing anything: the tree is listed (`git ls-tree`) and its files read in one `git
 * cat-file --batch`. The same layout rules as a folder on disk (catalog/read.ts): links and
 * submodules refused, folders in a device folder reported, files over the size limit not read.
 * Throws a {@link UsageError} for a revision that is no commit, or that has no content/ folder.
 */
export function readRevision(root: string, revision: string): RevisionContent {
  const shown = `\`${oneLine(revision)}\``;
  // A leading `-` would be read by git as an option.
  if (revision === '' || revision.startsWith('-') || /[\0-\x1f\x7f]/.test(revision))
    throw new UsageError(`${shown} is not a git revision; name a branch, tag or commit (origin/main, HEAD~1, a1b2c3d)`);
  const prefix = git(root, ['rev-parse', '--show-prefix']);
  if (prefix === undefined)
    throw new UsageError(
      `${oneLine(root)} is not in a git repository: diff compares git revisions of the catalog; run it in a clone of the catalog's repository`,
    );
  const commit = git(root, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
  if (commit === undefined)
    throw new UsageError(
      `${shown} is no commit of this repository; name a branch, tag or commit (origin/main, HEAD~1), and in CI fetch the history (actions/checkout with fetch-depth: 0)`,
    );
  // `--show-prefix` is the path of the catalog in its repository, with a final `/` (or nothing at the top).
  const folder = `${prefix}content`;
  if (git(root, ['cat-file', '-t', `${commit}:${folder}`]) !== 'tree')
    throw new UsageError(
      `${shown} (commit ${commit.slice(0, 12)}) has no ${oneLine(folder)}/ folder: it is not a revision of this catalog; name one that has content/site.yaml`,
    );
  // --full-tree: run from a catalog in a subfolder, ls-tree would list only what lies under that folder's path inside the tree.
  const listing = spawnGit(root, ['ls-tree', '-r', '-z', '--long', '--full-tree', `${commit}:${folder}`]);
  const entries = parseTree(listing.toString('utf8'));
  const { wanted, devices, problems } = layOut(entries);
  const blobs = readBlobs(
    root,
    wanted.map((w) => w.oid),
  );
  const content: Content = { manifests: [], devices, problems };
  for (const { file, device, oid } of wanted) {
    const bytes = blobs.get(oid)!;
    if (file === SITE_FILE) content.site = bytes;
    else content.manifests.push({ file, device: device!, bytes } satisfies ManifestFile);
  }
  return { content, commit };
}

// --- internal ---

/** One entry of `git ls-tree -r --long`: a file (or link, or submodule) under content/. */
interface TreeEntry {
  mode: string;
  oid: string;
  /** Its size in bytes; `undefined` for a submodule. */
  size?: number;
  /** From content/: `FP4/x.yaml`. */
  name: string;
}

/** A file of the revision to read: site.yaml or a manifest (device.yaml included). */
interface Wanted {
  file: string;
  device?: string;
  oid: string;
}

/** Runs git in `root`; its output without the final line break, or `undefined` when it fails. */
function git(root: string, args: string[]): string | undefined {
  const result = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new UsageError(
      'diff reads the revisions with git, which is not installed here (or not on PATH); install git',
    );
  if (result.error !== undefined || result.status !== 0) return undefined;
  return result.stdout.replace(/\n$/, '');
}

/** Runs git in `root` and returns its output; git's own message, on one line, when it fails. */
function spawnGit(root: string, args: string[], input?: string): Buffer {
  const result = spawnSync('git', ['-C', root, ...args], { input, maxBuffer: 1 << 30 });
  if (result.error !== undefined || result.status !== 0) {
    const why = result.error?.message ?? result.stderr.toString('utf8').trim();
    throw new UsageError(`git ${args[0]} failed in ${oneLine(root)}: ${oneLine(why)}`);
  }
  return result.stdout;
}

/** The entries of `git ls-tree -r -z --long`: `<mode> <type> <object> <size>\t<path>`, each ending in NUL. */
function parseTree(text: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of text.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, , oid, size] = record.slice(0, tab).split(/ +/);
    entries.push({ mode, oid, size: size === '-' ? undefined : Number(size), name: record.slice(tab + 1) });
  }
  return entries.sort((a, b) => compareStrings(a.name, b.name));
}

/**
 * What of the revision's content/ the build reads, and the problems of its layout, as
 * catalog/read.ts finds them in a folder: git keeps no empty folders, pipes or devices, but
 * symbolic links (mode 120000) and submodules (160000).
 */
function layOut(entries: readonly TreeEntry[]): { wanted: Wanted[]; devices: string[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const problem = (file: string, field: string, message: string) =>
    problems.push({ file, line: 1, col: 1, field, message });
  const wanted: Wanted[] = [];
  const devices = new Set<string>();
  const unusable = new Map<string, string | undefined>();
  const reportedFolders = new Set<string>();
  for (const entry of entries) {
    const file = `content/${entry.name}`;
    const parts = entry.name.split('/');
    if (parts.length > 2) {
      // A folder inside a device folder: reported once, never read.
      const sub = `content/${parts[0]}/${parts[1]}`;
      if (!reportedFolders.has(sub) && !parts[0].startsWith('.') && !parts[1].startsWith('.'))
        problem(
          sub,
          '(folder)',
          'folders inside a device folder are not read; put manifests directly in content/<device>/',
        );
      reportedFolders.add(sub);
      continue;
    }
    if (refusedEntry(entry, file, parts.length === 1, problem)) continue;
    const base = parts[parts.length - 1];
    if (!/\.ya?ml$/i.test(base)) continue;
    if (parts.length === 1) {
      if (base === 'site.yaml') wanted.push({ file, oid: entry.oid });
      else problem(file, '(file)', outsideDeviceFolder(base));
      continue;
    }
    const device = parts[0];
    if (!unusable.has(device)) {
      unusable.set(device, deviceNameProblem(device));
      if (unusable.get(device)) problem(`content/${device}`, '(folder)', unusable.get(device)!);
    }
    if (unusable.get(device)) continue;
    if (base !== DEVICE_FILE && /^device\.ya?ml$/i.test(base)) {
      problem(
        file,
        '(file)',
        `read as neither the device file nor a manifest: the device file is named ${DEVICE_FILE} exactly (lower case, .yaml); rename it so, or name a build's manifest after its zip`,
      );
      continue;
    }
    if (!base.endsWith('.yaml')) {
      problem(file, '(file)', `manifests end in .yaml; rename it to ${base.replace(/\.ya?ml$/i, '.yaml')}`);
      continue;
    }
    if (entry.size !== undefined && entry.size > MAX_SOURCE_BYTES) {
      problem(
        file,
        '(file)',
        `the file is ${entry.size} bytes (${(entry.size / 1048576).toFixed(1)} MiB), over the ${MAX_SOURCE_BYTES}-byte limit for one file; ${whatItHolds(file)}`,
      );
      continue;
    }
    devices.add(device);
    wanted.push({ file, device, oid: entry.oid });
  }
  if (!wanted.some((w) => w.file === SITE_FILE) && !problems.some((p) => p.file === SITE_FILE))
    problem(SITE_FILE, '(file)', 'missing in this revision: a catalog has content/site.yaml (see the README)');
  return { wanted, devices: [...devices].sort(compareStrings), problems };
}

/** Reports a symbolic link or a submodule, as the folder reader reports a link, and returns true. */
function refusedEntry(
  entry: TreeEntry,
  file: string,
  topLevel: boolean,
  problem: (file: string, field: string, message: string) => void,
): boolean {
  if (entry.mode === '120000') {
    problem(
      file,
      '(file)',
      'symbolic links are refused (a link can point outside the repository); replace it with the file itself',
    );
    return true;
  }
  if (entry.mode === '160000') {
    problem(
      file,
      '(folder)',
      topLevel
        ? 'a git submodule is not read; put the device folder itself in content/'
        : 'folders inside a device folder are not read; put manifests directly in content/<device>/',
    );
    return true;
  }
  return false;
}

/** The bytes of each object, read in one `git cat-file --batch`: `<oid> blob <size>\n<bytes>\n` each. */
function readBlobs(root: string, oids: readonly string[]): Map<string, Uint8Array> {
  const blobs = new Map<string, Uint8Array>();
  if (oids.length === 0) return blobs;
  const out = spawnGit(root, ['cat-file', '--batch'], `${oids.join('\n')}\n`);
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0x0a, at);
    const [oid, type, size] = out.toString('utf8', at, end).split(' ');
    if (type !== 'blob') throw new UsageError(`git cat-file could not read ${oneLine(oid)} (${oneLine(type ?? '')})`);
    const start = end + 1;
    blobs.set(oid, Buffer.from(out.subarray(start, start + Number(size))));
    at = start + Number(size) + 1;
  }
  return blobs;
}
