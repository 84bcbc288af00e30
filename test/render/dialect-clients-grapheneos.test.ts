// GrapheneOS's updater transcribed in test/helpers/dialects/grapheneos.ts: the channel file's first
// line, the two zip names it then asks the same base for, and the zip metadata it checks. GrapheneOS
// publishes its channel files on releases.grapheneos.org, not in a repository: the lines here are
// written as GrapheneOS/script `generate-metadata` prints them.
import { describe, expect, it } from 'vitest';
import { checkGrapheneZipMetadata, readGrapheneChannel, type GraphenePhone } from '../helpers/dialects/grapheneos.js';

const PHONE: GraphenePhone = {
  device: 'husky',
  incremental: '2024030600',
  buildDate: 1709700000,
  channel: 'stable',
  fingerprint: 'google/husky/husky:14/AP1A/2024030600:user/release-keys',
};
/** `print(incremental, post-timestamp, pre-device, channel)` */
const LINE = '2024031100 1710150000 husky stable\n';

describe('the channel file', () => {
  it('a newer build: the incremental from the phone, then the full update', () => {
    expect(readGrapheneChannel(LINE, PHONE)).toEqual({
      kind: 'update',
      targetIncremental: '2024031100',
      targetBuildDate: 1710150000,
      incrementalName: 'husky-incremental-2024030600-2024031100.zip',
      fullName: 'husky-ota_update-2024031100.zip',
    });
    expect(readGrapheneChannel(LINE, { ...PHONE, streaming: true })).toMatchObject({
      incrementalName: 'husky-streaming-incremental-2024030600-2024031100.zip',
      fullName: 'husky-streaming-ota_update-2024031100.zip',
    });
  });

  it('not newer than the phone: up to date, before device and channel are looked at', () => {
    expect(readGrapheneChannel(LINE, { ...PHONE, buildDate: 1710150000 })).toEqual({ kind: 'up-to-date' });
    const current = { ...PHONE, buildDate: 1710150000 };
    expect(readGrapheneChannel('2024031100 1710150000 shiba beta', current)).toEqual({ kind: 'up-to-date' });
  });

  it('another device or channel is refused', () => {
    expect(readGrapheneChannel('2024031100 1710150000 shiba stable', PHONE).kind).toBe('refused');
    expect(readGrapheneChannel('2024031100 1710150000 husky beta', PHONE).kind).toBe('refused');
  });

  it('only the first line counts, CRLF included; fields after the fourth are ignored', () => {
    expect(readGrapheneChannel('2024031100 1710150000 husky stable\r\nsomething else', PHONE).kind).toBe('update');
    expect(readGrapheneChannel('2024031100 1710150000 husky stable extra', PHONE).kind).toBe('update');
    expect(readGrapheneChannel('2024031100 1710150000 husky stable ', PHONE).kind).toBe('update');
  });

  it('single spaces only: a double space or a tab breaks the line', () => {
    expect(readGrapheneChannel('2024031100  1710150000 husky stable', PHONE).kind).toBe('crash');
    expect(readGrapheneChannel('2024031100\t1710150000\thusky\tstable', PHONE).kind).toBe('crash');
    expect(readGrapheneChannel('2024031100 1710150000 husky  stable', PHONE).kind).toBe('refused');
  });

  it('an empty body, a short line, or a timestamp that is not a Long is not caught', () => {
    expect(readGrapheneChannel('', PHONE).kind).toBe('crash');
    expect(readGrapheneChannel('\n', PHONE).kind).toBe('crash');
    expect(readGrapheneChannel('2024031100 1710150000 husky', PHONE).kind).toBe('crash');
    expect(readGrapheneChannel('2024031100 1710150000.0 husky stable', PHONE).kind).toBe('crash');
    expect(readGrapheneChannel('2024031100 +1710150000 husky stable', PHONE).kind).toBe('update');
  });
});

describe("the zip's metadata", () => {
  const METADATA = [
    'ota-required-cache=0',
    'ota-streaming-property-files=payload.bin:1234:5678,payload_properties.txt:9000:154',
    'ota-type=AB',
    'post-build-incremental=2024031100',
    'post-timestamp=1710150000',
    'pre-device=husky',
  ].join('\n');

  it('a full update matching the channel file is accepted', () => {
    expect(checkGrapheneZipMetadata(METADATA, 1710150000, PHONE)).toBeUndefined();
  });

  it('an incremental from the phone build is accepted; from another build it is refused', () => {
    const check = (extra: string) => checkGrapheneZipMetadata(`${METADATA}\n${extra}`, 1710150000, PHONE);
    expect(check('pre-build-incremental=2024030600')).toBeUndefined();
    expect(check('pre-build-incremental=2024020100')).toBe('source incremental mismatch');
    expect(check('pre-build=other')).toBe('source fingerprint mismatch');
  });

  it.each([
    ['another timestamp', METADATA.replace('1710150000', '1710150001'), 'timestamp does not match server metadata'],
    ['another device', METADATA.replace('pre-device=husky', 'pre-device=shiba'), 'device mismatch'],
    ['a serial number constraint', `${METADATA}\nserialno=123`, 'serialno constraint not permitted'],
    ['a non-A/B package', METADATA.replace('ota-type=AB', 'ota-type=BLOCK'), 'package is not an A/B update'],
    [
      'no streaming property files',
      METADATA.replace(/ota-streaming-property-files=.*\n/, ''),
      'NullPointerException: no ota-streaming-property-files',
    ],
    [
      'an empty post-timestamp',
      METADATA.replace('post-timestamp=1710150000', 'post-timestamp='),
      'ArrayIndexOutOfBoundsException',
    ],
  ])('%s is refused', (_, metadata, reason) => {
    expect(checkGrapheneZipMetadata(metadata, 1710150000, PHONE)).toBe(reason);
  });
});
