import { describe, expect, it } from 'vitest';
import { catalogFiles } from '../helpers/catalog.js';
import { builtTree, exampleFiles } from '../helpers/memory-catalog.js';

describe('the device index, /api/devices.json', () => {
  const index = JSON.parse(builtTree(exampleFiles()).read('api/devices.json'));

  it('names every device with its page, its v2 answer and every list of the site', () => {
    expect(
      index.devices.map((d: { device: string; page: string; v2: string; lists: { list: string }[] }) => [
        d.device,
        d.page,
        d.v2,
        d.lists.map((l) => l.list),
      ]),
    ).toEqual([
      ['FP3', '/devices/FP3/', '/api/v2/devices/FP3/builds', ['stable', 'official', 'dev', 'community']],
      ['FP4', '/devices/FP4/', '/api/v2/devices/FP4/builds', ['stable', 'official', 'dev', 'community']],
      ['starlte', '/devices/starlte/', '/api/v2/devices/starlte/builds', ['stable', 'official', 'dev', 'community']],
    ]);
  });

  it('gives each list its listing, feed, record count (placeholders included) and newest downloadable build', () => {
    const official = index.devices[1].lists[1];
    expect(official).toEqual({
      list: 'official',
      url: '/api/v1/FP4/official/',
      feed: '/devices/FP4/official.xml',
      count: 6,
      newest: {
        version: '2.6.3',
        display_version: '2.6.3-a14-20241220455571-official-FP4',
        android_version: '14',
        datetime: 1734692400,
        filename: 'e-2.6.3-a14-20241220455571-official-FP4.zip',
        id: '07d97aef2dda50ad4f196f146386ed79ad9f0a8aea402f20282202d7f484d7f4',
        size: 1389297664,
        url: 'https://images.example.org/builds/full/official/FP4/e-2.6.3-a14-20241220455571-official-FP4.zip',
      },
    });
  });

  it('says null for a list without a downloadable build', () => {
    expect(index.devices[2].lists[2]).toEqual({
      list: 'dev',
      url: '/api/v1/starlte/dev/',
      feed: '/devices/starlte/dev.xml',
      count: 0,
      newest: null,
    });
    const only = builtTree(catalogFiles([{ placeholder: true }]));
    const lists = JSON.parse(only.read('api/devices.json')).devices[0].lists;
    expect(lists[0]).toMatchObject({ list: 'stable', count: 1, newest: null });
  });

  it('never names a withdrawn (.disabled.zip) build as the newest: the newest one still offered', () => {
    const tree = builtTree(catalogFiles([{ timestamp: 1731067200 }, { timestamp: 1731070800, disabled: true }]));
    const [stable] = JSON.parse(tree.read('api/devices.json')).devices[0].lists;
    expect(stable.count).toBe(2);
    expect(stable.newest).toMatchObject({ datetime: 1731067200 });
    expect(stable.newest.filename).not.toMatch(/\.disabled\.zip$/);
  });
});
