// The Android version is derived wherever the data tells it and otherwise optional; the version is
// text wherever the site's clients read text. What each answer then does with the build.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/catalog/manifest.js';
import { parseSite } from '../../src/catalog/site.js';
import { deriveAndroidVersion, NAME_FAMILIES, readNameFamily } from '../../src/catalog/name-families.js';
import { compileSite } from '../../src/pipeline/build.js';
import { v1Lists, type V1Record } from '../helpers/clients.js';
import type { Content } from '../../src/catalog/read.js';

/** The records of a v1 listing (the envelope's `response`). */
const recordsOf = (text: string) => (JSON.parse(text) as { response: (V1Record & Record<string, unknown>)[] }).response;
/** A one-device catalog of these manifests. */
const catalog = (manifests: string[]): Content => ({
  site: Buffer.from('download_base_url: https://dl.example.org/builds\n'),
  devices: ['akita'],
  manifests: manifests.map((text, i) => ({
    file: `content/akita/${i}.yaml`,
    device: 'akita',
    bytes: Buffer.from(text),
  })),
  problems: [],
});

const { site } = parseSite('download_base_url: https://dl.example.org/builds/\n');

/** A manifest of another ROM, without android_version unless given. */
const manifest = (filename: string, extra = '', version = '"2.5"') =>
  `filename: ${filename}\nversion: ${version}\nchannel: official\ntimestamp: 1731067200\nincremental: "1731067200"\nid: ${'ab'.repeat(32)}\nsize: 1387003904\n${extra}`;
const parse = (text: string, device = 'akita') => parseManifest(text, `content/${device}/build.yaml`, device, site!);

describe('the Android version', () => {
  it.each([
    ['lineage-21.0-20240409_164757-UNOFFICIAL-m20lte.zip', '14'],
    ['lineage-21.0-20240409-official-m20lte-signed.zip', '14', 'm20lte', '"21.0"'],
    ['crDroidAndroid-14.0-20240315-akita-v10.3.zip', '14'],
    ['EvolutionX-14.0-20241013-akita-v9.5-Official.zip', '14'],
    ['EvolutionX-14.0-20240315-akita-9.0-Official.zip', '14'],
    ['PixelOS_alioth-15.0-20250228-1046.zip', '15'],
    ['PixelOS_akita-14.0-20240315-0820.zip', '14'],
    ['ProjectElixir_4.1_alioth-14.0-20240226-2058-OFFICIAL.zip', '14'],
    ['e-2.5-a14-20241108446322-official-FP4.zip', '14', 'FP4'],
  ])(
    '%s is Android %s, without android_version in the manifest',
    (filename, android, device = 'akita', version = '"2.5"') => {
      const { build, problems } = parse(manifest(filename, '', version), device);
      expect(problems).toEqual([]);
      expect(build).toMatchObject({ android_version: android, api_level: String(Number(android) + 20) });
    },
  );

  it('comes from api_level when the name tells nothing', () => {
    expect(
      parse(manifest('RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip', 'api_level: "35"\n')).build,
    ).toMatchObject({ android_version: '15', api_level: '35' });
    expect(deriveAndroidVersion('rom.zip', '36')).toBe('16');
  });

  it('is left empty when nothing tells it, and the build is still published, with one notice per device', () => {
    const { build, problems } = parse(
      manifest('RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip', '', '8.1.1-Arete'),
    );
    expect(problems).toEqual([]);
    expect(build).toMatchObject({ android_version: '', api_level: '' });
    const compiled = compileSite(
      catalog([
        manifest('RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip', '', '8.1.1-Arete'),
        manifest('RisingOS_Revived-8.0-251101-0524-GAPPS-OFFICIAL-akita-ota.zip', '', '8.0-Arete')
          .replace(/ab/g, 'cd')
          .replace('1731067200\ninc', '1731000000\ninc'),
      ]),
    );
    expect(compiled.problems).toEqual([]);
    const notices = compiled.notices.filter((n) => n.field === 'android_version');
    expect(notices.map((n) => n.message)).toEqual([
      expect.stringMatching(
        /^2 builds of akita \(the newest here\) have no Android version: .* v1 with `android_version` and `api_level` ""/,
      ),
    ]);
    const listing = compiled.files.find((f) => f.path === 'api/v1/akita/stable/index.json')!;
    const records = recordsOf(String(listing.contents));
    expect(records.map((r) => r.filename)).toEqual([
      'RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip',
      'RisingOS_Revived-8.0-251101-0524-GAPPS-OFFICIAL-akita-ota.zip',
    ]);
    expect(records.map((r) => [r.android_version, r.api_level])).toEqual([
      ['', ''],
      ['', ''],
    ]);
    // Pages and feeds say nothing of an Android version they do not know.
    const page = String(compiled.files.find((f) => f.path === 'devices/akita/index.html')!.contents);
    expect(page).toContain('not stated');
    expect(page).not.toMatch(/Android \(|Android ,/);
    expect(String(compiled.files.find((f) => f.path === 'devices/akita/stable.xml')!.contents)).not.toContain(
      'for Android ,',
    );
    expect(
      records
        .filter((r) =>
          v1Lists(r, { releaseType: 'stable', buildDate: 0, version: '8.0-Arete', allowMajorUpgrades: false }),
        )
        .map((r) => r.version),
    ).toEqual(['8.1.1-Arete', '8.0-Arete']);
  });

  it('is still checked against a name of the /e/ form when stated', () => {
    expect(
      parse(manifest('e-2.5-a14-20241108446322-official-akita.zip', 'android_version: "13"\n')).problems.map(
        (p) => p.field,
      ),
    ).toEqual(['android_version']);
  });

  it('knows each name family of the table by its example', () => {
    for (const family of NAME_FAMILIES)
      expect(readNameFamily(family.example)?.family, family.example).toBe(family.family);
  });
});

describe('the version as text', () => {
  it.each(['8.1.1-Arete', '7.0-Persis', '15', 'fourteen', '2.6.3'])('%s is a version', (version) => {
    const { build, problems } = parse(manifest('rom-akita.zip', 'android_version: "14"\n', `"${version}"`));
    expect(problems).toEqual([]);
    expect(build!.version).toBe(version);
  });

  it.each(['"2.5 beta"', '"-2"', '""', `"${'9'.repeat(65)}"`])('%s is refused, at its line', (version) => {
    expect(
      parse(manifest('rom-akita.zip', 'android_version: "14"\n', version)).problems.map(
        (p) => `${p.line}:${p.col} ${p.field}`,
      ),
    ).toEqual(['2:10 version']);
  });

  it('is offered to a LineageOS v1 phone by text comparison, and left out of v2 with a notice when it has no major.minor', () => {
    const compiled = compileSite(catalog([manifest('rom-akita.zip', 'android_version: "14"\n', 'fourteen')]));
    expect(compiled.problems).toEqual([]);
    const records = recordsOf(
      String(compiled.files.find((f) => f.path === 'api/v1/akita/official/index.json')!.contents),
    );
    expect(
      records
        .filter((r) =>
          v1Lists(r, { releaseType: 'official', buildDate: 0, version: 'fourteen', allowMajorUpgrades: false }),
        )
        .map((r) => r.version),
    ).toEqual(['fourteen']);
    expect(
      compiled.notices.some(
        (n) => n.field === 'version' && n.message.startsWith('LineageOS v2 updaters cannot read `fourteen`'),
      ),
    ).toBe(true);
  });
});
