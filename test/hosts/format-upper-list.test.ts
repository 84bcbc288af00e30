// A format whose path names the list in capitals (`{LIST}`): RisingOS's phones ask
// OTA/device/GAPPS/{device}.json and OTA/device/VANILLA/{device}.json
// (RisingOS-Revived/official_devices, branch fifteen, 9127d009abfb3b55c432521dc887bd9386a4ba77), one
// folder per variant. Each list's file is written, probed on every host engine (the host table),
// printed for GitHub Pages and copied to the raw branch at the capitalised path, exactly as a
// `{list}` path is; the folder before the placeholder takes the JSON 404s.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { updaterAddresses } from '../../src/hosts/github-pages.js';
import { rawBranchFiles } from '../../src/hosts/raw-branch.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith, hostTable } from '../helpers/host-table.js';

const FORMATS = `
formats:
  md5-six:
    lists: [stable, dev]
    path: /OTA/device/{LIST}/{device}.json
`;

const compiled = compileWith(readContent(EXAMPLE), FORMATS);
const table = hostTable(compiled);
const at = (path: string) =>
  table.filter((p) => p.path === path).map((p) => `${p.method} ${p.status} ${p.kind} ${p.file}`);
const written = (path: string) => compiled.files.some((f) => f.path === path);

describe('a format at /OTA/device/{LIST}/{device}.json', () => {
  it('builds without problems and writes each list in its folder in capitals', () => {
    expect(compiled.problems).toEqual([]);
    expect(written('OTA/device/STABLE/FP4.json')).toBe(true);
    expect(written('OTA/device/DEV/FP4.json')).toBe(true);
    expect(compiled.files.filter((f) => /^OTA\/device\/(stable|dev)\//.test(f.path))).toEqual([]);
  });

  it('is asked for at each capitalised path on every host, and a miss in its folder answers its JSON 404', () => {
    expect(at('/OTA/device/STABLE/FP4.json')).toEqual([
      'GET 200 json OTA/device/STABLE/FP4.json',
      'HEAD 200 json OTA/device/STABLE/FP4.json',
    ]);
    expect(at('/OTA/device/DEV/FP4.json')).toEqual([
      'GET 200 json OTA/device/DEV/FP4.json',
      'HEAD 200 json OTA/device/DEV/FP4.json',
    ]);
    expect(at('/OTA/device/STABLE/no-such-device.json')).toEqual(['GET 404 json OTA/device/404.html']);
  });

  it('prints one GitHub Pages address per list, and copies each file to the raw branch at its path', () => {
    const site = compiled.site!;
    const addresses = updaterAddresses(site, 'https://owner.github.io/ota').filter((a) => a.family === 'md5-six');
    expect(addresses.map((a) => a.value)).toEqual([
      'https://owner.github.io/ota/OTA/device/STABLE/{device}.json',
      'https://owner.github.io/ota/OTA/device/DEV/{device}.json',
    ]);
    expect(rawBranchFiles(site, ['FP4']).filter((f) => f.path.startsWith('OTA/'))).toEqual([
      { path: 'OTA/device/STABLE/FP4.json', from: 'OTA/device/STABLE/FP4.json' },
      { path: 'OTA/device/DEV/FP4.json', from: 'OTA/device/DEV/FP4.json' },
    ]);
  });
});
