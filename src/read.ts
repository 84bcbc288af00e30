import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { DEVICE_NAME } from './plan.js';
import { compareStrings, type Problem } from './problems.js';
import { SITE_FILE } from './site.js';
import { MAX_SOURCE_BYTES } from './yaml-source.js';

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
export function readContent(root: string, { devices: only }: { devices?: readonly string[] } = {}): Content {
  const contentDir = path.join(root, 'content');
  const problems: Problem[] = [];
  const problem = (file: string, field: string, message: string) => problems.push({ file, line: 1, col: 1, field, message });

  const entries = fg
    .sync(only ? only.map((device) => `${fg.escapePath(device)}/**`) : '**', { cwd: contentDir, dot: true, onlyFiles: false, followSymbolicLinks: false, objectMode: true, markDirectories: true })
    .sort((a, b) => compareStrings(a.path, b.path));
  const content: Content = { manifests: [], devices: [], problems };
  const devices = new Set<string>();
  const badFolders = new Set<string>();

  for (const entry of entries) {
    const relative = entry.path.replace(/\/$/, '');
    const file = `content/${relative}`;
    const parts = relative.split('/');
    if (entry.dirent.isSymbolicLink()) {
      problem(file, '(file)', 'symbolic links are refused (a link can point outside the repository); replace it with the file itself');
      continue;
    }
    if (entry.dirent.isDirectory()) {
      if (parts.length >= 2 && !parts.some((p) => p.startsWith('.'))) {
        problem(file, '(folder)', 'folders inside a device folder are not read; put manifests directly in content/<device>/');
      }
      continue;
    }
    const isYaml = /\.ya?ml$/i.test(relative);
    if (!isYaml) continue; // READMEs, images and other notes may live beside the manifests.
    if (parts.length === 1) {
      if (relative === 'site.yaml') content.site = readLimited(path.join(contentDir, relative), file, problem);
      else problem(file, '(file)', 'manifests go in a device folder: move it to content/<device>/');
      continue;
    }
    if (parts.length > 2) continue; // Reported once for the folder above.
    const device = parts[0];
    if (!DEVICE_NAME.test(device)) {
      if (!badFolders.has(device)) {
        badFolders.add(device);
        problem(
          `content/${device}`,
          '(folder)',
          `\`${device}\` is not a usable device code name: it becomes a URL path segment, so use letters, digits, \`.\`, \`-\` and \`_\`, starting and ending with a letter or digit`,
        );
      }
      continue;
    }
    if (!relative.endsWith('.yaml')) {
      problem(file, '(file)', `manifests end in .yaml; rename it to ${path.posix.basename(relative).replace(/\.ya?ml$/i, '.yaml')}`);
      continue;
    }
    const bytes = readLimited(path.join(contentDir, relative), file, problem);
    devices.add(device);
    if (bytes) content.manifests.push({ file, device, bytes });
  }
  content.devices = [...devices].sort(compareStrings);
  if (content.site === undefined && !only && !problems.some((p) => p.file === SITE_FILE)) {
    problem(SITE_FILE, '(file)', 'missing: create content/site.yaml with at least `download_base_url: https://...` (see the README)');
  }
  return content;
}

// --- internal ---

/** Reads a file unless it is larger than any manifest could be; that case is reported by size. */
function readLimited(absolute: string, file: string, problem: (file: string, field: string, message: string) => void): Uint8Array | undefined {
  const fd = openSync(absolute, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > MAX_SOURCE_BYTES) {
      problem(file, '(file)', `the file is ${size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit for one file; a manifest describes one build in a few lines`);
      return undefined;
    }
    const bytes = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
