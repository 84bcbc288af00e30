// The `yaml` package is loaded when a file needs it, not with otapress (src/catalog/libraries.ts):
// checked in a fresh Node process running the sources, which reports whether the package is in
// its module cache after reading the settings and plain manifests, and after one that is not plain.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempProject } from './helpers.js';

const PLAIN = 'content/FP3/e-1.5-s-20221110250000-official-FP3.yaml';
/** Plain too, with `true` and whole numbers: the scalars yaml-flat.ts types itself. */
const PLAIN_WITH_FLAG = 'content/starlte/e-2.5-u-20241108446400-official-starlte.yaml';
const WITH_CHANGELOG = 'content/FP4/e-3.0-a16-20250610500001-dev-FP4.yaml';

/** Parses site.yaml and then each manifest in a new process; says after each whether `yaml` was loaded. */
function yamlLoadedAfter(files: string[]): boolean[] {
  const dir = tempProject();
  const script = path.join(dir, 'read.mts');
  writeFileSync(
    script,
    `import { createRequire } from 'node:module';
     import { readFileSync } from 'node:fs';
     const { parseSite } = await import(${JSON.stringify(path.join(ROOT, 'src/catalog/site.ts'))});
     const { parseManifest } = await import(${JSON.stringify(path.join(ROOT, 'src/catalog/manifest.ts'))});
     const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('/node_modules/yaml/'));
     const said = [loaded()];
     const { site, problems } = parseSite(readFileSync(${JSON.stringify(path.join(ROOT, 'content/site.yaml'))}));
     if (!site) throw new Error(JSON.stringify(problems));
     said.push(loaded());
     for (const file of ${JSON.stringify(files)}) {
       const parsed = parseManifest(readFileSync(${JSON.stringify(ROOT)} + '/' + file), file, file.split('/')[1], site);
       if (!parsed.build) throw new Error(JSON.stringify(parsed.problems));
       said.push(loaded());
     }
     console.log(JSON.stringify(said));`,
  );
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as boolean[];
}

describe('the yaml package', () => {
  it('is not loaded to read the settings and plain manifests, and is loaded for a manifest with a block scalar', { timeout: 120_000 }, () => {
    expect(readFileSync(path.join(ROOT, PLAIN_WITH_FLAG), 'utf8')).toMatch(/^is_upgrade_supported: true$/m);
    expect(readFileSync(path.join(ROOT, WITH_CHANGELOG), 'utf8')).toMatch(/^changelog: \|/m);
    // Loaded: before anything, after site.yaml, after each plain manifest, after the one with a changelog block.
    expect(yamlLoadedAfter([PLAIN, PLAIN_WITH_FLAG, WITH_CHANGELOG])).toEqual([false, false, false, false, true]);
  });
});
