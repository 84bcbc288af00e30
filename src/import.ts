import { readFileSync } from 'node:fs';
import { planImport, type ImportPlan } from './import-listing.js';
import { DEVICE_NAME } from './plan.js';
import { ContentError } from './problems.js';
import { readContent } from './read.js';
import { parseSite, SITE_FILE } from './site.js';
import { writeManifestFile } from './write-manifest.js';

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
    text = options.source === '-' ? (options.stdin ?? (() => readFileSync(0, 'utf8')))() : readFileSync(options.source, 'utf8');
  } catch (error) {
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
