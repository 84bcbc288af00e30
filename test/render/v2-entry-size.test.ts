// A v2 entry past the 32 KiB a phone reads is refused at what makes it large: the other files of
// the build, when they do, not the zip's download address.
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { catalogFiles, hex } from '../helpers/catalog.js';
import { compileFiles } from '../helpers/memory-catalog.js';

describe('a v2 entry too large for phones', () => {
  it('made so by its files: the problem is at `files`, and asks for fewer of them', () => {
    const files = Array.from({ length: 150 }, (_, i) => [
      `  - filename: firmware-part-${String(i).padStart(3, '0')}.img`,
      '    size: 4096',
      `    sha256: ${hex(1000 + i, 64)}`,
      `    sha1: ${hex(1000 + i, 40)}`,
    ]).flat();
    const problems = compileFiles(catalogFiles([{ extra: ['files:', ...files] }])).problems.map(formatProblem);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^content\/FP4\/e-2\.5-a14-20241108100000-official-FP4\.yaml:11:\d+ {2}files {2}the v2 entry of this build \(list `\w+`\) is \d+ bytes, and a v2 answer may hold at most 32768 with its brackets: no v2 phone could ever be offered it; list fewer of the build's other files \(150 in `files`\) or give them shorter addresses; phones read only the zip$/,
    );
  });
});
