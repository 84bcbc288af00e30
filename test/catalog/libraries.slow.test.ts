// The `yaml` and zod packages are loaded when content needs them, not with otapress
// (src/catalog/libraries.ts): checked in a fresh Node process running the sources, which reports
// which of the two are in its module cache after reading the example's settings and manifests.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, ROOT, tempProject } from '../helpers/helpers.js';

const PLAIN = 'content/FP3/e-1.5-s-20221110250000-official-FP3.yaml';
/** Plain too, with `true` and whole numbers: the scalars yaml-flat.ts types itself. */
const PLAIN_WITH_FLAG = 'content/starlte/e-2.5-u-20241108446400-official-starlte.yaml';
/** A changelog block (for yaml) and a list of files (a field only zod reads). */
const WITH_CHANGELOG_AND_FILES = 'content/FP4/e-3.0-a16-20250610500001-dev-FP4.yaml';

/** Parses site.yaml and then each manifest in a new process; says after each which libraries were loaded. */
function loadedAfter(files: string[]): string[] {
  const dir = tempProject();
  const script = path.join(dir, 'read.mts');
  writeFileSync(
    script,
    `import { createRequire } from 'node:module';
     import { readFileSync } from 'node:fs';
     const { parseSite } = await import(${JSON.stringify(path.join(ROOT, 'src/catalog/site.ts'))});
     const { parseManifest } = await import(${JSON.stringify(path.join(ROOT, 'src/catalog/manifest.ts'))});
     const loaded = () => {
       const modules = Object.keys(createRequire(import.meta.url).cache);
       return ['yaml', 'zod'].filter((name) => modules.some((f) => f.includes('/node_modules/' + name + '/'))).join('+') || 'none';
     };
     const said = [loaded()];
     const { site, problems } = parseSite(readFileSync(${JSON.stringify(path.join(EXAMPLE, 'content/site.yaml'))}));
     if (!site) throw new Error(JSON.stringify(problems));
     said.push(loaded());
     for (const file of ${JSON.stringify(files)}) {
       const parsed = parseManifest(readFileSync(${JSON.stringify(EXAMPLE)} + '/' + file), file, file.split('/')[1], site);
       if (!parsed.build) throw new Error(JSON.stringify(parsed.problems));
       said.push(loaded());
     }
     console.log(JSON.stringify(said));`,
  );
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

describe('the yaml and zod packages', () => {
  it(
    'are not loaded to read plain settings and manifests, and are for a manifest that needs them',
    { timeout: 120_000 },
    () => {
      expect(readFileSync(path.join(EXAMPLE, PLAIN_WITH_FLAG), 'utf8')).toMatch(/^is_upgrade_supported: true$/m);
      expect(readFileSync(path.join(EXAMPLE, WITH_CHANGELOG_AND_FILES), 'utf8')).toMatch(
        /^files:$(.|\n)*^changelog: \|$/m,
      );
      // Before anything, after site.yaml, after each plain manifest, after the one with a changelog block and files.
      expect(loadedAfter([PLAIN, PLAIN_WITH_FLAG, WITH_CHANGELOG_AND_FILES])).toEqual([
        'none',
        'none',
        'none',
        'none',
        'yaml+zod',
      ]);
    },
  );
});
