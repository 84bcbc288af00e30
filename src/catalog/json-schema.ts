import { DOWNLOAD_KEY } from './loose.js';
import { REQUIRED, REQUIRED_PLACEHOLDER } from './manifest.js';
import { zod } from './libraries.js';
import { manifestSchema, TIMESTAMP_RANGE } from './manifest-schema.js';
import { PLAIN_FILENAME } from './filename.js';

/** Where editors find the schema: the `$schema` line of every manifest points here. */
export const SCHEMA_FILE = 'content/manifest.schema.json';

type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a manifest as YAML may write it, generated from the zod schema: the zod input
 * types, widened where the build converts (`android_version: 14` is read as "14"), narrowed where
 * zod checks in code (hex digests, plausible Unix seconds), plus the placeholder/package split.
 * Cross-file rules (the site's channels and lists, the file name agreeing with the fields) stay
 * with `otapress check`. Pure.
 */
export function manifestJsonSchema(): JsonSchema {
  const generated = zod().toJSONSchema(manifestSchema(), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const properties = { ...(generated.properties as Record<string, JsonSchema>) };
  const digitsOrNumber = (schema: JsonSchema, max?: number) => ({
    anyOf: [schema, { type: 'integer', minimum: 0, ...(max !== undefined && { maximum: max }) }],
  });
  const unixSeconds = { type: 'integer', minimum: TIMESTAMP_RANGE[0], exclusiveMaximum: TIMESTAMP_RANGE[1] };
  const exact = {
    md5sum: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    // The SHA-256 of the zip, or another download key (a SHA-256 in capitals is neither: a slip).
    id: { type: 'string', pattern: `^(?![0-9a-fA-F]{64}$)${DOWNLOAD_KEY.source.slice(1)}|^[0-9a-f]{64}$` },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    api_level: digitsOrNumber(properties.api_level, 999),
    size: properties.size,
    url: properties.url,
    filename: { type: 'string', pattern: PLAIN_FILENAME.source },
  };
  const empty = { const: '' };

  Object.assign(properties, {
    timestamp: unixSeconds,
    datetime: unixSeconds,
    android_version: digitsOrNumber(properties.android_version, 999),
    incremental: digitsOrNumber(properties.incremental),
    source_incremental: digitsOrNumber(properties.source_incremental),
    // A placeholder may leave these empty (""), as listings show them; a package may not (see `else`).
    md5sum: { anyOf: [exact.md5sum, empty] },
    id: { anyOf: [exact.id, empty] },
    sha256: { anyOf: [exact.sha256, empty] },
    api_level: { anyOf: [...exact.api_level.anyOf, empty] },
    size: { anyOf: [exact.size, empty] },
    url: { anyOf: [exact.url, empty] },
  });
  for (const [key, description] of Object.entries(DESCRIPTIONS)) properties[key] = { description, ...properties[key] };

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
      properties: { filename: empty, id: empty, sha256: empty, size: empty, url: empty },
    },
    else: { required: [...REQUIRED], properties: exact },
  };
}

/** The schema file's text: what `otapress schema` writes and its test compares. */
export function renderJsonSchema(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`;
}

// --- internal ---

/** Hover texts for editors, from the manifest reference. */
const DESCRIPTIONS: Record<string, string> = {
  filename: 'Package file name, one plain name of letters, digits, -, ., _ and ~. The forms e-<version>-<platform>-<yyyymmdd><build number>-<channel>-<device>.zip (or .disabled.zip) and lineage-<version>-<yyyymmdd>-<type>-<device>[-signed].zip are checked against version, channel and the device folder.',
  filename_differs: 'Parts (device, version, channel, android_version) in which a file name already published differs from the folder and the fields; they are then not refused.',
  version: 'The version as phones show it: "2.5", "2.6.3", "8.1.1-Arete", "fourteen". LineageOS v2 phones read only major.minor numbers; other versions are left out of that answer. Quote it: YAML reads 2.10 as the number 2.1.',
  channel: "The build's channel (its download folder): one of the site's channels.",
  timestamp: 'Build time in Unix seconds (post-timestamp of the zip).',
  datetime: 'Always equal to timestamp; better left out.',
  android_version: 'Platform major version, e.g. "14"; derived from the file name or api_level when left out.',
  api_level: 'Platform API level; derived from android_version when left out.',
  incremental: 'eng.root.<yyyymmdd>.<hhmmss>, a Unix-seconds string, or "".',
  source_incremental: 'An incremental package: the ro.build.version.incremental of the build it applies on (pre-build-incremental of its metadata). Phones on that build are offered it instead of the full package of the build with the same incremental field.',
  source_build: 'The fingerprint of the build an incremental package applies on (pre-build of its metadata).',
  md5sum: 'MD5 of the zip: 32 lowercase hex characters. Optional: LineageOS phones never read it (published as "" when left out).',
  id: 'SHA-256 of the zip: 64 lowercase hex characters (what otapress add writes). Phones use it only as the download key, so a key an existing listing gave its phones (an MD5, a SHA-1, ...) may stay: letters, digits and . _ ~ - + = : / (at most 255).',
  sha256: "SHA-256 of the zip, 64 lowercase hex characters, for a build whose id is another download key: v2 sha256, the pages, feeds and SHA256SUMS and the crDroid-family answer carry it; v1 id stays the key. Beside an id that is a SHA-256 it must equal it (otapress check).",
  size: 'Zip size in bytes.',
  url: 'Download address; default {download_base_url}/{channel}/{device}/{filename}.',
  display_version: 'Shown to users; default: the file name without e- and .zip.',
  is_upgrade_supported: 'true or false (default).',
  lists: "Request lists this build appears in, overriding the site's membership rules; [] hides it.",
  placeholder: 'true for a build without a downloadable package: no filename, id, size or url.',
  os_patch_level: 'Security patch level, yyyy-mm-dd (post-security-patch-level).',
  ota_property_files: 'ota-property-files of the zip metadata: name:offset:size entries, comma separated.',
  ota_type: 'AB or BLOCK (ota-type of the zip metadata).',
  signer: "SHA-256 of the public key (SubjectPublicKeyInfo) of the certificate in the zip's whole-file signature (otapress add reads it from the end of the zip).",
  otacert: 'SHA-256 of the public key of each certificate of META-INF/com/android/otacert: the keys this build accepts its next update from.',
  test_build: 'true for a build signed with, or trusting, a public AOSP test key, published knowingly.',
};
