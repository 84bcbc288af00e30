// GrapheneOS phones end to end on the hosts' own engines: a catalog with a `grapheneos` format, two
// builds of akita and an incremental package between them, whose zips (real zips with the metadata
// the updater checks) a loopback download server serves at the paths of the manifests' urls
// (https://downloads.example.org/…, as a download must be: see below). The preview
// (`otapress serve`) is asked as the updater asks (test/helpers/dialects/grapheneos.ts): the channel
// file, the incremental name, else the full one, each redirect followed to the zip, whose metadata the
// updater's checks accept. Cloudflare's runtime (wrangler pages dev) and Netlify's rule engine answer
// every zip name with the same 302 to the same download. GrapheneOS/platform_packages_apps_Updater
// src/app/seamlessupdate/client/Service.java at c7d5dfc1486f1c4b799a50b620b807c2cc196585: fetchData opens
// an HttpURLConnection and never calls setInstanceFollowRedirects(false), so the redirect is followed
// (HttpURLConnection's default; on Android within one scheme only, AOSP external/okhttp
// android/main/java/com/squareup/okhttp/HttpHandler.java `setFollowProtocolRedirects(false)`, as in
// CyanogenMod/android_external_okhttp at 1714f5f70d9ec98d6df340639afa5966c84958a1: an https site's
// redirect to http is not followed, and wrangler 4.86.0 refuses such a rule, so only https downloads get one).
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { listingRedirects } from '../../src/hosts/routes.js';
import { readOtaEntries } from '../../src/ota/zip.js';
import { build, compileSite } from '../../src/pipeline/build.js';
import { startPreview, type Preview } from '../../src/pipeline/preview.js';
import { checkGrapheneZipMetadata, readGrapheneChannel, type GraphenePhone } from '../helpers/dialects/grapheneos.js';
import { serveOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { loadNetlifySite, netlifyAnswer } from '../helpers/netlify-engine.js';
import { startGitHubPagesServer } from '../helpers/github-pages-server.js';
import { runMain } from '../helpers/cli-process.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';
import { startWrangler, type Wrangler } from '../helpers/wrangler.js';

/** Where the downloads are; the loopback server answers for it. */
const DOWNLOADS = 'https://downloads.example.org';

/** A query of the characters a URL may hold that rule syntaxes read: `$`, `%`, `:`, `*`, quotes, `;`, `&`. */
const QUERY = "?a=$1&b=%20&c=:device&d=*&e='f'(g);h!i,j+k~l@m";

/** akita's builds: two full packages and an incremental package from the first to the second. */
const BUILDS = [
  { name: 'grapheneos-akita-20241101', incremental: 'eng.build.20241101', timestamp: 1730419200 },
  { name: 'grapheneos-akita-20241201', incremental: 'eng.build.20241201', timestamp: 1733011200 },
  {
    name: 'grapheneos-akita-20241201-from-20241101',
    incremental: 'eng.build.20241201',
    timestamp: 1733011200,
    from: 'eng.build.20241101',
  },
];

/** The metadata the updater reads of a package (Service.java onDownloadFinished). */
const metadataOf = ({ incremental, timestamp, from }: (typeof BUILDS)[number]) =>
  [
    'ota-streaming-property-files=payload.bin:679:3145728,payload_properties.txt:3146461:32,metadata:69:400',
    'ota-type=AB',
    `post-build-incremental=${incremental}`,
    `post-timestamp=${timestamp}`,
    ...(from ? [`pre-build-incremental=${from}`] : []),
    'pre-device=akita',
    '',
  ].join('\n');

let root: string;
let downloads: LoopbackServer;
let preview: Preview;
let wrangler: Wrangler | undefined;
let redirects: { from: string; to: string }[];
/** The zips the download server sent, by path. */
const served: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-grapheneos-'));
  const files = path.join(root, 'downloads');
  downloads = await serveOnLoopback((request) => {
    const file = path.join(files, ...new URL(request.url, 'http://x').pathname.split('/').filter(Boolean));
    try {
      const body = readFileSync(file);
      served.push(request.url);
      return { status: 200, headers: [['Content-Type', 'application/zip']], body };
    } catch {
      return { status: 404, headers: [], body: Buffer.alloc(0) };
    }
  });
  mkdirSync(path.join(root, 'content', 'akita'), { recursive: true });
  writeFileSync(
    path.join(root, 'content', 'site.yaml'),
    `download_base_url: ${DOWNLOADS}/builds\nformats:\n  grapheneos:\n    lists: [stable]\n`,
  );
  mkdirSync(path.join(files, 'builds', 'stable', 'akita'), { recursive: true });
  for (const [i, b] of BUILDS.entries()) {
    const zip = path.join(files, 'builds', 'stable', 'akita', `${b.name}.zip`);
    await writeOtaZip(zip, { metadata: metadataOf(b) });
    const manifest = [
      `filename: ${b.name}.zip`,
      'version: "15"',
      'channel: stable',
      `timestamp: ${b.timestamp}`,
      'android_version: "15"',
      `incremental: "${b.incremental}"`,
      // The incremental package's url with every character a rule syntax reads in its query, which
      // the download server ignores: each host must send it as it is.
      ...(b.from
        ? [`source_incremental: "${b.from}"`, `url: "${DOWNLOADS}/builds/stable/akita/${b.name}.zip${QUERY}"`]
        : []),
      `md5sum: ${`${i}a`.repeat(16)}`,
      `id: ${`${i}b`.repeat(32)}`,
      `size: ${statSync(zip).size}`,
    ];
    writeFileSync(path.join(root, 'content', 'akita', `${b.name}.yaml`), `${manifest.join('\n')}\n`);
  }
  const compiled = compileSite(readContent(root));
  expect(compiled.problems.map((p) => `${p.file}:${p.line} ${p.field} ${p.message}`)).toEqual([]);
  redirects = listingRedirects(compiled.site!, compiled.listings);
  build({ root, cache: false, threads: 1 });
  preview = await startPreview({ root, port: 0, io: { out: () => {}, err: () => {} } });
}, 60_000);

afterAll(async () => {
  await wrangler?.stop();
  await preview?.close();
  await downloads?.close();
  rmSync(root, { recursive: true, force: true });
}, 30_000);

/** A phone on akita's first build, or on a build no incremental package applies on. */
const phone = (incremental: string): GraphenePhone => ({
  device: 'akita',
  incremental,
  buildDate: 1730000000,
  channel: 'stable',
});

/**
 * What Service.onHandleIntent does against `base`: the channel file, then the incremental name and,
 * when that fails (getInputStream throws at 400 and above), the full name, each redirect followed; the
 * zip then goes through onDownloadFinished's metadata checks.
 */
async function updateFrom(base: string, p: GraphenePhone) {
  const channel = await fetch(`${base}akita-${p.channel}`);
  expect(channel.status).toBe(200);
  const check = readGrapheneChannel(await channel.text(), p);
  if (check.kind !== 'update') throw new Error(`no update: ${JSON.stringify(check)}`);
  const hops: string[] = [];
  for (const name of [check.incrementalName, check.fullName]) {
    const first = await fetch(`${base}${name}`, { redirect: 'manual' });
    hops.push(`${name} ${first.status}`);
    if (first.status >= 400) continue;
    expect(first.status).toBe(302);
    const location = first.headers.get('location')!;
    expect(location.startsWith(`${DOWNLOADS}/`)).toBe(true);
    const zip = await fetch(location.replace(DOWNLOADS, downloads.origin));
    expect(zip.status).toBe(200);
    const file = path.join(root, 'downloaded.zip');
    writeFileSync(file, Buffer.from(await zip.arrayBuffer()));
    const { metadata } = await readOtaEntries(file);
    return { hops, refused: checkGrapheneZipMetadata(metadata!, check.targetBuildDate, p), served: served.at(-1) };
  }
  throw new Error(`neither zip answers: ${hops.join(', ')}`);
}

describe('a GrapheneOS phone updating from otapress serve', () => {
  const base = () => `${preview.url}api/grapheneos/`;

  it('on the build an incremental package applies on: gets that package through the redirect, and accepts it', async () => {
    expect(await updateFrom(base(), phone('eng.build.20241101'))).toEqual({
      hops: ['akita-incremental-eng.build.20241101-eng.build.20241201.zip 302'],
      refused: undefined,
      // As the preview sends it, and Cloudflare: the query as a URL parser writes it (`'` as %27).
      served: new URL(`/builds/stable/akita/grapheneos-akita-20241201-from-20241101.zip${QUERY}`, DOWNLOADS).href.slice(
        DOWNLOADS.length,
      ),
    });
  });

  it('on any other build: the incremental name is a 404, the full package comes through the redirect, and is accepted', async () => {
    expect(await updateFrom(base(), phone('eng.build.20241015'))).toEqual({
      hops: [
        'akita-incremental-eng.build.20241015-eng.build.20241201.zip 404',
        'akita-ota_update-eng.build.20241201.zip 302',
      ],
      refused: undefined,
      served: '/builds/stable/akita/grapheneos-akita-20241201.zip',
    });
  });

  it('would refuse the other zip: the redirects lead each name to its own package', async () => {
    // The incremental package on a phone it does not apply on: the updater's own check refuses it.
    const wrong = path.join(root, 'downloaded.zip');
    writeFileSync(
      wrong,
      readFileSync(path.join(root, 'downloads/builds/stable/akita/grapheneos-akita-20241201-from-20241101.zip')),
    );
    const { metadata } = await readOtaEntries(wrong);
    expect(checkGrapheneZipMetadata(metadata!, 1733011200, phone('eng.build.20241015'))).toBe(
      'source incremental mismatch',
    );
  });
});

describe("Cloudflare's runtime (wrangler pages dev) and Netlify's rule engine", () => {
  it('have a redirect for each zip name: the three names of akita', () => {
    expect(redirects.map((r) => r.from)).toEqual([
      '/api/grapheneos/akita-ota_update-eng.build.20241201.zip',
      '/api/grapheneos/akita-incremental-eng.build.20241101-eng.build.20241201.zip',
      '/api/grapheneos/akita-ota_update-eng.build.20241101.zip',
    ]);
  });

  it('Cloudflare answers each zip name, GET and HEAD, with a 302 to its download, as the preview does', async () => {
    wrangler = await startWrangler(path.join(root, 'dist'));
    for (const { from, to } of redirects) {
      for (const method of ['GET', 'HEAD']) {
        const [cloudflare, local] = await Promise.all(
          [wrangler.url, preview.url].map((origin) => fetch(new URL(from, origin), { method, redirect: 'manual' })),
        );
        // Cloudflare sends the address as a URL parser writes it (`'` in a query as %27), and so does the preview.
        const parsed = new URL(to).href;
        expect([cloudflare.status, cloudflare.headers.get('location')], `${method} ${from}\n${wrangler.log()}`).toEqual(
          [302, parsed],
        );
        expect([local.status, local.headers.get('location')], `${method} ${from}`).toEqual([302, parsed]);
      }
    }
    const miss = await fetch(new URL('/api/grapheneos/akita-incremental-x-eng.build.20241201.zip', wrangler.url));
    expect(miss.status).toBe(404);
  }, 120_000);

  it("Netlify's engine fires a 302 rule to each download", async () => {
    const netlifyRoot = path.join(root, 'netlify');
    cpSync(path.join(root, 'content'), path.join(netlifyRoot, 'content'), { recursive: true });
    build({ root: netlifyRoot, host: 'netlify', cache: false, threads: 1 });
    const site = await loadNetlifySite(path.join(EXAMPLE, 'netlify.toml'), path.join(netlifyRoot, 'dist'));
    expect(site.errors).toEqual([]);
    for (const { from, to } of redirects) {
      const { rule } = netlifyAnswer(site, from);
      expect([rule?.status, rule?.to], from).toEqual([302, to]);
    }
    expect(netlifyAnswer(site, '/api/grapheneos/akita-incremental-x-eng.build.20241201.zip').status).toBe(404);
  });
});

describe('GitHub Pages, which cannot redirect', () => {
  it('serves the channel file, which the updater reads whatever its type, and answers the zip names with its 404, as hosting and check say', async () => {
    const pagesRoot = path.join(root, 'pages');
    cpSync(path.join(root, 'content'), path.join(pagesRoot, 'content'), { recursive: true });
    appendFileSync(path.join(pagesRoot, 'content', 'site.yaml'), 'site_url: https://owner.github.io/ota/\n');
    build({ root: pagesRoot, host: 'github-pages', cache: false, threads: 1 });
    const pages = await startGitHubPagesServer({ root: path.join(pagesRoot, 'dist'), repository: 'ota' });
    try {
      const base = `${pages.base}api/grapheneos/`;
      const channel = await fetch(`${base}akita-stable`);
      expect([channel.status, channel.headers.get('content-type')]).toEqual([200, 'application/octet-stream']);
      const check = readGrapheneChannel(await channel.text(), phone('eng.build.20241101'));
      expect(check).toMatchObject({ kind: 'update', targetIncremental: 'eng.build.20241201' });
      for (const name of [
        'akita-incremental-eng.build.20241101-eng.build.20241201.zip',
        'akita-ota_update-eng.build.20241201.zip',
      ]) {
        const zip = await fetch(`${base}${name}`, { redirect: 'manual' });
        expect([zip.status, zip.headers.get('content-type')], name).toEqual([404, 'text/html; charset=utf-8']);
      }
    } finally {
      await pages.close();
    }
    const { code, out } = await runMain(['hosting', 'github-pages', '--root', pagesRoot]);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('  url=https://owner.github.io/ota/api/grapheneos/\n');
    expect(text).toMatch(/\n {2}not on Pages: the updater then downloads <url><device>-ota_update-<incremental>\.zip/);
  }, 60_000);
});
