// PixelExperience's updater transcribed in test/helpers/dialects/pixelexperience.ts: the single
// object read with org.json, and the two rules the app applies, isCompatible (listed) and
// canInstall (the Install button).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decodePixelExperienceUpdate,
  pixelExperienceCanInstall,
  pixelExperienceIsCompatible,
  pixelExperienceMaintainerCards,
} from '../helpers/dialects/pixelexperience.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const listing = (name: string) => fixture(`dialect-listings/${name}`);
const realListing = (name: string) => fixture(`real-listings/${name}`);

const BUILD = {
  datetime: 1700000000,
  filename: 'PixelExperience_dev-14.0-20231114.zip',
  id: '167c11a5554cbcbfbfbbe9f372159f6b',
  size: 1000,
  url: 'https://example.org/a.zip',
  version: 'fourteen',
  filehash: '167c11a5554cbcbfbfbbe9f372159f6b',
};

describe('real files', () => {
  it('PixelOS thirteen sweet (PixelExperience shape): every link, the maintainer by github_username on twelve', () => {
    const text = listing('pixelos-thirteen-sweet-pixelexperience.json');
    expect(decodePixelExperienceUpdate(text, 'twelve')).toEqual({
      timestamp: 1683565725,
      name: 'PixelOS_sweet-13.0-20230508-1803.zip',
      downloadId: '5586801589a6932c5e84a754b097cd40',
      fileSize: 2097031240,
      downloadUrl:
        'https://sourceforge.net/projects/pixelos-releases/files/thirteen/sweet/PixelOS_sweet-13.0-20230508-1803.zip',
      version: 'thirteen',
      hash: '5586801589a6932c5e84a754b097cd40',
      maintainers: [{ name: 'Aryan', username: 'basamaryan' }],
      donateUrl: '',
      forumUrl: 'https://forum.xda-developers.com/t/rom-13-official-pixelos-aosp-stable-13-04-2023.4402719/',
      websiteUrl: 'https://pixelos.net/',
      newsUrl: 'https://blog.pixelos.net/',
    });
    expect(decodePixelExperienceUpdate(text, 'thirteen')?.maintainers).toEqual([{ name: 'Aryan', username: null }]);
    // The phones this file was written for run PixelOS's fork, which reads `github_username` and
    // opens the GitHub profile.
    const pixelOs = decodePixelExperienceUpdate(text, 'pixelos-thirteen')!;
    expect(pixelExperienceMaintainerCards(pixelOs, 'pixelos-thirteen')).toEqual([
      { summary: 'Aryan', opens: 'https://github.com/basamaryan' },
    ]);
  });

  it('PixelOS G ("fourteen"): listed for a phone on fourteen, not on thirteen ("fourteen" sorts first)', () => {
    const update = decodePixelExperienceUpdate(realListing('pixelos-G.json'))!;
    expect(update.newsUrl).toBe('https://blog.pixelos.net/');
    expect(pixelExperienceIsCompatible(update, { buildDate: 1700800765, version: 'fourteen' })).toBe(true);
    expect(pixelExperienceIsCompatible(update, { buildDate: 1700800765, version: 'thirteen' })).toBe(false);
    expect(pixelExperienceIsCompatible(update, { buildDate: 1700800766, version: 'fourteen' })).toBe(false);
  });
});

describe('isCompatible and canInstall differ', () => {
  const update = decodePixelExperienceUpdate(JSON.stringify(BUILD))!;
  it.each([
    ['fourteen', true, true],
    ['Fourteen', true, true],
    ['FOURTEEN', true, true],
    ['fourteen_plus', false, false],
    ['eleven', true, false],
    ['thirteen', false, false],
  ])('phone on %s: listed %s, installable %s', (version, listed, installable) => {
    const phone = { buildDate: 0, version };
    expect(pixelExperienceIsCompatible(update, phone)).toBe(listed);
    expect(pixelExperienceCanInstall(update, phone)).toBe(installable);
  });

  it('an older build is neither listed nor installable', () => {
    const phone = { buildDate: BUILD.datetime, version: 'fourteen' };
    expect(pixelExperienceIsCompatible(update, phone)).toBe(false);
    expect(pixelExperienceCanInstall(update, phone)).toBe(false);
  });
});

describe('org.json reading of the single object', () => {
  it.each(['datetime', 'filename', 'id', 'size', 'url', 'version', 'filehash'])('no %s: no update', (key) => {
    const rest = Object.fromEntries(Object.entries(BUILD).filter(([k]) => k !== key));
    expect(decodePixelExperienceUpdate(JSON.stringify(rest))).toBeUndefined();
  });

  it('quoted numbers, a numeric version, a BOM and comments are read', () => {
    const body = JSON.stringify({ ...BUILD, datetime: '1700000000', size: '1000', version: 14 });
    const text = `\ufeff// PixelExperience\n${body}`;
    // The line comment would swallow the joined text: it must sit on no line of its own.
    expect(decodePixelExperienceUpdate(text)).toBeUndefined();
    const update = decodePixelExperienceUpdate(`\ufeff/* PE */${body}`);
    expect(update).toMatchObject({ timestamp: 1700000000, fileSize: 1000, version: '14' });
  });

  it('links: missing or null give "", a number its text', () => {
    const update = decodePixelExperienceUpdate(JSON.stringify({ ...BUILD, donate_url: null, news_url: 7 }))!;
    expect([update.donateUrl, update.forumUrl, update.websiteUrl, update.newsUrl]).toEqual(['', '', '', '7']);
  });

  it('maintainers: every one kept; a malformed list is read as none, without losing the update', () => {
    const two = [
      { name: 'A', ci_username: 'a', main_maintainer: true },
      { name: 'B', ci_username: 5 },
    ];
    expect(decodePixelExperienceUpdate(JSON.stringify({ ...BUILD, maintainers: two }))?.maintainers).toEqual([
      { name: 'A', username: 'a' },
      { name: 'B', username: '5' },
    ]);
    expect(decodePixelExperienceUpdate(JSON.stringify({ ...BUILD, maintainers: ['A'] }))?.maintainers).toEqual([]);
    const maintainersOf = (maintainers: unknown) =>
      decodePixelExperienceUpdate(JSON.stringify({ ...BUILD, maintainers }))?.maintainers;
    expect(maintainersOf({ name: 'A' })).toEqual([]);
    expect(maintainersOf([{ name: { first: 'A' } }])).toEqual([]);
  });

  it('"error": true is not read: the build is still there', () => {
    expect(decodePixelExperienceUpdate(JSON.stringify({ error: true, ...BUILD }))?.name).toBe(BUILD.filename);
  });
});
