/**
 * The rule of every free text a manifest or device file publishes (version names, change logs,
 * display names): characters that pages, feeds and listings cannot show, or that make the text
 * display as another, are refused with their names and positions.
 */
import type * as Z from 'zod';

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
  const named = [...found].map(
    ([ch, at]) =>
      `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} ${DIRECTION_CONTROLS[ch]} (character ${at})`,
  );
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
  const kind = /\p{Cs}/u.test(found[0])
    ? 'half of a character (a lone surrogate), which strict JSON decoders refuse'
    : /\p{Noncharacter_Code_Point}/u.test(found[0])
      ? 'a noncharacter, which is not text'
      : 'a control character, which pages and feeds cannot show';
  return `holds ${code} (character ${at}), ${kind}; remove it`;
}

/** A zod refinement for text that pages and listings show: refuses {@link textProblem}. */
export function refuseUnpublishableText(text: string, ctx: Z.RefinementCtx): void {
  const problem = textProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}
