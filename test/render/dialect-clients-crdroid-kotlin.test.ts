// crDroid's Kotlin updater read through kotlinx as phones read it (test/helpers/dialects/crdroid-kotlin.ts),
// beside format-clients.ts's decodeCrDroid, which refuses two answers these phones accept.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCrDroidKotlin } from '../helpers/dialects/crdroid-kotlin.js';
import { crDroidOffers, decodeCrDroid } from '../helpers/format-clients.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

describe("crDroid's Kotlin reader on real files", () => {
  it('crDroid 14.0 Pong: sha256 as the id, buildtype as the type, the device fields shown', () => {
    const updates = decodeCrDroidKotlin(fixture('dialect-listings/crdroid-14.0-Pong.json'));
    expect(updates).toHaveLength(1);
    expect(updates![0]).toMatchObject({
      downloadId: '0a417480e4b41f62ac4a5093ea80df75cfe5ad4d72814acb71bef414ca48983a',
      name: 'crDroidAndroid-14.0-20240730-Pong-v10.6.zip',
      timestamp: 1722334076,
      type: 'Monthly',
      fileSize: 1912193559,
      version: '10.6',
      osPatchLevel: null,
      osSdkLevel: null,
      shown: { md5: '66a37c45a65d3fbaf4c5ee23cdb190da', maintainer: '', telegram: 'https://t.me/ghost_pong' },
    });
    expect(crDroidOffers(updates![0], { buildDate: 1722334075 })).toBe(true);
    expect(crDroidOffers(updates![0], { buildDate: 1722334076 })).toBe(false);
  });

  it('the same answers as format-clients.ts on the crDroid akita listing', () => {
    const text = fixture('real-listings/crdroid-akita.json');
    const mine = decodeCrDroidKotlin(text)?.map(({ shown: _, ...update }) => update);
    expect(mine).toEqual(decodeCrDroid(text)?.updates);
  });

  it('Matrixx beryllium (no sha256) fails the whole answer', () => {
    expect(decodeCrDroidKotlin(fixture('dialect-listings/matrixx-14.0-beryllium.json'))).toBeUndefined();
  });
});

describe('where the phone accepts what format-clients.ts refuses', () => {
  const record = {
    filename: 'a.zip',
    download: 'https://example.org/a.zip',
    timestamp: 1700000000,
    sha256: 'ab'.repeat(32),
    size: 123,
    version: '11.0',
  };

  it('a quoted size or timestamp is read as a number', () => {
    const text = JSON.stringify({ response: [{ ...record, size: '123', timestamp: '1700000000' }] });
    expect(decodeCrDroidKotlin(text)?.[0]).toMatchObject({ fileSize: 123, timestamp: 1700000000 });
    expect(decodeCrDroid(text)).toBeUndefined();
  });

  it('a leading BOM is consumed by OkHttp before kotlinx reads', () => {
    const text = `\ufeff${JSON.stringify({ response: [record] })}`;
    expect(decodeCrDroidKotlin(text)).toHaveLength(1);
    expect(decodeCrDroid(text)).toBeUndefined();
  });

  it('still strict where kotlinx is: a numeric version, a fractional size, a comment', () => {
    expect(decodeCrDroidKotlin(JSON.stringify({ response: [{ ...record, version: 11 }] }))).toBeUndefined();
    expect(decodeCrDroidKotlin(JSON.stringify({ response: [{ ...record, size: 1.5 }] }))).toBeUndefined();
    expect(decodeCrDroidKotlin(`// crDroid\n${JSON.stringify({ response: [record] })}`)).toBeUndefined();
  });

  it('the bare-list state reads an array and refuses the wrapper', () => {
    expect(decodeCrDroidKotlin(JSON.stringify([record]), { wrapper: false })).toHaveLength(1);
    expect(decodeCrDroidKotlin(JSON.stringify({ response: [record] }), { wrapper: false })).toBeUndefined();
    expect(decodeCrDroidKotlin('{}')).toEqual([]);
  });
});
