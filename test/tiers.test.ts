import fg from 'fast-glob';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/helpers.js';
import { FAST, SLOW, SLOW_NAME } from './vitest.config.js';

/**
 * What a fast test may not reach, directly or through a helper of test/: a process, a thread, a
 * server, the CLI or a command (they work on a folder), `add` and its zips, and the pipeline's disk
 * half. From `src/pipeline/` only the pure compiler and the names below are allowed: the build
 * writes what `compileSite` returns, so a test of the output needs no disk.
 */
const FORBIDDEN_MODULES = [
  /^(node:)?(child_process|worker_threads|cluster|http|https|net|http2)$/,
  // The commands work on a folder; init-files.ts only holds the texts init writes.
  /\/src\/(cli|bin)\.js$|\/src\/commands\/(?!init-files\.js$)/,
  /\/test\/helpers\/(cli-process|process-group|serve-run|wrangler)\.js$/,
  // `add` reads a zip and writes a manifest; the zips of its tests are written to disk.
  /\/src\/ota\/add-build\.js$|\/test\/helpers\/ota-zip\.js$/,
];
const PURE_PIPELINE: Record<string, string[]> = {
  'src/pipeline/build.ts': ['compileSite', 'assembleSite', 'incrementalAnswers', 'rootFormatAnswers', 'CompiledSite'],
};
/**
 * Nor does a fast test write to disk itself: the fast tier shares its workers' modules between
 * files (no isolation, see vitest.config.ts), so the removal of temporary folders after each test
 * (helpers.ts) would not follow it. Reading fixtures is fine; the helpers' own writers are named.
 */
const WRITES = /^(write|append|mkdir|mkdtemp|cp|rm|rename|symlink|link|unlink|copyFile|truncate|chmod|utimes)/;
const WRITING_HELPERS: Record<string, string[]> = {
  'test/helpers/helpers.ts': ['tempProject', 'oldTreesRemoved'],
  'test/helpers/catalog.ts': ['catalogProject'],
};

describe('the two test tiers', () => {
  const all = fg.sync(['test/*.test.ts', 'test/*/*.test.ts'], { cwd: ROOT }).sort();
  const fast = new Set(fg.sync(FAST, { cwd: ROOT, ignore: [SLOW_NAME] }));
  const slow = new Set(fg.sync(SLOW, { cwd: ROOT }));

  it('hold every test file of the unit suite, each in exactly one', () => {
    expect(all.length).toBeGreaterThan(80);
    expect(all.filter((file) => fast.has(file) === slow.has(file))).toEqual([]);
    expect(fast.size).toBeGreaterThan(0);
  });

  it('keep processes, the CLI, servers, writing to disk and the pipeline on disk out of the fast tier', () => {
    const reached = [...fast].sort().flatMap((file) => {
      const own = writeProblems(file, readFileSync(path.join(ROOT, file), 'utf8'));
      return [...own, ...forbiddenImports(path.join(ROOT, file))].map((what) => `${file}: ${what}`);
    });
    expect(reached).toEqual([]);
  });

  it('are told apart by the rule above (a check of the check: it sees a forbidden import through a helper)', () => {
    expect(forbiddenImports(path.join(ROOT, 'test/helpers/cli-process.ts'))).toEqual([
      'test/helpers/cli-process.ts imports node:child_process',
      'test/helpers/cli-process.ts imports ../../src/cli.js',
    ]);
    const file = 'test/render/x.test.ts';
    expect(importProblems(file, "import { build, compileSite } from '../../src/pipeline/build.js';")).toEqual([
      `${file} imports build from ../../src/pipeline/build.js`,
    ]);
    expect(importProblems(file, "import { fullRebuild } from '../../src/pipeline/rebuild.js';")).toEqual([
      `${file} imports ../../src/pipeline/rebuild.js`,
    ]);
    const fs = "import { readFileSync, writeFileSync } from 'node:fs';\nimport fs from 'node:fs';";
    expect(writeProblems(file, fs)).toEqual([
      `${file} imports writeFileSync from node:fs`,
      `${file} imports * from node:fs`,
    ]);
    expect(writeProblems(file, "import { catalogFiles, catalogProject } from '../helpers/catalog.js';")).toEqual([
      `${file} imports catalogProject from ../helpers/catalog.js`,
    ]);
  });
});

// --- internal ---

/** Every forbidden import of `file` and of the helpers of test/ it imports, transitively. */
function forbiddenImports(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const problems = importProblems(path.relative(ROOT, file), text);
  for (const { from } of importsOf(text)) {
    const target = path.resolve(path.dirname(file), from).replace(/\.js$/, '.ts');
    const helper = from.startsWith('.') && target.startsWith(path.join(ROOT, 'test') + path.sep);
    if (helper) problems.push(...forbiddenImports(target, seen));
  }
  return problems;
}

/** The forbidden imports in the text of one file (`relative` to the root, for the messages and to resolve them). */
function importProblems(relative: string, text: string): string[] {
  const problems: string[] = [];
  for (const { from, names } of importsOf(text)) {
    const absolute = from.startsWith('.') ? path.resolve(ROOT, path.dirname(relative), from) : from;
    if (FORBIDDEN_MODULES.some((pattern) => pattern.test(absolute))) {
      problems.push(`${relative} imports ${from}`);
      continue;
    }
    const source = path.relative(ROOT, absolute).replace(/\.js$/, '.ts');
    if (!source.startsWith('src/pipeline/')) continue;
    const allowed = PURE_PIPELINE[source];
    if (!allowed || names === undefined) problems.push(`${relative} imports ${from}`);
    else {
      const taken = names.filter((n) => !allowed.includes(n));
      for (const name of taken) problems.push(`${relative} imports ${name} from ${from}`);
    }
  }
  return problems;
}

/** What the test file `relative` itself imports to write files. */
function writeProblems(relative: string, text: string): string[] {
  const problems: string[] = [];
  for (const { from, names = ['*'] } of importsOf(text)) {
    const source = path.relative(ROOT, path.resolve(ROOT, path.dirname(relative), from)).replace(/\.js$/, '.ts');
    const written = /^(node:)?fs(\/promises)?$/.test(from) ? names.filter((n) => n === '*' || WRITES.test(n)) : [];
    written.push(...names.filter((n) => WRITING_HELPERS[source]?.includes(n)));
    for (const name of written) problems.push(`${relative} imports ${name} from ${from}`);
  }
  return problems;
}

/** The modules a file imports (statically, dynamically or by re-export), with the names taken when they are listed. */
function importsOf(text: string): { from: string; names?: string[] }[] {
  const found: { from: string; names?: string[] }[] = [];
  const statement = /^\s*(?:import|export)\s+(?:type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/.source;
  const dynamicOrBare = /import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/.source;
  for (const match of text.matchAll(new RegExp(`${statement}|${dynamicOrBare}`, 'gm'))) {
    const [, clause, from, dynamic, bare] = match;
    if (dynamic || bare) {
      found.push({ from: (dynamic ?? bare)! });
      continue;
    }
    const braces = /\{([^}]*)\}/.exec(clause!);
    // A default or namespace import takes everything the module has.
    const whole = clause!.replace(/\{[^}]*\}/, '').replace(/[\s,]/g, '') !== '';
    const names = braces?.[1]!
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter(Boolean);
    found.push({ from: from!, names: whole ? undefined : names });
  }
  return found;
}
