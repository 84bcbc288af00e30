// Paranoid Android's `updates/<device>` (`{"updates": [...]}`, every value a string, Stable, Beta
// and Alpha builds in one file) imported into the lists its `build_type`s name and built back as
// the aospa format: the Java Hub and the Compose Hub (test/helpers/dialects/aospa.ts) read every
// key they read equal from the source and from the built file. Fixtures:
// test/fixtures/dialect-listings/ (its README names repository, path and commit).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSite } from '../../src/catalog/site.js';
import { planImport, type ImportPlan } from '../../src/import/plan-import.js';
import { classifyFile } from '../../src/import/folder-classify.js';
import { planFolder } from '../../src/import/folder-plan.js';
import { decodeAospaCompose, decodeAospaHub } from '../helpers/dialects/index.js';
import { builtTree } from '../helpers/memory-catalog.js';

const listing = (name: string) =>
  readFileSync(new URL(`../fixtures/dialect-listings/${name}`, import.meta.url), 'utf8');

const SITE =
  'download_base_url: https://builds.paranoidandroid.co\nchannels: [stable, beta, alpha]\n' +
  'lists:\n  stable: [stable]\n  beta: [beta]\n  alpha: [alpha]\n' +
  'formats:\n  aospa:\n    path: /updates/{device}\n    buildtype: { stable: Stable, beta: Beta, alpha: Alpha }\n';

function plan(text: string, device: string, site = SITE): ImportPlan {
  return planImport({ text, sourceName: device, device, list: 'stable', site: parseSite(site).site!, existing: [] });
}

function build(imported: ImportPlan, site = SITE): (path: string) => string {
  const files: Record<string, string> = { 'content/site.yaml': site };
  for (const write of imported.writes) files[write.file] = write.text;
  const tree = builtTree(files);
  return (path) => tree.read(path);
}

/** What the Compose Hub reads of a record, but the keys no manifest holds (noted as left out on import). */
const UNHELD = ['date', 'delta', 'delta_sha256', 'fastboot', 'fastboot_sha256', 'mirror', 'telegram'];
const composeRead = (text: string) =>
  decodeAospaCompose(text, 'text/plain; charset=utf-8')?.map((u) =>
    Object.fromEntries(Object.entries(u).filter(([k]) => !UNHELD.includes(k))),
  );

describe('AOSPA files imported and built back', () => {
  it.each([
    ['aospa-topaz-phone1', 'phone1', 14],
    ['aospa-topaz-marble', 'marble', 1],
  ])('%s: every key both hubs read, equal', (file, device, count) => {
    const source = listing(file);
    const imported = plan(source, device);
    expect(imported.problems).toEqual([]);
    expect(imported.records).toBe(count);
    const built = build(imported)(`updates/${device}`);
    expect(decodeAospaHub(built)).toEqual(decodeAospaHub(source));
    // The source writes " 1676592000" once, which the Compose Hub compares as text: the build writes the number.
    const original = composeRead(source)!.map((u) => ({ ...u, datetime: String(u.datetime).trim() }));
    expect(composeRead(built)).toEqual(original);
  });

  it('puts each build in the list its build_type names, and says what it leaves out', () => {
    const imported = plan(listing('aospa-topaz-phone1'), 'phone1');
    const channels = imported.writes.map((w) => /^channel: (.*)$/m.exec(w.text)?.[1] ?? '(none)');
    expect(channels.filter((l) => l === 'stable')).toHaveLength(10);
    expect(channels.filter((l) => l === 'beta')).toHaveLength(1);
    expect(channels.filter((l) => l === 'alpha')).toHaveLength(3);
    const notes = imported.notes.map((n) => `${n.field} ${n.message}`);
    expect(notes.filter((n) => n.includes('is left out in')).map((n) => n.split(':')[0])).toEqual([
      'fastboot `fastboot` is left out in all 14 records',
      'fastboot_sha256 `fastboot_sha256` is left out in 6 of 14 records',
      'mirror `mirror` is left out in 3 of 14 records',
      'telegram `telegram` is left out in 4 of 14 records',
    ]);
  });

  it('without a mapping, a build_type goes to the list of its name in lower case', () => {
    const site = SITE.replace(/\n {4}buildtype: .*\n$/, '\n');
    const imported = plan(listing('aospa-topaz-phone1'), 'phone1', site);
    expect(imported.problems).toEqual([]);
    // The list's name is then the build_type written: the Compose Hub's Beta phones see no `beta` build.
    const built = build(imported, site)('updates/phone1');
    expect(decodeAospaCompose(built, 'text/plain')?.map((u) => u.build_type)).toContain('beta');
  });
});

describe('an OTA repository with updates/<device> files (Herna1994/ota)', () => {
  const SITE_BEFORE = 'download_base_url: https://builds.paranoidandroid.co\n';
  const files = [
    { path: 'updates/phone1', bytes: Buffer.from(listing('aospa-topaz-phone1')) },
    { path: 'updates/marble', bytes: Buffer.from(listing('aospa-topaz-marble')) },
    { path: 'updates/README.json', bytes: Buffer.from('{"updates": []}') },
  ];

  it('is the aospa format at its path, a list per build_type, the hubs spelling kept', () => {
    expect(
      classifyFile('updates/phone1', listing('aospa-topaz-phone1'), JSON.parse(listing('aospa-topaz-phone1'))),
    ).toMatchObject({
      kind: 'listing',
      dialect: 'aospa',
      device: 'phone1',
      template: '/updates/{device}',
      releaseTypes: ['Stable', 'Beta', 'Alpha'],
    });
    // An extensionless file of another shape there is no AOSPA listing.
    expect(classifyFile('updates/x', '{"response": []}', { response: [] })).toMatchObject({ kind: 'other' });
    const planned = planFolder({
      folder: 'ota',
      files,
      site: parseSite(SITE_BEFORE).site!,
      siteText: SITE_BEFORE,
      existing: [],
      deviceFiles: new Set(),
    });
    expect(planned.problems).toEqual([]);
    expect(planned.leftOut).toEqual([]);
    expect(planned.dialects.map((d) => d.entry)).toEqual([
      {
        family: 'aospa',
        lists: ['stable', 'beta', 'alpha'],
        path: '/updates/{device}',
        buildtypes: { stable: 'Stable', beta: 'Beta', alpha: 'Alpha' },
      },
    ]);
    const written = Object.fromEntries(planned.writes.map((w) => [w.file, w.text]));
    expect(written['content/site.yaml']).toContain(
      'aospa: { lists: [stable, beta, alpha], path: "/updates/{device}", buildtype: { stable: "Stable", beta: "Beta", alpha: "Alpha" } }',
    );
    const tree = builtTree(written);
    for (const [file, device] of [
      ['aospa-topaz-phone1', 'phone1'],
      ['aospa-topaz-marble', 'marble'],
    ]) {
      const source = listing(file);
      const built = tree.read(`updates/${device}`);
      expect(decodeAospaHub(built)).toEqual(decodeAospaHub(source));
      const original = composeRead(source)!.map((u) => ({ ...u, datetime: String(u.datetime).trim() }));
      expect(composeRead(built)).toEqual(original);
    }
  });
});
