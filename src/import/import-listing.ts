/**
 * The flow of `otapress import`: reads the saved listing (a file or standard input, bounded) and
 * the project's content, plans the manifests (plan-import.ts, pure) and writes them. The command
 * (commands/import.ts) only passes the options in and prints the outcome.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { DEVICE_NAME } from '../catalog/plan.js';
import { ContentError, UsageError } from '../catalog/problems.js';
import { readContent } from '../catalog/read.js';
import { parseSite, SITE_FILE } from '../catalog/site.js';
import { linkedFolder, linkedFolderProblem, writeFileReplacing } from '../catalog/write-manifest.js';
import { planImport, type ImportPlan } from './plan-import.js';

/** Largest listing `import` reads: far above any real one, far below what would exhaust memory. */
const MAX_LISTING_BYTES = 4 * 1024 * 1024;

/** What `otapress import` is asked to do. */
export interface ImportOptions {
  /** Path of the saved listing, or `-` for standard input. */
  source: string;
  root: string;
  device: string;
  list: string;
  skipInvalid?: boolean;
  /** `--android-version N`: for records that neither api_level nor the file name tells it of. */
  androidVersion?: string;
  /** The text of standard input, when `source` is `-` (tests pass it; the CLI reads fd 0). */
  stdin?: () => string | Uint8Array;
}

/**
 * Reads a saved v1 listing and the project's content, plans the manifests (see planImport) and
 * writes them, each atomically, only if every record is valid or `skipInvalid` is set.
 */
export function importListing(options: ImportOptions): ImportPlan {
  if (!DEVICE_NAME.test(options.device))
    throw new UsageError(
      `\`${options.device}\` is not a usable device code name; pass --device with the name phones ask for, e.g. FP4`,
    );
  if (options.androidVersion !== undefined && !/^\d{1,3}$/.test(options.androidVersion))
    throw new UsageError(
      `--android-version takes the Android major version, e.g. 14, not \`${options.androidVersion}\``,
    );
  const sourceName = options.source === '-' ? '<stdin>' : options.source;
  let text: string | Uint8Array;
  try {
    text =
      options.source === '-' ? (options.stdin ?? (() => readBounded(0)))() : readBounded(openSync(options.source, 'r'));
  } catch (error) {
    if (error instanceof ListingTooLarge) {
      const size = error.size === undefined ? 'holds more than' : `is ${error.size} bytes, over`;
      throw new UsageError(
        `${sourceName} ${size} the ${MAX_LISTING_BYTES}-byte limit: a v1 listing of even a thousand builds is under 1 MB, so this is not one; pass the listing saved from the server`,
      );
    }
    throw new UsageError(
      `cannot read ${sourceName} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass the saved listing, or - for standard input`,
    );
  }
  const twin = existsSync(path.join(options.root, 'content'))
    ? readdirSync(path.join(options.root, 'content')).find(
        (name) => name !== options.device && name.toLowerCase() === options.device.toLowerCase(),
      )
    : undefined;
  if (twin !== undefined) {
    throw new UsageError(
      `content/${twin} is a device folder whose name differs from ${options.device} only by case; phones ask with the exact name, so a device has one folder: pass --device ${twin} if that is this device, or rename the folder`,
    );
  }
  const content = readContent(options.root);
  const { site, problems } = content.site
    ? parseSite(content.site)
    : { site: undefined, problems: content.problems.filter((p) => p.file === SITE_FILE) };
  if (!site) {
    const base = /"url"\s*:\s*"(https?:\/\/[^"]+)"/
      .exec(typeof text === 'string' ? text : Buffer.from(text).toString('latin1'))?.[1]
      .split('/')
      .slice(0, -3)
      .join('/');
    const hint = base ? ` (the listing's addresses suggest download_base_url: ${base})` : '';
    throw new ContentError(problems.map((p) => ({ ...p, message: p.message + hint })));
  }
  const plan = planImport({
    text,
    sourceName,
    device: options.device,
    list: options.list,
    site,
    existing: content.manifests,
    skipInvalid: options.skipInvalid,
    androidVersion: options.androidVersion,
    deviceFileExists: existsSync(path.join(options.root, 'content', options.device, 'device.yaml')),
    siteText: content.site,
  });
  // Nothing is written when one of the files would go through a linked folder.
  const linked = [...new Set(plan.writes.flatMap((write) => linkedFolder(options.root, write.file) ?? []))];
  if (linked.length > 0) throw new ContentError(linked.map(linkedFolderProblem));
  for (const write of plan.writes) writeFileReplacing(options.root, write.file, write.text);
  return plan;
}

// --- internal ---

class ListingTooLarge extends Error {
  constructor(readonly size?: number) {
    super('listing too large');
  }
}

/** Reads a file or standard input, refusing (by its size, before reading) anything over the limit. */
function readBounded(fd: number): Uint8Array {
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
    return Buffer.concat(chunks); // Decoded by the plan: a BOM is dropped, invalid UTF-8 refused at its byte.
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}
