/** `otapress schema`: the JSON Schemas of a manifest and of device.yaml, for editors. */
import { COMMON_OPTIONS, defineCommand, EXIT, SEE_USAGE, UsageError } from '../io.js';

export const command = defineCommand({
  summary: 'write the JSON Schemas of a manifest and of device.yaml to content/, for editors',
  synopsis: 'otapress schema [--root DIR] [--check]',
  about: `Generates the JSON Schema of a manifest, and that of a device file (content/<device>/device.yaml),
from the same zod schemas the build validates with, and writes them to content/manifest.schema.json
and content/device.schema.json, where the first line of every manifest and device file points
editors:
  # yaml-language-server: $schema=../manifest.schema.json
  # yaml-language-server: $schema=../device.schema.json
(VS Code with the YAML extension, and other editors with the YAML language server, then complete
field names and flag wrong values while you type.)`,
  options: {
    check: {
      type: 'boolean',
      description: 'write nothing, and exit 1 if a file is missing or differs from the generated schema',
    },
    ...COMMON_OPTIONS,
  },
  async run({ values }, io) {
    const path = await import('node:path');
    const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
    const { renderJsonSchema, SCHEMA_FILE } = await import('../catalog/json-schema.js');
    const { renderDeviceJsonSchema, DEVICE_SCHEMA_FILE } = await import('../catalog/device.js');
    const root = path.resolve(values.root);
    const schemas = [
      { name: SCHEMA_FILE, what: 'the manifest schema', text: renderJsonSchema() },
      { name: DEVICE_SCHEMA_FILE, what: 'the device file schema', text: renderDeviceJsonSchema() },
    ].map((s) => {
      const file = path.join(root, s.name);
      return { ...s, file, current: existsSync(file) ? readFileSync(file, 'utf8') : undefined };
    });
    if (values.check) {
      const stale = schemas.filter((s) => s.current !== s.text);
      for (const s of stale)
        io.err(
          `${s.name} ${s.current === undefined ? 'is missing' : `differs from ${s.what}`}; run otapress schema and commit it`,
        );
      if (stale.length > 0) return EXIT.invalid;
      for (const s of schemas) io.out(`${s.name} is up to date`);
      return EXIT.ok;
    }
    if (!existsSync(path.join(root, 'content')))
      throw new UsageError(`no content/ folder in ${root}; pass --root with the project folder`, SEE_USAGE);
    for (const s of schemas) {
      if (s.current !== s.text) writeFileSync(s.file, s.text);
      io.out(`${s.current === s.text ? 'kept' : 'wrote'} ${s.name}`);
    }
    return EXIT.ok;
  },
});
