// One aospa file of a Stable, a Beta and an Alpha list, as AOSPA keeps them in `updates/<device>`,
// read by the transcribed hubs (test/helpers/dialects/aospa.ts): what a Stable phone and a Beta
// phone are each offered. Neither hub asks for a list: the Java Hub (AOSPA/android_packages_apps_ParanoidHub
// uvite at 606c32e2d68cfe8741eb536f94fc984057805069, ComponentBuilder.java) reads the first record
// whatever its `build_type`; the Compose Hub (Herna1994/ComposeParanoidHub at
// b29981a569f919ae8888e4fc1c5c364fbf1a5b3c, MainActivityViewModel.kt `searchForUpdate`) shows a
// phone whose `ro.aospa.build.variant` is Beta the `Beta` builds only, and any other phone every
// build of its Android version with a greater `version_code`, whatever its `build_type`.
import { describe, expect, it } from 'vitest';
import { aospaComposeOffers, aospaHubOffers, decodeAospaCompose, decodeAospaHub } from '../helpers/dialects/index.js';
import { builtTree } from '../helpers/memory-catalog.js';

const SITE =
  'download_base_url: https://dl.example.org\nchannels: [stable, beta, alpha]\n' +
  'lists:\n  stable: [stable]\n  beta: [beta]\n  alpha: [alpha]\n' +
  'formats:\n  aospa:\n    path: /aospa/updates/{device}\n    buildtype: { stable: Stable, beta: Beta, alpha: Alpha }\n';

/** A build of `channel`: version code `code`, built at `time`. */
const manifest = (channel: string, code: string, time: number) =>
  `filename: aospa-${channel}-${code}-phone1.zip\nversion: "${code}"\nchannel: ${channel}\ntimestamp: ${time}\n` +
  `android_version: "14"\nincremental: ""\nid: ${channel}-${code}\nsize: 1000\n`;

const tree = builtTree({
  'content/site.yaml': SITE,
  'content/phone1/stable-2.yaml': manifest('stable', '2', 1_700_000_000),
  'content/phone1/stable-1.yaml': manifest('stable', '1', 1_690_000_000),
  // Newer than the Stable build: the Java Hub never shows it, being second.
  'content/phone1/beta-3.yaml': manifest('beta', '3', 1_710_000_000),
  'content/phone1/alpha-4.yaml': manifest('alpha', '4', 1_705_000_000),
});
const text = tree.read('aospa/updates/phone1');

describe('aospa: Stable, Beta and Alpha in one file', () => {
  it('lists Stable, then Beta, then Alpha, each newest first, with its build_type', () => {
    const records = decodeAospaCompose(text, 'text/plain; charset=utf-8')!;
    expect(records.map((r) => [r.id, r.build_type])).toEqual([
      ['stable-2', 'Stable'],
      ['stable-1', 'Stable'],
      ['beta-3', 'Beta'],
      ['alpha-4', 'Alpha'],
    ]);
  });

  it('the Java Hub offers every phone the newest Stable build, and a Beta phone on a newer build nothing', () => {
    const first = decodeAospaHub(text)!;
    expect(first.id).toBe('stable-2');
    expect(aospaHubOffers(first, { buildDate: 1_690_000_000, versionNumber: '1', androidVersion: '14' })).toBe(true);
    expect(aospaHubOffers(first, { buildDate: 1_710_000_000, versionNumber: '3', androidVersion: '14' })).toBe(false);
  });

  it('the Compose Hub shows a Beta phone the Beta build, and a Stable phone the greatest version_code of any list', () => {
    const records = decodeAospaCompose(text, 'text/plain')!;
    // Build.TIME, which the Compose Hub compares as text, is in milliseconds.
    const phone = { androidVersion: '14', versionCode: '1', buildDate: '1690000000000' };
    expect(aospaComposeOffers(records, { ...phone, beta: true })?.id).toBe('beta-3');
    expect(aospaComposeOffers(records, { ...phone, beta: false })?.id).toBe('alpha-4');
  });
});
