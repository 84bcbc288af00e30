// GitHub Pages end to end: an `init`-made catalog (LineageOS, the crDroid family, PixelExperience
// and PixelOS up to 14), built with --host github-pages and served by the Pages look-alike
// (test/helpers/github-pages-server.ts) as a project site under /ota/. Every address that
// `otapress hosting github-pages` prints answers 200 without a redirect, as a type its updater
// takes; each updater's transcription decodes it to the catalog's builds, no more, no fewer; every
// link of the pages, feeds and device index resolves there.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing } from '../../src/catalog/plan.js';
import { readContent } from '../../src/catalog/read.js';
import { parseSite } from '../../src/catalog/site.js';
import { githubPagesNotices } from '../../src/hosts/github-pages.js';
import { initCatalog } from '../../src/commands/init.js';
import { build, check, compileSite } from '../../src/pipeline/build.js';
import { startPreview } from '../../src/pipeline/preview.js';
import { catalogProject } from '../helpers/catalog.js';
import { v1Lists, v2DecodeAnswer, v2Offers } from '../helpers/clients.js';
import { runMain } from '../helpers/cli-process.js';
import { snapshotTree } from '../helpers/helpers.js';
import { dialectOracles } from '../helpers/dialects/oracles.js';
import { startGitHubPagesServer, type PagesServer } from '../helpers/github-pages-server.js';

const SITE_URL = 'https://owner.github.io/ota';
const SITE_SETTINGS = `site_url: ${SITE_URL}/
formats:
  crdroid:
  pixelexperience:
    lists: [stable]
    path: /API/updater/{device}.json
request_paths:
  - /api/v1/{device}_{list}.json
`;

/** Builds besides init's example: a newer FP4 build of another list, and a second device. */
const BUILDS: { device: string; version: string; channel: string; timestamp: number }[] = [
  { device: 'FP4', version: '2.6', channel: 'stable', timestamp: 1733000000 },
  { device: 'FP4', version: '2.6', channel: 'dev', timestamp: 1733100000 },
  { device: 'akita', version: '2.6', channel: 'stable', timestamp: 1733200000 },
  { device: 'akita', version: '2.7', channel: 'stable', timestamp: 1734200000 },
];

let root: string;
let server: PagesServer;
let listings: Listing[];
let compiled: ReturnType<typeof compileSite>;
/** What `otapress hosting github-pages` printed: each setting and its value. */
let printed: { setting: string; value: string }[];

beforeAll(async () => {
  // Kept for the whole file (helpers.ts tempProject removes its folders after each test).
  root = path.join(mkdtempSync(path.join(tmpdir(), 'otapress-pages-')), 'ota');
  initCatalog(root, { example: true, version: '0.2.0', githubPages: true });
  writeFileSync(
    path.join(root, 'content', 'site.yaml'),
    readFileSync(path.join(root, 'content', 'site.yaml'), 'utf8') + SITE_SETTINGS,
  );
  BUILDS.forEach(({ device, version, channel, timestamp }, i) => {
    const name = `e-${version}-a15-2024120${i}100000-${channel}-${device}`;
    mkdirSync(path.join(root, 'content', device), { recursive: true });
    const manifest = [
      `filename: ${name}.zip`,
      `version: "${version}"`,
      `channel: ${channel}`,
      `timestamp: ${timestamp}`,
      'android_version: "15"',
      `incremental: "eng.root.2024120${i}.100000"`,
      `md5sum: ${`${i}`.repeat(8)}${'ab'.repeat(12)}`,
      `id: ${`${i}`.repeat(8)}${'ab'.repeat(28)}`,
      `size: ${1_000_000_000 + i}`,
    ];
    writeFileSync(path.join(root, 'content', device, `${name}.yaml`), `${manifest.join('\n')}\n`);
  });
  const { problems } = check({ root });
  expect(problems.map((p) => `${p.file}:${p.line} ${p.field} ${p.message}`)).toEqual([]);
  build({ root, host: 'github-pages', cache: false, threads: 1 });
  compiled = compileSite(readContent(root), 'github-pages');
  listings = compiled.listings;
  server = await startGitHubPagesServer({ root: path.join(root, 'dist'), repository: 'ota' });
  const { code, out } = await runMain(['hosting', 'github-pages', '--root', root]);
  expect(code).toBe(0);
  printed = out
    .join('\n')
    .split('\n')
    .flatMap((line) => {
      const match = /^ {2}([\w.]+)=(https:\/\/\S+)$/.exec(line);
      return match ? [{ setting: match[1], value: match[2] }] : [];
    });
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(path.dirname(root), { recursive: true, force: true });
});

/** The look-alike's address of a site URL. */
const local = (url: string) => url.replace(SITE_URL, server.base.slice(0, -1));

/** GET without following a redirect, as the Kotlin updaters (`followRedirects(false)`) ask. */
async function get(url: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

const devices = () => [...new Set(listings.map((l) => l.device))];
const listOf = (device: string, list: string) => listings.find((l) => l.device === device && l.list === list)!;
const files = (builds: readonly { filename: string }[]) => builds.map((b) => b.filename).sort();

describe('a catalog on GitHub Pages, as a project site', () => {
  it("has a .nojekyll, the Pages workflow, and none of the other hosts' rule files", () => {
    const dist = path.join(root, 'dist');
    expect(readFileSync(path.join(dist, '.nojekyll'), 'utf8')).toBe('');
    expect(existsSync(path.join(root, '.github', 'workflows', 'pages.yml'))).toBe(true);
    expect(readdirSync(dist).filter((f) => f.startsWith('_'))).toEqual([]);
  });

  it("is written by build byte for byte as compileSite makes it, Pages' copies included", () => {
    const expected = Object.fromEntries(
      compiled.files.map((f) => [f.path, Buffer.from(f.contents).toString('latin1')]),
    );
    expect(snapshotTree(path.join(root, 'dist'))).toEqual(expected);
    expect(expected['api/v1/FP4_stable.json']).toBe(expected['api/v1/FP4/stable/index.json']);
  });

  it('prints an address for every updater the site publishes', () => {
    expect(printed).toEqual([
      { setting: 'lineage.updater.uri', value: `${SITE_URL}/api/v2/devices/{device}/builds.json` },
      { setting: 'lineage.updater.uri', value: `${SITE_URL}/api/v1/{device}/{type}/index.json` },
      ...['stable', 'official', 'dev', 'community'].map((list) => ({
        setting: 'updater_server_url',
        value: `${SITE_URL}/api/v1/{device}/${list}/index.json`,
      })),
      ...['stable', 'official', 'dev', 'community'].map((list) => ({
        setting: 'updater_server_url',
        value: `${SITE_URL}/api/crdroid/${list}/{device}.json`,
      })),
      { setting: 'Constants.OTA_URL', value: `${SITE_URL}/API/updater/%s.json` },
    ]);
  });

  it('answers every printed address with 200, no redirect, as application/json (LineageOS 23.2 takes nothing else)', async () => {
    let asked = 0;
    for (const { value } of printed) {
      for (const device of devices()) {
        const lists = value.includes('{type}') ? listings.filter((l) => l.device === device).map((l) => l.list) : [''];
        for (const list of lists) {
          const url = local(value.replace('{device}', device).replace('{type}', list).replace('%s', device));
          const { status, type } = await get(url);
          // The PixelExperience family has no file for a device with nothing in its list.
          if (value.includes('/API/updater/') && listOf(device, 'stable').builds.length === 0) {
            expect(status, url).toBe(404);
            continue;
          }
          expect([status, type.split(';')[0].trim()], url).toEqual([200, 'application/json']);
          asked++;
        }
      }
    }
    // v2 per device; v1, PixelOS's and the crDroid family's per device and list; PixelExperience's per device.
    expect(asked).toBe(2 + 8 + 8 + 8 + 2);
  });

  it('gives LineageOS phones every build of their list, v1 and v2 alike', async () => {
    for (const { device, list, builds } of listings) {
      const v1 = JSON.parse((await get(local(`${SITE_URL}/api/v1/${device}/${list}/index.json`))).body) as {
        response: Record<string, unknown>[];
      };
      const phone = { releaseType: list, buildDate: 0, version: '0', allowMajorUpgrades: true };
      const listed = v1.response.filter((r) => v1Lists(r as never, phone)).map((r) => String(r.filename));
      expect(listed.sort(), `${device} ${list}`).toEqual(files(builds));
    }
    for (const device of devices()) {
      const entries = v2DecodeAnswer((await get(local(`${SITE_URL}/api/v2/devices/${device}/builds.json`))).body);
      expect(entries, device).toBeDefined();
      for (const list of listings.filter((l) => l.device === device)) {
        const phone = { releaseType: list.list, buildDate: 0, version: '0.0', allowMajorUpgrades: true };
        const offered = entries!.filter((e) => v2Offers(e, phone)).map((e) => String(e.files[0].filename));
        // v2 has one entry per build, typed by its channel's list: every build of the list whose type is the list's.
        expect(
          offered.every((name) => list.builds.some((b) => b.filename === name)),
          `${device} ${list.list}`,
        ).toBe(true);
      }
      const all = [...new Set(entries!.map((e) => String(e.files[0].filename)))].sort();
      expect(all, device).toEqual(
        [...new Set(listings.filter((l) => l.device === device).flatMap((l) => files(l.builds)))].sort(),
      );
    }
  });

  // The readers this format is written for: crDroid's Kotlin one, and the Java forks that read its six
  // fields (the Java readers that also read crDroid's shown keys are the format's own tests' concern).
  it('gives PixelOS 15 phones, which read the v1 listing, every build of the list', async () => {
    for (const { device, list, builds } of listings) {
      const { body } = await get(local(`${SITE_URL}/api/v1/${device}/${list}/index.json`));
      expect(dialectOracles.pixelos15(body, { buildDate: 0 })?.sort(), `${device} ${list}`).toEqual(files(builds));
    }
  });

  it("gives the crDroid family's readers every build of the list", async () => {
    for (const { device, list, builds } of listings) {
      const { body } = await get(local(`${SITE_URL}/api/crdroid/${list}/${device}.json`));
      for (const reader of ['crdroidKotlin', 'matrixx', 'infinityx', 'voltageos'] as const) {
        expect(dialectOracles[reader](body, { buildDate: 0 })?.sort(), `${reader} ${device} ${list}`).toEqual(
          files(builds),
        );
      }
    }
  });

  it('gives PixelExperience phones the newest build of the list, and nothing newer than theirs', async () => {
    for (const device of devices()) {
      const { builds } = listOf(device, 'stable');
      if (builds.length === 0) continue;
      const newest = [...builds].sort((a, b) => b.timestamp - a.timestamp)[0];
      const { body } = await get(local(`${SITE_URL}/API/updater/${device}.json`));
      expect(dialectOracles.pixelexperience(body, { buildDate: 0, version: newest.version }), device).toEqual([
        newest.filename,
      ]);
      expect(
        dialectOracles.pixelexperience(body, { buildDate: newest.timestamp, version: newest.version }),
        device,
      ).toEqual([]);
    }
  });

  it('resolves every link of the pages, the 404 page, the feeds and the device index, with no redirect', async () => {
    const seen = new Set<string>();
    const queue = [server.base, `${server.base}no/such/page`];
    const broken: string[] = [];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const { status, type, body } = await get(url);
      if (status !== 200 && !url.endsWith('no/such/page')) broken.push(`${url} ${status}`);
      const links = type.startsWith('application/json')
        ? [...body.matchAll(/"(?:page|v2|url|feed|v2_device)":"([^"]+)"/g)].map((m) => m[1])
        : [...body.matchAll(/\b(?:href|src)="([^"#][^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
      for (const link of links) {
        const target = new URL(link, url);
        target.hash = '';
        // Downloads and the device's other sites are not this site's to answer.
        if (target.origin === server.origin && !seen.has(target.href)) queue.push(target.href);
        if (target.origin === server.origin && !target.pathname.startsWith('/ota/'))
          broken.push(`${link} on ${url}: outside /ota/`);
      }
    }
    expect(broken).toEqual([]);
    // The home page, 404, device index, each device's page and changelog-less feeds and answers were all reached.
    expect([...seen].filter((u) => u.endsWith('.xml')).length).toBe(listings.length);
    expect([...seen].filter((u) => /\/devices\/[^/]+\/$/.test(u)).length).toBe(devices().length);
    expect(seen.has(`${server.base}api/devices.json`)).toBe(true);
  });

  it('says in check what Pages cannot do for the site', () => {
    const { problems, notices } = check({ root });
    expect(problems).toEqual([]);
    const messages = notices.map((n) => n.message).filter((m) => m.includes('GitHub Pages'));
    expect(messages.some((m) => m.includes('not a JSON 404'))).toBe(true);
    expect(messages.some((m) => m.includes('Cache-Control: max-age=600'))).toBe(true);
    expect(messages.some((m) => m.includes('/api/v2/oems and /api/v2/devices/<device> without .json'))).toBe(true);
  });

  it('answers each request path that names one file with a copy of the listing it answers', async () => {
    for (const { device, list } of listings) {
      const copy = await get(local(`${SITE_URL}/api/v1/${device}_${list}.json`));
      const listing = await get(local(`${SITE_URL}/api/v1/${device}/${list}/index.json`));
      expect([copy.status, copy.type], `${device} ${list}`).toEqual([200, 'application/json; charset=utf-8']);
      expect(copy.body).toBe(listing.body);
    }
    expect(check({ root }).notices.filter((n) => n.field.startsWith('request_paths'))).toEqual([]);
  });

  it("answers as the notices say: a miss is the HTML 404 page, the portal's addresses without .json are misses", async () => {
    for (const miss of [
      'api/v2/devices/nosuch/builds.json',
      'api/v2/oems',
      'api/v2/devices/FP4',
      'api/v1/FP4/stable/eng.root.20241108.123456',
    ]) {
      // A folder's address is first redirected to its slash form, which has no index.html.
      const response = await fetch(`${server.base}${miss}`);
      expect([response.status, response.headers.get('content-type')], miss).toEqual([404, 'text/html; charset=utf-8']);
    }
  });

  it('is previewed under its base path too, where its links lead', async () => {
    const preview = await startPreview({ root, port: 0, io: { out: () => {}, err: () => {} } });
    try {
      expect(new URL(preview.url).pathname).toBe('/ota/');
      const home = await fetch(preview.url);
      const links = [...(await home.text()).matchAll(/href="(\/ota\/[^"#]*)"/g)].map((m) => m[1]);
      expect(links.length).toBeGreaterThan(devices().length);
      for (const link of links) expect((await fetch(new URL(link, preview.url))).status, link).toBe(200);
    } finally {
      await preview.close();
    }
  });
});

describe('the notices of a site on GitHub Pages', () => {
  const site = parseSite(
    'download_base_url: https://dl.example.org\nrequest_paths:\n  - /api/v1/{device}_{list}.json\n',
  ).site!;
  const fields = (notices: { field: string; message: string }[]) => notices.map((n) => n.field);

  it('say what Pages cannot answer for this site only', () => {
    const none = githubPagesNotices(site, { changes: false, incrementals: [], linksToFiles: true, copies: true });
    expect(fields(none)).toEqual(['hosts', 'hosts', 'cache_control']);
    // Without Pages' copies (a build for another host of a site on github.io), the request path is a miss there.
    const uncopied = githubPagesNotices(site, { changes: false, incrementals: [], linksToFiles: true, copies: false });
    expect(fields(uncopied)).toEqual(['hosts', 'hosts', 'cache_control', 'request_paths.0']);
    const all = githubPagesNotices(site, {
      changes: true,
      incrementals: [{ device: 'FP4', list: 'stable', incremental: 'eng.root.1' }],
      linksToFiles: false,
      copies: false,
    });
    expect(fields(all)).toEqual(['hosts', 'hosts', 'cache_control', 'site_url', 'hosts', 'hosts', 'request_paths.0']);
    expect(all[5].message).toContain(
      'the 1 answer for phones on one build (/api/v1/FP4/stable/eng.root.1.json and, for LineageOS 23.2 and later, /api/v2/devices/FP4/builds/eng.root.1.json;',
    );
    expect(all[6].message).toContain('/api/v1/{device}_{list}.json answers 404 there');
  });
});

describe('a build for GitHub Pages', () => {
  const hostFiles = (files: { path: string }[]) =>
    files.map((f) => f.path).filter((p) => !p.includes('/') && !/^(404\.html|index\.html|\.otapress-output)$/.test(p));

  it("writes .nojekyll and no other host's rule files, with --host github-pages or for a site on Pages alone", () => {
    const everyHost = catalogProject([{ device: 'FP4' }]);
    expect(hostFiles(compileSite(readContent(everyHost), 'github-pages').files)).toEqual(['.nojekyll']);
    expect(hostFiles(compileSite(readContent(everyHost)).files)).toEqual([
      '_headers',
      '_redirects',
      '_routes.json',
      '_worker.js',
    ]);
    const pagesOnly = catalogProject(
      [{ device: 'FP4' }],
      'download_base_url: https://dl.example.org/builds\nhosts: [github-pages]\n',
    );
    expect(hostFiles(compileSite(readContent(pagesOnly)).files)).toEqual(['.nojekyll']);
    // A site that does not deploy to Pages gets nothing of it.
    const cloudflareOnly = catalogProject(
      [{ device: 'FP4' }],
      'download_base_url: https://dl.example.org/builds\nhosts: [cloudflare]\n',
    );
    expect(hostFiles(compileSite(readContent(cloudflareOnly), 'github-pages').files)).toEqual([]);
  });
});
