// ota_property_files through the build and add commands, on disk (what a manifest may hold is tested
// in memory: property-files.test.ts).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBuild } from '../../src/ota/add-build.js';
import { catalogProject } from '../helpers/catalog.js';
import { runMain } from '../helpers/cli-process.js';
import { v2DecodeAnswer } from '../helpers/clients.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';

describe('through otapress build', { timeout: 60_000 }, () => {
  it('a value the phone cannot read fails the build at its line and column; dist/ is not written', async () => {
    const root = catalogProject([
      { version: '2.5' },
      { version: '2.6', extra: ['ota_property_files: "payload.bin:1577:99999999999999999999"'] },
    ]);
    const { code, err } = await runMain(['build', '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toMatch(
      /^content\/FP4\/e-2\.6-a14-20241108100001-official-FP4\.yaml:10:22  ota_property_files  the size of `payload\.bin`, 99999999999999999999, is past/,
    );
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('the largest values the phone reads build, and the phone decodes the whole answer', async () => {
    const root = catalogProject([
      { version: '2.5' },
      { version: '2.6', size: 2 ** 53 - 1, extra: ['ota_property_files: "payload.bin:9007199254740000:991"'] },
    ]);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const answer = v2DecodeAnswer(readFileSync(path.join(root, 'dist/api/v2/devices/FP4/builds.json'), 'utf8'));
    expect(answer?.map((e) => `${e.type} ${e.version}`)).toEqual([
      'stable 2.6',
      'official 2.6',
      'stable 2.5',
      'official 2.5',
    ]);
  });
});

describe('otapress add writes only what the zip holds', { timeout: 60_000 }, () => {
  const NAME = 'e-2.7-a14-20241108446999-official-FP4';

  it.each([
    [
      'an entry past the end of the zip',
      'payload.bin:1577:3145728,payload_properties.txt:3147359:99999999',
      /^metadata ota-property-files \(not written: `payload_properties\.txt` ends at byte 103147358 \(offset \+ size\), past the end of the zip \(`size`: \d+ bytes\): phones would ask for bytes the zip does not hold\)$/,
    ],
    [
      'a number the phone cannot read',
      'payload.bin:1577:99999999999999999999',
      /^metadata ota-property-files \(not written: the size of `payload\.bin`, 99999999999999999999, is past the largest number the LineageOS v2 updater reads \(9223372036854775807\): it would refuse the whole v2 answer of the device, not just this build\)$/,
    ],
    [
      'a value of another shape',
      'payload.bin:1577',
      /^metadata ota-property-files \(not written: expected name:offset:size entries separated by commas, as in META-INF\/com\/android\/metadata\)$/,
    ],
  ])('leaves out %s, says so, and the manifest builds', async (_, value, origin) => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    await writeOtaZip(zip, {
      metadata: FP4_METADATA.replace(/^ota-property-files=.*$/m, `ota-property-files=${value}`),
    });
    const result = await addBuild({ zip, root });
    expect(result.written).toBe(true);
    expect(result.text).not.toContain('ota_property_files');
    expect(result.text).toContain('ota_type: AB\n');
    const line = result.report.find((l) => l.trimStart().startsWith('ota_property_files'))!;
    expect(
      line
        .trim()
        .replace(/^ota_property_files\s+/, '')
        .replace(/\s+\S+$/, ''),
    ).toMatch(origin);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
  });

  it('writes a value within the zip as the zip says it (the real zip is longer than its last entry)', async () => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    await writeOtaZip(zip, { metadata: FP4_METADATA });
    expect(statSync(zip).size).toBeGreaterThanOrEqual(3147359 + 154);
    const result = await addBuild({ zip, root });
    expect(result.text).toContain(
      'ota_property_files: "payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880"\n',
    );
  });
});
