/**
 * The flow of `otapress import <folder>`: reads an OTA repository checkout (every file under the
 * folder, links and hidden folders left alone) and the catalog, plans the import (folder-plan.ts,
 * pure) and writes it, every file or none. The command (commands/import.ts) dispatches here.
 */
import { closeSync, existsSync, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { ContentError, UsageError, type Problem } from '../catalog/problems.js';
import { readContent } from '../catalog/read.js';
import { parseSite, SITE_FILE } from '../catalog/site.js';
import { linkedFolder, linkedFolderProblem, writeFileReplacing } from '../catalog/write-manifest.js';
import { planFolder, type FolderPlan } from './folder-plan.js';

/** What `otapress import <folder>` is asked to do. */
export interface FolderOptions {
  /** The repository folder, as given. */
  folder: string;
  root: string;
  dryRun: boolean;
}

/** The biggest file read: as the one-file import's limit, far above any listing or changelog. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** The most files read: a repository of a few thousand devices has a few thousand. */
const MAX_FILES = 100_000;
/** The most read in all: a checkout of images or build artefacts given by mistake stops here, not at the memory's end. */
const MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

/**
 * Whether a file's text can tell what it is: a listing (`.json`, or AOSPA's extensionless
 * `updates/<device>`), a changelog (`.txt`, `.md`). Any other (images, zips, `update.xml`) is named
 * by its name alone (folder-classify.ts), so it is not read.
 */
function mayBeRead(entry: string): boolean {
  return /\.(json|txt|md)$/i.test(entry) || /(^|\/)updates\/[^/]+$/.test(entry);
}

/** Plans the import of the repository at `options.folder` and, unless a dry run, writes it. */
export function importFolder(options: FolderOptions): FolderPlan {
  const folder = path.resolve(options.folder);
  const content = path.join(options.root, 'content');
  if (folder === content || folder.startsWith(content + path.sep) || content.startsWith(folder + path.sep))
    throw new UsageError(
      `${options.folder} holds or is in the catalog's content/; name the OTA repository checkout to import`,
    );
  const read = readContent(options.root);
  const { site, problems } = read.site
    ? parseSite(read.site)
    : { site: undefined, problems: read.problems.filter((p) => p.file === SITE_FILE) };
  if (!site) throw new ContentError(problems);
  const { files, unread } = readFolder(folder);
  const deviceFolders = existsSync(content) ? readdirSync(content) : [];
  const plan = planFolder({
    folder: options.folder.replace(/\/+$/, '') || '.',
    files,
    site,
    siteText: Buffer.from(read.site!).toString('utf8'),
    existing: read.manifests,
    deviceFiles: new Set(deviceFolders.filter((d) => existsSync(path.join(content, d, 'device.yaml')))),
  });
  for (const { why, paths } of unread) {
    const group = plan.leftAlone.find((g) => g.why === why);
    if (group) group.paths.push(...paths);
    else plan.leftAlone.push({ why, paths });
  }
  plan.problems.push(...caseTwins(plan.devices, deviceFolders));
  const linked = [...new Set(plan.writes.flatMap((w) => linkedFolder(options.root, w.file) ?? []))];
  plan.problems.push(...linked.map(linkedFolderProblem));
  if (plan.problems.length > 0) throw new ContentError(plan.problems);
  if (!options.dryRun) for (const write of plan.writes) writeFileReplacing(options.root, write.file, write.text);
  return plan;
}

// --- internal ---

/** A device of the repository whose folder in content/ differs only by case: phones ask with the exact name. */
function caseTwins(devices: readonly string[], folders: readonly string[]): Problem[] {
  return devices.flatMap((device) => {
    const twin = folders.find((f) => f !== device && f.toLowerCase() === device.toLowerCase());
    return twin === undefined
      ? []
      : [
          {
            file: `content/${twin}`,
            line: 1,
            col: 1,
            field: '(folder)',
            message: `the repository's device ${device} differs from this folder only by case; phones ask with the exact name: rename the folder, or the repository's file`,
          },
        ];
  });
}

/** Every regular file under `folder` (sorted by path), and what was not read, by reason. */
function readFolder(folder: string): {
  files: { path: string; bytes: Uint8Array }[];
  unread: { why: string; paths: string[] }[];
} {
  let entries: string[];
  try {
    entries = readdirSync(folder, { recursive: true, encoding: 'utf8' });
  } catch (error) {
    throw new UsageError(
      `cannot read the folder ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); name an OTA repository checkout`,
    );
  }
  const files: { path: string; bytes: Uint8Array }[] = [];
  const unread = new Map<string, string[]>();
  const skip = (why: string, p: string) => {
    const paths = unread.get(why);
    if (paths === undefined) unread.set(why, [p]);
    else paths.push(p);
  };
  let total = 0;
  for (const entry of entries.map((e) => e.split(path.sep).join('/')).sort()) {
    // Hidden folders (.git, .github) and their files are no part of what phones read.
    if (entry.split('/').some((s) => s.startsWith('.') || s === 'node_modules')) continue;
    const full = path.join(folder, entry);
    const stat = lstatSync(full);
    if (stat.isSymbolicLink()) skip('a link (never followed)', entry);
    else if (!stat.isFile()) continue;
    else if (stat.size > MAX_FILE_BYTES) skip(`over ${MAX_FILE_BYTES} bytes`, entry);
    else if (files.length >= MAX_FILES) skip(`past the first ${MAX_FILES} files`, entry);
    else if (!mayBeRead(entry)) files.push({ path: entry, bytes: new Uint8Array(0) });
    else if (total + stat.size > MAX_TOTAL_BYTES) skip(`past the first ${MAX_TOTAL_BYTES} bytes read`, entry);
    else {
      total += stat.size;
      files.push({ path: entry, bytes: readWhole(full) });
    }
  }
  return { files, unread: [...unread].map(([why, paths]) => ({ why, paths })) };
}

function readWhole(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, null);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
