// otapress schema as a real process: it writes the schema files, and --check says whether they are
// current (the schemas themselves are tested in memory: schema.test.ts).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVICE_SCHEMA_FILE, renderDeviceJsonSchema } from '../../src/catalog/device.js';
import { SCHEMA_FILE } from '../../src/catalog/json-schema.js';
import { runOtapress } from '../helpers/cli-process.js';
import { EXAMPLE, tempProject } from '../helpers/helpers.js';

/** The manifest schema committed beside the example catalog, as the command writes it. */
const committed = readFileSync(path.join(EXAMPLE, SCHEMA_FILE), 'utf8');

describe('otapress schema', () => {
  it(
    'writes the schema files, and --check tells whether they are current (real CLI process)',
    { timeout: 60_000 },
    () => {
      const root = tempProject({ withContent: true });
      const file = path.join(root, SCHEMA_FILE);
      writeFileSync(file, '{}\n');
      rmSync(path.join(root, DEVICE_SCHEMA_FILE));
      expect(runOtapress(['schema', '--check', '--root', root])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'content/manifest.schema.json differs from the manifest schema; run otapress schema and commit it\ncontent/device.schema.json is missing; run otapress schema and commit it\n',
      });
      expect(runOtapress(['schema', '--root', root])).toEqual({
        code: 0,
        stdout: 'wrote content/manifest.schema.json\nwrote content/device.schema.json\n',
        stderr: '',
      });
      expect(readFileSync(file, 'utf8')).toBe(committed);
      expect(readFileSync(path.join(root, DEVICE_SCHEMA_FILE), 'utf8')).toBe(renderDeviceJsonSchema());
      expect(runOtapress(['schema', '--check', '--root', root])).toEqual({
        code: 0,
        stdout: 'content/manifest.schema.json is up to date\ncontent/device.schema.json is up to date\n',
        stderr: '',
      });
    },
  );
});
