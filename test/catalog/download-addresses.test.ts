// One download address is never claimed with two contents: the derived addresses of two builds'
// files (`{base}/{channel}/{device}/recovery.img`), or a file named like another build's zip.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../src/pipeline/build.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { runMain } from '../helpers/cli-process.js';
import { catalogProject, hex } from '../helpers/catalog.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { existsSync, writeFileSync } from 'node:fs';

const file = (name: string, i: number, size = 4096) => ['  - filename: ' + name, `    size: ${size}`, `    sha256: ${hex(100 + i, 64)}`, `    sha1: ${hex(100 + i, 40)}`];

describe('check: one address, one file', () => {
  it('refuses a recovery.img of a second build of the same device and channel, at its line, with the fix', () => {
    const root = catalogProject([{ extra: ['files:', ...file('recovery.img', 0)] }, { version: '2.6', extra: ['files:', ...file('recovery.img', 1)] }]);
    expect(check({ root }).problems.map(formatProblem)).toEqual([
      'content/FP4/e-2.6-a14-20241108100001-official-FP4.yaml:11:15  files.0  https://dl.example.org/builds/official/FP4/recovery.img is also the address of the file recovery.img of content/FP4/e-2.5-a14-20241108100000-official-FP4.yaml, with another SHA-256 or size; one address holds one file, and the second upload would replace the first: give recovery.img another name (e.g. recovery-<version>.img), or its own `url:`',
    ]);
  });

  it('refuses a file named like another build\'s zip', () => {
    const root = catalogProject([{}, { version: '2.6', extra: ['files:', ...file('e-2.5-a14-20241108100000-official-FP4.zip', 1)] }]);
    expect(check({ root }).problems.map((p) => `${p.file}:${p.line}:${p.col}  ${p.field}`)).toEqual(['content/FP4/e-2.6-a14-20241108100001-official-FP4.yaml:11:15  files.0']);
  });

  it('takes the same file shared by two builds, and files of other channels or with their own url', () => {
    const same = file('recovery.img', 0);
    expect(check({ root: catalogProject([{ extra: ['files:', ...same] }, { version: '2.6', extra: ['files:', ...same] }]) }).problems).toEqual([]);
    expect(check({ root: catalogProject([{ extra: ['files:', ...file('recovery.img', 0)] }, { channel: 'dev', extra: ['files:', ...file('recovery.img', 1)] }], 'download_base_url: https://dl.example.org/builds\nchannels: [official, dev]\n') }).problems).toEqual([]);
    const own = [...file('recovery.img', 1), '    url: https://dl.example.org/builds/official/FP4/2.6/recovery.img'];
    expect(check({ root: catalogProject([{ extra: ['files:', ...file('recovery.img', 0)] }, { version: '2.6', extra: ['files:', ...own] }]) }).problems).toEqual([]);
  });
});

describe('add --file: one address, one file', { timeout: 60_000 }, () => {
  it('refuses a second build\'s recovery.img with other contents, after hashing, and writes nothing', async () => {
    const root = tempProject({ withContent: true });
    const dir = tempProject();
    const recovery = path.join(dir, 'recovery.img');
    writeFileSync(recovery, 'the recovery of 2.7');
    const first = path.join(dir, 'e-2.7-a14-20241108446999-official-FP4.zip');
    await writeOtaZip(first, { metadata: FP4_METADATA });
    expect((await runMain(['add', first, '--root', root, '--file', recovery])).code).toBe(0);
    writeFileSync(recovery, 'the recovery of 2.8');
    const second = path.join(dir, 'e-2.8-a14-20241208446999-official-FP4.zip');
    await writeOtaZip(second, { metadata: FP4_METADATA.replace('post-timestamp=1731067200', 'post-timestamp=1733659200') });
    const { code, err } = await runMain(['add', second, '--root', root, '--file', recovery]);
    expect(code).toBe(1);
    expect(existsSync(path.join(root, 'content/FP4/e-2.8-a14-20241208446999-official-FP4.yaml'))).toBe(false);
    expect(err[0]).toMatch(/^--file  files  https:\/\/images\.example\.org\/builds\/full\/official\/FP4\/recovery\.img is also the address of the file recovery\.img of content\/FP4\/e-2\.7-a14-20241108446999-official-FP4\.yaml, with another SHA-256 or size; /);
  });
});
