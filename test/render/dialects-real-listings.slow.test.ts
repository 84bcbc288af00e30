// Real listings of each dialect (test/fixtures/dialect-listings/, its README names repository,
// path and commit), imported and built back in their dialect at the path their phones ask: the
// updater's own reading code (test/helpers/dialects/) decodes from the build what it decodes from
// the source, on every key it reads (crDroid's per-build links and PixelExperience's `news_url`
// included). The record's type (`buildtype`, `romtype`) is the list's name, which site.yaml writes
// in lower case: it comes back so, and these readers only show it (AlphaDroid, which compares it,
// is not among these listings).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';
import {
  decodeDerpFest,
  dialectOracles,
  decodeJavaResponse,
  decodePixelExperienceUpdate,
  decodePixelOs15,
  javaResponseReaders,
} from '../helpers/dialects/index.js';

const LISTINGS = path.join(ROOT, 'test/fixtures/dialect-listings');

const javaReader = (reader: keyof typeof javaResponseReaders) => (text: string) =>
  decodeJavaResponse(text, javaResponseReaders[reader])?.map((u) => ({
    ...u,
    shown: Object.fromEntries(Object.entries(u.shown).map(([k, v]) => [k, k === 'buildtype' ? v.toLowerCase() : v])),
  }));
const derpFest = (text: string) => decodeDerpFest(text)?.map((u) => ({ ...u, type: u.type?.toLowerCase() }));

/** file, device, the list imported into (the record's own `buildtype` or `romtype`), dialect, path, decoder. */
const UPDATER = '/API/updater/{device}.json';
const UDC = '/udc/builds/{device}.json';
const rows: [string, string, string, string, string, (text: string) => unknown][] = [
  ['crdroid-14.0-Pong.json', 'Pong', 'monthly', 'crdroid-java', '/{device}.json', javaReader('crdroid')],
  ['crdroid-13.0-Mi439.json', 'Mi439', 'weekly', 'crdroid-java', '/{device}.json', javaReader('crdroid')],
  ['evolutionx-udc-Pong.json', 'Pong', 'release', 'crdroid-java', UDC, javaReader('evolutionxUdc')],
  [
    'evolutionx-vic-bangkk.json',
    'bangkk',
    'official',
    'crdroid-java',
    '/vic/builds/{device}.json',
    javaReader('evolutionxVic'),
  ],
  ['derpfest-Pong.json', 'Pong', 'official', 'lineage-v1', '/{device}.json', derpFest],
  ['derpfest-a505fn-quoted-size.json', 'a505fn', 'official', 'lineage-v1', '/{device}.json', derpFest],
  ['axionos-gms-sweet.json', 'sweet', 'official', 'lineage-v1', '/OTA/GMS/{device}.json', derpFest],
  ['pixelos-fifteen-beryllium.json', 'beryllium', 'official', 'pixelos15', UPDATER, decodePixelOs15],
  ['pixelos-fifteen-aston.json', 'aston', 'official', 'pixelos15', UPDATER, decodePixelOs15],
  [
    'pixelos-thirteen-sweet-pixelexperience.json',
    'sweet',
    'official',
    'pixelexperience',
    UPDATER,
    // Read by PixelOS's fork of the updater, which the file was written for (`github_username`).
    (text) => decodePixelExperienceUpdate(text, 'pixelos-thirteen'),
  ],
];

describe('real listings built back in their own dialect', () => {
  const title = '%s (%s, list %s) as %s at %s';
  it.each(rows)(title, { timeout: 60_000 }, async (file, device, list, dialect, at, decode) => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content'));
    // Import takes the record's type as its channel too.
    const channels = [...new Set(['official', list])].join(', ');
    const site =
      `download_base_url: https://dl.example.org/builds\n` +
      `channels: [${channels}]\nlists:\n  ${list}: [${channels}]\n`;
    writeFileSync(path.join(root, 'content/site.yaml'), `${site}formats:\n  ${dialect}:\n    path: ${at}\n`);
    const source = path.join(LISTINGS, file);
    expect((await runMain(['import', source, '--device', device, '--list', list, '--root', root])).code).toBe(0);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const built = readFileSync(path.join(root, 'dist', at.replace('{device}', device)), 'utf8');
    const original = decode(readFileSync(source, 'utf8'));
    expect(original).toBeDefined();
    expect(decode(built)).toEqual(original);
  });
});

describe('an AlphaDroid listing, whose phones compare `buildtype` with ro.alpha.build.package', () => {
  it(
    'builds back with the format’s `buildtype`, offered to the phone whose package it names',
    { timeout: 60_000 },
    async () => {
      const root = tempProject();
      mkdirSync(path.join(root, 'content'));
      writeFileSync(
        path.join(root, 'content/site.yaml'),
        'download_base_url: https://dl.example.org/builds\nchannels: [official]\nlists:\n  official: [official]\n' +
          'formats:\n  crdroid-java:\n    path: /{device}.json\n    buildtype: Official\n',
      );
      const source = path.join(LISTINGS, 'alphadroid-mido.json');
      expect((await runMain(['import', source, '--device', 'mido', '--list', 'official', '--root', root])).code).toBe(
        0,
      );
      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const built = readFileSync(path.join(root, 'dist/mido.json'), 'utf8');
      const reader = javaResponseReaders.alphadroid;
      const original = decodeJavaResponse(readFileSync(source, 'utf8'), reader)!;
      expect(decodeJavaResponse(built, reader)).toEqual(original);
      const phone = { buildDate: 0, buildType: 'Official' };
      expect(dialectOracles.alphadroid(built, phone)).toEqual(['AlphaDroid-15-20250620-vanilla-mido-v3.2.1.zip']);
      expect(dialectOracles.alphadroid(built, { ...phone, buildType: 'official' })).toEqual([]);
    },
  );
});
