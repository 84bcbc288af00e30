/** `otapress import`: a saved v1 listing into manifests (the planning is in import/). */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { MAX_PROBLEMS, planImport, type ImportPlan } from '../import/plan-import.js';
import { summarizeNotes } from '../import/note-summary.js';
import { DEVICE_NAME } from '../catalog/plan.js';
import { ContentError, formatProblem, oneLine } from '../catalog/problems.js';
import { readContent } from '../catalog/read.js';
import { parseSite, SITE_FILE } from '../catalog/site.js';
import { linkedFolder, linkedFolderProblem, writeFileReplacing } from '../catalog/write-manifest.js';
import { EXIT, reportProblems, UsageError, COMMON_OPTIONS, type Command } from '../io.js';

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

/** A wrong invocation of `import`: the CLI exits 2. */
export class ImportUsageError extends Error {}

/**
 * Reads a saved v1 listing and the project's content, plans the manifests (see planImport) and
 * writes them, each atomically, only if every record is valid or `skipInvalid` is set.
 */
export function importListing(options: ImportOptions): ImportPlan {
  if (!DEVICE_NAME.test(options.device)) throw new ImportUsageError(`\`${options.device}\` is not a usable device code name; pass --device with the name phones ask for, e.g. FP4`);
  if (options.androidVersion !== undefined && !/^\d{1,3}$/.test(options.androidVersion)) throw new ImportUsageError(`--android-version takes the Android major version, e.g. 14, not \`${options.androidVersion}\``);
  const sourceName = options.source === '-' ? '<stdin>' : options.source;
  let text: string | Uint8Array;
  try {
    text = options.source === '-' ? (options.stdin ?? (() => readBounded(0)))() : readBounded(openSync(options.source, 'r'));
  } catch (error) {
    if (error instanceof ListingTooLarge) {
      const size = error.size === undefined ? 'holds more than' : `is ${error.size} bytes, over`;
      throw new ImportUsageError(`${sourceName} ${size} the ${MAX_LISTING_BYTES}-byte limit: a v1 listing of even a thousand builds is under 1 MB, so this is not one; pass the listing saved from the server`);
    }
    throw new ImportUsageError(`cannot read ${sourceName} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass the saved listing, or - for standard input`);
  }
  const twin = existsSync(path.join(options.root, 'content'))
    ? readdirSync(path.join(options.root, 'content')).find((name) => name !== options.device && name.toLowerCase() === options.device.toLowerCase())
    : undefined;
  if (twin !== undefined) {
    throw new ImportUsageError(`content/${twin} is a device folder whose name differs from ${options.device} only by case; phones ask with the exact name, so a device has one folder: pass --device ${twin} if that is this device, or rename the folder`);
  }
  const content = readContent(options.root);
  const { site, problems } = content.site ? parseSite(content.site) : { site: undefined, problems: content.problems.filter((p) => p.file === SITE_FILE) };
  if (!site) {
    const base = /"url"\s*:\s*"(https?:\/\/[^"]+)"/.exec(typeof text === 'string' ? text : Buffer.from(text).toString('latin1'))?.[1].split('/').slice(0, -3).join('/');
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

/** Largest listing `import` reads: far above any real one, far below what would exhaust memory. */
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

export const command: Command = {
  summary: 'migrate a saved v1 listing into manifests, merging builds seen in several lists',
  usage: `otapress import <listing.json|-> --device D --list L [--android-version N] [--skip-invalid] [--verbose] [--root DIR]

Reads a v1 listing saved from a running server ({"id":null,"response":[...],"error":null}, from
a file or from standard input with -; no network) that answers GET /api/v1/<D>/<L>/, and writes one
manifest per build into content/<D>/. A build already there (same id, or same display_version for a
placeholder) gets <L> added to its lists, so importing each list of a device in turn gives one
manifest per physical build; a manifest in <L> that the listing lacks leaves <L>. Building again
reproduces every record, except the normalisations the import reports one by one.

A record needs what a LineageOS phone reads (datetime, filename, id, size, url, version; romtype
is the list's when missing), as the phone reads it: datetime and size may be numbers written as
text, id any download key (a SHA-256, an MD5, ...), version any text. Fields only the /e/ updater
reads are filled in when missing (md5sum "", android_version from api_level, from the file name
(lineage-21.0 is Android 14, crDroidAndroid-14.0 is 14) or from --android-version, else left out;
display_version from the file name, the rest empty or false), each reported once for the listing.
A PixelExperience-family answer (one object: filename, datetime, size, url, filehash, id, version,
maintainers, ...) is read as one record; its maintainer and links go to device.yaml as below. A crDroid / Evolution X device file (download, timestamp, sha256, md5,
buildtype, ...) is read too: its device fields (device, oem, maintainer, forum, telegram, paypal,
dt) go into content/<D>/device.yaml when there is none, and the command lists what it left out.
The notes come one line per kind, with how many records it is about (--verbose: each one).
Problems past the first ${MAX_PROBLEMS} are counted, not shown. Every problem is reported at its record and field;
nothing is written unless all records are valid, or --skip-invalid is given (then the valid ones
are imported; the exit status is 1 when none is).`,
  options: { ...COMMON_OPTIONS, device: { type: 'string' }, list: { type: 'string' }, 'android-version': { type: 'string' }, 'skip-invalid': { type: 'boolean' }, verbose: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name the saved listing to import, or - for standard input' : `import takes one listing, not ${positionals.length}`);
    if (values.device === undefined || values.list === undefined) throw new UsageError(`pass the device and the request list the listing is for, e.g. --device FP4 --list stable`);
    let plan;
    try {
      plan = importListing({
        source: positionals[0],
        root: path.resolve(String(values.root)),
        device: String(values.device),
        list: String(values.list),
        skipInvalid: values['skip-invalid'] === true,
        ...(values['android-version'] !== undefined && { androidVersion: String(values['android-version']) }),
      });
    } catch (error) {
      if (!(error instanceof ImportUsageError)) throw error;
      io.err(oneLine(error.message)); // One line, whatever the path or name it quotes holds.
      return EXIT.usage;
    }
    const shown = values.verbose === true ? plan.notes : summarizeNotes(plan.notes, plan.filled);
    for (const note of shown) io.err(formatProblem(note));
    if (plan.notes.length > 0) {
      const more = shown.length < plan.notes.length ? ` (${plan.notes.length} in all; --verbose shows each)` : '';
      io.err(`${shown.length} note${shown.length === 1 ? '' : 's'} above${more}: the build publishes these values as they say`);
    }
    if (plan.problems.length > 0 && !values['skip-invalid'] && plan.unshown === 0) {
      reportProblems(plan.problems, io, 'text');
      return EXIT.invalid;
    }
    for (const p of plan.problems) io.err(formatProblem(p));
    if (plan.unshown > 0) {
      const total = plan.problems.length + plan.unshown;
      io.err(`${total} problems found, the first ${MAX_PROBLEMS} above: ${plan.unshown} more not shown; fix these (or the tool that wrote the listing) and import again${values['skip-invalid'] ? '' : '; nothing was written.'}`);
      if (!values['skip-invalid']) return EXIT.invalid;
    }
    for (const write of plan.writes) io.out(`${write.action === 'created' ? 'created' : 'updated'} ${write.file}${write.action === 'created' ? '' : `: ${write.action}`}`);
    if (plan.device) {
      const { file, written, kept, leftOut } = plan.device;
      if (written) io.out(`device fields kept in ${file}: ${kept.join(', ')}`);
      else if (kept.length > 0) io.out(`device fields not written: ${file} exists and is left as it is (it would keep ${kept.join(', ')})`);
      if (leftOut.length > 0) io.out(`device fields left out: ${leftOut.join(', ')}`);
    }
    io.out(
      `imported ${plan.records - plan.skipped} of ${plan.records} records into ${values.device}/${values.list}: ${plan.writes.length} manifest${plan.writes.length === 1 ? '' : 's'} written${plan.skipped > 0 ? `, ${plan.skipped} invalid record${plan.skipped === 1 ? '' : 's'} skipped` : ''}`,
    );
    // --skip-invalid leaves out some records; when it leaves out every one, the migration failed.
    if (plan.records > 0 && plan.skipped === plan.records) {
      io.err(`no record of ${plan.records} could be imported (problems above); fix the listing, or the site settings it needs`);
      return EXIT.invalid;
    }
    return EXIT.ok;
  },
};

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
