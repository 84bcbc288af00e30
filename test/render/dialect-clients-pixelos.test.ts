// PixelOS's readers, transcribed in test/helpers/dialects/pixelos.ts: the PixelOS 15 `response`
// file (org.json, record by record) on PixelOS's official device files, and the strict feed
// (kotlinx, validated as a whole) on the shape its README documents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PIXELOS_FEED,
  PIXELOS_FEED_INCREMENTAL,
  PIXELOS_FEED_MAX_BYTES,
  decodePixelOs15,
  decodePixelOsFeed,
  pixelOs15Offers,
  pixelOsFeedOffers,
} from '../helpers/dialects/pixelos.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const listing = (name: string) => fixture(`dialect-listings/${name}`);
const realListing = (name: string) => fixture(`real-listings/${name}`);

describe('PixelOS 15 reader on the official device files', () => {
  it('fifteen beryllium: a datetime written as text is read as a number', () => {
    const updates = decodePixelOs15(listing('pixelos-fifteen-beryllium.json'));
    expect(updates).toEqual([
      {
        timestamp: 1733221759,
        name: 'PixelOS_beryllium-15.0-20241203-1030.zip',
        downloadId: '71e1a5e31d832245280721c28b85b02644e38313e1cb9ea82ed6df1d0097a908',
        fileSize: 2043998350,
        downloadUrl:
          'https://sourceforge.net/projects/pixelos-releases/files/fifteen/beryllium/' +
          'PixelOS_beryllium-15.0-20241203-1030.zip',
        version: '15',
        stream: false,
        streamUrl: '',
      },
    ]);
    expect(pixelOs15Offers(updates![0], { buildDate: 1733221758 })).toBe(true);
    expect(pixelOs15Offers(updates![0], { buildDate: 1733221759 })).toBe(false);
  });

  it('fifteen aston: one build', () => {
    const updates = decodePixelOs15(listing('pixelos-fifteen-aston.json'));
    expect(updates?.map((u) => [u.name, u.timestamp, u.fileSize])).toEqual([
      ['PixelOS_aston-15.0-20250227-1011.zip', 1740650982, 2703064432],
    ]);
  });

  it('sixteen gauguin: a numeric version read as its text, stream fields, unknown additional_images', () => {
    expect(decodePixelOs15(listing('pixelos-sixteen-gauguin.json'))).toEqual([
      {
        timestamp: 1781031528,
        name: 'PixelOS_gauguin-16.2-20260609-1900.zip',
        downloadId: '1b6672715f0178c9a1d4b2a64e6af0b1b961ab4965d17aae23ac2bd335bc90be',
        fileSize: 2663664771,
        downloadUrl: 'https://download.pixelos.net/sixteen/gauguin/PixelOS_gauguin-16.2-20260609-1900.zip',
        version: '16',
        stream: false,
        streamUrl: 'https://download.pixelos.net/sixteen/gauguin/PixelOS_gauguin-16.2-20260609-1900.zip',
      },
    ]);
  });

  it('the PixelExperience-shaped G.json has no response array: the whole answer fails', () => {
    expect(decodePixelOs15(realListing('pixelos-G.json'))).toBeUndefined();
  });

  it('each record stands alone: a missing id, or a payload that is not an array, drops that record only', () => {
    const record = { datetime: '1700000000', filename: 'a.zip', id: 'x', size: 1, url: 'https://e.org/a', version: 15 };
    const records = [
      { ...record, id: undefined },
      { ...record, payload: {} },
      { ...record, filename: 'b.zip' },
    ];
    const text = JSON.stringify({ response: records });
    expect(decodePixelOs15(text)?.map((u) => u.name)).toEqual(['b.zip']);
  });

  it('payload: the first object, its offset and the other keys as key=value; stream read from "true" text', () => {
    const text = JSON.stringify({
      response: [
        {
          datetime: 1,
          filename: 'a.zip',
          id: 'x',
          size: 1,
          url: 'u',
          version: '15',
          stream: 'TRUE',
          payload: [{ offset: '4088', FILE_SIZE: 2, METADATA_HASH: 'm' }, 'ignored'],
        },
      ],
    });
    expect(decodePixelOs15(text)?.[0]).toMatchObject({
      stream: true,
      payloadOffset: 4088,
      payloadProperties: ['FILE_SIZE=2', 'METADATA_HASH=m'],
    });
  });

  it('a BOM is skipped and comments are read as org.json reads them', () => {
    const record = '{"datetime": 5, "filename": "a.zip", "id": "x", "size": 1, "url": "u", "version": 15}';
    const text = `\ufeff/* PixelOS */{"response": [${record}]}`;
    expect(decodePixelOs15(text)?.map((u) => u.version)).toEqual(['15']);
  });
});

/**
 * The example feed of the updater's README (PixelOS-AOSP/android_packages_apps_Updater README.md at
 * 364825391074a8213355099f6a55ac0f32a14f43).
 */
const FEED_ENTRY = {
  datetime: 1781858358,
  files: [
    {
      filename: 'PixelOS_device-17.0-20260619-0000.zip',
      os_patch_level: '2026-06-01',
      os_sdk_level: 36,
      ota_property_files:
        'payload_metadata.bin:4662:187245,payload.bin:191907:1926080000,payload_properties.txt:1926271907:156',
      sha256: '11468fc263696b8bc0afd35861c35d62a562ba29722447a3972c39f0023deb7f',
      size: 1926282058,
      url: 'https://downloads.example.org/device/PixelOS_device-17.0-20260619-0000.zip',
    },
  ],
  type: 'ci',
  version: '17.0',
};
const INCREMENTAL_FILE = {
  ...FEED_ENTRY.files[0],
  filename: 'incremental.zip',
  sha256: 'aa'.repeat(32),
  size: 300000000,
  ota_property_files: 'payload_metadata.bin:0:10,payload.bin:10:100,payload_properties.txt:110:10',
  url: 'https://downloads.example.org/device/incremental.zip',
};
const feed = (...entries: object[]) => JSON.stringify(entries);
const withFile = (changes: object) => feed({ ...FEED_ENTRY, files: [{ ...FEED_ENTRY.files[0], ...changes }] });
const PHONE = { buildDate: 1781858357, sdkLevel: 36, isAB: true };

describe('the strict PixelOS feed', () => {
  it("reads the README's example: one full build, its three payload ranges", () => {
    const updates = decodePixelOsFeed(feed(FEED_ENTRY), PIXELOS_FEED);
    expect(updates).toEqual([
      {
        downloadId: '11468fc263696b8bc0afd35861c35d62a562ba29722447a3972c39f0023deb7f',
        name: 'PixelOS_device-17.0-20260619-0000.zip',
        timestamp: 1781858358,
        fileSize: 1926282058,
        downloadUrl: 'https://downloads.example.org/device/PixelOS_device-17.0-20260619-0000.zip',
        version: '17.0',
        osPatchLevel: '2026-06-01',
        osSdkLevel: 36,
        ranges: {
          'payload_metadata.bin': { offset: 4662, size: 187245 },
          'payload.bin': { offset: 191907, size: 1926080000 },
          'payload_properties.txt': { offset: 1926271907, size: 156 },
        },
        incremental: false,
      },
    ]);
    expect(pixelOsFeedOffers(updates!, PHONE)).toHaveLength(1);
    expect(pixelOsFeedOffers(updates!, { ...PHONE, buildDate: 1781858358 })).toHaveLength(0);
    expect(pixelOsFeedOffers(updates!, { ...PHONE, sdkLevel: 37 })).toHaveLength(0);
  });

  it('the legacy response wrapper, and a PixelOS 15 file, are not accepted', () => {
    expect(decodePixelOsFeed(JSON.stringify({ response: [FEED_ENTRY] }), PIXELOS_FEED)).toBeUndefined();
    expect(decodePixelOsFeed(listing('pixelos-sixteen-gauguin.json'), PIXELOS_FEED)).toBeUndefined();
  });

  it.each([
    ['no files', { ...FEED_ENTRY, files: [] }],
    ['two files', { ...FEED_ENTRY, files: [FEED_ENTRY.files[0], FEED_ENTRY.files[0]] }],
    ['a blank version', { ...FEED_ENTRY, version: ' ' }],
    ['a zero datetime', { ...FEED_ENTRY, datetime: 0 }],
    ['a numeric version', { ...FEED_ENTRY, version: 17 }],
  ])('one bad entry (%s) loses the whole answer', (_, bad) => {
    expect(decodePixelOsFeed(feed(FEED_ENTRY, bad), PIXELOS_FEED)).toBeUndefined();
  });

  it.each([
    ['an upper-case sha256', { sha256: FEED_ENTRY.files[0].sha256.toUpperCase() }],
    ['an MD5 for sha256', { sha256: '5586801589a6932c5e84a754b097cd40' }],
    ['an http URL', { url: 'http://downloads.example.org/a.zip' }],
    ['a relative URL', { url: '/a.zip' }],
    ['a URL with a space', { url: 'https://downloads.example.org/a b.zip' }],
    ['a zero os_sdk_level', { os_sdk_level: 0 }],
    ['a blank os_patch_level', { os_patch_level: '' }],
    [
      'a range past the end of the package',
      { ota_property_files: 'payload_metadata.bin:0:1,payload.bin:1:1926282058,payload_properties.txt:0:1' },
    ],
    ['ranges without payload.bin', { ota_property_files: 'payload_metadata.bin:0:1,payload_properties.txt:1:1' }],
    ['a range that is not name:offset:size', { ota_property_files: 'payload_metadata.bin:0' }],
    ['a size that is a string of words', { size: 'big' }],
  ])('a file with %s loses the whole answer', (_, changes) => {
    expect(decodePixelOsFeed(withFile(changes), PIXELOS_FEED)).toBeUndefined();
  });

  it('kotlinx leniencies still apply: quoted numbers, unknown keys, a null ota_property_files', () => {
    const text = feed({ ...FEED_ENTRY, datetime: '1781858358', additional_images: [{ name: 'boot.img' }] }).replace(
      '"size":1926282058',
      '"size":"1926282058"',
    );
    expect(decodePixelOsFeed(text, PIXELOS_FEED)?.[0].timestamp).toBe(1781858358);
    expect(decodePixelOsFeed(withFile({ ota_property_files: null }), PIXELOS_FEED)?.[0].ranges).toEqual({});
  });

  it('a BOM, read by decodeToString and handed to kotlinx, loses the whole answer', () => {
    expect(decodePixelOsFeed(`\ufeff${feed(FEED_ENTRY)}`, PIXELOS_FEED)).toBeUndefined();
  });

  it('more than 1 MiB of body is refused, padding included', () => {
    const text = feed(FEED_ENTRY);
    expect(decodePixelOsFeed(text + ' '.repeat(PIXELOS_FEED_MAX_BYTES - text.length), PIXELOS_FEED)).toHaveLength(1);
    const over = text + ' '.repeat(PIXELOS_FEED_MAX_BYTES - text.length + 1);
    expect(decodePixelOsFeed(over, PIXELOS_FEED)).toBeUndefined();
  });

  it('incremental: ignored by the state without it, read and validated by the state with it', () => {
    const withDelta = feed({ ...FEED_ENTRY, incremental: [INCREMENTAL_FILE] });
    const names = decodePixelOsFeed(withDelta, PIXELOS_FEED)?.map((u) => u.name);
    expect(names).toEqual(['PixelOS_device-17.0-20260619-0000.zip']);
    const updates = decodePixelOsFeed(withDelta, PIXELOS_FEED_INCREMENTAL);
    expect(updates?.map((u) => [u.name, u.incremental])).toEqual([
      ['PixelOS_device-17.0-20260619-0000.zip', false],
      ['incremental.zip', true],
    ]);
    expect(pixelOsFeedOffers(updates!, PHONE).map((u) => u.name)).toEqual(['PixelOS_device-17.0-20260619-0000.zip']);
    expect(pixelOsFeedOffers(updates!, { ...PHONE, incrementalUpdates: true }).map((u) => u.name)).toEqual([
      'PixelOS_device-17.0-20260619-0000.zip',
      'incremental.zip',
    ]);
    expect(pixelOsFeedOffers(updates!, { ...PHONE, isAB: false, incrementalUpdates: true })).toHaveLength(1);
    const twoDeltas = feed({ ...FEED_ENTRY, incremental: [INCREMENTAL_FILE, INCREMENTAL_FILE] });
    expect(decodePixelOsFeed(twoDeltas, PIXELOS_FEED_INCREMENTAL)).toBeUndefined();
    expect(decodePixelOsFeed(twoDeltas, PIXELOS_FEED)).toHaveLength(1);
    expect(decodePixelOsFeed(feed({ ...FEED_ENTRY, incremental: null }), PIXELOS_FEED_INCREMENTAL)).toHaveLength(1);
  });
});
