// DerpFest's device list (`device_info:` of lineage-v1): one file for the site, read by the
// updater's own decoding (test/helpers/dialects/derpfest.ts): each device's banner shows what its
// device.yaml says, a device without one the updater's defaults.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { parseSite } from '../../src/catalog/site.js';
import { DERPFEST_DEFAULT_TELEGRAM, decodeDerpFestDeviceInfo } from '../helpers/dialects/index.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const YAML = `
formats:
  lineage-v1:
    lists: [stable]
    path: /{device}.json
    device_info: /info/device-info.json
`;

describe("DerpFest's device list", () => {
  const compiled = compileWith(readContent(EXAMPLE), YAML);
  const text = String(compiled.files.find((f) => f.path === 'info/device-info.json')?.contents);

  it('is written once for the site, an entry per device', () => {
    expect(compiled.problems).toEqual([]);
    const devices = (JSON.parse(text) as { devices: { codename: string }[] }).devices;
    expect(devices.map((d) => d.codename)).toEqual(
      compiled.listings.map((l) => l.device).filter((d, i, a) => a.indexOf(d) === i),
    );
  });

  it("gives the updater's banner each device's name, maintainers and support group", () => {
    expect(decodeDerpFestDeviceInfo(text, 'fp4')).toEqual({
      maintainer: 'Jane Doe, Ravi Kumar',
      device: 'Fairphone 4',
      telegram: 'https://t.me/example_fp4',
    });
    // A phone the list does not name keeps the updater's defaults.
    expect(decodeDerpFestDeviceInfo(text, 'akita')).toEqual({
      maintainer: null,
      device: null,
      telegram: DERPFEST_DEFAULT_TELEGRAM,
    });
  });

  it('is not written without device_info', () => {
    const without = compileWith(readContent(EXAMPLE), YAML.replace(/ {4}device_info:.*\n/, ''));
    expect(without.files.some((f) => f.path.endsWith('device-info.json'))).toBe(false);
  });

  const base = 'download_base_url: https://images.example.org/builds\n';
  it.each([
    [
      'lineage-v1',
      '/device-info.json',
      "the device list lies in a folder of its own (a file at the root could be a device's), e.g. /info/device-info.json",
    ],
    [
      'lineage-v1',
      '/info/{device}.json',
      "expected the path of the site's one device list, a .json file without placeholders, e.g. /info/device-info.json",
    ],
    [
      'lineage-v1',
      '/api/v1/devices.json',
      '/api/v1/ holds the LineageOS and /e/ answers; put the format in a folder of its own, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json',
    ],
    [
      'crdroid',
      '/info/device-info.json',
      'unknown key; only lineage-v1 has `device_info:` (the device list DerpFest reads)',
    ],
  ])('%s refuses device_info: %s', (family, value, message) => {
    const { problems } = parseSite(`${base}formats:\n  ${family}:\n    device_info: ${value}\n`);
    expect(problems.map((p) => `${p.field} ${p.message}`)).toEqual([`formats.${family}.device_info ${message}`]);
  });
});
