// The Java `{"response": [...]}` readers (crDroid 11.0–14.0, Evolution X, AlphaDroid, Matrixx,
// VoltageOS) transcribed in test/helpers/dialects/crdroid-java.ts, checked on real listings of
// their ROMs and on the org.json leniencies and getString strictness their phones live by.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decodeJavaResponse,
  javaResponseOffers,
  javaResponseReaders as readers,
  type JavaResponseReader,
} from '../helpers/dialects/crdroid-java.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const listing = (name: string) => fixture(`dialect-listings/${name}`);
const realListing = (name: string) => fixture(`real-listings/${name}`);
const offeredNames = (text: string, buildDate: number, reader: JavaResponseReader, buildType?: string) =>
  javaResponseOffers(text, { buildDate, buildType }, reader)?.map((u) => u.name);

/** A record every Java reader accepts: the six build fields and crDroid's ten shown keys. */
const FULL = {
  filename: 'crDroidAndroid-14.0-20240101-dev-v10.0.zip',
  download: 'https://example.org/dev.zip',
  timestamp: 1704067200,
  md5: '0123456789abcdef0123456789abcdef',
  size: 1000,
  version: '10.0',
  maintainer: 'm',
  buildtype: 'Monthly',
  forum: '',
  telegram: '',
  gapps: '',
  firmware: '',
  modem: '',
  bootloader: '',
  recovery: '',
  paypal: '',
};
const answer = (...records: object[]) => JSON.stringify({ response: records });
const without = (key: string) => Object.fromEntries(Object.entries(FULL).filter(([k]) => k !== key));

describe('real listings, read by their own updaters', () => {
  it('crDroid 14.0 Pong: one build, offered to a phone built before it', () => {
    const text = listing('crdroid-14.0-Pong.json');
    expect(decodeJavaResponse(text, readers.crdroid)).toEqual([
      {
        timestamp: 1722334076,
        name: 'crDroidAndroid-14.0-20240730-Pong-v10.6.zip',
        downloadId: '66a37c45a65d3fbaf4c5ee23cdb190da',
        fileSize: 1912193559,
        downloadUrl:
          'https://sourceforge.net/projects/crdroid/files/Pong/10.x/' +
          'crDroidAndroid-14.0-20240730-Pong-v10.6.zip/download',
        version: '10.6',
        shown: {
          maintainer: '',
          buildtype: 'Monthly',
          forum: 'https://xdaforums.com/t/rom-14-0-official-pong-crdroid-v10-6.4681514/',
          telegram: 'https://t.me/ghost_pong',
          gapps: 'https://nikgapps.com/crdroid-official',
          firmware: '',
          modem: '',
          bootloader: '',
          recovery: 'https://sourceforge.net/projects/crdroid/files/Pong/10.x/recovery/',
          paypal: '',
        },
      },
    ]);
    expect(offeredNames(text, 1722334075, readers.crdroid)).toEqual(['crDroidAndroid-14.0-20240730-Pong-v10.6.zip']);
    expect(offeredNames(text, 1722334076, readers.crdroid)).toEqual([]);
  });

  it('crDroid 13.0 Mi439: one build, md5 as its id', () => {
    const [update] = decodeJavaResponse(listing('crdroid-13.0-Mi439.json'), readers.crdroid) ?? [];
    expect(update).toMatchObject({
      timestamp: 1698253190,
      name: 'crDroidAndroid-13.0-20231025-Mi439-v9.10.zip',
      downloadId: 'dcb232f7634cd326a0ea68b52dcb9cd2',
      fileSize: 1044325707,
      version: '9.10',
      shown: {
        buildtype: 'Weekly',
        gapps: '',
        recovery: 'https://sourceforge.net/projects/crdroid/files/Mi439/9.x/recovery.img/download',
      },
    });
  });

  it("Evolution X udc Pong: offered by both Evolution X branches, dropped by crDroid's (no gapps, modem, ...)", () => {
    const text = listing('evolutionx-udc-Pong.json');
    const name = 'EvolutionX-14.0-20241018-Pong-v9.5-Official.zip';
    expect(offeredNames(text, 1729232660, readers.evolutionxUdc)).toEqual([name]);
    expect(offeredNames(text, 1729232660, readers.evolutionxVic)).toEqual([name]);
    expect(decodeJavaResponse(text, readers.evolutionxUdc)?.[0]).toMatchObject({
      downloadId: '6e54e614650b9790f2ed102c44b4d3a2',
      fileSize: 2926664540,
      version: '9.5',
      shown: { buildtype: 'Release', maintainer: 'AgBKartikey', paypal: 'https://www.paypal.com/paypalme/anierinb' },
    });
    expect(decodeJavaResponse(text, readers.crdroid)).toEqual([]);
  });

  it('Evolution X vic bangkk: offered by vic and udc (buildtype present), dropped by crDroid 14.0 (no gapps)', () => {
    const text = listing('evolutionx-vic-bangkk.json');
    const name = 'EvolutionX-15.0-20250921-bangkk-10.9-Official.zip';
    expect(offeredNames(text, 1758430976, readers.evolutionxVic)).toEqual([name]);
    expect(offeredNames(text, 1758430976, readers.evolutionxUdc)).toEqual([name]);
    expect(offeredNames(text, 1758430977, readers.evolutionxVic)).toEqual([]);
    expect(decodeJavaResponse(text, readers.evolutionxVic)?.[0]).toMatchObject({
      downloadId: '67b1ddc13a29daa2384b14ebb447504c',
      fileSize: 2733130032,
      downloadUrl: 'https://cdn.evolution-x.org/bangkk/15/EvolutionX-15.0-20250921-bangkk-10.9-Official.zip/download',
      version: '10.9',
      shown: { maintainer: 'Deivid Ignacio Parra (Deivid21)', firmware: '', paypal: 'https://www.paypal.me/Deivid21' },
    });
    expect(decodeJavaResponse(text, readers.crdroid)).toEqual([]);
  });

  it('Evolution X alioth (an empty forum is still a string): offered', () => {
    const text = realListing('evolutionx-alioth.json');
    expect(offeredNames(text, 0, readers.evolutionxUdc)).toEqual(['EvolutionX-14.0-20240611-alioth-v9.0-Official.zip']);
    expect(decodeJavaResponse(text, readers.evolutionxVic)?.[0].shown.forum).toBe('');
  });

  it('Matrixx beryllium, VoltageOS X00T: six fields are enough for them, not for crDroid 14.0, Evolution X', () => {
    const matrixx = listing('matrixx-14.0-beryllium.json');
    expect(decodeJavaResponse(matrixx, readers.matrixx)).toEqual([
      {
        timestamp: 1729297345,
        name: 'Matrixx-v10.9.0-Official-beryllium-Gapps-20241019.zip',
        downloadId: '3ee7559a1b26dc3b04fcc2a596957823',
        fileSize: 1755847617,
        downloadUrl:
          'https://sourceforge.net/projects/projectmatrixx/files/Android-14/beryllium/' +
          'Matrixx-v10.9.0-Official-beryllium-Gapps-20241019.zip/download',
        version: 'v10.9.0',
        shown: {},
      },
    ]);
    expect(decodeJavaResponse(matrixx, readers.crdroid)).toEqual([]);
    expect(decodeJavaResponse(matrixx, readers.evolutionxVic)).toEqual([]);
    const voltage = listing('voltageos-14-X00T.json');
    expect(offeredNames(voltage, 1707717999, readers.voltageos)).toEqual([
      'voltage-3.2-X00T-20240212-0612-OFFICIAL.zip',
    ]);
    expect(decodeJavaResponse(voltage, readers.voltageos)?.[0]).toMatchObject({
      downloadId: 'a64f3e8af3ece896556ce792296dbdaf',
      fileSize: 1149165311,
      version: '3.2',
    });
  });
});

describe('CherishOS and Project Infinity-X', () => {
  it('CherishOS udc RMX1851: a leading blank line, a numeric version read as the text of a Java Double', () => {
    const text = listing('cherishos-udc-RMX1851.json');
    expect(decodeJavaResponse(text, readers.cherishos)).toEqual([
      {
        timestamp: 1668752301,
        name: 'Cherish-OS-v4.2-20221118-0621-RMX1851-OFFICIAL-GApps.zip',
        downloadId: '403c318ab8be32646ecd83a68f308d97',
        fileSize: 1781246052,
        downloadUrl:
          'https://sourceforge.net/projects/cherish-os/files/device/RMX1851/' +
          'Cherish-OS-v4.2-20221118-0621-RMX1851-OFFICIAL-GApps.zip/download',
        version: '4.2',
        shown: {
          maintainer: 'Cykeek',
          buildtype: 'Active Development Releases',
          forum: 'https://t.me/cherishOS',
          telegram: 'https://t.me/CykeekBuilds',
          gapps: '',
          firmware: '',
          modem: '',
          bootloader: '',
          recovery: 'https://pitchblackrecovery.com/RMX1851',
          paypal: 'https://www.paypal.me/phandinhhung2001',
        },
      },
    ]);
    expect(offeredNames(text, 1668752300, readers.cherishos)).toEqual([
      'Cherish-OS-v4.2-20221118-0621-RMX1851-OFFICIAL-GApps.zip',
    ]);
  });

  it('Infinity-X 15 begonia: six fields, offered by its reader, dropped by crDroid 14.0 and CherishOS', () => {
    const text = listing('infinityx-15-vanilla-begonia.json');
    const name = 'Project_Infinity-X-2.9-begonia-20250706-0933-VANILLA-OFFICIAL.zip';
    expect(offeredNames(text, 1751793961, readers.infinityx)).toEqual([name]);
    expect(offeredNames(text, 1751793962, readers.infinityx)).toEqual([]);
    expect(decodeJavaResponse(text, readers.infinityx)?.[0]).toMatchObject({
      downloadId: '3f2697ddc3d3fa446bfee9d7f6465fda',
      fileSize: 1673449885,
      version: '2.9',
    });
    expect(decodeJavaResponse(text, readers.crdroid)).toEqual([]);
    expect(decodeJavaResponse(text, readers.cherishos)).toEqual([]);
  });
});

describe('which keys each reader requires', () => {
  it.each([
    ['crdroid', 'gapps', false],
    ['crdroid', 'telegram', false],
    ['evolutionxUdc', 'buildtype', false],
    ['evolutionxVic', 'buildtype', true],
    ['evolutionxVic', 'firmware', false],
    ['evolutionxUdc', 'telegram', true],
    ['matrixx', 'maintainer', true],
    ['voltageos', 'md5', false],
    ['voltageos', 'timestamp', false],
  ] as const)('%s without %s: kept %s', (reader, key, kept) => {
    expect(decodeJavaResponse(answer(without(key)), readers[reader])?.length).toBe(kept ? 1 : 0);
  });

  it('a record lacking a key is dropped alone; the others stay', () => {
    const other = { ...FULL, md5: 'ffffffffffffffffffffffffffffffff', filename: 'b.zip' };
    const kept = decodeJavaResponse(answer(without('firmware'), other), readers.crdroid);
    expect(kept?.map((u) => u.name)).toEqual(['b.zip']);
  });

  it('no response array, or no object at all, fails the whole answer', () => {
    expect(decodeJavaResponse('{"responses": []}', readers.crdroid)).toBeUndefined();
    expect(decodeJavaResponse('{"response": {}}', readers.crdroid)).toBeUndefined();
    expect(decodeJavaResponse('[]', readers.crdroid)).toBeUndefined();
    expect(decodeJavaResponse('', readers.crdroid)).toBeUndefined();
    expect(decodeJavaResponse('{"response": []}', readers.crdroid)).toEqual([]);
  });

  it('null elements are skipped and an element that is not an object is dropped', () => {
    const text = `{"response": [null, 1, "x", ${JSON.stringify(FULL)},]}`;
    expect(decodeJavaResponse(text, readers.crdroid)?.length).toBe(1);
  });
});

describe("org.json's leniency, as the phone reads", () => {
  it('a number where a string is read gives its text; an integral double keeps its ".0"', () => {
    const text = answer({ ...FULL, version: 10, md5: 12345678901 })
      .replace('"m"', '1.5e10')
      .replace('"paypal":""', '"paypal":2.0');
    const [update] = decodeJavaResponse(text, readers.crdroid) ?? [];
    expect(update.version).toBe('10');
    expect(update.downloadId).toBe('12345678901');
    expect(update.shown.maintainer).toBe('1.5E10');
    expect(update.shown.paypal).toBe('2.0');
  });

  it('JSON null read with getString is the text "null", not a missing key', () => {
    expect(decodeJavaResponse(answer({ ...FULL, forum: null }), readers.crdroid)?.[0].shown.forum).toBe('null');
  });

  it('true, an object or an array read with getString gives their text', () => {
    const text = answer({ ...FULL, gapps: true, modem: { a: '/' }, bootloader: [1, 2.5] });
    const [update] = decodeJavaResponse(text, readers.crdroid) ?? [];
    expect(update.shown).toMatchObject({ gapps: 'true', modem: '{"a":"\\/"}', bootloader: '[1,2.5]' });
  });

  it('getLong reads a numeric string, truncates a fraction, and drops the record for other text', () => {
    const read = (timestamp: unknown) =>
      decodeJavaResponse(answer({ ...FULL, timestamp }), readers.crdroid)?.[0]?.timestamp;
    expect(read('1704067200')).toBe(1704067200);
    expect(read(' 1704067200 ')).toBe(1704067200);
    expect(read('1.7040672E9')).toBe(1704067200);
    expect(read(1704067200.9)).toBe(1704067200);
    expect(read('1704067200d')).toBe(1704067200);
    expect(read('')).toBeUndefined();
    expect(read('soon')).toBeUndefined();
    expect(read(true)).toBeUndefined();
  });

  it('a leading BOM is skipped', () => {
    expect(decodeJavaResponse(`\ufeff${answer(FULL)}`, readers.crdroid)?.length).toBe(1);
  });

  it('unquoted values are strings, numbers or literals; single quotes, = and ; are accepted', () => {
    const text = `{response: [{filename: crDroid.zip; download = 'https://example.org/a.zip', timestamp: 0x65920080,
      md5 => 0123456789abcdef0123456789abcdef, size: 01750, version: 10.0, maintainer: NULL, buildtype: Monthly,
      forum: '', telegram: "", gapps: "", firmware: "", modem: "", bootloader: "", recovery: "", paypal: ""}]}`;
    const [update] = decodeJavaResponse(text, readers.crdroid) ?? [];
    expect(update).toMatchObject({
      name: 'crDroid.zip',
      downloadUrl: 'https://example.org/a.zip',
      timestamp: 0x65920080,
      downloadId: '0123456789abcdef0123456789abcdef',
      fileSize: 0o1750,
      version: '10.0',
      shown: { maintainer: 'null', buildtype: 'Monthly' },
    });
  });

  it('an unquoted URL stops at its slash: the whole answer fails', () => {
    const text = answer(FULL).replace('"https://example.org/dev.zip"', 'https://example.org/dev.zip');
    expect(decodeJavaResponse(text, readers.crdroid)).toBeUndefined();
  });

  it('block comments are whitespace; a line comment runs to the end of the file, since lines are joined', () => {
    const body = JSON.stringify(FULL);
    expect(decodeJavaResponse(`/* list */{"response": [/* one */${body}]}`, readers.crdroid)?.length).toBe(1);
    expect(decodeJavaResponse(`{"response": [${body}]}\n// trailing note`, readers.crdroid)?.length).toBe(1);
    expect(decodeJavaResponse(`{"response": [ // builds\n${body}]}`, readers.crdroid)).toBeUndefined();
    expect(decodeJavaResponse(`{"response": [ # builds\n${body}]}`, readers.crdroid)).toBeUndefined();
  });

  it('text after the object is not read; a trailing comma in an object fails, in an array adds a null', () => {
    expect(decodeJavaResponse(`${answer(FULL)} trailing words`, readers.crdroid)?.length).toBe(1);
    expect(decodeJavaResponse(answer(FULL).replace('"paypal":""}', '"paypal":"",}'), readers.crdroid)).toBeUndefined();
    expect(decodeJavaResponse(`{"response": [${JSON.stringify(FULL)},]}`, readers.crdroid)?.length).toBe(1);
  });

  it('a later duplicate key wins; NaN as a value fails the whole answer', () => {
    const twice = answer(FULL).replace('"version":"10.0"', '"version":"10.0","version":"11.0"');
    expect(decodeJavaResponse(twice, readers.crdroid)?.[0].version).toBe('11.0');
    expect(decodeJavaResponse(answer(FULL).replace('"size":1000', '"size":NaN'), readers.crdroid)).toBeUndefined();
  });

  it('an unknown escape is the character itself; a raw line break inside a string is removed with the line', () => {
    const text = answer(FULL).replace('"m"', '"a\\qb"').replace('"10.0"', '"10.\n0"');
    const [update] = decodeJavaResponse(text, readers.crdroid) ?? [];
    expect(update.shown.maintainer).toBe('aqb');
    expect(update.version).toBe('10.0');
  });
});

describe('offer rules', () => {
  it('newer than the phone only, unless downgrading is allowed (not on Matrixx or VoltageOS)', () => {
    const text = answer(FULL);
    expect(offeredNames(text, FULL.timestamp, readers.crdroid)).toEqual([]);
    const downgrading = { buildDate: FULL.timestamp, allowDowngrading: true };
    expect(javaResponseOffers(text, downgrading, readers.crdroid)?.length).toBe(1);
    expect(javaResponseOffers(text, downgrading, readers.matrixx)?.length).toBe(0);
  });

  it("AlphaDroid offers a build only to a phone of the record's buildtype", () => {
    const text = answer(FULL);
    expect(offeredNames(text, 0, readers.alphadroid, 'Monthly')).toEqual([FULL.filename]);
    expect(offeredNames(text, 0, readers.alphadroid, 'monthly')).toEqual([]);
    expect(offeredNames(text, 0, readers.alphadroid, '')).toEqual([]);
    expect(offeredNames(text, 0, readers.alphadroid)).toEqual([]);
  });

  it('one entry per md5: the first record stays, with the last download address', () => {
    const second = { ...FULL, filename: 'second.zip', download: 'https://example.org/second.zip' };
    const offers = javaResponseOffers(answer(FULL, second), { buildDate: 0 }, readers.crdroid);
    expect(offers?.map((u) => [u.name, u.downloadUrl])).toEqual([[FULL.filename, 'https://example.org/second.zip']]);
  });
});
