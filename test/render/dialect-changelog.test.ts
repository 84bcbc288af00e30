// The changelog file an updater fetches for a device (`changelog` of a format): the catalog's
// changelogs of the list, newest first, as Markdown that reads as text, at most PixelOS's 256 KiB;
// served as text where it lies outside a format's folder.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { parseSite } from '../../src/catalog/site.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { CHANGELOG_MAX_BYTES, renderDialectChangelog } from '../../src/render/dialect-changelog.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const YAML = 'formats:\n  crdroid-java:\n    changelog: /changelogs/{list}/{device}.txt\n';
const compiled = compileWith(readContent(EXAMPLE), YAML);
const text = (path: string) => compiled.files.find((f) => f.path === path)?.contents;

describe('a format’s changelog file', () => {
  it('holds the changelogs of the list’s builds, newest first, headed by version and day', () => {
    expect(compiled.problems).toEqual([]);
    expect(String(text('changelogs/dev/FP4.txt'))).toBe(
      [
        '# 3.0-a16-20250610500001-dev-FP4 (2025-06-10)',
        '',
        'First build on Android 16. Flash the images below before updating from 2.x.',
        '## Changes',
        '- Android 16 with the June 2025 security patch',
        '- New camera app; see the release notes <https://doc.example.org/releases/3.0>',
        '- `adb sideload` works again in recovery',
        '- Known issue: <b>VoLTE</b> may need a reboot after the update',
        '',
      ].join('\n'),
    );
    // A list none of whose builds has a changelog has no file.
    expect(text('changelogs/community/FP4.txt')).toBeUndefined();
  });

  it('is served as text by the preview, outside the format’s folder', () => {
    const answer = respond(servedTree(compiled.site!, compiled.files), 'GET', '/changelogs/dev/FP4.txt');
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('text/plain; charset=utf-8');
  });

  it('lies at the root where the ROM keeps it (crDroid: /<device>_changelog.txt), served as text', () => {
    const root = compileWith(
      readContent(EXAMPLE),
      'formats:\n  crdroid-java:\n    lists: [dev]\n    changelog: /{device}_changelog.txt\n',
    );
    expect(root.problems).toEqual([]);
    expect(String(root.files.find((f) => f.path === 'FP4_changelog.txt')?.contents)).toBe(
      String(text('changelogs/dev/FP4.txt')),
    );
    const answer = respond(servedTree(root.site!, root.files), 'GET', '/FP4_changelog.txt');
    expect([answer.status, answer.headers['Content-Type']]).toEqual([200, 'text/plain; charset=utf-8']);
  });

  it('without the list in its path, is one file per device for every list, each build once (RisingOS)', () => {
    // RisingOS keeps OTA/changelogs/<device>.txt beside OTA/device/<VARIANT>/<device>.json
    // (test/fixtures/ota-repositories/README.md).
    const one = compileWith(
      readContent(EXAMPLE),
      'formats:\n  crdroid-java:\n    lists: [stable, official, dev]\n    path: /OTA/device/{LIST}/{device}.json\n    changelog: /OTA/changelogs/{device}.txt\n',
    );
    expect(one.problems).toEqual([]);
    // 3.0 (dev) first, then 2.6.3, which is in stable and official, once.
    expect(String(one.files.find((f) => f.path === 'OTA/changelogs/FP4.txt')?.contents)).toBe(
      `${String(text('changelogs/dev/FP4.txt'))}\n${String(text('changelogs/stable/FP4.txt'))}`,
    );
    expect(String(text('changelogs/stable/FP4.txt'))).toBe(String(text('changelogs/official/FP4.txt')));
    expect(one.files.filter((f) => f.path.startsWith('OTA/changelogs/')).map((f) => f.path)).toEqual([
      'OTA/changelogs/FP3.txt',
      'OTA/changelogs/FP4.txt',
      'OTA/changelogs/starlte.txt',
    ]);
  });

  it('keeps to 256 KiB, leaving the oldest entries out', () => {
    const listing = compiled.listings.find((l) => l.device === 'FP4' && l.list === 'dev')!;
    const [build] = listing.builds.filter((b) => b.changelog);
    const builds = Array.from({ length: 2000 }, (_, i) => ({
      ...build,
      display_version: `v${i}`,
      timestamp: build.timestamp - i,
    }));
    const written = renderDialectChangelog(builds)!;
    expect(Buffer.byteLength(written)).toBeLessThanOrEqual(CHANGELOG_MAX_BYTES);
    const entries = written.split('\n# ').length;
    expect(entries).toBeGreaterThan(100);
    expect(entries).toBeLessThan(builds.length);
    expect(written.startsWith('# v0 ')).toBe(true);
  });

  const problemsOf = (path: string) =>
    parseSite(
      `download_base_url: https://x.example/b\nformats:\n  crdroid-java:\n    changelog: ${path}\n`,
    ).problems.map((p) => `${p.field} ${p.message}`);
  const example = 'e.g. /changelogs/{device}.txt, /{device}_changelog.txt or /API/updater/changelogs/{device}.md';
  it.each([
    ['/changelogs/{device}.html', `a changelog's path ends in .txt or .md, ${example}`],
    [
      '/changelogs/{list}/{codename}.txt',
      "unknown placeholder {codename}; use {device}, and {list} or {LIST} (the list's name in capitals)",
    ],
    [
      '/_notes/{list}/{device}.txt',
      "`_notes` starts with `_`: such names are the hosts' own (_headers, _redirects, dotfiles); " +
        'pick a name that starts with a letter or digit',
    ],
  ])('refuses the changelog path %s', (path, message) => {
    expect(problemsOf(path)[0]).toBe(`formats.crdroid-java.changelog ${message}`);
  });
});
