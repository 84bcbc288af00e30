/**
 * Wing `ota/`: what an OTA zip tells (zip.ts reads the metadata entry through the central
 * directory, metadata.ts derives the facts), hashing it with progress, and this file, the flow from
 * a zip to a manifest for `otapress add`. Imports `render/` and `catalog/`; only `commands/` imports it.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { displayVersionOf } from '../catalog/filename.js';
import { startHashing, type HashProgress, type Hashing } from './hash.js';
import { API_LEVELS } from '../catalog/api-levels.js';
import { NAME_PARTS } from '../catalog/filename-checks.js';
import { sha256Of } from '../catalog/download-key.js';
import { DEVICE_NAME } from '../catalog/plan.js';
import { parseManifest, type Build } from '../catalog/manifest.js';
import { propertyFilesProblem } from '../catalog/property-files.js';
import { renderManifestText, type ManifestValues } from '../catalog/manifest-text.js';
import { AddRefusal, checkFacts, example, filenameProblem, said, type AddProblem } from './add-checks.js';
import {
  keepFacts,
  keptFields,
  keptKey,
  readReplaced,
  refuseFolder,
  refuseOtherPackage,
  refuseSharedAddress,
  withKept,
  type KeptKey,
} from './add-existing.js';
import { reportLines, type Digests, type Draft, type FileEntry } from './add-report.js';
import { deriveBuildFacts, FACT_OPTIONS, parseOtaMetadata, type DerivedFacts, type FactOptions } from './metadata.js';
import { readOtaEntries, ZipReadError } from './zip.js';
import {
  certificateFingerprintNotices,
  readZipSigning,
  SignatureError,
  signingFacts,
  type ZipSigning,
} from './signature.js';
import { sourceBuildOf, targetProblem, type SourceBuild } from './incremental.js';
import { ContentError, UsageError, type Problem } from '../catalog/problems.js';
import { readContent } from '../catalog/read.js';
import { parseSite, SITE_FILE, type Site } from '../catalog/site.js';
import { writeFileReplacing } from '../catalog/write-manifest.js';
import { manifestFileName } from '../catalog/device.js';

/** What `otapress add` is asked to do. */
export interface AddOptions extends FactOptions {
  zip: string;
  root: string;
  /** Request lists that override the site's membership rules. */
  lists?: string[];
  url?: string;
  placeholder?: boolean;
  force?: boolean;
  dryRun?: boolean;
  onProgress?: HashProgress;
  /** Hashing of the zip that the caller already started (the CLI starts it first thing); else started here. */
  hashing?: Hashing;
  /** The zip has no OTA metadata and is to be published all the same (`--without-metadata`). */
  withoutMetadata?: boolean;
  /** Parts in which the published file name differs from the facts (`--filename-differs`). */
  filenameDiffers?: string[];
  /** The build's other files (`--file`: recovery.img, boot.img, firmware), hashed one after the other, each in one read. */
  files?: string[];
  /** The zip is a test build: signed with, or trusting, a public AOSP test key knowingly (`--test-build`). */
  testBuild?: boolean;
}

/** The manifest `add` made, and where each value came from. */
export interface AddResult {
  /** Manifest path relative to the root, e.g. `content/FP4/e-2.5-....yaml`. */
  file: string;
  text: string;
  /** `field  value  origin` lines, for the maintainer to review. */
  report: string[];
  written: boolean;
  /** What the maintainer should know that does not stop the manifest (an unsigned zip). */
  notices: string[];
}

export { AddRefusal } from './add-checks.js';

/**
 * Makes the manifest of one OTA package: facts from the options, the zip's metadata and its name,
 * MD5, SHA-1, SHA-256 and size from one read of the file. Validates the text exactly as the build does
 * (and against the device's other manifests) before writing it, atomically, to
 * `content/<device>/<file name minus .zip>.yaml`. Refuses to overwrite without `force`; with
 * `dryRun` returns the text and writes nothing.
 */
export async function addBuild(options: AddOptions): Promise<AddResult> {
  let hashing = options.hashing;
  try {
    return await makeManifest(options, () => (hashing ??= startHashing(path.resolve(options.zip), options.onProgress)));
  } finally {
    // Stops the workers when a check refused the zip before its digests were needed.
    await hashing?.abort();
  }
}

// --- internal ---

/** The phases of `add`: read the zip and the site, decide the facts, check them, hash, check again, write. */
async function makeManifest(options: AddOptions, hashing: () => Hashing): Promise<AddResult> {
  const zip = path.resolve(options.zip);
  const { content, site, metadataText, signing, zipSigning } = await readZip(zip, options);
  const { derived, source } = decideFacts(zip, metadataText, site, options);
  keepReplacedFacts(derived, options);
  const checked = checkFacts({
    derived,
    zip: options.zip,
    site,
    siteText: content.site!,
    lists: options.lists,
    filenameDiffers: options.filenameDiffers ?? [],
    placeholder: options.placeholder === true,
  });
  if (checked.length > 0) throw new AddRefusal(checked);
  const facts = derived.facts as Required<typeof derived.facts>;
  const file = `content/${facts.device}/${manifestFileName(facts.filename.replace(/\.zip$/, ''))}`;
  const catalog = checkBeforeHashing(facts.device, file, content, site, options);
  const draft: Draft = { facts, derived, source, signing, site, file, ...catalog };
  signing.notices.push(...certificateFingerprintNotices(zipSigning, draft.others, options.zip));
  // Everything else is checked before a byte is hashed: the manifest as it will be, with stand-in digests.
  const standIn = { md5: '0'.repeat(32), sha1: '0'.repeat(40), sha256: '0'.repeat(64), size: statSync(zip).size };
  const noTarget = source && !options.placeholder ? targetProblem(facts, draft.others, options.zip) : undefined;
  if (noTarget) throw new AddRefusal([noTarget]);
  draftText(draft, standIn, [], options);
  for (const other of options.files ?? []) checkFileOption(other);

  const digests = await hashing().digests.catch((error: Error) => {
    // The reader's own messages (the file changed, or became shorter) name the file and what to do.
    if (error.message.startsWith(path.resolve(options.zip)))
      throw new UsageError(`${error.message}; nothing was written`);
    throw new UsageError(`could not read ${options.zip} to the end (${error.message}); nothing was written`);
  });
  const files = await hashFiles(options.files ?? []);
  if (draft.key) refuseOtherPackage(draft.key, digests, file, options.zip);
  const { text, values, unusable } = draftText(draft, digests, files, options);
  refuseSharedAddress(parseManifest(text, file, facts.device, site).build, draft.others, options.zip);
  const twin = draft.others.find((b) => !b.placeholder && !options.placeholder && sha256Of(b) === digests.sha256);
  if (twin) {
    throw new AddRefusal([
      {
        where: options.zip,
        field: 'id',
        message: `the zip is the package ${twin.source} already publishes (the same SHA-256) under the name ${twin.filename}; phones would merge the two into one download, so a package is added once per device: keep that manifest, or remove it first if this name replaces it`,
      },
    ]);
  }
  const report = reportLines(draft, values, digests, files, unusable, options);
  const result: AddResult = { file, text, report, written: false, notices: signing.notices };
  if (options.dryRun) return result;

  writeFileReplacing(options.root, file, text);
  return { ...result, written: true };
}

/** Reads the site and the zip's metadata and signature; refuses what is no zip, or a zip signed with a public key. */
async function readZip(zip: string, options: AddOptions) {
  const notZip = notAFile(zip, options.zip);
  if (notZip) throw new UsageError(`${notZip}; pass the path of the OTA zip`);
  if (options.placeholder && options.url !== undefined) {
    throw new UsageError(
      '--placeholder announces a build without a package, and --url names its package: pass one of them',
    );
  }
  const content = readContent(options.root);
  const { site, problems: siteProblems } = content.site
    ? parseSite(content.site)
    : { site: undefined, problems: content.problems.filter((p) => p.file === SITE_FILE) };
  if (!site) throw new ContentError(siteProblems);
  let metadataText: string | undefined;
  let signing: ReturnType<typeof signingFacts>;
  let zipSigning: ZipSigning;
  try {
    const entries = await readOtaEntries(zip);
    metadataText = entries.metadata;
    zipSigning = readZipSigning(zip, entries.otacert);
    signing = signingFacts(zipSigning, options.testBuild === true, options.zip);
  } catch (error) {
    if (error instanceof ZipReadError) throw new UsageError(error.message);
    if (error instanceof SignatureError)
      throw new AddRefusal([
        {
          where: options.zip,
          field: 'signer',
          message: `${error.message}; sign the zip again (signapk -w), or download it again`,
        },
      ]);
    throw error;
  }
  if (signing.problems.length > 0) throw new AddRefusal(signing.problems);
  return { content, site, metadataText, signing, zipSigning };
}

/** What neither an option, the metadata nor the name tells, `--force` keeps from the manifest it replaces. */
function keepReplacedFacts(derived: DerivedFacts, options: AddOptions): void {
  if (!options.force || !DEVICE_NAME.test(derived.facts.device!)) return;
  const replacing = `content/${derived.facts.device}/${manifestFileName(derived.facts.filename!.replace(/\.zip$/, ''))}`;
  const target = path.join(options.root, replacing);
  if (existsSync(target)) keepFacts(derived, readReplaced(target, replacing), replacing);
}

/**
 * The build's facts from the metadata, the name and the options, and the build an incremental
 * package applies on; refuses a zip whose metadata is missing unless told, or that leaves a fact open.
 */
function decideFacts(
  zip: string,
  metadataText: string | undefined,
  site: Site,
  options: AddOptions,
): { derived: DerivedFacts; source: SourceBuild | undefined } {
  const metadata = metadataText === undefined ? undefined : parseOtaMetadata(metadataText);
  const derived = deriveBuildFacts(path.basename(zip), metadata, options, site.channels[0]);
  const source = sourceBuildOf(metadata, options.zip);
  if (source && 'message' in source) throw new AddRefusal([source]);
  const badName = options.placeholder ? undefined : filenameProblem(derived, options.zip);
  if (badName) throw new AddRefusal([badName]);
  if (metadataText !== undefined && options.withoutMetadata) {
    throw new UsageError(`--without-metadata: ${options.zip} has META-INF/com/android/metadata; leave the option out`);
  }
  if (metadataText === undefined && !options.withoutMetadata) {
    // Given --timestamp and --incremental, such a zip would publish; yet it may not be an OTA
    // package at all, and a guessed build time offers it to the wrong phones (or to none).
    const asked = [
      '--timestamp',
      '--incremental',
      ...derived.missing.filter((o) => o !== '--timestamp' && o !== '--incremental'),
    ];
    throw new UsageError(
      `${options.zip} has no META-INF/com/android/metadata, which every OTA package made by ota_from_target_files has: it may be no OTA package at all, and nothing in it tells the exact build time phones compare with their ro.build.date.utc (a build a second older or newer is offered to the wrong phones).`,
      `if it is the package phones should install, say so and give what it cannot: otapress add ${options.zip} --without-metadata ${asked.map((o) => `${o} ${o === '--timestamp' ? '<ro.build.date.utc of the build>' : o === '--incremental' ? '<ro.build.version.incremental>' : example(o, site)}`).join(' ')}`,
    );
  }
  if (derived.missing.length > 0) {
    throw new UsageError(
      `cannot tell ${derived.missing.join(', ')} of ${path.basename(zip)}: ${derived.notes.join('; ')}.`,
      `pass ${derived.missing.length === 1 ? 'it as an option' : 'them as options'}, e.g. otapress add ${options.zip} ${derived.missing.map((o) => `${o} ${example(o, site)}`).join(' ')}`,
    );
  }
  return { derived, source };
}

/**
 * What the catalog holds about the manifest to write: refuses to replace it without `--force` (and
 * a device folder that is a link or differs by case), and reads what `--force` keeps from it.
 */
function checkBeforeHashing(device: string, file: string, content: Content, site: Site, options: AddOptions) {
  const target = path.join(options.root, file);
  if (existsSync(target) && !options.force && !options.dryRun) {
    throw new UsageError(
      `${file} exists already; pass --force to write it again from the zip (what a zip cannot tell, such as lists, changelog, url and files, is kept from it, and so is an id that is not a SHA-256), or --dry-run to see the new manifest`,
    );
  }
  refuseFolder(options.root, device, file);
  const replaced = options.force && existsSync(target) ? readReplaced(target, file) : undefined;
  // An imported download key phones already know stays; the zip's SHA-256 goes beside it.
  const others = otherBuilds(device, content, site, file);
  return { kept: keptFields(replaced, options), key: keptKey(replaced, options), others };
}

/** The manifest's text with these digests and other files, validated as the build will read it. */
function draftText(draft: Draft, digests: Digests, files: FileEntry[], options: AddOptions) {
  const usable = usableValues(draft.facts, digests, options);
  const found = {
    ...usable.values,
    ...sourceValues(draft.source),
    ...draft.signing.values,
    ...(files.length > 0 && { files }),
  };
  const values = withKey(withKept(found, draft.kept), draft.key, digests.sha256);
  const text = validate(values, draft.file, draft.facts.device, draft.site, draft.derived, options, draft.others);
  return { text, values, unusable: usable.unusable };
}

/** The content as read.ts reads it. */
type Content = ReturnType<typeof readContent>;
/**
 * Renders the manifest and reads it back as the build will; a problem is said of the value's
 * origin (the zip's name or metadata, an option), never of the file not written. Also refuses a
 * file name another manifest of the device already publishes.
 */
function validate(
  values: ManifestValues,
  file: string,
  device: string,
  site: Site,
  derived: DerivedFacts,
  options: AddOptions,
  others: Build[],
): string {
  const text = renderManifestText(values);
  const parsed = parseManifest(text, file, device, site);
  const problems = parsed.problems.map((p) => fromManifestProblem(p, values, derived, options));
  const same =
    parsed.build && !parsed.build.placeholder
      ? others.find((b) => !b.placeholder && b.filename === parsed.build!.filename)
      : undefined;
  if (same) {
    problems.push({
      where: options.zip,
      field: 'filename',
      message: `${same.source} already publishes a package named ${same.filename} on ${device}; phones save downloads under that name: pass --filename with the name this one is published under`,
    });
  }
  if (problems.length > 0) throw new AddRefusal(problems);
  return text;
}

/** A problem of the manifest text, said of where its value came from. */
function fromManifestProblem(
  problem: Problem,
  values: ManifestValues,
  derived: DerivedFacts,
  options: AddOptions,
): AddProblem {
  const field = problem.field.split('.')[0];
  const optionOf: Record<string, string> = {
    url: '--url',
    lists: '--lists',
    filename_differs: '--filename-differs',
    files: '--file',
  };
  const origin = derived.origins.find((o) => o.field === field)?.from ?? optionOf[field];
  const value = values[field as keyof ManifestValues];
  // A `--file` problem is about one of the files: the one at the index the problem names.
  const entry =
    field === 'files' && Array.isArray(value)
      ? (value[Number(problem.field.split('.')[1])] as { filename?: string } | undefined)
      : undefined;
  const shown = entry?.filename ?? (Array.isArray(value) ? value.join(',') : String(value));
  const option = FACT_OPTIONS[field as keyof typeof FACT_OPTIONS];
  if (origin?.startsWith('--')) return { where: origin, field, message: `${origin} ${shown}: ${problem.message}` };
  const hint = option ? `; pass ${option} with the right value` : '';
  return {
    where: options.zip,
    field,
    message: `${origin ? said(origin, shown) : `${field} is ${shown}`}: ${problem.message}${hint}`,
  };
}

/**
 * The `files:` entries of `--file` paths: name, size, SHA-256 and SHA-1 from one read each (the
 * same reader as the zip's), one file after the other so they never compete for the two cores.
 */
async function hashFiles(paths: readonly string[]): Promise<FileEntry[]> {
  const entries = [];
  for (const file of paths) {
    checkFileOption(file);
    const hashing = startHashing(path.resolve(file));
    try {
      const digests = await hashing.digests.catch((error: Error) => {
        throw new UsageError(`could not read ${file} to the end (${error.message}); nothing was written`);
      });
      entries.push({ filename: path.basename(file), size: digests.size, sha256: digests.sha256, sha1: digests.sha1 });
    } finally {
      await hashing.abort();
    }
  }
  return entries;
}

/**
 * The manifest's values, holding only what the zip holds: an `ota_property_files` a phone cannot
 * read, or one past the zip's end, is left out and returned as `unusable`.
 */
function usableValues(
  facts: Parameters<typeof manifestValues>[0],
  digests: Parameters<typeof manifestValues>[1],
  options: AddOptions,
) {
  const values = manifestValues(facts, digests, options);
  const unusable =
    facts.ota_property_files === undefined ? undefined : propertyFilesProblem(facts.ota_property_files, digests.size);
  if (unusable) delete values.ota_property_files;
  return { values, unusable };
}

/** A `--file` path must name a file: said before the zip is hashed, not after. */
function checkFileOption(file: string): void {
  const problem = notAFile(file, file);
  if (problem) throw new UsageError(`${problem}; --file takes the path of an image or other file of the build`);
}

/**
 * Why `file` (given as `given`) cannot be hashed, or `undefined` when it is a regular file: missing,
 * a folder (`otapress add builds/`), or a device, pipe or socket, which reads may never end.
 */
function notAFile(file: string, given: string): string | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return `no such file: ${given}`;
  if (stat.isDirectory()) return `${given} is a folder, not a file`;
  if (!stat.isFile()) return `${given} is not a regular file (a device, pipe or socket)`;
  return undefined;
}

function manifestValues(
  facts: Required<ReturnType<typeof deriveBuildFacts>['facts']>,
  digests: { md5: string; sha1: string; sha256: string; size: number },
  options: AddOptions,
): ManifestValues {
  // api_level is written only when it differs from what android_version implies, as by hand.
  const apiLevel =
    facts.api_level !== undefined && facts.api_level !== API_LEVELS[facts.android_version]
      ? facts.api_level
      : undefined;
  const common: ManifestValues = {
    version: facts.version,
    channel: facts.channel,
    timestamp: Number(facts.timestamp),
    android_version: facts.android_version,
    incremental: facts.incremental,
    md5sum: digests.md5,
    lists: options.lists,
    os_patch_level: facts.os_patch_level,
    ota_type: facts.ota_type,
    ota_property_files: facts.ota_property_files?.trim(),
  };
  if (options.placeholder) {
    return {
      placeholder: true,
      ...common,
      api_level: facts.api_level,
      display_version: displayVersionOf(facts.filename),
      url: options.url,
    };
  }
  const differs = options.filenameDiffers?.length
    ? NAME_PARTS.filter((p) => options.filenameDiffers!.includes(p))
    : undefined;
  return {
    filename: facts.filename,
    filename_differs: differs,
    ...common,
    api_level: apiLevel,
    sha1: digests.sha1,
    id: digests.sha256,
    size: digests.size,
    url: options.url,
  };
}

/** `values` keyed by the kept download key, with the zip's SHA-256 beside it; as they are without one. */
function withKey(values: ManifestValues, key: KeptKey | undefined, sha256: string): ManifestValues {
  return key ? { ...values, id: key.id, sha256 } : values;
}

/** The manifest fields of an incremental package's source build (none for a full package). */
function sourceValues(source: SourceBuild | undefined): ManifestValues {
  return source ? { source_incremental: source.source_incremental, source_build: source.source_build } : {};
}

/** The other builds of the device (the manifest being replaced excepted), for the id and file name each must not share. */
function otherBuilds(device: string, content: ReturnType<typeof readContent>, site: Site, file: string): Build[] {
  return content.manifests
    .filter((m) => m.device === device && m.file !== file)
    .map((m) => parseManifest(m.bytes, m.file, m.device, site).build)
    .filter((b): b is Build => b !== undefined);
}
