import type { JsonSchema } from './field-values.js';
import { FIELD_ROWS, PACKAGE_ONLY, REQUIRED, REQUIRED_PLACEHOLDER } from './fields.js';
import { manifestSchema } from './manifest-schema.js';
import { zod } from './libraries.js';

/** Where editors find the schema: the `$schema` line of every manifest points here. */
export const SCHEMA_FILE = 'content/manifest.schema.json';

/**
 * The JSON Schema of a manifest as YAML may write it, generated from the zod schema: the zod input
 * types, changed where a field's row says (fields.ts `json`: widened where the build converts,
 * `android_version: 14` is read as "14"; narrowed where zod checks in code, hex digests and
 * plausible Unix seconds), plus the placeholder/package split and each field's description.
 * Cross-file rules (the site's channels and lists, the file name agreeing with the fields) stay
 * with `otapress check`. Pure.
 */
export function manifestJsonSchema(): JsonSchema {
  const generated = zod().toJSONSchema(manifestSchema(), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const zodProperties = generated.properties as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {};
  const inPackage: Record<string, JsonSchema> = {};
  for (const [name, field] of FIELD_ROWS) {
    const property = field.json?.property?.(zodProperties[name]) ?? zodProperties[name];
    properties[name] = field.description === undefined ? property : { description: field.description, ...property };
    if (field.json?.inPackage) inPackage[name] = field.json.inPackage(zodProperties[name]);
  }
  const empty = { const: '' };

  return {
    $schema: generated.$schema,
    title: 'otapress build manifest',
    description: 'One build of one device: content/<device>/<name>.yaml. See the manifest reference in the README.',
    type: 'object',
    properties,
    additionalProperties: false,
    if: { properties: { placeholder: { const: true } }, required: ['placeholder'] },
    then: {
      required: [...REQUIRED_PLACEHOLDER],
      // What a placeholder must leave empty, where the schema says what a package writes there.
      properties: Object.fromEntries(
        PACKAGE_ONLY.filter((name) => Object.hasOwn(inPackage, name)).map((name) => [name, empty]),
      ),
    },
    else: { required: [...REQUIRED], properties: inPackageOrder(inPackage) },
  };
}

/** The schema file's text: what `otapress schema` writes and its test compares. */
export function renderJsonSchema(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`;
}

// --- internal ---

/**
 * The order the schema file has always listed a package's narrowed fields in: kept, so that the
 * committed content/manifest.schema.json stays as it is. A field not named here follows them in
 * the table's order.
 */
const IN_PACKAGE_ORDER = ['md5sum', 'id', 'sha256', 'api_level', 'size', 'url', 'filename'];

function inPackageOrder(inPackage: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const rank = (name: string) =>
    IN_PACKAGE_ORDER.includes(name) ? IN_PACKAGE_ORDER.indexOf(name) : IN_PACKAGE_ORDER.length;
  // A stable sort: the fields not named keep the table's order.
  return Object.fromEntries(Object.entries(inPackage).sort(([a], [b]) => rank(a) - rank(b)));
}
