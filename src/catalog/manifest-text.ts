import { yaml } from './libraries.js';
import type * as Z from 'zod';

/** The line that points editors at the manifest's JSON Schema (written by `otapress schema`). */
export const SCHEMA_COMMENT = '# yaml-language-server: $schema=../manifest.schema.json';

/** Field values of a manifest as they are written; `undefined` leaves a field out. */
export type ManifestValues = Partial<Record<(typeof MANIFEST_ORDER)[number], string | number | boolean | string[] | ManifestEntry[] | undefined>>;

/** One entry of a list of mappings (`files:`), its keys in the order written; values are plain names, hex and numbers. */
export type ManifestEntry = Record<string, string | number>;

/**
 * The canonical order of a manifest's fields: what identifies the package first (as in the
 * hand-written manifests of the example catalog), then what overrides the defaults, then the
 * values kept for the v2 listing. `placeholder` leads, so a reader sees at once there is no package.
 */
export const MANIFEST_ORDER = [
  'placeholder',
  'filename',
  'filename_differs',
  'version',
  'channel',
  'timestamp',
  'android_version',
  'api_level',
  'incremental',
  'source_incremental',
  'source_build',
  'md5sum',
  'sha1',
  'id',
  'sha256',
  'size',
  'url',
  'display_version',
  'changes',
  'pre_version',
  'is_upgrade_supported',
  'lists',
  'os_patch_level',
  'ota_type',
  'ota_property_files',
  'signer',
  'otacert',
  'test_build',
  'files',
  'changelog',
] as const;

/** Text fields that hand-written manifests always quote, so YAML can never read them as numbers. */
const ALWAYS_QUOTED = new Set(['version', 'android_version', 'api_level', 'incremental', 'source_incremental', 'os_patch_level']);

/**
 * Writes a manifest's fields as YAML text in the canonical layout: the schema line, optional
 * comment lines, then one `key: value` line per field in {@link MANIFEST_ORDER}. Strings are
 * quoted wherever YAML would read them as something else. Pure; used by `add` and `import`.
 */
export function renderManifestText(values: ManifestValues, comments: readonly string[] = []): string {
  const lines = [SCHEMA_COMMENT, ...comments.map((c) => `# ${c}`)];
  for (const key of MANIFEST_ORDER) {
    const value = values[key];
    if (value === undefined) continue;
    if (Array.isArray(value) && value.some((v) => typeof v === 'object')) {
      // A block list of mappings: `- key: value` with the entry's other keys below it.
      lines.push(`${key}:`, ...(value as ManifestEntry[]).flatMap((entry) => Object.entries(entry).map(([k, v], i) => `  ${i === 0 ? '-' : ' '} ${k}: ${typeof v === 'number' ? v : renderString(v, false)}`)));
      continue;
    }
    lines.push(`${key}: ${renderValue(key, value as string | number | boolean | string[])}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Unicode's bidirectional controls (marks, embeddings, overrides, isolates): invisible, they make
 * text display in another order than it is stored, so `2.5\u202e4pm.piz` shows as `2.5zip.mp4`.
 * A version name or change log that holds one can pass for another build (Trojan Source, CVE-2021-42574).
 */
export const DIRECTION_CONTROLS: Readonly<Record<string, string>> = {
  '\u061c': 'ARABIC LETTER MARK',
  '\u200e': 'LEFT-TO-RIGHT MARK',
  '\u200f': 'RIGHT-TO-LEFT MARK',
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/**
 * Why a text field cannot be published as written: it holds a direction control (each one named,
 * with the position of its first occurrence); `undefined` when it holds none.
 */
export function directionControlProblem(text: string): string | undefined {
  const found = new Map<string, number>();
  [...text].forEach((ch, i) => {
    if (Object.hasOwn(DIRECTION_CONTROLS, ch) && !found.has(ch)) found.set(ch, i + 1);
  });
  if (found.size === 0) return undefined;
  const named = [...found].map(([ch, at]) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} ${DIRECTION_CONTROLS[ch]} (character ${at})`);
  return `holds ${named.join(', ')}: an invisible direction control makes the text display in another order than it is written, so a name can pass for another; remove ${found.size === 1 ? 'it' : 'them'}`;
}

/**
 * Characters no published text carries: controls (C0 but tab and line feed, DEL, C1), Unicode's
 * noncharacters (U+FFFE, U+FDD0...) and halves of a character (a lone surrogate, as the YAML escape
 * `\uD800` writes one), which strict JSON decoders refuse and pages cannot show.
 */
const UNPUBLISHABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Noncharacter_Code_Point}|\p{Cs}/u;

/**
 * Why a text that pages, feeds and listings show cannot be published as written: a direction
 * control ({@link directionControlProblem}), or another character of {@link UNPUBLISHABLE}, named
 * with its position; `undefined` when it holds none. The rule of every free text field of a manifest.
 */
export function textProblem(text: string): string | undefined {
  const direction = directionControlProblem(text);
  if (direction) return direction;
  const found = UNPUBLISHABLE.exec(text);
  if (!found) return undefined;
  const code = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const at = [...text.slice(0, found.index)].length + 1;
  const kind = /\p{Cs}/u.test(found[0]) ? 'half of a character (a lone surrogate), which strict JSON decoders refuse' : /\p{Noncharacter_Code_Point}/u.test(found[0]) ? 'a noncharacter, which is not text' : 'a control character, which pages and feeds cannot show';
  return `holds ${code} (character ${at}), ${kind}; remove it`;
}

/** A zod refinement for text that pages and listings show: refuses {@link textProblem}. */
export function refuseUnpublishableText(text: string, ctx: Z.RefinementCtx): void {
  const problem = textProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

// --- internal ---

function renderValue(key: string, value: string | number | boolean | string[]): string {
  if (Array.isArray(value)) return `[${value.map((v) => renderString(v, false)).join(', ')}]`;
  if (typeof value === 'string') return renderString(value, ALWAYS_QUOTED.has(key));
  return String(value);
}

/** A plain scalar when it is safe and reads back as the same string, else a JSON (= YAML) double-quoted one. */
function renderString(value: string, quote: boolean): string {
  if (!quote && /^[A-Za-z0-9_./][A-Za-z0-9_./:+@=-]*$/.test(value) && !/:$/.test(value)) {
    try {
      if (yaml().parse(value) === value) return value;
    } catch {
      // Not a plain scalar after all: quote it.
    }
  }
  return JSON.stringify(value);
}
