// Each dialect's path where its phones ask: a JSON dialect's ends in `.json`; GrapheneOS's updater
// asks `<base><device>-<channel>`, so its path ends in `/{device}-{list}`, in a folder of its own.
import { describe, expect, it } from 'vitest';
import { parseSite } from '../../src/catalog/site.js';
import { buildTypeOf } from '../../src/catalog/formats.js';

const base = 'download_base_url: https://images.example.org/builds\n';
const problemsOf = (dialect: string, path: string) =>
  parseSite(`${base}formats:\n  ${dialect}:\n    lists: [stable]\n    path: ${path}\n`).problems.map(
    (p) => `${p.field} ${p.message}`,
  );

describe('dialect paths', () => {
  it.each([
    ['crdroid-java', '/{device}.json'],
    ['crdroid-java', '/udc/builds/{device}.json'],
    ['lineage-v1', '/OTA/GMS/{device}.json'],
    ['pixelos-feed', '/API/updater/{device}.json'],
    ['grapheneos', '/releases/{device}-{list}'],
    ['aospa', '/aospa/updates/{device}'],
    ['aospa', '/ota/{list}/updates/{device}'],
  ])('%s takes %s', (dialect, path) => {
    expect(problemsOf(dialect, path)).toEqual([]);
  });

  it.each([
    ['grapheneos', '/releases/{device}.json', 'the path ends in /{device}-{list}, e.g. /releases/{device}-{list}'],
    ['grapheneos', '/{device}-{list}', 'put the files in a folder of their own, e.g. /releases/{device}-{list}'],
  ])('%s refuses %s', (dialect, path, message) => {
    expect(problemsOf(dialect, path)).toEqual([
      `formats.${dialect}.path the GrapheneOS updater asks <base><device>-<channel>: ${message}`,
    ]);
  });

  const hub = 'the AOSPA hub asks <base>updates/<device>';
  const hubExample = 'e.g. /aospa/updates/{device} or /aospa/{list}/updates/{device}';
  it.each([
    ['/aospa/{device}.json', `${hub}: the path ends in /updates/{device}, ${hubExample}`],
    [
      '/api/aospa/updates/{device}',
      `${hub} and reads only text/plain answers, and /api/ sends JSON: put the files in a folder of their own outside /api/, ${hubExample}`,
    ],
  ])('aospa refuses %s', (path, message) => {
    expect(problemsOf('aospa', path)).toEqual([`formats.aospa.path ${message}`]);
  });

  it('refuses a JSON dialect’s path without .json', () => {
    expect(problemsOf('crdroid-java', '/releases/{device}-{list}')).toEqual([
      "formats.crdroid-java.path a format's path ends in .json, e.g. /api/crdroid/{device}.json, " +
        '/API/updater/{device}.json or /{device}.json: every host sends the JSON content type by the name',
    ]);
  });

  it('takes `buildtype` for crdroid-java, aospa and lineage-v1 only, on one line', () => {
    const yaml = (dialect: string, value: string) => `${base}formats:\n  ${dialect}:\n    buildtype: ${value}\n`;
    expect(parseSite(yaml('crdroid-java', 'Official')).site!.formats[0].buildtype).toBe('Official');
    expect(parseSite(yaml('aospa', 'Beta')).site!.formats[0].buildtype).toBe('Beta');
    expect(parseSite(yaml('lineage-v1', 'OFFICIAL')).site!.formats[0].buildtype).toBe('OFFICIAL');
    expect(parseSite(yaml('crdroid', 'Official')).problems.map((p) => `${p.field} ${p.message}`)).toEqual([
      'formats.crdroid.buildtype unknown key; a format has `lists:`, `path:` and `changelog:` (crdroid-java, aospa and lineage-v1 also `buildtype:`, lineage-v1 `device_info:`)',
    ]);
    expect(parseSite(yaml('crdroid-java', '[a]')).problems.map((p) => `${p.field} ${p.message}`)).toEqual([
      'formats.crdroid-java.buildtype expected the build type phones compare, e.g. Official (on one line, at most 100 characters)',
    ]);
  });

  it('aospa: one file for several lists, each list with its own build_type', () => {
    const yaml = (extra: string) =>
      `${base}lists: { stable: [stable], beta: [beta], alpha: [alpha] }\nchannels: [stable, beta, alpha]\n` +
      `formats:\n  aospa:\n    lists: [stable, beta, alpha]\n    path: /aospa/updates/{device}\n${extra}`;
    const parsed = parseSite(yaml('    buildtype: { stable: Stable, beta: Beta }\n'));
    expect(parsed.problems).toEqual([]);
    const format = parsed.site!.formats[0];
    expect(format.buildtypes).toEqual({ stable: 'Stable', beta: 'Beta' });
    expect(['stable', 'beta', 'alpha'].map((list) => buildTypeOf(format, list))).toEqual(['Stable', 'Beta', 'alpha']);
    const problems = (extra: string) => parseSite(yaml(extra)).problems.map((p) => `${p.field} ${p.message}`);
    expect(problems('    buildtype: { nightly: Nightly, beta: [Beta] }\n')).toEqual([
      'formats.aospa.buildtype.nightly `nightly` is not a list of this format (lists: stable, beta, alpha); name one of those',
      'formats.aospa.buildtype.beta expected the build_type of list beta, e.g. Stable or Beta (on one line, at most 100 characters)',
    ]);
    // Every other dialect still needs a file per list.
    const crdroid = parseSite(
      `${base}lists: { stable: [stable], beta: [beta] }\nchannels: [stable, beta]\nformats:\n  crdroid-java:\n    path: /ota/{device}.json\n`,
    );
    expect(crdroid.problems.map((p) => p.message)).toEqual([
      'the format publishes several lists, and each needs its own file: put {list} (or {LIST}, the name in capitals) in the path, e.g. /api/crdroid/{list}/{device}.json, /OTA/device/{LIST}/{device}.json or /{list}-{device}.json',
    ]);
  });

  it('takes every dialect at its default path, all at once', () => {
    const names = ['crdroid', 'pixelexperience', 'crdroid-java', 'md5-six', 'lineage-v1', 'pixelos15', 'pixelos-feed'];
    names.push('grapheneos');
    const site = parseSite(`${base}formats:\n${names.map((n) => `  ${n}:\n`).join('')}`);
    expect(site.problems).toEqual([]);
    expect(site.site!.formats.map((f) => f.path)).toEqual([
      '/api/crdroid/{list}/{device}.json',
      '/api/pixelexperience/{list}/{device}.json',
      '/api/crdroid-java/{list}/{device}.json',
      '/api/md5-six/{list}/{device}.json',
      '/api/lineage-v1/{list}/{device}.json',
      '/api/pixelos15/{list}/{device}.json',
      '/api/pixelos-feed/{list}/{device}.json',
      '/api/grapheneos/{device}-{list}',
    ]);
  });
});

// Project Infinity-X (ProjectInfinity-X/official_devices) keeps its GAPPS files at /{device}.json
// and its vanilla ones at /vanilla/{device}.json: no one path with {list} names both.
describe('a path per list', () => {
  const site = (format: string, more = '') =>
    parseSite(`${base}lists:\n  gapps: [stable]\n  vanilla: [stable]\nformats:\n  crdroid-java:\n${format}${more}`);
  const located = (format: string, more = '') =>
    site(format, more).problems.map((p) => `${p.line}:${p.col} ${p.field} ${p.message}`);
  const paths = '    path:\n      gapps: /{device}.json\n      vanilla: /vanilla/{device}.json\n';

  it('is a format per list, its lists the mapping’s keys, each located at its key', () => {
    const parsed = site(paths);
    expect(parsed.problems).toEqual([]);
    expect(parsed.site!.formats.map(({ lists, path, at }) => ({ lists, path, at }))).toEqual([
      { lists: ['gapps'], path: '/{device}.json', at: { line: 8, col: 14 } },
      { lists: ['vanilla'], path: '/vanilla/{device}.json', at: { line: 9, col: 16 } },
    ]);
    expect(located(`    lists: [vanilla, gapps]\n${paths}`)).toEqual([]);
  });

  it('writes lineage-v1’s one device list once, with the first list’s format', () => {
    const parsed = parseSite(
      `${base}lists:\n  gapps: [stable]\n  vanilla: [stable]\nformats:\n  lineage-v1:\n${paths}    device_info: /info/device-info.json\n`,
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.site!.formats.map((f) => f.deviceInfo)).toEqual(['/info/device-info.json', undefined]);
  });

  it('refuses `lists` that name other lists than the mapping', () => {
    expect(located(`    lists: [gapps]\n${paths}`)).toEqual([
      '7:12 formats.crdroid-java.lists with a path per list, the format publishes the lists `path` names (gapps, vanilla); write lists: [gapps, vanilla], or leave `lists` out',
    ]);
  });

  it('refuses paths that meet each other or another format’s, and bad keys and paths, each at its key', () => {
    expect(located('    path:\n      gapps: /{device}.json\n      vanilla: /{device}.json\n')).toEqual([
      '9:16 formats.crdroid-java.path.vanilla /{device}.json is also the file of crdroid-java, list gapps; give each format and list its own path',
    ]);
    expect(located(paths, '  crdroid:\n    lists: [vanilla]\n    path: /vanilla/{device}.json\n')).toEqual([
      '12:11 formats.crdroid.path /vanilla/{device}.json is also the file of crdroid-java, list vanilla; give each format and list its own path',
    ]);
    expect(
      located('    path:\n      gapps: /{device}.json\n      vanila: /vanila/{device}.json\n      vanilla: x.json\n'),
    ).toEqual([
      '9:7 formats.crdroid-java.path.vanila `vanila` is not a list of this site (lists: gapps, vanilla); add it to `lists` or name one of those',
      "10:16 formats.crdroid-java.path.vanilla a format's path starts with /, e.g. /api/crdroid/{device}.json, /API/updater/{device}.json or /{device}.json",
    ]);
    const graphene = parseSite(
      `${base}formats:\n  grapheneos:\n    path:\n      stable: /releases/{device}-{list}\n`,
    ).problems.map((p) => `${p.field} ${p.message}`);
    expect(graphene).toEqual([
      'formats.grapheneos.path the GrapheneOS updater asks <base><device>-<channel>, the list in the name: one path, e.g. /releases/{device}-{list}',
    ]);
  });

  it('takes a changelog per list, or one path that names the list', () => {
    const changelogs = site(
      paths,
      '    changelog:\n      gapps: /{device}.txt\n      vanilla: /vanilla/{device}.txt\n',
    );
    expect(changelogs.site!.formats.map((f) => f.changelog)).toEqual(['/{device}.txt', '/vanilla/{device}.txt']);
    const named = site(paths, '    changelog: /changelogs/{list}/{device}.txt\n');
    expect(named.site!.formats.map((f) => f.changelog)).toEqual([
      '/changelogs/{list}/{device}.txt',
      '/changelogs/{list}/{device}.txt',
    ]);
    expect(located(paths, '    changelog: /changelogs/{device}.txt\n')).toEqual([
      "10:16 formats.crdroid-java.changelog with a path per list, each list's changelog is a file of its own: put {list} in the path, e.g. /changelogs/{list}/{device}.txt, or give a path per list",
    ]);
    expect(located(paths, '    changelog:\n      gapps: /{device}.json\n')).toEqual([
      "11:14 formats.crdroid-java.changelog.gapps a changelog's path ends in .txt or .md, e.g. /changelogs/{device}.txt, /{device}_changelog.txt or /API/updater/changelogs/{device}.md",
      '11:7 formats.crdroid-java.changelog.vanilla list vanilla has a path but no changelog; add vanilla: /changelogs/vanilla/{device}.txt',
    ]);
  });
});
