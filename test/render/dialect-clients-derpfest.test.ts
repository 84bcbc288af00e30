// DerpFest's Kotlin updater (LineageOS v1 records in a static file, read by kotlinx) and its device
// list, transcribed in test/helpers/dialects/derpfest.ts, checked on DerpFest's own files and on
// kotlinx's strictness and leniency.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DERPFEST_DEFAULT_TELEGRAM,
  decodeDerpFest,
  decodeDerpFestDeviceInfo,
  derpFestOffers,
} from '../helpers/dialects/derpfest.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const listing = (name: string) => fixture(`dialect-listings/${name}`);

const RECORD = {
  datetime: 1762798116,
  filename: 'DerpFest-v16.0-20251110-dev-Official-Stable.zip',
  id: '801f159a447d7b6327adc70894bf7da950e9e6c21cddbdcf1839a7ffa5d033c5',
  romtype: 'Official',
  size: 2313035170,
  url: 'https://example.org/dev.zip',
  version: 'v16.0',
};
const answer = (...records: object[]) => JSON.stringify({ response: records });
const withRaw = (key: string, raw: string) => answer(RECORD).replace(new RegExp(`"${key}":[^,}]*`), `"${key}":${raw}`);

describe("DerpFest's own files", () => {
  it('Pong: one build, offered to a phone built before it', () => {
    const updates = decodeDerpFest(listing('derpfest-Pong.json'));
    expect(updates).toEqual([
      {
        downloadId: '201c03f08381b3944477163dd6cfe603690b08b98d16eaafce54930b4d972e26',
        name: 'DerpFest-v16.2-20260712-Pong-Official-Stable.zip',
        timestamp: 1783773153,
        type: 'Official',
        fileSize: 3143842758,
        downloadUrl:
          'https://sourceforge.net/projects/pong-dev/files/DerpFest/16.2/Month_of_Freedom%28July%29/' +
          'DerpFest-v16.2-20260712-Pong-Official-Stable.zip/download',
        version: 'v16.2',
      },
    ]);
    expect(derpFestOffers(updates![0], { buildDate: 1783773152 })).toBe(true);
    expect(derpFestOffers(updates![0], { buildDate: 1783773153 })).toBe(false);
    expect(derpFestOffers(updates![0], { buildDate: 1783773153, allowDowngrading: true })).toBe(true);
  });

  it('a505fn: its size is quoted, and kotlinx reads a quoted number as a Long', () => {
    expect(decodeDerpFest(listing('derpfest-a505fn-quoted-size.json'))).toEqual([
      {
        downloadId: '1f78be7f29323f4cec05e4c4bdf9410f204c940635203a6a012e9f77f2850498',
        name: 'DerpFest-12-Official-Shinju-a505fn-20220409.zip',
        timestamp: 1649525058,
        type: 'Official',
        fileSize: 1470062969,
        downloadUrl:
          'https://github.com/victor4cris/Releases/releases/download/Release/' +
          'DerpFest-12-Official-Shinju-a505fn-20220409.zip',
        version: '12',
      },
    ]);
  });

  it('device-info.json: the entry of the phone, blank support groups falling back to the default link', () => {
    const text = listing('derpfest-device-info.json');
    expect(decodeDerpFestDeviceInfo(text, 'a505fn')).toEqual({
      maintainer: 'A50-Victor',
      device: 'Samsung Galaxy A50',
      telegram: DERPFEST_DEFAULT_TELEGRAM,
    });
    expect(decodeDerpFestDeviceInfo(text, 'chime')).toEqual({
      maintainer: 'hac4us06',
      device: 'POCO M3 / Redmi 9T / Redmi 9 Power',
      telegram: 'https://t.me/ashhcafe',
    });
    expect(decodeDerpFestDeviceInfo(text, 'BLAZER')?.telegram).toBe('https://t.me/DerpP10');
    expect(decodeDerpFestDeviceInfo(text, 'no-such-phone')).toEqual({
      maintainer: null,
      device: null,
      telegram: DERPFEST_DEFAULT_TELEGRAM,
    });
  });
});

describe('kotlinx: what fails the whole answer', () => {
  it.each([['datetime'], ['filename'], ['id'], ['size'], ['url'], ['version']])('a record without %s', (key) => {
    const record = Object.fromEntries(Object.entries(RECORD).filter(([k]) => k !== key));
    expect(decodeDerpFest(answer(RECORD, record))).toBeUndefined();
  });

  it.each([
    ['a placeholder size', 'size', '""'],
    ['a size with a fraction', 'size', '1.5'],
    ['a size with a plus sign', 'size', '+5'],
    ['a size beyond a Long', 'size', '9223372036854775808'],
    ['a number where the id is read', 'id', '12345'],
    ['null where the url is read', 'url', 'null'],
    ['an unquoted version', 'version', 'v16'],
    ['a romtype that is a number', 'romtype', '1'],
  ])('%s', (_, key, raw) => {
    expect(decodeDerpFest(withRaw(key, raw))).toBeUndefined();
  });

  it('comments, trailing commas, single quotes and text after the object all fail', () => {
    expect(decodeDerpFest(`// list\n${answer(RECORD)}`)).toBeUndefined();
    expect(decodeDerpFest(answer(RECORD).replace('}]}', '},]}'))).toBeUndefined();
    expect(decodeDerpFest(answer(RECORD).replace('"version":"v16.0"', '"version":"v16.0",'))).toBeUndefined();
    expect(decodeDerpFest(answer(RECORD).replace('"v16.0"', "'v16.0'"))).toBeUndefined();
    expect(decodeDerpFest(`${answer(RECORD)} x`)).toBeUndefined();
    expect(decodeDerpFest('[]')).toBeUndefined();
    expect(decodeDerpFest('{"response": null}')).toBeUndefined();
    expect(decodeDerpFest('{"response": [null]}')).toBeUndefined();
  });
});

describe('kotlinx: what it accepts', () => {
  it('quoted numbers, exponents and leading zeros for a Long', () => {
    expect(decodeDerpFest(withRaw('size', '"123"'))?.[0].fileSize).toBe(123);
    expect(decodeDerpFest(withRaw('size', '1e3'))?.[0].fileSize).toBe(1000);
    expect(decodeDerpFest(withRaw('size', '0123'))?.[0].fileSize).toBe(123);
    expect(decodeDerpFest(withRaw('size', '"1.5e1"'))).toBeUndefined();
  });

  it('a leading BOM (consumed by OkHttp), a missing or null romtype, unknown keys with any well-formed value', () => {
    expect(decodeDerpFest(`\ufeff${answer(RECORD)}`)).toHaveLength(1);
    const { romtype: _, ...noType } = RECORD;
    expect(decodeDerpFest(answer(noType))?.[0].type).toBeNull();
    expect(decodeDerpFest(withRaw('romtype', 'null'))?.[0].type).toBeNull();
    expect(decodeDerpFest(answer({ ...RECORD, sha256: 5, extra: { a: [1] } }))).toHaveLength(1);
    expect(decodeDerpFest(answer(RECORD).replace('{"datetime"', '{"note":unquoted words,"datetime"'))).toBeUndefined();
    expect(decodeDerpFest(answer(RECORD).replace('{"datetime"', '{"note":unquoted,"datetime"'))).toHaveLength(1);
  });

  it('no response key is an empty list; a repeated key keeps the last value', () => {
    expect(decodeDerpFest('{}')).toEqual([]);
    const twice = answer(RECORD).replace('"version":"v16.0"', '"version":"a","version":"b"');
    expect(decodeDerpFest(twice)?.[0].version).toBe('b');
  });

  it('a malformed device list is refused as a whole, without failing the update check', () => {
    expect(decodeDerpFestDeviceInfo('{"devices": [{"codename": "a"}, {"maintainer": "x"}]}', 'a')).toBeUndefined();
    expect(decodeDerpFestDeviceInfo('{"devices": [{"codename": "a", "maintainer": "  "}]}', 'a')).toEqual({
      maintainer: null,
      device: null,
      telegram: DERPFEST_DEFAULT_TELEGRAM,
    });
  });
});
