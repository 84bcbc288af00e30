import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { deviceFileOf, type DeviceField } from '../../src/import/device-file.js';
import { parseDeviceFile } from '../../src/catalog/device.js';

const fields = (entries: Record<string, unknown>) =>
  new Map<string, DeviceField>(Object.entries(entries).map(([k, value]) => [k, { value, record: 0 }]));

describe('device.yaml from a crDroid listing', () => {
  it('quotes every value, so no value can add a key or a line', () => {
    const made = deviceFileOf(
      fields({ device: 'Pixel "8a"\nname: evil', oem: 'x: y # z', maintainer: '- a' }),
      'akita.json',
    );
    expect(made.leftOut).toEqual(['device (holds control or direction characters)']);
    expect(parse(made.text!)).toEqual({ oem: 'x: y # z', maintainers: [{ name: '- a' }] });
  });

  it.each([
    ['http://t.me/x', 'not an https address of URL characters'],
    ['javascript:alert(1)', 'not an https address of URL characters'],
    ['https://t.me/a b', 'not an https address of URL characters'],
    ['https://t.me/\u202eexe', 'holds control or direction characters'],
    ['', 'empty'],
    [42, 'not text but number'],
  ])('leaves out a link %j: %s', (value, why) => {
    expect(deviceFileOf(fields({ telegram: value }), 'x.json')).toEqual({ kept: [], leftOut: [`telegram (${why})`] });
  });

  it('keeps the first of two keys for one place and names the other', () => {
    const made = deviceFileOf(fields({ paypal: 'https://paypal.me/a', donate_url: 'https://ko-fi.com/b' }), 'x.json');
    expect(made.kept).toEqual(['paypal → links.donate']);
    expect(made.leftOut).toEqual(['donate_url (device.yaml links.donate already holds paypal)']);
  });

  it('gives keys named like Object.prototype members no place', () => {
    const made = deviceFileOf(
      new Map<string, DeviceField>([
        ['__proto__', { value: 'x', record: 0 }],
        ['constructor', { value: 'x', record: 0 }],
        ['toString', { value: 'x', record: 0 }],
      ]),
      'x.json',
    );
    expect(made).toEqual({
      kept: [],
      leftOut: [
        '__proto__ (no place in device.yaml)',
        'constructor (no place in device.yaml)',
        'toString (no place in device.yaml)',
      ],
    });
  });

  it("keeps at most device.yaml's 50 of a PixelExperience maintainers list, and names the rest once", () => {
    const list = Array.from({ length: 1000 }, (_, i) => ({ name: `M${i}`, github_username: `m${i}` }));
    const made = deviceFileOf(fields({ maintainers: list }), 'x.json');
    expect(made.kept).toEqual(['maintainers → maintainers (50)']);
    expect(made.leftOut).toEqual(['maintainers (the 950 past the first 50: device.yaml lists at most 50)']);
    expect(parseDeviceFile(made.text!, 'content/x/device.yaml').problems).toEqual([]);
    expect((parse(made.text!) as { maintainers: unknown[] }).maintainers.at(-1)).toEqual({
      name: 'M49',
      url: 'https://github.com/m49',
    });
  });

  it.each([
    ['a text', 'Jane'],
    ['null', null],
    ['an object', { name: 'Jane' }],
  ])('leaves out a maintainers value that is not a list (%s)', (_, value) => {
    expect(deviceFileOf(fields({ maintainers: value }), 'x.json')).toEqual({
      kept: [],
      leftOut: ['maintainers (not a list of maintainers)'],
    });
  });

  it('writes a maintainer url only with a maintainer name', () => {
    expect(deviceFileOf(fields({ maintainer_url: 'https://github.com/a' }), 'x.json')).toEqual({
      kept: [],
      leftOut: ['maintainer_url (no maintainer name to go with it)'],
    });
  });
});

describe('device.yaml from a listing holds only what device.yaml accepts', () => {
  it("leaves out a 150-character maintainer and an address no URL parser reads, with device.yaml's own words, and check accepts the rest", () => {
    const made = deviceFileOf(
      fields({
        device: 'Pixel 8a',
        maintainer: 'm'.repeat(150),
        maintainer_url: 'https://github.com/m',
        forum: 'https:///forum',
        telegram: 'https://t.me/x',
      }),
      'akita.json',
    );
    expect(made.kept).toEqual(['device → name', 'telegram → links.support']);
    expect(made.leftOut).toEqual([
      expect.stringMatching(/^forum \(device\.yaml links\.forum: .+\)$/),
      expect.stringMatching(/^maintainer \(device\.yaml maintainers\.name: .+\)$/),
      'maintainer_url (no maintainer name to go with it)',
    ]);
    expect(parseDeviceFile(made.text!, 'content/akita/device.yaml').problems).toEqual([]);
    expect(parse(made.text!)).toEqual({ name: 'Pixel 8a', links: { support: 'https://t.me/x' } });
  });

  it('leaves out a name with a direction mark, a noncharacter or a lone surrogate, as device.yaml refuses them, and check accepts the rest', () => {
    const made = deviceFileOf(
      fields({ device: 'Pixel\u061c 8a', maintainer: 'a\ufffeb', oem: 'x\ud800', telegram: 'https://t.me/x' }),
      'x.json',
    );
    expect(made.kept).toEqual(['telegram → links.support']);
    expect(made.leftOut).toEqual([
      'device (device.yaml name: holds U+061C ARABIC LETTER MARK (character 6): an invisible direction control makes the text display in another order than it is written, so a name can pass for another; remove it)',
      'maintainer (device.yaml maintainers.name: holds U+FFFE (character 2), a noncharacter, which is not text; remove it)',
      'oem (device.yaml oem: holds U+D800 (character 2), half of a character (a lone surrogate), which strict JSON decoders refuse; remove it)',
    ]);
    expect(parseDeviceFile(made.text!, 'content/x/device.yaml').problems).toEqual([]);
  });
});
