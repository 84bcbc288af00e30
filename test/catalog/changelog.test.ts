import { describe, expect, it } from 'vitest';
import { parseChangelog } from '../../src/catalog/changelog.js';
import { parseManifest, type Build } from '../../src/catalog/manifest.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import {
  buildsWithChangelog,
  changelogAnchor,
  changelogForAtom,
  changeTexts,
  renderChangelog,
} from '../../src/render/changelog.js';
import { escapeMarkup } from '../../src/render/markup.js';
import { deviceChanges, renderV2Changes, V2_CHANGES_MAX } from '../../src/render/v2-changes.js';
import { URLS } from '../../src/render/urls.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';
import { catalogFiles, hex } from '../helpers/catalog.js';
import { builtTree, type CatalogFiles } from '../helpers/memory-catalog.js';

// A changelog per build (the manifest's `changelog:` field), rendered safely into
// the device page, the changelog page, the Atom entry and /api/v2/changes.

const html = (text: string, prefix?: string) => String(renderChangelog(parseChangelog(text).blocks, prefix));

describe('changelog Markdown subset', () => {
  it.each([
    ['a paragraph\nover two lines', '<p>a paragraph over two lines</p>'],
    ['- one\n- two\n  continued\n\nafter', '<ul><li>one</li><li>two continued</li></ul>\n<p>after</p>'],
    ['* star\n+ plus', '<ul><li>star</li><li>plus</li></ul>'],
    ['## Fixes ##\n- x', '<h4>Fixes</h4>\n<ul><li>x</li></ul>'],
    ['use `adb <sideload>`', '<p>use <code>adb &lt;sideload&gt;</code></p>'],
    ['```\n<script>alert(1)</script>\n```', '<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>'],
    [
      'see [notes](https://example.org/a?b=1&c=2)',
      '<p>see <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener">notes</a></p>',
    ],
    ['<img src=x onerror=alert(1)> & "quotes"', '<p>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;</p>'],
    ['**bold** _em_', '<p>**bold** _em_</p>'],
    // An item is its marker after at most three spaces, then one space or more.
    [
      '-x\n*\n+\n   -  three spaces, two after\n    - four spaces',
      '<p>-x * +</p>\n<ul><li>three spaces, two after - four spaces</li></ul>',
    ],
    [
      '- \n-   [link](https://example.org/) after',
      '<ul><li></li><li><a href="https://example.org/" rel="nofollow noopener">link</a> after</li></ul>',
    ],
  ])('%j → %s', (text, expected) => {
    expect(parseChangelog(text).problems).toEqual([]);
    expect(html(text)).toBe(expected);
  });

  it.each([
    ['[x](http://example.org/)', 0, 4, 'the link to `http://example.org/` is not an https:// address (write https://)'],
    ['- ok\n- [x](javascript:alert(1))', 1, 6, 'the link to `javascript:alert(1` is not an https:// address'],
    [
      '[x](https://example.org/"onmouseover=alert(1))',
      0,
      4,
      'the link to `https://example.org/"onmouseover=alert(1` is not an https:// address',
    ],
    ['[x](/relative)', 0, 4, 'the link to `/relative` is not an https:// address'],
  ])('refuses the link in %j at line %i col %i, and shows its text only', (text, line, col, start) => {
    const { blocks, problems } = parseChangelog(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line, col });
    expect(problems[0].message.startsWith(start)).toBe(true);
    expect(String(renderChangelog(blocks))).not.toContain('href');
  });

  it.each([
    '- one\n- two & <three>\n\n## Head\nsee [notes](https://example.org/a?b=1&c=2) and `x"y`',
    "```\n<script>\n```\n\ntext \u0001 'quoted'",
  ])('gives Atom the HTML escaped once more: %j', (text) => {
    const { blocks } = parseChangelog(text);
    expect(changelogForAtom(blocks)).toBe(escapeMarkup(String(renderChangelog(blocks))));
  });

  it('counts items and paragraphs as changes, numbered as the page ids count them', () => {
    const text = 'Intro [a](https://a.org/x) `c`.\n\n## Head\n- one\n- two\n\n```\ncode\n```';
    expect(changeTexts(parseChangelog(text).blocks)).toEqual(['Intro a c.', 'one', 'two']);
    expect(html(text, 'b')).toContain('<p id="b-1">');
    expect(html(text, 'b')).toContain('<li id="b-3">two</li>');
  });
});

describe('manifest field `changelog`', () => {
  const { site } = parseSite('download_base_url: https://dl.example.org/builds\n');
  const FILE = 'content/FP4/build.yaml';
  const lines = VALID_MANIFEST.split('\n').length;

  it('locates a bad link inside a block scalar at its own line and column', () => {
    const text = `${VALID_MANIFEST}changelog: |\n  Fixes:\n\n    - a [report](http://bugs.example.org/1)\n`;
    expect(parseManifest(text, FILE, 'FP4', site!).problems.map(formatProblem)).toEqual([
      `${FILE}:${lines + 3}:18  changelog  the link to \`http://bugs.example.org/1\` is not an https:// address (write https://); changelog links must be absolute https:// addresses, with spaces and quotes percent-encoded`,
    ]);
  });

  it('refuses a changelog that is not text', () => {
    expect(
      parseManifest(`${VALID_MANIFEST}changelog: [a, b]\n`, FILE, 'FP4', site!).problems.map(formatProblem),
    ).toEqual([
      `${FILE}:${lines}:12  changelog  expected the changelog as Markdown text; write it as a block: \`changelog: |\` and the lines indented below`,
    ]);
  });

  it('keeps v1 `changes` empty unless site.yaml asks for the changelog address', () => {
    const text = `${VALID_MANIFEST}changelog: "- fixed"\n`;
    expect(parseManifest(text, FILE, 'FP4', site!).build!.changes).toBe('');
    const asks = parseSite(
      'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org/\nv1_changes: changelog_url\n',
    ).site!;
    expect(parseManifest(text, FILE, 'FP4', asks).build!.changes).toBe(
      `https://updates.example.org${URLS.changelogPage('FP4')}#build-0123456789abcdef`,
    );
    // A build without a changelog keeps "".
    expect(parseManifest(VALID_MANIFEST, FILE, 'FP4', asks).build!.changes).toBe('');
  });

  it('needs site_url for v1_changes: changelog_url', () => {
    expect(
      parseSite('download_base_url: https://dl.example.org/b\nv1_changes: changelog_url\n').problems.map(formatProblem),
    ).toEqual([
      'content/site.yaml:2:13  v1_changes  v1 `changes` must be an absolute address, and otapress does not know where the site is served; add `site_url: https://...`',
    ]);
  });
});

describe('changelogs in the built site', () => {
  const tree = builtTree(
    catalogFiles(
      [
        { extra: ['changelog: |', '  - first <fix>', '  - second'] },
        { version: '2.6', extra: ['changelog: "Just [one](https://example.org/1)."'] },
        { device: 'FP3', extra: [] },
        { version: '2.7', placeholder: true, extra: ['changelog: "- coming next"'] },
      ],
      'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\n',
    ),
  );
  const { read } = tree;
  const changesBody = read('api/v2/changes.json');
  const changes = JSON.parse(changesBody);
  const page = read('devices/FP4/changelog/index.html');
  const feed = read('devices/FP4/official.xml');
  const devicePage = read('devices/FP4/index.html');
  const fp3HasPage = tree.has('devices/FP3/changelog/index.html');
  const fp3Page = read('devices/FP3/index.html');

  it("answers /api/v2/changes with the portal's Change shape, newest build first, one change per item", () => {
    // Keys of lineageos-infra/updater-client src/stores/change.ts (469a0e7), in Flask's sorted order.
    const change = (branch: string, subject: string, submitted: number, url: string) => ({
      branch,
      project: 'android_device_FP4',
      repository: 'android_device_FP4',
      subject,
      submitted,
      type: 'device specific',
      updated: submitted,
      url: `https://updates.example.org/devices/FP4/changelog/#${url}`,
    });
    expect(changesBody).toBe(
      JSON.stringify([
        change('2.7', 'coming next', 1731067200 + 3 * 3600, 'placeholder-2.7-1731078000-1'),
        change('2.6', 'Just one.', 1731067200 + 3600, `build-${hex(1, 16)}-1`),
        change('2.5', 'first <fix>', 1731067200, `build-${hex(0, 16)}-1`),
        change('2.5', 'second', 1731067200, `build-${hex(0, 16)}-2`),
      ]),
    );
    expect(changes).toHaveLength(4);
  });

  it('gives every change a target on the changelog page', () => {
    for (const c of changes) expect(page).toContain(` id="${c.url.split('#')[1]}"`);
    expect(page).toContain('<li id="build-00000000abababab-1">first &lt;fix&gt;</li>');
  });

  it('puts the changelog, escaped, into the Atom entry and the device page', () => {
    expect(feed).toContain(
      '<content type="html">&lt;ul&gt;&lt;li&gt;first &amp;lt;fix&amp;gt;&lt;/li&gt;&lt;li&gt;second&lt;/li&gt;&lt;/ul&gt;</content>',
    );
    expect(devicePage).toContain('<ul><li>first &lt;fix&gt;</li><li>second</li></ul>');
    expect(devicePage).toContain('<a href="/devices/FP4/changelog/">Changelog</a>');
  });

  it('writes no changelog page, link or style for a device without changelogs', () => {
    expect(fp3HasPage).toBe(false);
    expect(fp3Page).not.toContain('changelog');
  });

  it('answers [] when no build has a changelog', () => {
    expect(builtTree(catalogFiles([{}])).read('api/v2/changes.json')).toBe('[]');
  });
});

describe('/api/v2/changes from many devices', () => {
  const { site } = parseSite(
    'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\n',
  );
  // Builds with 1 to 3 items each, times that tie across devices and within one.
  const builds = (device: string, count: number, step: number) =>
    Array.from({ length: count }, (_, i) => {
      const items = Array.from({ length: 1 + (i % 3) }, (_, k) => `- ${device} change ${i}.${k}`).join('\n');
      return {
        device,
        placeholder: false,
        version: `1.${i}`,
        display_version: `${device}-1.${i}`,
        timestamp: 1700000000 + Math.floor(i / 2) * step,
        id: hex(i, 64),
        changelog: parseChangelog(items).blocks,
      } as unknown as Build;
    });
  const devices = [
    { device: 'FP4', builds: builds('FP4', 600, 60) }, // 1200 changes: more than one device may hand on
    { device: 'FP3', builds: builds('FP3', 300, 90) },
    { device: 'FP5', builds: builds('FP5', 10, 3600) },
  ];
  // What the answer was before the devices handed on compact changes: every change, sorted (stable) newest first.
  const expected = devices
    .flatMap(({ device, builds: of }) =>
      buildsWithChangelog(of).flatMap((b) =>
        changeTexts(b.changelog!).map((subject, i) => ({
          branch: b.version,
          project: `android_device_${device}`,
          repository: `android_device_${device}`,
          subject,
          submitted: b.timestamp,
          type: 'device specific',
          updated: b.timestamp,
          url: `https://updates.example.org/devices/${device}/changelog/#${changelogAnchor(b)}-${i + 1}`,
        })),
      ),
    )
    .sort((a, b) => b.submitted - a.submitted)
    .slice(0, V2_CHANGES_MAX);

  it('keeps the newest changes of all devices in the order of a stable sort, at most V2_CHANGES_MAX', () => {
    const summaries = devices.map(({ device, builds: of }) => ({ device, changes: deviceChanges(device, of, site!) }));
    expect(String(renderV2Changes(summaries).contents)).toBe(JSON.stringify(expected));
    expect(expected).toHaveLength(V2_CHANGES_MAX);
  });
});

describe('changelog anchors of download keys that are not a SHA-256', () => {
  it('are the whole key: two MD5 keys sharing their first 16 characters get their own url in /api/v2/changes and their own anchors', () => {
    const shared = '0123456789abcdef';
    const ids = [`${shared}0000000000000001`, `${shared}0000000000000002`];
    const files = catalogFiles(
      [{ extra: [`changelog: "- first"`] }, { version: '2.6', extra: [`changelog: "- second"`] }],
      'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\n',
    );
    // The catalog's own ids replaced by MD5-length download keys that share 16 characters.
    const tree = builtTree(withIds(files, ids));
    const changes = JSON.parse(tree.read('api/v2/changes.json')) as { url: string }[];
    expect(changes.map((c) => c.url)).toEqual(
      ids.reverse().map((id) => `https://updates.example.org/devices/FP4/changelog/#build-${id}-1`),
    );
    const page = tree.read('devices/FP4/changelog/index.html');
    for (const c of changes) expect(page.split(` id="${c.url.split('#')[1]}"`)).toHaveLength(2);
  });
});

describe('changelog anchors are unique per build in every case', () => {
  const SITE =
    'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\nv1_changes: changelog_url\n';
  /** Builds the catalog and reads what carries the anchors: the pages' ids, the changes' urls, the v1 `changes`. */
  function built(files: CatalogFiles) {
    const { read, has } = builtTree(files);
    const ids = (page: string) => [...page.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]);
    const changelogPage = read('devices/FP4/changelog/index.html');
    const urls = (JSON.parse(read('api/v2/changes.json')) as { url: string }[]).map((c) => c.url);
    const v1 = ['official', 'dev'].flatMap((list) =>
      has(`api/v1/FP4/${list}/index.json`)
        ? (JSON.parse(read(`api/v1/FP4/${list}/index.json`)) as { response: { changes: string }[] }).response.map(
            (r) => r.changes,
          )
        : [],
    );
    return { changelogIds: ids(changelogPage), deviceIds: ids(read('devices/FP4/index.html')), urls, v1 };
  }
  const unique = (values: string[]) => expect(values.filter((v, i) => values.indexOf(v) !== i)).toEqual([]);

  it('two placeholders of one version and time: the first keeps its anchor, the second takes ~2, on every page, in /api/v2/changes and in v1 changes', () => {
    const files = catalogFiles(
      [
        { version: '3.1', placeholder: true, timestamp: 1751364000, extra: ['changelog: "- coming to official"'] },
        {
          version: '3.1',
          placeholder: true,
          channel: 'dev',
          timestamp: 1751364000,
          extra: ['changelog: "- coming to dev"'],
        },
      ],
      SITE,
    );
    const { changelogIds, deviceIds, urls, v1 } = built(files);
    unique(changelogIds);
    unique(deviceIds);
    unique(urls);
    const page = 'https://updates.example.org/devices/FP4/changelog/#';
    expect(urls.sort()).toEqual([`${page}placeholder-3.1-1751364000-1`, `${page}placeholder-3.1-1751364000~2-1`]);
    expect(changelogIds).toEqual(
      expect.arrayContaining(['placeholder-3.1-1751364000', 'placeholder-3.1-1751364000~2']),
    );
    expect(deviceIds).toEqual(
      expect.arrayContaining(['official-placeholder-3.1-1751364000', 'dev-placeholder-3.1-1751364000~2']),
    );
    for (const url of urls) expect(changelogIds).toContain(url.split('#')[1]);
    expect(v1.sort()).toEqual([`${page}placeholder-3.1-1751364000`, `${page}placeholder-3.1-1751364000~2`]);
  });

  it('two SHA-256 ids sharing their first 16 characters: each build takes its whole id', () => {
    const files = catalogFiles(
      [{ extra: ['changelog: "- first"'] }, { version: '2.6', extra: ['changelog: "- second"'] }],
      SITE,
    );
    const ids = ['0123456789abcdef'.padEnd(64, '1'), '0123456789abcdef'.padEnd(64, '2')];
    const { changelogIds, deviceIds, urls, v1 } = built(withIds(files, ids));
    unique(changelogIds);
    unique(deviceIds);
    const page = 'https://updates.example.org/devices/FP4/changelog/#';
    expect(urls).toEqual([`${page}build-${ids[1]}-1`, `${page}build-${ids[0]}-1`]);
    expect(deviceIds).toEqual(expect.arrayContaining(ids.map((id) => `official-${id}`)));
    expect(v1.sort()).toEqual(ids.map((id) => `${page}build-${id}`));
  });
});

/** `files` with the manifests' ids replaced by `ids`, in the order of the manifests' paths. */
function withIds(files: CatalogFiles, ids: string[]): CatalogFiles {
  const manifests = Object.keys(files)
    .filter((file) => file !== 'content/site.yaml')
    .sort();
  const changed = manifests.map((file, i) => [file, files[file]!.replace(/^id: .*$/m, `id: ${ids[i]}`)]);
  return { ...files, ...Object.fromEntries(changed) };
}
