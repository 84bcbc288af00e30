// The usage the maintainer commands print, through the CLI (the manifests' text is tested in
// memory: manifest-text.test.ts).
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-process.js';

describe('--help of the maintainer commands', () => {
  it.each([
    ['add', 'otapress add <path/to/ota.zip> [options]'],
    [
      'import',
      'otapress import <listing.json|-> --device D --list L [--android-version N] [--skip-invalid] [--verbose] [--root DIR]',
    ],
    ['schema', 'otapress schema [--root DIR] [--check]'],
    ['check', 'otapress check [--root DIR] [--format text|github]'],
  ])('%s --help prints its usage', async (command, first) => {
    const { code, out } = await runMain([command, '--help']);
    expect({ code, first: out[0] }).toEqual({ code: 0, first });
  });
});
