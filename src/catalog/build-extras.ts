import type * as Z from 'zod';
import { parseChangelog, type ChangelogBlock } from './changelog.js';
import { PLAIN_FILENAME } from './filename.js';
import { lazily, zod } from './libraries.js';
import { refuseUnpublishableText } from './published-text.js';

// What a manifest may say about a build beyond its zip: the zip's SHA-1, the build's
// other files (recovery and boot images, firmware) and its changelog. manifest.ts reads them with
// the rest of the manifest; the schemas and the rules that check them live here.

/** One more file of a build (an image, firmware), as the manifest lists it and the outputs show it. */
export interface BuildFile {
  filename: string;
  size: number;
  sha256: string;
  sha1: string;
  /** Written in the manifest, or derived like the zip's: `{download_base_url}/{channel}/{device}/{filename}`. */
  url: string;
  /** The address's path under `download_base_url` (`/official/FP4/recovery.img`), or its whole path when it is elsewhere. */
  filepath: string;
}

/** `N` lowercase hex characters, with a message that says how to fix the usual mistakes. */
export const hex = (length: number, what: string) =>
  zod()
    .string({ error: `expected ${what}: ${length} lowercase hex characters` })
    .superRefine((value, ctx) => {
      if (lowerHex(length).test(value)) return;
      if (/^[0-9a-f]*$/i.test(value) && value.length === length && value !== value.toLowerCase()) {
        ctx.addIssue({
          code: 'custom',
          message: `write the ${length} hex characters in lowercase: ${value.toLowerCase()}`,
        });
      } else {
        ctx.addIssue({
          code: 'custom',
          message: `expected ${what}: ${length} lowercase hex characters, got ${value.length} character${value.length === 1 ? '' : 's'}${/^[0-9a-fA-F]*$/.test(value) ? '' : ' with non-hex ones'}`,
        });
      }
    });

/** Exactly `length` lowercase hex characters: what {@link hex} takes. */
export function lowerHex(length: number): RegExp {
  let pattern = LOWER_HEX.get(length);
  if (!pattern) LOWER_HEX.set(length, (pattern = new RegExp(`^[0-9a-f]{${length}}$`)));
  return pattern;
}
const LOWER_HEX = new Map<number, RegExp>();

/** The shape of a download address: http(s), a host, a path, no spaces. */
const URL_SHAPE = /^https?:\/\/[^\s/?#]+\/\S*$/;
/** RFC 3986 characters only (a space is reported by {@link URL_SHAPE}): quotes, <, > and non-ASCII must be percent-encoded. */
const URL_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=% ]*$/;

/** Whether {@link downloadUrl} takes `value` as it is. */
export function isDownloadUrl(value: string): boolean {
  return URL_SHAPE.test(value) && URL_CHARACTERS.test(value);
}

/** An absolute http(s) download address of RFC 3986 characters only. */
export const downloadUrl = lazily(() =>
  zod()
    .string({ error: 'expected the download address, e.g. https://example.org/builds/FP4/e-2.5-....zip' })
    .regex(URL_SHAPE, { error: 'expected an absolute http(s) download address without spaces' })
    .regex(URL_CHARACTERS, {
      error:
        'the address holds characters that must be percent-encoded (quotes, <, >, \\, control or non-ASCII characters); write them as %XX, e.g. %22 for " and %C3%A4 for ä',
    }),
);

/** The manifest fields of this module, merged into the manifest's schema. */
export const extraFields = lazily(() => {
  const z = zod();
  return {
    sha1: hex(40, 'the SHA-1 of the zip (sha1sum FILE)'),
    files: z.array(
      z
        .strictObject({
          filename: z.string({ error: 'expected the file name, e.g. recovery.img' }).regex(PLAIN_FILENAME, {
            error:
              'expected a plain file name of letters, digits, `-`, `.`, `_` and `~`, e.g. recovery.img; it ends the download address',
          }),
          size: z
            .number({ error: 'expected the file size in bytes as a whole number (stat -c %s FILE)' })
            .int({ error: 'expected the file size in bytes as a whole number (stat -c %s FILE)' })
            .positive({ error: 'expected the file size in bytes (stat -c %s FILE); an empty file is not offered' })
            .max(Number.MAX_SAFE_INTEGER, {
              error: 'more bytes than any file holds; expected the size in bytes (stat -c %s FILE)',
            }),
          sha256: hex(64, 'the SHA-256 of the file (sha256sum FILE)'),
          sha1: hex(40, 'the SHA-1 of the file (sha1sum FILE)'),
          url: downloadUrl(),
        })
        .partial({ url: true }),
      {
        error:
          'expected a list of files, each with filename, size, sha256 and sha1 (otapress add ZIP --file recovery.img writes them)',
      },
    ),
    changelog: z
      .string({
        error:
          'expected the changelog as Markdown text; write it as a block: `changelog: |` and the lines indented below',
      })
      .superRefine(refuseUnpublishableText),
  };
});

/** A build's other files, as the manifest lists them. */
type ManifestFiles = Z.infer<ReturnType<typeof extraFields>['files']>;

/** What {@link checkExtras} reads of the manifest and how it reports. */
export interface ExtrasContext {
  fields: { filename?: string; channel?: string; placeholder?: boolean; files?: ManifestFiles; changelog?: string };
  bad: ReadonlySet<string>;
  /** Where the changelog's text starts: its first line and column, and whether it is a block (`|`) whose lines follow. */
  changelogAt(): { line: number; col: number; block: boolean };
  report(field: string, message: string, options?: { key?: boolean; at?: { line: number; col: number } }): void;
}

/** Checks the build's files (unique names, none the zip's, none on a placeholder) and the changelog's links. */
export function checkExtras({ fields, bad, changelogAt, report }: ExtrasContext): ChangelogBlock[] | undefined {
  if (fields.files !== undefined && !bad.has('files')) {
    if (fields.placeholder === true)
      report(
        'files',
        'a placeholder has no package, so it has no other files either; remove `files`, or remove `placeholder: true`',
        { key: true },
      );
    const seen = new Set<string>();
    fields.files.forEach((file, i) => {
      if (file.filename === fields.filename)
        report(
          `files.${i}.filename`,
          `\`${file.filename}\` is the build's zip; list only its other files (images, firmware) here`,
        );
      else if (seen.has(file.filename))
        report(`files.${i}.filename`, `\`${file.filename}\` is listed twice; remove one`);
      seen.add(file.filename);
    });
  }
  if (fields.changelog === undefined || bad.has('changelog')) return undefined;
  const { blocks, problems } = parseChangelog(fields.changelog);
  if (problems.length > 0) {
    const at = changelogAt();
    for (const p of problems)
      report('changelog', p.message, { at: at.block ? { line: at.line + p.line, col: at.col + p.col } : at });
  }
  return blocks;
}

/** The build's files with their download addresses: the manifest's, or derived like the zip's. */
export function buildFiles(
  files: ManifestFiles | undefined,
  folder: string,
  downloadBaseUrl: string,
): BuildFile[] | undefined {
  return files?.map((f) => {
    const url = f.url ?? `${folder}/${f.filename}`;
    return {
      filename: f.filename,
      size: f.size,
      sha256: f.sha256,
      sha1: f.sha1,
      url,
      filepath: filepathOf(url, downloadBaseUrl),
    };
  });
}

/**
 * The `filepath` of a download address, as the official server has it (lineageos-infra/updater,
 * api_v2.py at ad91889: `url = DOWNLOAD_BASE_URL + filepath`): the part after `download_base_url`,
 * or, for a file hosted elsewhere, the address's path.
 */
export function filepathOf(url: string, downloadBaseUrl: string): string {
  if (url.startsWith(`${downloadBaseUrl}/`)) return url.slice(downloadBaseUrl.length);
  return url.replace(/^https?:\/\/[^/]*/, '').replace(/[?#].*$/, '') || '/';
}
