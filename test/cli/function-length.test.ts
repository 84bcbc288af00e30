import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A function of more than 100 lines has phases that deserve names of their own (read, decide,
// check, write); the server emitters stay linear templates by giving each section its own function.
const LIMIT = 100;
const SRC = path.resolve(import.meta.dirname, '../../src');
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .map((f) => f.split(path.sep).join('/'))
  .filter((f) => /\.(ts|mjs)$/.test(f))
  .sort();

/** Every function of a source text with a body: its name (or where it starts) and its length in lines. */
function functionsOf(name: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(source));
      const label = node.name && ts.isIdentifier(node.name) ? node.name.text : `function at line ${first + 1}`;
      found.push({ name: `${name} ${label}`, lines: lineOf(node.end) - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the functions of src/', () => {
  it(`are at most ${LIMIT} lines long each`, () => {
    const long = files
      .flatMap((f) => functionsOf(f, readFileSync(path.join(SRC, f), 'utf8')))
      .filter((f) => f.lines > LIMIT)
      .map((f) => `${f.name}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it('measures what it checks: a function of 101 lines is found, one of 100 is not', () => {
    const body = (n: number) => `function f() {\n${'  x();\n'.repeat(n - 2)}}\n`;
    expect(functionsOf('a.ts', body(101))).toEqual([{ name: 'a.ts f', lines: 101 }]);
    expect(functionsOf('a.ts', `const g = () => {\n${'  x();\n'.repeat(98)}};\n`)[0].lines).toBe(100);
  });
});
