/**
 * A build's download key and the SHA-256 beside it: the `id` phones key downloads by, which real
 * listings also fill with other keys than a SHA-256 (an MD5, a SHA-1, a random string), and the
 * notices for builds whose id is not a SHA-256 or that have no MD5. One place for the rules, so
 * that manifests, `import` and the pages say the same.
 */
import { lazily, zod } from './libraries.js';
import { compareStrings, type Problem } from './problems.js';

/** What these rules read of a build (manifest.ts's `Build`, which imports this file). */
interface Build {
  source: string;
  device: string;
  placeholder: boolean;
  id: string;
  sha256?: string;
  md5sum: string;
  timestamp: number;
  at: { id: { line: number; col: number }; file: { line: number; col: number } };
}

/** A SHA-256 as the interface writes it: what `add` puts in `id`. */
export const SHA256 = /^[0-9a-f]{64}$/;

/**
 * A download key that is not a SHA-256: any id real listings use (an MD5, a SHA-1, a UUID, a
 * random string), limited to characters that every output carries unchanged (JSON, YAML, HTML
 * attributes, URL fragments of the pages and feeds) and to 255 of them.
 */
export const DOWNLOAD_KEY = /^[A-Za-z0-9._~+=:/-]{1,255}$/;

/**
 * `id`: the SHA-256 of the zip (64 lowercase hex, what `add` writes), or any other download key a
 * listing already gave its phones (an MD5, a SHA-1, a random string): phones only key downloads by
 * it. A SHA-256 in capitals is a slip, not another key: it must be written in lowercase.
 */
export const downloadKey = lazily(() =>
  zod()
    .string({ error: 'expected the SHA-256 of the zip (sha256sum FILE), or the download key phones already know' })
    .superRefine((value, ctx) => {
      if (isDownloadKey(value)) return;
      if (/^[0-9a-fA-F]{64}$/.test(value) && value !== value.toLowerCase()) {
        ctx.addIssue({ code: 'custom', message: `write the 64 hex characters in lowercase: ${value.toLowerCase()}` });
      } else if (!DOWNLOAD_KEY.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message:
            value === ''
              ? 'id is empty; phones key each download by it: write the SHA-256 of the zip (sha256sum FILE)'
              : value.length > 255
                ? `id is ${value.length} characters long; expected the SHA-256 of the zip (sha256sum FILE), or a download key of at most 255 characters`
                : 'expected the SHA-256 of the zip (sha256sum FILE), or a download key of letters, digits and `. _ ~ - + = : /` (characters every listing, page and feed carries unchanged)',
        });
      }
    }),
);

/** Whether {@link downloadKey} takes `value` as it is: a download key, and not a SHA-256 written in capitals. */
export function isDownloadKey(value: string): boolean {
  // What `add` writes, and nearly every manifest holds: one test instead of three.
  if (value.length === 64 && SHA256.test(value)) return true;
  return DOWNLOAD_KEY.test(value) && !(value.length === 64 && /^[0-9a-fA-F]{64}$/.test(value) && /[A-F]/.test(value));
}

/**
 * The SHA-256 of a build's package: its `id` when that is one, else the `sha256` its manifest
 * writes beside another download key; `undefined` when the manifest has neither.
 */
export function sha256Of(build: Pick<Build, 'id' | 'sha256'>): string | undefined {
  // A build has `sha256` only beside an id that is not a SHA-256 (manifest.ts): then it is the one.
  if (build.sha256 !== undefined) return build.sha256;
  return idIsSha256(build) ? build.id : undefined;
}

/**
 * Whether a build's `id` is a SHA-256: what its page anchor and feed entry id are made of, which
 * stay those of the download key whether or not the manifest adds `sha256` (links and feed readers
 * keep them).
 */
export function idIsSha256(build: Pick<Build, 'id'>): boolean {
  // Asked three or four times per build (the unkeyed packages, its article's anchor and rows, each
  // feed entry, its lists interleaved with other builds): the test is made once per build object.
  // A 64-character test took 0.75 us here, 2 % of a cold 100k build's CPU when made on every call.
  let sha256 = IS_SHA256.get(build);
  if (sha256 === undefined) {
    sha256 = SHA256.test(build.id);
    IS_SHA256.set(build, sha256);
  }
  return sha256;
}

/** Whether each build's `id` is a SHA-256, by build (see idIsSha256); a build's `id` never changes. */
const IS_SHA256 = new WeakMap<Pick<Build, 'id'>, boolean>();

/**
 * Why a manifest's `sha256` cannot stand beside its `id`, or `undefined` when it can. `sha256` is
 * the zip's SHA-256 beside an `id` that is another download key (an imported one phones already
 * know); beside an `id` that is itself a SHA-256 and another, the manifest states two SHA-256s for
 * one zip, and the outputs could not tell which the zip has.
 */
export function sha256Problem(id: string, sha256: string): string | undefined {
  if (!SHA256.test(id) || sha256 === id) return undefined;
  return "id is a SHA-256 already, and `sha256` says another: two SHA-256s for one zip; `sha256` is only for a build whose id is another download key (an MD5, a random key): remove it, and keep in `id` the zip's SHA-256 (sha256sum FILE)";
}

/** A manifest with `sha256` and no `id`: crDroid's listings call the download key `sha256`, which here is only the SHA-256 beside another key. */
export const SHA256_WITHOUT_ID =
  'missing `id`, the key phones download the build by: write the SHA-256 of the zip there (rename `sha256` to `id`); `sha256` is only for a build whose id is another download key';

/** What an id that is not a SHA-256 looks like, for messages: `32 hex characters (an MD5?)`. */
function describeId(id: string): string {
  if (/^[0-9a-fA-F]+$/.test(id)) {
    const guess =
      id.length === 32
        ? ' (an MD5?)'
        : id.length === 40
          ? ' (a SHA-1?)'
          : Math.abs(id.length - 64) <= 4
            ? ` (a SHA-256 with ${id.length < 64 ? 'characters missing' : 'extra characters'}?)`
            : '';
    return `${id.length} hex character${id.length === 1 ? '' : 's'}${guess}`;
  }
  return `${id.length} character${id.length === 1 ? '' : 's'}, not all hex`;
}

/**
 * The notices a device's builds earn for data phones accept but the /e/ interface writes otherwise:
 * ids that are not a SHA-256, and packages without an MD5. One notice per kind and device, at its
 * newest build, so a long imported history does not print a line per build on every run.
 */
export function looseNotices(builds: readonly Build[]): Problem[] {
  const packages = builds.filter((b) => !b.placeholder);
  const notices: Problem[] = [];
  const newestFirst = (a: Build, b: Build) => b.timestamp - a.timestamp || compareStrings(a.source, b.source);
  const others = (n: number) =>
    n === 0 ? '' : ` (and ${n} older build${n === 1 ? '' : 's'} of ${packages[0].device})`;
  const keyed = packages.filter((b) => sha256Of(b) === undefined).sort(newestFirst);
  if (keyed.length > 0) {
    const [newest] = keyed;
    notices.push({
      file: newest.source,
      ...newest.at.id,
      field: 'id',
      message: `id is ${describeId(newest.id)}, not a SHA-256, with no \`sha256\` beside it${others(keyed.length - 1)}: phones use id only as the download key, so v1 \`id\` and v2 \`sha256\` publish it as written; pages and feeds do not show it as a SHA-256, but the LineageOS download portal shows v2 \`sha256\` as one, and its Compare reports a mismatch even for the right file: write the zip's SHA-256 in \`sha256\` (\`otapress add --force ZIP\` keeps the id and writes it)`,
    });
  }
  const unhashed = packages.filter((b) => b.md5sum === '').sort(newestFirst);
  if (unhashed.length > 0) {
    const [newest] = unhashed;
    notices.push({
      file: newest.source,
      ...newest.at.file,
      field: 'md5sum',
      message: `no md5sum${others(unhashed.length - 1)}: published as "" (LineageOS phones never read it; the /e/ updater shows it); \`md5sum FILE\` gives it, \`otapress add\` writes it`,
    });
  }
  return notices;
}
