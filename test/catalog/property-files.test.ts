import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/catalog/manifest.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';
import { kotlinToLong, v2DecodeAnswer } from '../helpers/clients.js';

const { site } = parseSite('download_base_url: https://dl.example.org/builds/\n');
const FILE = 'content/FP4/build.yaml';
/** VALID_MANIFEST's size: 1387003904 bytes. */
const messages = (value: string, extra = '') =>
  parseManifest(`${VALID_MANIFEST}ota_property_files: ${value}\n${extra}`, FILE, 'FP4', site!).problems.map(
    formatProblem,
  );
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
    const entry = (props: string) => ({
      datetime: 1,
      type: 'stable',
      version: '2.5',
      files: [{ filename: 'a.zip', sha256: 'x', size: 10, url: 'https://x/a.zip', ota_property_files: props }],
    });
    expect(v2DecodeAnswer(JSON.stringify([entry('payload.bin:1577:3145728'), entry('payload.bin:1:2')]))).toHaveLength(
      2,
    );
    expect(
      v2DecodeAnswer(JSON.stringify([entry('payload.bin:1577:99999999999999999999'), entry('payload.bin:1:2')])),
    ).toBeUndefined();
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
    expect(messages('payload.bin:9223372036854775808:1')[0]).toMatch(
      new RegExp(
        `^${FILE}:${LINE}:21  ota_property_files  the offset of \`payload.bin\`, 9223372036854775808, is past`,
      ),
    );
  });

  it('refuses an entry that ends past the zip (offset + size over `size`)', () => {
    expect(messages('"metadata:69:683,payload.bin:1577:1387002328"')).toEqual([
      `${FILE}:${LINE}:38  ota_property_files  \`payload.bin\` ends at byte 1387003905 (offset + size), past the end of the zip (\`size\`: 1387003904 bytes): phones would ask for bytes the zip does not hold; copy ota-property-files from this zip's META-INF/com/android/metadata, or correct \`size\``,
    ]);
  });

  it('cannot check the end against size 0 (an old record of unknown size) and leaves it to v2, which leaves the build out', () => {
    expect(
      parseManifest(
        VALID_MANIFEST.replace(/^size: .*$/m, 'size: 0') + 'ota_property_files: "payload.bin:1577:3145728"\n',
        FILE,
        'FP4',
        site!,
      ).problems,
    ).toEqual([]);
  });
});
