// One download address is never claimed with two contents: the derived addresses of two builds'
// files (`{base}/{channel}/{device}/recovery.img`), or a file named like another build's zip.
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { catalogFiles, hex } from '../helpers/catalog.js';
import { compileFiles } from '../helpers/memory-catalog.js';

const file = (name: string, i: number, size = 4096) => [
  '  - filename: ' + name,
  `    size: ${size}`,
  `    sha256: ${hex(100 + i, 64)}`,
  `    sha1: ${hex(100 + i, 40)}`,
];

describe('check: one address, one file', () => {
  it('refuses a recovery.img of a second build of the same device and channel, at its line, with the fix', () => {
    const files = catalogFiles([
      { extra: ['files:', ...file('recovery.img', 0)] },
      { version: '2.6', extra: ['files:', ...file('recovery.img', 1)] },
    ]);
    expect(compileFiles(files).problems.map(formatProblem)).toEqual([
      'content/FP4/e-2.6-a14-20241108100001-official-FP4.yaml:11:15  files.0  https://dl.example.org/builds/official/FP4/recovery.img is also the address of the file recovery.img of content/FP4/e-2.5-a14-20241108100000-official-FP4.yaml, with another SHA-256 or size; one address holds one file, and the second upload would replace the first: give recovery.img another name (e.g. recovery-<version>.img), or its own `url:`',
    ]);
  });

  it("refuses a file named like another build's zip", () => {
    const files = catalogFiles([
      {},
      { version: '2.6', extra: ['files:', ...file('e-2.5-a14-20241108100000-official-FP4.zip', 1)] },
    ]);
    expect(compileFiles(files).problems.map((p) => `${p.file}:${p.line}:${p.col}  ${p.field}`)).toEqual([
      'content/FP4/e-2.6-a14-20241108100001-official-FP4.yaml:11:15  files.0',
    ]);
  });

  it('takes the same file shared by two builds, and files of other channels or with their own url', () => {
    const same = file('recovery.img', 0);
    expect(
      compileFiles(catalogFiles([{ extra: ['files:', ...same] }, { version: '2.6', extra: ['files:', ...same] }]))
        .problems,
    ).toEqual([]);
    expect(
      compileFiles(
        catalogFiles(
          [
            { extra: ['files:', ...file('recovery.img', 0)] },
            { channel: 'dev', extra: ['files:', ...file('recovery.img', 1)] },
          ],
          'download_base_url: https://dl.example.org/builds\nchannels: [official, dev]\n',
        ),
      ).problems,
    ).toEqual([]);
    const own = [...file('recovery.img', 1), '    url: https://dl.example.org/builds/official/FP4/2.6/recovery.img'];
    expect(
      compileFiles(
        catalogFiles([
          { extra: ['files:', ...file('recovery.img', 0)] },
          { version: '2.6', extra: ['files:', ...own] },
        ]),
      ).problems,
    ).toEqual([]);
  });
});
