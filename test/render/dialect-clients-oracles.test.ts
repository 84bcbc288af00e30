// The oracle table of test/helpers/dialects/oracles.ts: each dialect, run on a real file of its own
// ROM, offers the builds read from that file to a phone built just before them, nothing to a phone
// of that very build, and fails (or offers nothing) on a file of another dialect.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dialectOracles, type DialectName, type DialectPhone } from '../helpers/dialects/index.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** dialect, its file, a phone built just before the build, the build's time, the names offered. */
const rows: [DialectName, string, DialectPhone, number, string[]][] = [
  [
    'crdroidJava',
    'dialect-listings/crdroid-14.0-Pong.json',
    { buildDate: 0 },
    1722334076,
    ['crDroidAndroid-14.0-20240730-Pong-v10.6.zip'],
  ],
  [
    'evolutionxUdc',
    'dialect-listings/evolutionx-udc-Pong.json',
    { buildDate: 0 },
    1729232661,
    ['EvolutionX-14.0-20241018-Pong-v9.5-Official.zip'],
  ],
  [
    'evolutionxVic',
    'dialect-listings/evolutionx-udc-Pong.json',
    { buildDate: 0 },
    1729232661,
    ['EvolutionX-14.0-20241018-Pong-v9.5-Official.zip'],
  ],
  [
    'alphadroid',
    'dialect-listings/crdroid-14.0-Pong.json',
    { buildDate: 0, buildType: 'Monthly' },
    1722334076,
    ['crDroidAndroid-14.0-20240730-Pong-v10.6.zip'],
  ],
  [
    'cherishos',
    'dialect-listings/cherishos-udc-RMX1851.json',
    { buildDate: 0 },
    1668752301,
    ['Cherish-OS-v4.2-20221118-0621-RMX1851-OFFICIAL-GApps.zip'],
  ],
  [
    'matrixx',
    'dialect-listings/matrixx-14.0-beryllium.json',
    { buildDate: 0 },
    1729297345,
    ['Matrixx-v10.9.0-Official-beryllium-Gapps-20241019.zip'],
  ],
  [
    'infinityx',
    'dialect-listings/infinityx-15-vanilla-begonia.json',
    { buildDate: 0 },
    1751793962,
    ['Project_Infinity-X-2.9-begonia-20250706-0933-VANILLA-OFFICIAL.zip'],
  ],
  [
    'voltageos',
    'dialect-listings/voltageos-14-X00T.json',
    { buildDate: 0 },
    1707718000,
    ['voltage-3.2-X00T-20240212-0612-OFFICIAL.zip'],
  ],
  [
    'crdroidKotlin',
    'dialect-listings/crdroid-14.0-Pong.json',
    { buildDate: 0 },
    1722334076,
    ['crDroidAndroid-14.0-20240730-Pong-v10.6.zip'],
  ],
  [
    'derpfest',
    'dialect-listings/derpfest-Pong.json',
    { buildDate: 0 },
    1783773153,
    ['DerpFest-v16.2-20260712-Pong-Official-Stable.zip'],
  ],
  [
    'pixelos15',
    'dialect-listings/pixelos-sixteen-gauguin.json',
    { buildDate: 0 },
    1781031528,
    ['PixelOS_gauguin-16.2-20260609-1900.zip'],
  ],
  [
    'pixelexperience',
    'dialect-listings/pixelos-thirteen-sweet-pixelexperience.json',
    { buildDate: 0, version: 'thirteen' },
    1683565725,
    ['PixelOS_sweet-13.0-20230508-1803.zip'],
  ],
  [
    'aospaHub',
    'dialect-listings/aospa-topaz-marble',
    { buildDate: 0, version: '1', androidVersion: '13' },
    1696920899,
    ['aospa-topaz-1-marble-20231010.zip'],
  ],
];

describe('each dialect on a file of its own', () => {
  it.each(rows)('%s reads %s', (dialect, path, phone, built, names) => {
    const text = fixture(path);
    expect(dialectOracles[dialect](text, { ...phone, buildDate: built - 1 })).toEqual(names);
    expect(dialectOracles[dialect](text, { ...phone, buildDate: built })).toEqual([]);
  });

  it('aospaCompose: the newest stable build of the phone, served as text/plain only', () => {
    const text = fixture('dialect-listings/aospa-topaz-phone1');
    const phone = { buildDate: 0, version: '7.1', androidVersion: '13', contentType: 'text/plain; charset=utf-8' };
    expect(dialectOracles.aospaCompose(text, phone)).toEqual(['aospa-topaz-8-phone1-20230814.zip']);
    expect(dialectOracles.aospaCompose(text, { ...phone, contentType: 'application/json' })).toBeUndefined();
  });

  it('grapheneos: the full update named from the line', () => {
    const phone = { buildDate: 1, device: 'husky', incremental: '1', channel: 'stable' };
    expect(dialectOracles.grapheneos('2024031100 1710150000 husky stable\n', phone)).toEqual([
      'husky-ota_update-2024031100.zip',
    ]);
    const current = { ...phone, buildDate: 1710150000 };
    expect(dialectOracles.grapheneos('2024031100 1710150000 husky stable\n', current)).toEqual([]);
  });
});

describe('a file of another dialect', () => {
  it.each([
    ['derpfest', 'dialect-listings/crdroid-14.0-Pong.json'],
    ['crdroidKotlin', 'dialect-listings/derpfest-Pong.json'],
    ['pixelosFeed', 'dialect-listings/pixelos-fifteen-aston.json'],
    ['pixelexperience', 'dialect-listings/derpfest-Pong.json'],
    ['aospaHub', 'dialect-listings/crdroid-14.0-Pong.json'],
    ['pixelos15', 'dialect-listings/aospa-topaz-marble'],
  ] as [DialectName, string][])('%s refuses %s', (dialect, path) => {
    expect(dialectOracles[dialect](fixture(path), { buildDate: 0 })).toBeUndefined();
  });

  it.each([
    ['crdroidJava', 'dialect-listings/derpfest-Pong.json'],
    ['voltageos', 'dialect-listings/pixelos-fifteen-aston.json'],
  ] as [DialectName, string][])('%s keeps no record of %s', (dialect, path) => {
    expect(dialectOracles[dialect](fixture(path), { buildDate: 0 })).toEqual([]);
  });
});
