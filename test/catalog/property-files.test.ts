import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/catalog/manifest.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { addBuild } from '../../src/ota/add-build.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';
import { catalogProject } from '../helpers/catalog.js';
import { runMain } from '../helpers/cli-process.js';
import { kotlinToLong, v2DecodeAnswer } from '../helpers/clients.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';

const { site } = parseSite('download_base_url: https://dl.example.org/builds/\n');
const FILE = 'content/FP4/build.yaml';
/** VALID_MANIFEST's size: 1387003904 bytes. */
const messages = (value: string, extra = '') => parseManifest(`${VALID_MANIFEST}ota_property_files: ${value}\n${extra}`, FILE, 'FP4', site!).problems.map(formatProblem);
const LINE = VALID_MANIFEST.split('\n').length;

describe('the v2 client decodes ota_property_files with toLong (the oracle)', () => {
  it.each([
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', undefined],
    ['99999999999999999999', undefined],
    ['0001577', 1577n],
    ['', undefined],
  ])('%j', (text, value) => expect(kotlinToLong(text)).toBe(value));

  it('one number past 2^63-1 refuses the whole answer, every build of the device', () => {
    const entry = (props: string) => ({ datetime: 1, type: 'stable', version: '2.5', files: [{ filename: 'a.zip', sha256: 'x', size: 10, url: 'https://x/a.zip', ota_property_files: props }] });
    expect(v2DecodeAnswer(JSON.stringify([entry('payload.bin:1577:3145728'), entry('payload.bin:1:2')]))).toHaveLength(2);
    expect(v2DecodeAnswer(JSON.stringify([entry('payload.bin:1577:99999999999999999999'), entry('payload.bin:1:2')]))).toBeUndefined();
  });
});

describe('ota_property_files in a manifest: what the phone can read, within the zip', () => {
  it.each([
    ['the largest 64-bit values the phone reads, within a large zip', '"payload.bin:0:1387003904"', ''],
    ['an entry ending exactly at the end of the zip', '"metadata:69:683,payload.bin:1577:1387002327"', ''],
    ['leading zeros (toLong reads them)', '"payload.bin:0001577:3145728"', ''],
  ])('accepts %s', (_, value, extra) => expect(messages(value, extra)).toEqual([]));

  it('refuses a size past 2^63-1 at its line, at the column of the entry', () => {
    expect(messages('"metadata:69:683,payload.bin:1577:99999999999999999999"')).toEqual([
      `${FILE}:${LINE}:38  ota_property_files  the size of \`payload.bin\`, 99999999999999999999, is past the largest number the LineageOS v2 updater reads (9223372036854775807): it would refuse the whole v2 answer of the device, not just this build; copy ota-property-files from the zip's META-INF/com/android/metadata (otapress add writes it)`,
    ]);
  });

  it('refuses an offset past 2^63-1, plain or quoted', () => {
    expect(messages('payload.bin:9223372036854775808:1')[0]).toMatch(new RegExp(`^${FILE}:${LINE}:21  ota_property_files  the offset of \`payload.bin\`, 9223372036854775808, is past`));
  });

  it('refuses an entry that ends past the zip (offset + size over `size`)', () => {
    expect(messages('"metadata:69:683,payload.bin:1577:1387002328"')).toEqual([
      `${FILE}:${LINE}:38  ota_property_files  \`payload.bin\` ends at byte 1387003905 (offset + size), past the end of the zip (\`size\`: 1387003904 bytes): phones would ask for bytes the zip does not hold; copy ota-property-files from this zip's META-INF/com/android/metadata, or correct \`size\``,
    ]);
  });

  it('cannot check the end against size 0 (an old record of unknown size) and leaves it to v2, which leaves the build out', () => {
    expect(parseManifest(VALID_MANIFEST.replace(/^size: .*$/m, 'size: 0') + 'ota_property_files: "payload.bin:1577:3145728"\n', FILE, 'FP4', site!).problems).toEqual([]);
  });
});

describe('through otapress build', { timeout: 60_000 }, () => {
  it('a value the phone cannot read fails the build at its line and column; dist/ is not written', async () => {
    const root = catalogProject([{ version: '2.5' }, { version: '2.6', extra: ['ota_property_files: "payload.bin:1577:99999999999999999999"'] }]);
    const { code, err } = await runMain(['build', '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^content\/FP4\/e-2\.6-a14-20241108100001-official-FP4\.yaml:10:22  ota_property_files  the size of `payload\.bin`, 99999999999999999999, is past/);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });

  it('the largest values the phone reads build, and the phone decodes the whole answer', async () => {
    const root = catalogProject([{ version: '2.5' }, { version: '2.6', size: 2 ** 53 - 1, extra: ['ota_property_files: "payload.bin:9007199254740000:991"'] }]);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const answer = v2DecodeAnswer(readFileSync(path.join(root, 'dist/api/v2/devices/FP4/builds.json'), 'utf8'));
    expect(answer?.map((e) => `${e.type} ${e.version}`)).toEqual(['stable 2.6', 'official 2.6', 'stable 2.5', 'official 2.5']);
  });
});

describe('otapress add writes only what the zip holds', { timeout: 60_000 }, () => {
  const NAME = 'e-2.7-a14-20241108446999-official-FP4';

  it.each([
    ['an entry past the end of the zip', 'payload.bin:1577:3145728,payload_properties.txt:3147359:99999999', /^metadata ota-property-files \(not written: `payload_properties\.txt` ends at byte 103147358 \(offset \+ size\), past the end of the zip \(`size`: \d+ bytes\): phones would ask for bytes the zip does not hold\)$/],
    ['a number the phone cannot read', 'payload.bin:1577:99999999999999999999', /^metadata ota-property-files \(not written: the size of `payload\.bin`, 99999999999999999999, is past the largest number the LineageOS v2 updater reads \(9223372036854775807\): it would refuse the whole v2 answer of the device, not just this build\)$/],
    ['a value of another shape', 'payload.bin:1577', /^metadata ota-property-files \(not written: expected name:offset:size entries separated by commas, as in META-INF\/com\/android\/metadata\)$/],
  ])('leaves out %s, says so, and the manifest builds', async (_, value, origin) => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    await writeOtaZip(zip, { metadata: FP4_METADATA.replace(/^ota-property-files=.*$/m, `ota-property-files=${value}`) });
    const result = await addBuild({ zip, root });
    expect(result.written).toBe(true);
    expect(result.text).not.toContain('ota_property_files');
    expect(result.text).toContain('ota_type: AB\n');
    const line = result.report.find((l) => l.trimStart().startsWith('ota_property_files'))!;
    expect(line.trim().replace(/^ota_property_files\s+/, '').replace(/\s+\S+$/, '')).toMatch(origin);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
  });

  it('writes a value within the zip as the zip says it (the real zip is longer than its last entry)', async () => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    await writeOtaZip(zip, { metadata: FP4_METADATA });
    expect(statSync(zip).size).toBeGreaterThanOrEqual(3147359 + 154);
    const result = await addBuild({ zip, root });
    expect(result.text).toContain('ota_property_files: "payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880"\n');
  });
});
