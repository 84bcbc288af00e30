/** `otapress schema`: the manifest JSON Schema for editors. */
import { type Command, COMMON_OPTIONS, EXIT, UsageError } from '../io.js';

export const command: Command = {
  summary: 'write the JSON Schema of a manifest to content/manifest.schema.json, for editors',
  usage: `otapress schema [--root DIR] [--check]

Generates the JSON Schema of a manifest from the same zod schema the build validates with, and
writes it to content/manifest.schema.json, where the first line of every manifest points editors:
  # yaml-language-server: $schema=../manifest.schema.json
(VS Code with the YAML extension, and other editors with the YAML language server, then complete
field names and flag wrong values while you type.)

--check writes nothing and exits 1 if the file is missing or differs from the generated schema.`,
  options: { ...COMMON_OPTIONS, check: { type: 'boolean' } },
  async run({ values }, io) {
    const path = await import('node:path');
    const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
    const { renderJsonSchema, SCHEMA_FILE } = await import('../catalog/json-schema.js');
    const file = path.join(path.resolve(String(values.root)), SCHEMA_FILE);
    const text = renderJsonSchema();
    const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (values.check) {
      if (current === text) {
        io.out(`${SCHEMA_FILE} is up to date`);
        return EXIT.ok;
      }
      io.err(`${SCHEMA_FILE} ${current === undefined ? 'is missing' : 'differs from the manifest schema'}; run otapress schema and commit it`);
      return EXIT.invalid;
    }
    if (!existsSync(path.dirname(file))) throw new UsageError(`no content/ folder in ${path.dirname(path.dirname(file))}; pass --root with the project folder`);
    if (current !== text) writeFileSync(file, text);
    io.out(`${current === text ? 'kept' : 'wrote'} ${SCHEMA_FILE}`);
    return EXIT.ok;
  },
};
