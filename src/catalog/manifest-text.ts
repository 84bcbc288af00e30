import { ALWAYS_QUOTED, MANIFEST_ORDER, type WrittenField } from './fields.js';
import { yaml } from './libraries.js';

/** The line that points editors at the manifest's JSON Schema (written by `otapress schema`). */
const SCHEMA_COMMENT = '# yaml-language-server: $schema=../manifest.schema.json';

/** Field values of a manifest as they are written; `undefined` leaves a field out. */
export type ManifestValues = Partial<
  Record<WrittenField, string | number | boolean | string[] | ManifestEntry[] | undefined>
>;

/** One entry of a list of mappings (`files:`), its keys in the order written; values are plain names, hex and numbers. */
export type ManifestEntry = Record<string, string | number>;

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
      lines.push(
        `${key}:`,
        ...(value as ManifestEntry[]).flatMap((entry) =>
          Object.entries(entry).map(
            ([k, v], i) => `  ${i === 0 ? '-' : ' '} ${k}: ${typeof v === 'number' ? v : renderString(v, false)}`,
          ),
        ),
      );
      continue;
    }
    lines.push(`${key}: ${renderValue(key, value as string | number | boolean | string[])}`);
  }
  return `${lines.join('\n')}\n`;
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
