/**
 * A manifest's fields read two ways, both made from the field table (fields.ts): by zod, which says
 * what is wrong and why, and by the plain checks, which read the values zod would take without its
 * machinery.
 */
import type * as Z from 'zod';
import { FIELD_ROWS, MANIFEST_KEYS, ZOD_ONLY, type FIELDS, type FieldName } from './fields.js';
import { lazily, zod } from './libraries.js';
import { readPlain, type PlainCheck } from './plain.js';

type Shape = { [K in FieldName]: ReturnType<(typeof FIELDS)[K]['schema']> };

/**
 * The zod schema of one manifest's fields (types and formats; cross-field rules are manifest.ts's),
 * built the first time a manifest is not plain ({@link plainFields}; see libraries.ts).
 */
export const manifestSchema = lazily(() => {
  const shape = Object.fromEntries(FIELD_ROWS.map(([name, field]) => [name, field.schema()])) as Shape;
  return zod().strictObject(shape).partial();
});

/** A manifest's fields as {@link manifestSchema} reads them. */
export type ManifestFields = Z.infer<ReturnType<typeof manifestSchema>>;

/** The plain checks by field; the fields left to zod have none, so that a manifest with one goes to zod. */
const PLAIN: Partial<Record<string, PlainCheck>> = Object.fromEntries(
  FIELD_ROWS.flatMap(([name, field]) => (field.plain === ZOD_ONLY ? [] : [[name, field.plain]])),
);

/**
 * A manifest's fields as `manifestSchema.safeParse` returns them, key for key and in the same
 * order, when every field is one whose plain check takes it; `undefined` when any is not (an
 * unknown key, a wrong value, a shape left to zod). Most manifests are plain: zod's checks, run
 * field by field, were a tenth of a cold build's time (10,000 manifests: 0.91x wall without them).
 */
export function plainFields(raw: Record<string, unknown>): ManifestFields | undefined {
  return readPlain(raw, PLAIN, MANIFEST_KEYS) as ManifestFields | undefined;
}
