// Paranoid Android's two readers of `{"updates": [...]}`, transcribed in test/helpers/dialects/aospa.ts:
// the official Java Hub (first element only, org.json) and the Kotlin Compose Hub (text/* only,
// lenient kotlinx without unknown keys, String comparisons), on Paranoid Android's own files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aospaComposeOffers, aospaHubOffers, decodeAospaCompose, decodeAospaHub } from '../helpers/dialects/aospa.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const listing = (name: string) => fixture(`dialect-listings/${name}`);
const TEXT = 'text/plain; charset=utf-8';

describe('the Java Hub (uvite)', () => {
  it('phone1: only the first element is read', () => {
    const update = decodeAospaHub(listing('aospa-topaz-phone1'));
    expect(update).toEqual({
      fileName: 'aospa-topaz-8-phone1-20230814.zip',
      timestamp: 1691971200,
      fileSize: 2207860873,
      downloadUrl: 'https://builds.paranoidandroid.co/aospa-topaz-8-phone1-20230814.zip',
      androidVersion: '13',
      androidSpl: '2023-08-05',
      deviceChangelog: 'Fixed battery high usage in some cases',
      version: 'Topaz',
      versionNumber: '8',
      buildType: 'Stable',
      id: 'topaz-stable-8',
    });
    expect(aospaHubOffers(update!, { buildDate: 1690329600, versionNumber: '7.1', androidVersion: '13' })).toBe(true);
    expect(aospaHubOffers(update!, { buildDate: 1691971200, versionNumber: '8', androidVersion: '13' })).toBe(false);
    expect(aospaHubOffers(update!, { buildDate: 1691971200, versionNumber: '9', androidVersion: '12' })).toBe(true);
  });

  it('marble: one build', () => {
    expect(decodeAospaHub(listing('aospa-topaz-marble'))).toMatchObject({
      fileName: 'aospa-topaz-1-marble-20231010.zip',
      timestamp: 1696920899,
      fileSize: 2760399230,
    });
  });

  it('a bad first element hides the good ones after it; a null first element reads nothing', () => {
    const good = JSON.parse(listing('aospa-topaz-marble')).updates[0];
    const { id: _, ...noId } = good;
    expect(decodeAospaHub(JSON.stringify({ updates: [noId, good] }))).toBeUndefined();
    expect(decodeAospaHub(JSON.stringify({ updates: [null, good] }))).toBeUndefined();
    expect(decodeAospaHub(JSON.stringify({ updates: [good, null] }))?.id).toBe('topaz-stable-1');
  });

  it('numbers where strings are written, and strings where numbers are read, both pass org.json', () => {
    const good = JSON.parse(listing('aospa-topaz-marble')).updates[0];
    const changed = { ...good, version_code: 2, datetime: ' 1696920899', size: 2760399230 };
    const update = decodeAospaHub(JSON.stringify({ updates: [changed] }));
    expect(update).toMatchObject({ versionNumber: '2', timestamp: 1696920899, fileSize: 2760399230 });
  });

  it('a version code Float.parseFloat refuses fails the check', () => {
    const good = JSON.parse(listing('aospa-topaz-marble')).updates[0];
    const update = decodeAospaHub(JSON.stringify({ updates: [{ ...good, version_code: '1-beta' }] }));
    const phone = { buildDate: 1696920899, versionNumber: '1', androidVersion: '13' };
    expect(aospaHubOffers(update!, phone)).toBeUndefined();
  });
});

describe('the Compose Hub', () => {
  it('phone1: all fourteen builds, a stable phone on 7.1 shown build 8', () => {
    const updates = decodeAospaCompose(listing('aospa-topaz-phone1'), TEXT);
    expect(updates).toHaveLength(14);
    expect(updates?.[0]).toMatchObject({
      datetime: '1691971200',
      delta: '',
      size: '2207860873',
      version_code: '8',
      delta_sha256: '',
    });
    expect(updates?.[9].datetime).toBe(' 1676592000');
    const stable = { androidVersion: '13', beta: false };
    const shown = aospaComposeOffers(updates!, { ...stable, versionCode: '7.1', buildDate: '1690329600' });
    expect(shown?.filename).toBe('aospa-topaz-8-phone1-20230814.zip');
    expect(aospaComposeOffers(updates!, { ...stable, versionCode: '8', buildDate: '1691971200' })).toBeUndefined();
    const onAndroid14 = { ...stable, androidVersion: '14', versionCode: '1', buildDate: '0' };
    expect(aospaComposeOffers(updates!, onAndroid14)).toBeUndefined();
  });

  it('a beta phone is shown the Beta build newer than its own', () => {
    const updates = decodeAospaCompose(listing('aospa-topaz-phone1'), TEXT)!;
    const beta = { androidVersion: '13', versionCode: '0', beta: true };
    expect(aospaComposeOffers(updates, { ...beta, buildDate: '1673255647' })?.id).toBe('topaz-beta-1');
    expect(aospaComposeOffers(updates, { ...beta, buildDate: '1673255648' })).toBeUndefined();
  });

  it('version codes compare as Strings: "10" is below "9"', () => {
    const base = JSON.parse(listing('aospa-topaz-marble')).updates[0];
    const text = JSON.stringify({ updates: [{ ...base, version_code: '10' }] });
    const phone = { androidVersion: '13', versionCode: '9', buildDate: '0', beta: false };
    expect(aospaComposeOffers(decodeAospaCompose(text, TEXT)!, phone)).toBeUndefined();
  });

  it('only a text/* content type is read', () => {
    const text = listing('aospa-topaz-marble');
    expect(decodeAospaCompose(text, 'text/plain')).toHaveLength(1);
    expect(decodeAospaCompose(text, 'Text/Plain;charset=utf-8')).toHaveLength(1);
    expect(decodeAospaCompose(text, 'application/json')).toBeUndefined();
    expect(decodeAospaCompose(text, 'application/octet-stream')).toBeUndefined();
  });

  it('an unknown key anywhere fails the whole answer; a missing defaulted key does not', () => {
    const base = JSON.parse(listing('aospa-topaz-marble')).updates[0];
    expect(decodeAospaCompose(JSON.stringify({ updates: [{ ...base, sha256: 'x' }] }), TEXT)).toBeUndefined();
    expect(decodeAospaCompose(JSON.stringify({ updates: [base], error: false }), TEXT)).toBeUndefined();
    const { mirror: _m, telegram: _t, ...fewer } = base;
    const read = decodeAospaCompose(JSON.stringify({ updates: [fewer] }), TEXT);
    expect(read?.[0]).toMatchObject({ mirror: '', telegram: '' });
    const { size: _s, ...noSize } = base;
    expect(decodeAospaCompose(JSON.stringify({ updates: [noSize] }), TEXT)).toBeUndefined();
  });

  it('lenient: numbers and unquoted words are read as Strings; null only where nullable', () => {
    const base = JSON.parse(listing('aospa-topaz-marble')).updates[0];
    const numbers = JSON.stringify({ updates: [{ ...base, datetime: 1696920899, size: 2760399230 }] });
    expect(decodeAospaCompose(numbers, TEXT)?.[0]).toMatchObject({ datetime: '1696920899', size: '2760399230' });
    expect(decodeAospaCompose(JSON.stringify({ updates: [{ ...base, size: null }] }), TEXT)?.[0].size).toBeNull();
    expect(decodeAospaCompose(JSON.stringify({ updates: [{ ...base, version: null }] }), TEXT)).toBeUndefined();
    const unquoted = JSON.stringify({ updates: [base] }).replace('"version":"Topaz"', 'version:Topaz');
    expect(decodeAospaCompose(unquoted, TEXT)?.[0].version).toBe('Topaz');
  });
});
