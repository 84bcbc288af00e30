import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { planImport, type ImportPlan } from '../import/plan-import.js';
import { DEVICE_NAME } from '../catalog/plan.js';
import { ContentError } from '../catalog/problems.js';
import { readContent } from '../catalog/read.js';
import { parseSite, SITE_FILE } from '../catalog/site.js';
import { writeManifestFile } from '../catalog/write-manifest.js';

/** What `otapress import` is asked to do. */
export interface ImportOptions {
  /** Path of the saved listing, or `-` for standard input. */
  source: string;
  root: string;
  device: string;
  list: string;
  skipInvalid?: boolean;
  /** The text of standard input, when `source` is `-` (tests pass it; the CLI reads fd 0). */
  stdin?: () => string;
}

/** A wrong invocation of `import`: the CLI exits 2. */
export class ImportUsageError extends Error {}

/**
 * Reads a saved v1 listing and the project's content, plans the manifests (see planImport) and
 * writes them, each atomically, only if every record is valid or `skipInvalid` is set.
 */
export function importListing(options: ImportOptions): ImportPlan {
  if (!DEVICE_NAME.test(options.device)) throw new ImportUsageError(`\`${options.device}\` is not a usable device code name; pass --device with the name phones ask for, e.g. FP4`);
  const sourceName = options.source === '-' ? '<stdin>' : options.source;
  let text: string;
  try {
    text = options.source === '-' ? (options.stdin ?? (() => readBounded(0)))() : readBounded(openSync(options.source, 'r'));
  } catch (error) {
    if (error instanceof ListingTooLarge) {
      const size = error.size === undefined ? 'holds more than' : `is ${error.size} bytes, over`;
      throw new ImportUsageError(`${sourceName} ${size} the ${MAX_LISTING_BYTES}-byte limit: a v1 listing of even a thousand builds is under 1 MB, so this is not one; pass the listing saved from the server`);
    }
    throw new ImportUsageError(`cannot read ${sourceName} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass the saved listing, or - for standard input`);
  }
  const content = readContent(options.root);
  const { site, problems } = content.site ? parseSite(content.site) : { site: undefined, problems: content.problems.filter((p) => p.file === SITE_FILE) };
  if (!site) {
    const base = /"url"\s*:\s*"(https?:\/\/[^"]+)"/.exec(text)?.[1].split('/').slice(0, -3).join('/');
    const hint = base ? ` (the listing's addresses suggest download_base_url: ${base})` : '';
    throw new ContentError(problems.map((p) => ({ ...p, message: p.message + hint })));
  }
  const plan = planImport({ text, sourceName, device: options.device, list: options.list, site, existing: content.manifests, skipInvalid: options.skipInvalid });
  for (const write of plan.writes) writeManifestFile(options.root, write.file, write.text);
  return plan;
}

/** Largest listing `import` reads: far above any real one, far below what would exhaust memory. */
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

// --- internal ---

class ListingTooLarge extends Error {
  constructor(readonly size?: number) {
    super('listing too large');
  }
}

/** Reads a file or standard input as UTF-8, refusing (by its size, before reading) anything over the limit. */
function readBounded(fd: number): string {
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > MAX_LISTING_BYTES) throw new ListingTooLarge(stat.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(1024 * 1024);
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); // A non-blocking pipe with nothing yet.
          continue;
        }
        if ((error as NodeJS.ErrnoException).code === 'EOF') break;
        throw error;
      }
      if (n === 0) break;
      total += n;
      if (total > MAX_LISTING_BYTES) throw new ListingTooLarge();
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}
