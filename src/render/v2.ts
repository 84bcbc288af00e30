import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';
import type { IncrementalListing } from '../catalog/incremental.js';
import { compareStrings, type Problem } from '../catalog/problems.js';
import { flatten, isoTime } from './markup.js';
import { writtenAsIs } from './as-is.js';
import { jsonWritesAsIs } from './v1.js';
import { API_FILES, fill, URLS } from './urls.js';
import type { OutputFile } from './output.js';
import { v2Candidates, type V2Candidate } from './v2-candidates.js';

/** The LineageOS v2 updater rejects a longer body, so no v2 answer may exceed it. */
export const V2_MAX_BYTES = 32768;

/**
 * One build as the official server answers it (lineageos-infra/updater, api_v2.py and
 * api_common.py at ad9188930d83e7f4d9be1c5d91c9c8bb3523fe87); the v2 updater uses `files[0]` only,
 * and `sha256` is its download key. Keys in the server's order: Flask's `jsonify` sorts them.
 */
export interface V2Build {
  /** The UTC day of `datetime`, `YYYY-MM-DD`. */
  date: string;
  datetime: number;
  files: [V2Package, ...V2File[]];
  type: string;
  version: string;
}

/** A file of a v2 build; the download portal (lineageos-infra/updater-client) keys a build's files by `sha1`. */
export interface V2File {
  filename: string;
  /** The download address's path under `download_base_url`: the server's `url` is its base plus this. */
  filepath: string;
  /** Left out only for a zip whose hand-written manifest has no `sha1`. */
  sha1?: string;
  sha256: string;
  size: number;
  url: string;
}

/** The build's zip, `files[0]`, with the copies of the build's facts the server puts on it; the optional keys appear only when the manifest has the value. */
export interface V2Package extends V2File {
  date: string;
  datetime: number;
  os_patch_level?: string;
  os_sdk_level?: number;
  ota_property_files?: string;
  type: string;
}

/** What {@link renderV2} produces: the device's file, what was left out and why, and what can never be in it. */
export interface RenderedV2 {
  file: OutputFile;
  /**
   * Builds that v1 lists but the v2 answer leaves out: one notice per unreadable version, and one
   * per device for the withdrawn builds, for the builds of size 0, for the http downloads and for
   * the size cut.
   */
  notices: Problem[];
  /** Builds whose entry alone passes {@link V2_MAX_BYTES}: no answer could ever hold them (left out here too). */
  problems: Problem[];
  /**
   * The distinct `version` values of the entries in `file`, for `/api/v2/devices/<device>`
   * (v2-directory.ts): taken from the builds kept rather than by parsing `file` again, which took
   * 3.5 % of a single-threaded cold build of 10,000 manifests.
   */
  versions: string[];
}

/**
 * The v2 answer of a device (`/api/v2/devices/<device>/builds`), from the same listings as v1: one
 * entry per build and list it is in (`type` is the list, which v2 phones compare with their release
 * type), newest first, `version` as written. Placeholders are never listed (v2 has no shape a phone
 * would skip). Nothing in a v2 entry can mark a build withdrawn or its size unknown, and the phone
 * offers every entry it can read, so these are left out: `.disabled.zip` builds, builds of size 0
 * (the phone checks the download against it; a PixelOS fork refuses it), builds downloaded over
 * `http://` (the client checks only the listing address, then the app, which forbids cleartext,
 * fails the download: `UpdatesNetworkDataSource.kt` and `AndroidManifest.xml` of
 * LineageOS/android_packages_apps_Updater, commits 0e7af6f8 and 2afd65a0) and versions the updater
 * cannot read (unreadableV2Version, v2-candidates.ts). When the entries would pass {@link V2_MAX_BYTES}, the
 * entries that do not fit are left out, newest first kept, each on its own: one that does not fit
 * never keeps an older, smaller one out. All are notices, not problems: v1 still lists those
 * builds. An entry that could not fit even alone is a problem.
 */
export function renderV2(device: string, listings: readonly Listing[]): RenderedV2 {
  const url = URLS.v2Builds(device);
  const { candidates, notices } = v2Candidates(device, url, listings);
  const { bodies, problems, dropped, keptBuilds } = fillV2Answer(candidates);
  if (dropped.size > 0) {
    const [newest, ...older] = dropped;
    notices.push({
      file: newest.source,
      ...newest.at.file,
      field: '(file)',
      message: `left out of ${url}${older.length > 0 ? ` with ${older.length} older build${older.length === 1 ? '' : 's'} of ${device}` : ''}: a v2 answer may hold at most ${V2_MAX_BYTES} bytes and the ${bodies.length} entries it holds, newest first, fill it; v1 still lists ${older.length > 0 ? 'them' : 'it'}`,
    });
  }
  const versions = [...new Set([...keptBuilds].map((build) => build.version))];
  return {
    file: { path: fill(API_FILES.v2Builds, { device }).slice(1), contents: `[${bodies.join(',')}]` },
    notices,
    problems,
    versions,
  };
}

/**
 * The v2 answers for phones on one build (`/api/v2/devices/<device>/builds/<incremental>`): for each
 * build the device's v1 answers are for (`answers`, catalog/incremental.ts), the v2 answer of the
 * listings with each list's answer for that build in place of the list, so the target of an
 * incremental package from it has that package as `files[0]` and what its keys cannot install is
 * left out, as in v1; lists without an answer for it stay whole (its phones offer only their own
 * list's entries). The device's own v2 answer already says what is left out and why, and an
 * answer holds its builds or fewer: no notices or problems of their own.
 */
export function renderV2Answers(
  device: string,
  listings: readonly Listing[],
  answers: readonly IncrementalListing[],
): OutputFile[] {
  const byIncremental = new Map<string, Map<string, Listing>>();
  for (const answer of answers) {
    let lists = byIncremental.get(answer.incremental);
    if (!lists) byIncremental.set(answer.incremental, (lists = new Map()));
    lists.set(answer.list, { ...answer, builds: answer.v2Builds });
  }
  return [...byIncremental].map(([incremental, lists]) => ({
    ...renderV2(
      device,
      listings.map((l) => lists.get(l.list) ?? l),
    ).file,
    path: fill(API_FILES.v2Incremental, { device, incremental }).slice(1),
  }));
}

/**
 * The v2 entry of a build in list `list`, shaped as the official server's (see {@link V2Build}):
 * the build's zip first, then its other files, `.zip` before `.img` before the rest, each group by
 * name (api_common.py `sorting_key`; the build's own zip stays first whatever the others are
 * called, because the updater installs `files[0]`).
 */
export function renderV2Build(build: Build, list: string): V2Build {
  const date = isoTime(build.timestamp).slice(0, 10);
  // One literal with every key, not conditional spreads (which V8 builds through its runtime, key
  // by key): a key the build has no value for holds undefined, which JSON.stringify leaves out.
  const zip: V2Package = {
    date,
    datetime: build.timestamp,
    filename: build.filename,
    filepath: build.filepath!,
    os_patch_level: build.os_patch_level,
    os_sdk_level: build.api_level !== '' ? Number(build.api_level) : undefined,
    ota_property_files: build.ota_property_files,
    sha1: build.sha1,
    sha256: v2Sha256(build),
    size: build.size as number,
    type: list,
    url: build.url!,
  };
  const others = [...(build.files ?? [])]
    .sort((a, b) => fileRank(a.filename) - fileRank(b.filename) || compareStrings(a.filename, b.filename))
    .map((f): V2File => ({
      filename: f.filename,
      filepath: f.filepath,
      sha1: f.sha1,
      sha256: f.sha256,
      size: f.size,
      url: f.url,
    }));
  return { date, datetime: build.timestamp, files: [zip, ...others], type: list, version: build.version };
}

/**
 * The zip's `sha256` in a v2 entry: the build's SHA-256 (its `id`, or the manifest's `sha256`
 * beside another download key: download-key.ts `sha256Of`), else the `id` as written. The official
 * server's files carry the SHA-256 its mirror script hashes (lineageos-infra/updater at
 * ad9188930d83e7f4d9be1c5d91c9c8bb3523fe87, gen_mirror_json.py), and its v1 `id` is that value
 * too (api_common.py takes it from the first file's `sha256`). The v2 updater keys the download by
 * it; the download portal (lineageos-infra/updater-client at
 * 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa, src/components/downloadable/DownloadableItem.vue and
 * DownloadableDetail.vue) shows it as the file's SHA256, whose Compare hashes a file the user
 * picks and says it matches only when the two are equal. So a real SHA-256 goes there when the
 * manifest has one, though a v2 phone then keys the build by it rather than by the v1 `id`;
 * without one, the key stays, and the build's notice and page say what Compare will do.
 */
function v2Sha256(build: Pick<Build, 'id' | 'sha256'>): string {
  // sha256Of without its test of the id, for the entries' size bounds made per build and list: a
  // build has `sha256` only beside an id that is not a SHA-256 (manifest.ts), so this is the same.
  return build.sha256 ?? build.id;
}

/**
 * The JSON of a build's v2 entry written out, cut where its list's name goes (the zip's `type` and
 * the entry's): `head`, the name, `middle`, the name, `tail` are what `JSON.stringify` makes of
 * {@link renderV2Build}, and `bytes` their bytes without the names. For the entry of nearly every
 * build, as for v1 records (see {@link jsonWritesAsIs}): no other files, strings that JSON writes as
 * they are and finite numbers; `undefined` for any other, which takes `JSON.stringify`. A build in
 * two lists is written once. A cold `--no-cache` build of 50,000 manifests on one thread took 15.87
 * and 16.02 billion instructions instead of 16.10 and 16.15 (0.99x; callgrind, `node
 * --single-threaded`, in pairs), one of 10,000 manifests 5.36 instead of 5.52 (0.97x).
 */
function plainV2EntryParts(build: Build): V2EntryParts | undefined {
  if (build.files !== undefined && build.files.length > 0) return undefined;
  const { timestamp, filename, filepath, os_patch_level, ota_property_files, sha1, size, url, version, api_level } =
    build;
  const sha256 = v2Sha256(build);
  if (
    !Number.isFinite(timestamp) ||
    typeof size !== 'number' ||
    !Number.isFinite(size) ||
    typeof filename !== 'string' ||
    typeof filepath !== 'string' ||
    typeof sha256 !== 'string' ||
    typeof url !== 'string' ||
    typeof version !== 'string' ||
    typeof api_level !== 'string' ||
    (os_patch_level !== undefined && typeof os_patch_level !== 'string') ||
    (ota_property_files !== undefined && typeof ota_property_files !== 'string') ||
    (sha1 !== undefined && typeof sha1 !== 'string')
  ) {
    return undefined;
  }
  // As renderV2Build: `os_sdk_level` is the number of a non-empty `api_level`.
  const sdk = api_level !== '' ? Number(api_level) : undefined;
  if (sdk !== undefined && !Number.isFinite(sdk)) return undefined;
  const date = isoTime(timestamp).slice(0, 10);
  if (
    !writtenAsIs(build) &&
    !jsonWritesAsIs(
      date +
        filename +
        filepath +
        (os_patch_level ?? '') +
        (ota_property_files ?? '') +
        (sha1 ?? '') +
        sha256 +
        url +
        version,
    )
  )
    return undefined;
  const head = flatten(
    `{"date":"${date}","datetime":${timestamp},"files":[{"date":"${date}","datetime":${timestamp},"filename":"${filename}","filepath":"${filepath}",` +
      (os_patch_level === undefined ? '' : `"os_patch_level":"${os_patch_level}",`) +
      (sdk === undefined ? '' : `"os_sdk_level":${sdk},`) +
      (ota_property_files === undefined ? '' : `"ota_property_files":"${ota_property_files}",`) +
      (sha1 === undefined ? '' : `"sha1":"${sha1}",`) +
      `"sha256":"${sha256}","size":${size},"type":`,
  );
  const middle = flatten(`,"url":"${url}"}],"type":`);
  const tail = flatten(`,"version":"${version}"}`);
  return { head, middle, tail, bytes: Buffer.byteLength(head) + Buffer.byteLength(middle) + Buffer.byteLength(tail) };
}

/** See {@link plainV2EntryParts}. */
interface V2EntryParts {
  head: string;
  middle: string;
  tail: string;
  bytes: number;
}

/**
 * No v2 entry of `build` in `list` is shorter than this, and none is longer than
 * {@link JSON_MAX_BYTES_PER_UNIT} times it: the fixed part is one byte a character, each string
 * value at least one byte a unit (escaping only adds) and at most six, and each number and optional
 * key, left out of the count, is shorter than the fixed part's slack (five bytes of every byte of
 * keys and punctuation: 850 for the entry, where the numbers and optional keys take at most about
 * 110, and 350 for each file, where its size takes at most 16).
 */
export function leastV2Bytes(build: Build, list: string): number {
  let n =
    ENTRY_FIXED +
    2 * list.length +
    build.version.length +
    build.filename.length +
    build.filepath!.length +
    v2Sha256(build).length +
    build.url!.length;
  n += (build.os_patch_level?.length ?? 0) + (build.ota_property_files?.length ?? 0) + (build.sha1?.length ?? 0);
  for (const f of build.files ?? [])
    n += FILE_FIXED + f.filename.length + f.filepath.length + f.sha1.length + f.sha256.length + f.url.length;
  return n;
}

// --- internal ---

/** What {@link fillV2Answer} keeps: the entries' text, and the builds of those left out (`dropped`) and kept. */
interface V2Filled {
  bodies: string[];
  problems: Problem[];
  dropped: Set<Build>;
  keptBuilds: Set<Build>;
}

/**
 * The entries of the v2 answer, in the order of `candidates`, as many as {@link V2_MAX_BYTES}
 * holds: each that does not fit is left out on its own (`dropped`), never keeping an older, smaller
 * one out; one that could never fit even alone is a problem instead.
 */
function fillV2Answer(candidates: readonly V2Candidate[]): V2Filled {
  const bodies: string[] = [];
  const problems: Problem[] = [];
  const tooLarge = new Set<Build>();
  const dropped = new Set<Build>();
  const keptBuilds = new Set<Build>();
  let bytes = 2; // "[" and "]"
  const entries = new Map<Build, V2EntryParts | null>();
  const names = new Map<string, string>();
  for (const { build, list } of candidates) {
    // Once the answer is nearly full, most older entries cannot fit: one whose least possible size
    // already passes the room left, and whose largest possible size could not pass the limit alone,
    // is left out without being rendered (at 100k manifests, three quarters of the entries, and of
    // the time this function took).
    const comma = bodies.length > 0 ? 1 : 0;
    const least = leastV2Bytes(build, list);
    if (bytes + least + comma > V2_MAX_BYTES && least * JSON_MAX_BYTES_PER_UNIT + 2 <= V2_MAX_BYTES) {
      dropped.add(build);
      continue;
    }
    let parts = entries.get(build);
    if (parts === undefined) entries.set(build, (parts = plainV2EntryParts(build) ?? null));
    let body: string;
    let size: number;
    if (parts === null) {
      body = JSON.stringify(renderV2Build(build, list));
      size = Buffer.byteLength(body);
    } else {
      let name = names.get(list);
      if (name === undefined) names.set(list, (name = JSON.stringify(list)));
      body = parts.head + name + parts.middle + name + parts.tail;
      size = parts.bytes + 2 * Buffer.byteLength(name);
    }
    if (size + 2 > V2_MAX_BYTES) {
      if (!tooLarge.has(build)) problems.push(tooLargeProblem(build, list, size));
      tooLarge.add(build);
    } else if (bytes + size + comma > V2_MAX_BYTES) {
      dropped.add(build);
    } else {
      bytes += size + comma;
      bodies.push(body);
      keptBuilds.add(build);
    }
  }
  for (const build of tooLarge) dropped.delete(build);
  // A build with one list's entry kept is not left out (its entries differ only in `type`).
  for (const build of keptBuilds) dropped.delete(build);
  return { bodies, problems, dropped, keptBuilds };
}

/**
 * The most bytes `JSON.stringify` writes for one UTF-16 unit of a string: `\u001f` or a lone
 * surrogate's `\udc00`; any other unit takes at most 3 bytes of UTF-8 (a pair, 4 for its two units).
 */
const JSON_MAX_BYTES_PER_UNIT = 6;

/**
 * The bytes of the v2 entry of a build whose strings are all empty, whose numbers have one digit and
 * which has none of the optional keys: the keys and punctuation every entry has, measured on the
 * renderer itself so that the two cannot drift apart. `FILE_FIXED` is the same for each further file.
 */
const ENTRY_FIXED = v2Bytes(emptyBuild([]));
const FILE_FIXED =
  v2Bytes(emptyBuild([{ filename: '', filepath: '', sha1: '', sha256: '', size: 0, url: '' }])) - ENTRY_FIXED;

function v2Bytes(build: Build): number {
  return Buffer.byteLength(JSON.stringify(renderV2Build(build, '')));
}

/** A build with nothing in it, for {@link ENTRY_FIXED}: only the fields {@link renderV2Build} reads. */
function emptyBuild(files: NonNullable<Build['files']>): Build {
  return {
    timestamp: 0,
    filename: '',
    filepath: '',
    api_level: '',
    id: '',
    size: 0,
    url: '',
    version: '',
    files,
  } as unknown as Build;
}

/**
 * An entry no v2 answer can hold, at the field that makes it large: `ota_property_files` when it is
 * the larger part, else the file (a long `url`, or the extra files of the entry).
 */
function tooLargeProblem(build: Build, list: string, size: number): Problem {
  const props =
    build.ota_property_files !== undefined && build.ota_property_files.length * 2 > size
      ? build.at.ota_property_files
      : undefined;
  // The other files (`files:`) when they are the larger part: their entries, not the zip's address.
  const files =
    !props && build.files?.length && (v2Bytes(build) - v2Bytes({ ...build, files: undefined })) * 2 > size
      ? (build.at.files?.[0] ?? build.at.file)
      : undefined;
  const fix = props
    ? "write the ota-property-files of the zip's META-INF/com/android/metadata (a few entries), or remove `ota_property_files` (phones then download the whole zip)"
    : files
      ? `list fewer of the build's other files (${build.files!.length} in \`files\`) or give them shorter addresses; phones read only the zip`
      : 'shorten the download address (`url`) or what else the entry carries';
  return {
    file: build.source,
    ...(props ?? files ?? build.at.file),
    field: props ? 'ota_property_files' : files ? 'files' : '(file)',
    message: `the v2 entry of this build (list \`${list}\`) is ${size} bytes, and a v2 answer may hold at most ${V2_MAX_BYTES} with its brackets: no v2 phone could ever be offered it; ${fix}`,
  };
}

/** The server's file order: `.zip`, then `.img`, then the rest. */
function fileRank(filename: string): number {
  return filename.endsWith('.zip') ? 1 : filename.endsWith('.img') ? 2 : 3;
}
