import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/helpers.js';

// The repository says what is true now, and why: the history of a figure or a decision lives in
// the commit that made it. Words that date text by how the work was done (numbered work periods,
// tracker numbers of this project) go stale the day they are written and mean nothing to a reader.
// An upstream source cited as `owner/repo#48` is a source, not our history, and is fine.
const DATED: [RegExp, string][] = [
  [/\bstops? \d+\b/i, 'a numbered work period'],
  [/\bissues? #?\d+\b/i, 'a tracker number (cite an upstream one as owner/repo#N)'],
  [/(?<![\w-])sessions?(?![\w-])/i, 'a work session'],
  [/\bwork periods?\b|\bsittings?\b/i, 'a work period'],
  [/\bmachines of this project\b|\bthis project's machines\b/i, 'the machines the work was done on'],
  [/\binterface\.md\b/, 'a document that is not in the repository (say the rule, or point to the README)'],
];

// Inputs kept as found (real listings, hostile fixtures) and output trees generated from them.
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'lib', 'fixtures', 'golden', 'artifacts']);

/** Every text file of the repository but the skipped folders, as paths relative to the root. */
function textFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // This file names the words it looks for.
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.lib-building-') || full === import.meta.filename) continue;
    if (entry.isDirectory()) found.push(...textFiles(full));
    else if (entry.isFile() && /\.(ts|mjs|js|json|md|ya?ml|toml)$|^(run|foreign-content|\.gitignore)$/.test(entry.name))
      found.push(path.relative(ROOT, full));
  }
  return found.sort();
}

/** Each line of `text` that dates it, as `file:line  what  the line`. */
export function datedLines(file: string, text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    for (const [pattern, what] of DATED)
      if (pattern.test(line)) found.push(`${file}:${i + 1}  ${what}  ${line.trim().slice(0, 160)}`);
  });
  return found;
}

describe('the text of the repository', () => {
  it('speaks of the product now, not of how the work was done', () => {
    const files = textFiles(ROOT);
    expect(files).toContain('README.md');
    expect(files).toContain(path.join('src', 'cli.ts'));
    expect(files.flatMap((f) => datedLines(f, readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it.each([
    ['At the end of stop 45 the build took 7 s', 1],
    ['// (issue 21 part 3) the changelog', 1],
    ['measured in the issues 14, 21 and 22', 1],
    ['an earlier session measured it', 1],
    ["a message that cites interface.md's pairing", 1],
    ['as lineageos-infra/updater#48 asks', 0],
    ["wrangler's --show-interactive-dev-session=false", 0],
    ['the stop signals, the issues a maintainer meets', 0],
  ])('finds what dates a line: %s', (line, count) => {
    expect(datedLines('x.ts', line)).toHaveLength(count);
  });
});
