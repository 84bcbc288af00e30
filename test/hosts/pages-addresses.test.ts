// `otapress hosting github-pages` prints what a ROM build sets for every dialect a site publishes:
// derived from the dialect table (catalog/dialects.ts), so a dialect added there without its Pages
// setting fails here. The expected settings are the README "Updaters and formats" table's last column.
import { describe, expect, it } from 'vitest';
import { DIALECT_SETTINGS } from '../../src/catalog/dialects.js';
import { FORMAT_FAMILIES, type FormatFamily } from '../../src/catalog/formats.js';
import { parseSite } from '../../src/catalog/site.js';
import { renderUpdaterAddresses, updaterAddresses } from '../../src/hosts/github-pages.js';

const SITE_URL = 'https://owner.github.io/ota';

/** A site publishing `formats` (site.yaml's text under `formats:`). */
function siteWith(formats: string) {
  const { site, problems } = parseSite(`download_base_url: https://dl.example.org/builds\nformats:\n${formats}`);
  expect(problems).toEqual([]);
  return site!;
}

/** What each dialect's ROM build sets, and the value for the site at its default path with one list (stable). */
const EXPECTED: Record<string, { setting: string; value: string; cannot?: RegExp }> = {
  crdroid: { setting: 'updater_server_url', value: `${SITE_URL}/api/crdroid/{device}.json` },
  'crdroid-java': { setting: 'updater_server_url', value: `${SITE_URL}/api/crdroid-java/{device}.json` },
  'md5-six': { setting: 'updater_server_url', value: `${SITE_URL}/api/md5-six/{device}.json` },
  'lineage-v1': { setting: 'updater_server_url', value: `${SITE_URL}/api/lineage-v1/{device}.json` },
  pixelos15: { setting: 'updater_server_url', value: `${SITE_URL}/api/pixelos15/{device}.json` },
  'pixelos-feed': { setting: 'updater_server_url', value: `${SITE_URL}/api/pixelos-feed/{device}.json` },
  pixelexperience: { setting: 'Constants.OTA_URL', value: `${SITE_URL}/api/pixelexperience/%s.json` },
  // Extensionless files: Pages sends them as application/octet-stream, and cannot redirect.
  aospa: {
    setting: 'system_update_server_url',
    value: `${SITE_URL}/aospa/`,
    cannot: /application\/octet-stream.*Compose Hub.*Cloudflare Pages, Netlify/,
  },
  grapheneos: {
    setting: 'url',
    value: `${SITE_URL}/api/grapheneos/`,
    cannot: /<device>-ota_update-<incremental>\.zip.*cannot redirect.*upload each zip/,
  },
};

describe('the addresses `otapress hosting github-pages` prints', () => {
  const base = updaterAddresses(siteWith(''), SITE_URL);

  it.each(FORMAT_FAMILIES)('give the setting of the %s dialect, and what Pages cannot serve of it', (family) => {
    const site = siteWith(`  ${family}:\n    lists: [stable]\n`);
    const added = updaterAddresses(site, SITE_URL).slice(base.length);
    const expected = EXPECTED[family];
    expect(expected, `no expected Pages setting for ${family}`).toBeDefined();
    expect(added.map(({ family: f, setting, value }) => ({ f, setting, value }))).toEqual([
      { f: family, setting: expected.setting, value: expected.value },
    ]);
    if (expected.cannot) expect(added[0].cannot).toMatch(expected.cannot);
    else expect(added[0].cannot).toBeUndefined();
    // A type Pages cannot send is said; a JSON dialect's file ends in .json, which Pages sends as JSON.
    expect(DIALECT_SETTINGS[family as FormatFamily].file === 'json').toBe(expected.cannot === undefined);
  });

  it('print every dialect of a site with all of them, one block each, "not on Pages" where Pages cannot serve it', () => {
    const site = siteWith(FORMAT_FAMILIES.map((family) => `  ${family}:\n    lists: [stable]\n`).join(''));
    const text = renderUpdaterAddresses(site, SITE_URL);
    for (const family of FORMAT_FAMILIES)
      expect(text).toContain(`  ${EXPECTED[family].setting}=${EXPECTED[family].value}\n`);
    expect(text.match(/^ {2}not on Pages: /gm)).toHaveLength(2);
  });

  it('give one address per list where the path names the list, and one base for the channel files of every list', () => {
    const site = siteWith('  crdroid-java: {}\n  grapheneos: {}\n  aospa: {}\n');
    const added = updaterAddresses(site, SITE_URL).slice(base.length);
    expect(added.map((a) => `${a.family} ${a.value}`)).toEqual([
      ...['stable', 'official', 'dev', 'community'].map(
        (l) => `crdroid-java ${SITE_URL}/api/crdroid-java/${l}/{device}.json`,
      ),
      `grapheneos ${SITE_URL}/api/grapheneos/`,
      ...['stable', 'official', 'dev', 'community'].map((l) => `aospa ${SITE_URL}/aospa/${l}/`),
    ]);
  });

  it('give each list of a path per list its own address, saying the list', () => {
    const site = siteWith(
      '  crdroid-java:\n    path:\n      stable: /{device}.json\n      dev: /vanilla/{device}.json\n',
    );
    const added = updaterAddresses(site, SITE_URL).slice(base.length);
    expect(added.map((a) => `${a.updaters} ${a.value}`)).toEqual([
      `${added[0].updaters.replace(/ \(list stable\)$/, '')} (list stable) ${SITE_URL}/{device}.json`,
      `${added[0].updaters.replace(/ \(list stable\)$/, '')} (list dev) ${SITE_URL}/vanilla/{device}.json`,
    ]);
  });
});
