/**
 * What the plain readers share (manifest-schema.ts `plainFields`, site.ts `plainSettings`): they
 * read the values a zod schema would take, as it would return them, without zod; whatever they
 * cannot vouch for goes to zod, which says what is wrong. Pure.
 */

/** What a value check returns for a value it cannot vouch for: zod then decides. */
export const UNSURE = Symbol('unsure');

/** A value check: the value as the schema reads it, or {@link UNSURE}. */
export type PlainCheck = (v: unknown) => unknown;

/** A boolean, as `z.boolean()` reads it. */
export const flag: PlainCheck = (v) => (typeof v === 'boolean' ? v : UNSURE);

/**
 * `raw`'s values as the schema returns them, key for key, in the order of `keys` (the schema's
 * own), when every key of `raw` has a check in `checks` and every check vouches for its value;
 * `undefined` otherwise.
 */
export function readPlain(
  raw: Record<string, unknown>,
  checks: Partial<Record<string, PlainCheck>>,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  for (const key of Object.keys(raw)) if (!Object.hasOwn(checks, key)) return undefined;
  const values: Record<string, unknown> = {};
  for (const key of keys) {
    if (!Object.hasOwn(raw, key)) continue;
    const value = checks[key]!(raw[key]);
    if (value === UNSURE) return undefined;
    values[key] = value;
  }
  return values;
}
