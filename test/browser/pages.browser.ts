import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { startPreview } from '../../src/pipeline/preview.js';
import { EXAMPLE, ROOT, tempProject } from '../helpers/helpers.js';
import { startGitHubPagesServer } from '../helpers/github-pages-server.js';

/** The project's preview server on a free port: it answers as the hosts do (rewrites, folders, 404s). */
interface Server {
  origin: string;
  close(): Promise<void>;
}

async function serve(root: string): Promise<Server> {
  const preview = await startPreview({ root, port: 0, io: { out: () => {}, err: () => {} } });
  return { origin: new URL(preview.url).origin, close: preview.close };
}

/** Debian's chromium, started the way CI can: headless, no sandbox (root), no network of its own. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARTIFACTS = path.join(ROOT, 'test', 'artifacts');

let context: BrowserContext;
let userDataDir: string;

beforeAll(async () => {
  // A fresh profile each run: launchPersistentContext owns --user-data-dir.
  userDataDir = mkdtempSync(path.join(tmpdir(), 'otapress-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
});

afterAll(async () => {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
});

/** Opens `url` and records what a reader would never want: console errors, page errors, foreign requests. */
async function open(server: Server, url: string) {
  const page = await context.newPage();
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(server.origin)) foreign.push(request.url());
  });
  const response = await page.goto(server.origin + url);
  return { page, response, errors, foreign };
}

describe('the pages of the example catalog', () => {
  let server: Server;
  let dist: string;

  let root: string;

  beforeAll(async () => {
    // Not tempProject(): that one is removed after each test, and this tree serves them all.
    root = mkdtempSync(path.join(tmpdir(), 'otapress-pages-'));
    cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
    build({ root });
    dist = path.join(root, 'dist');
    server = await serve(root);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the home page lists every device by vendor (device.yaml), links to its page, and loads nothing from elsewhere', async () => {
    const { page, response, errors, foreign } = await open(server, '/');
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Update builds');
    // Vendors by name, devices without device.yaml under the explicit unknown vendor, last.
    const groups = await page
      .locator('main section')
      .evaluateAll((sections) =>
        sections.map((s) => [
          s.querySelector('h2')!.textContent,
          [...s.querySelectorAll('.devices a')].map((a) => a.textContent),
        ]),
      );
    expect(groups).toEqual([
      ['Fairphone', ['Fairphone 4 (FP4)']],
      ['Samsung', ['Galaxy S9 (starlte)']],
      ['Unknown vendor', ['FP3']],
    ]);
    expect(await page.getByRole('region', { name: 'Samsung' }).locator('a').getAttribute('href')).toBe(
      '/devices/starlte/',
    );
    expect(await page.locator('.devices a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/devices/FP4/',
      '/devices/starlte/',
      '/devices/FP3/',
    ]);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('a device page shows its builds per list, with placeholder, withdrawn and upgrade states spelled out', async () => {
    const { page, errors, foreign } = await open(server, '/devices/FP4/');
    expect(await page.locator('h1').innerText()).toBe('Fairphone 4 FP4');
    expect(await page.title()).toBe('Fairphone 4 (FP4) builds');
    expect(await page.locator('section h2').allTextContents()).toEqual(['stable', 'official', 'dev', 'community']);

    const official = page.locator('section#official article');
    expect(await official.locator('h3').allTextContents()).toEqual([
      // A placeholder by its display_version; a package by its file name, which names the ROM.
      '3.1-a16-20250701-official-FP4',
      'e-2.6.3-a15-20241220455570-official-FP4',
      'e-2.6.3-a14-20241220455571-official-FP4',
      'e-2.5-a14-20241108446322-official-FP4',
      'e-2.4-a14-20241001430000-official-FP4',
      'e-1.21-t-20240325389105-official-FP4',
    ]);
    const placeholder = official.nth(0);
    expect(await placeholder.locator('.badge').allTextContents()).toEqual(['Placeholder: announced, no package yet']);
    expect(await placeholder.locator('a.download').count()).toBe(0);
    expect(await placeholder.textContent()).toContain('No download: this build has no package yet.');

    const upgrade = official.nth(1);
    expect(await upgrade.locator('.badge').allTextContents()).toEqual(['Upgrade supported']);
    expect(await upgrade.locator('dl').innerText()).toMatch(
      /^Version\s+2\.6\.3\s+Android\s+15 \(API 35\)\s+Date\s+2024-12-20 10:00 UTC\s+Size\s+1\.40 GiB \(1501339648 bytes\)\s+File\s+e-2\.6\.3-a15-20241220455570-official-FP4\.zip\s+MD5\s+8e816e8e754bd4012845686a16fa8abe\s+Copy\s+SHA-256\s+9bab33c87b0e6c298856e36286ae5a6c2d1ba74e5497b2b9260607689b4fbdeb\s+Copy\s+SHA-1\s+06f60d2d439ccebde4b1c5aa5c0e1801e190d9d1\s+Copy\s+Android upgrade\s+Yes: marked as an upgrade from an earlier Android version$/,
    );
    expect(await upgrade.locator('a.download').getAttribute('href')).toBe(
      'https://images.example.org/builds/full/official/FP4/e-2.6.3-a15-20241220455570-official-FP4.zip',
    );

    const withdrawn = official.nth(4);
    expect(await withdrawn.locator('.badge').allTextContents()).toEqual(['Disabled: withdrawn, do not install']);
    expect(await withdrawn.locator('a.download').textContent()).toBe('Download (withdrawn file)');
    expect(await official.nth(3).locator('dd').last().textContent()).toBe(
      'No: not marked as an upgrade from an earlier Android version',
    );

    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('a device page shows what its device.yaml says: vendor, models, maintainers and links; one without it shows none', async () => {
    const { page, errors, foreign } = await open(server, '/devices/FP4/');
    expect(
      await page
        .locator('dl.device-facts > div')
        .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' '))),
    ).toEqual([
      'Vendor Fairphone',
      'Model FP4',
      'Maintainers Jane Doe, Ravi Kumar',
      'Links Info and guides · Forum · Support chat · Device sources',
    ]);
    expect(
      await page
        .locator('dl.device-facts a')
        .evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])),
    ).toEqual([
      ['Jane Doe', 'https://github.com/janedoe', 'external noopener'],
      ['Info and guides', 'https://wiki.example.org/devices/FP4', 'external noopener'],
      ['Forum', 'https://forum.example.org/c/fp4', 'external noopener'],
      ['Support chat', 'https://t.me/example_fp4', 'external noopener'],
      ['Device sources', 'https://github.com/example/android_device_fairphone_FP4', 'external noopener'],
    ]);
    // The facts lay out as two columns: the term beside its value.
    const [term, value] = await page
      .locator('dl.device-facts > div')
      .first()
      .locator('dt, dd')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    expect(Math.abs(term - value)).toBeLessThan(2);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();

    const plain = await open(server, '/devices/FP3/');
    expect(await plain.page.locator('h1').innerText()).toBe('FP3');
    expect(await plain.page.locator('dl.device-facts').count()).toBe(0);
    await plain.page.close();
  });

  it('every link and feed link on every page resolves inside dist/, anchors included; downloads point at the manifests’ urls', async () => {
    const pages = [
      '/',
      '/devices/FP3/',
      '/devices/FP4/',
      '/devices/starlte/',
      '/devices/FP3/changelog/',
      '/devices/FP4/changelog/',
    ];
    const checked = new Map<string, number>();
    const downloads = new Set<string>();
    for (const url of pages) {
      const { page } = await open(server, url);
      // Links people follow, and the feeds that readers discover from the page's head.
      const hrefs = await page
        .locator('a[href]:not([rel~="external"]), link[rel="alternate"][href]')
        .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement | HTMLLinkElement).href));
      // Links from device.yaml (maintainers, info, forum, ...) go elsewhere by design.
      const external = await page
        .locator('a[rel~="external"]')
        .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
      for (const href of external) expect(new URL(href).protocol, href).toBe('https:');
      for (const href of hrefs) {
        const target = new URL(href);
        if (target.origin !== server.origin) {
          downloads.add(href);
          continue;
        }
        if (target.hash) {
          const sameDocument = target.pathname === new URL(page.url()).pathname;
          const holder = sameDocument ? page : await context.newPage();
          if (!sameDocument) await holder.goto(target.origin + target.pathname);
          expect(await holder.locator(`[id="${decodeURIComponent(target.hash.slice(1))}"]`).count(), href).toBe(1);
          if (!sameDocument) await holder.close();
        }
        const key = target.pathname;
        if (!checked.has(key)) checked.set(key, (await fetch(server.origin + key, { redirect: 'manual' })).status);
      }
      await page.close();
    }
    expect([...checked].filter(([, status]) => status !== 200)).toEqual([]);
    expect([...checked.keys()]).toEqual(
      expect.arrayContaining([
        '/',
        '/api/devices.json',
        '/api/v1/FP4/stable/',
        '/api/v2/devices/FP4/builds',
        '/devices/FP4/stable.xml',
        '/devices/starlte/community.xml',
      ]),
    );
    const manifestUrls = new Set(
      ['FP3', 'FP4', 'starlte'].flatMap((device) =>
        ['stable', 'official', 'dev', 'community'].flatMap((list) =>
          JSON.parse(readFileSync(path.join(dist, 'api/v1', device, list, 'index.json'), 'utf8')).response.flatMap(
            (r: { url?: string }) => (r.url ? [r.url] : []),
          ),
        ),
      ),
    );
    // A build's other files (v2 lists them after the zip) and the changelogs' https links are the only other addresses.
    for (const device of ['FP3', 'FP4', 'starlte']) {
      for (const b of JSON.parse(readFileSync(path.join(dist, 'api/v2/devices', device, 'builds.json'), 'utf8')))
        for (const f of b.files) manifestUrls.add(f.url);
    }
    for (const link of ['https://doc.example.org/releases/3.0', 'https://gitlab.example.org/os/backlog/-/issues/2401'])
      manifestUrls.add(link);
    expect([...downloads].sort()).toEqual([...manifestUrls].sort());
  });

  it('the copy button puts the SHA-256 on the clipboard', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const { page, errors } = await open(server, '/devices/FP4/');
    const article = page
      .locator('article', { has: page.locator('h3', { hasText: 'e-2.5-a14-20241108446322-official-FP4' }) })
      .first();
    const button = article.getByRole('button', { name: 'Copy SHA-256 of e-2.5-a14-20241108446322-official-FP4' });
    // The page's script gives every hash its button (the markup has none: without script they could not copy).
    expect(readFileSync(path.join(dist, 'devices/FP4/index.html'), 'utf8')).not.toContain('<button');
    expect(await page.locator('button.copy').count()).toBe(await page.locator('code.hash').count());
    expect(await page.locator('code.hash').count()).toBeGreaterThan(10);
    expect(
      await article.getByRole('button', { name: 'Copy MD5 of e-2.5-a14-20241108446322-official-FP4' }).count(),
    ).toBe(1);
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      '13853cffb4381efecf5ece95af491e554f9195c0e56f71d4ec7eb2a1a12a8f8b',
    );
    expect(await page.locator('.status').textContent()).toBe('Copied to the clipboard');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a build with images offers each file with its size and hashes, and the SHA-1 copy button copies it', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    const { page, errors, foreign } = await open(server, '/devices/FP4/');
    const build = page.locator('section#dev article', {
      has: page.locator('h3', { hasText: '3.0-a16-20250610500001-dev-FP4' }),
    });
    const files = build.locator('section.files li');
    expect(await files.locator('> a').allTextContents()).toEqual([
      'boot.img',
      'dtbo.img',
      'FP4-firmware-2025-06.zip',
      'recovery.img',
      'super_empty.img',
      'vendor_boot.img',
    ]);
    expect(await files.locator('> a').nth(2).getAttribute('href')).toBe(
      'https://firmware.example.org/FP4/FP4-firmware-2025-06.zip',
    );
    const recovery = files.nth(3);
    expect(await recovery.innerText()).toMatch(
      /^recovery\.img 96\.0 MiB \(100663296 bytes\)\s+SHA-256\s+8c585378513f5f7a2e1456ee54042605fdb890392becefadd2ab180fd02fb341\s+Copy\s+SHA-1\s+8b60e9d739b5a5bfd87cbfe67501ab4fa6e41504\s+Copy$/,
    );
    const button = recovery.getByRole('button', { name: 'Copy SHA-1 of recovery.img' });
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('8b60e9d739b5a5bfd87cbfe67501ab4fa6e41504');
    // The changelog, as text: the <b> a maintainer typed is shown, not applied.
    const changelog = build.locator('section.changelog');
    expect(await changelog.locator('h4').allTextContents()).toEqual(['Changelog', 'Changes']);
    expect(await changelog.locator('li').last().textContent()).toBe(
      'Known issue: <b>VoLTE</b> may need a reboot after the update',
    );
    expect(await changelog.locator('b').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('the changelog page lists every build with a changelog, newest first, and the device page links to each', async () => {
    const { page, errors, foreign } = await open(server, '/devices/FP4/changelog/');
    expect(await page.title()).toBe('FP4 changelog');
    expect(await page.locator('article h2').allTextContents()).toEqual([
      '3.0-a16-20250610500001-dev-FP4',
      '2.6.3-a15-20241220455570-official-FP4',
    ]);
    // Every change of /api/v2/changes points at an element of this page.
    const changes = JSON.parse(readFileSync(path.join(dist, 'api/v2/changes.json'), 'utf8')) as {
      url: string;
      subject: string;
    }[];
    for (const change of changes.filter((c) => c.url.startsWith('/devices/FP4/'))) {
      expect(await page.locator(`[id="${change.url.split('#')[1]}"]`).innerText()).toBe(change.subject);
    }
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('a device page fits a phone screen without sideways scrolling; screenshots are saved for review', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const { page } = await open(server, '/devices/FP4/');
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(ARTIFACTS, 'FP4-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'FP4-desktop.png'), fullPage: true });
    await page.close();
  });
});

describe('hostile manifest values', () => {
  it('show as text on the pages: no markup, no script, no request', async () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content', 'FP4'), { recursive: true });
    writeFileSync(path.join(root, 'content', 'site.yaml'), 'download_base_url: https://dl.example.org\n');
    const hostile = `<img src=x onerror=alert(1)>"'&amp;</h3><script>alert(2)</script>`;
    writeFileSync(
      path.join(root, 'content', 'FP4', 'x.yaml'),
      [
        'filename: e-2.5-a14-20241108446322-official-FP4.zip',
        'version: "2.5"',
        'channel: official',
        'timestamp: 1731067200',
        'android_version: "14"',
        'incremental: ""',
        `md5sum: ${'a'.repeat(32)}`,
        `id: ${'b'.repeat(64)}`,
        'size: 1024',
        // Quotes and <> must be percent-encoded in a url (the build refuses them raw); ' and & are allowed.
        `url: "https://dl.example.org/a?b=1&c='onmouseover='alert(3)'"`,
        `display_version: ${JSON.stringify(hostile)}`,
        `changelog: ${JSON.stringify(`- ${hostile}\n\n\`\`\`\n${hostile}\n\`\`\``)}`,
        '',
      ].join('\n'),
    );
    const server = await serve(root);
    try {
      const { page, errors, foreign } = await open(server, '/devices/FP4/');
      expect(await page.locator('h3').first().textContent()).toBe(hostile);
      expect(await page.locator('article script, article img').count()).toBe(0);
      expect(await page.locator('.changelog li').first().textContent()).toBe(hostile);
      expect(await page.locator('.changelog pre').first().textContent()).toBe(hostile);
      expect(await page.locator('a.download').first().getAttribute('href')).toBe(
        "https://dl.example.org/a?b=1&c='onmouseover='alert(3)'",
      );
      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
    } finally {
      await server.close();
    }
  });
});

describe('the pages on GitHub Pages, as a project site under /ota/', () => {
  // The look-alike of Pages (test/helpers/github-pages-server.ts) serving a --host github-pages build
  // of the example with site_url at github.io: no rewrites, so every link must name a file (or a
  // folder's index.html) under the base path, and reach it without a redirect.
  let server: Server;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'otapress-pages-gh-'));
    cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
    const siteFile = path.join(root, 'content', 'site.yaml');
    writeFileSync(
      siteFile,
      readFileSync(siteFile, 'utf8').replace(/^site_url: .*$/m, 'site_url: https://owner.github.io/ota/'),
    );
    build({ root, host: 'github-pages' });
    server = await startGitHubPagesServer({ root: path.join(root, 'dist'), repository: 'ota' });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('every link, feed link and anchor of every page resolves under /ota/ with no redirect, and so does every link of the feeds', async () => {
    const pages = [
      '/ota/',
      '/ota/devices/FP3/',
      '/ota/devices/FP4/',
      '/ota/devices/starlte/',
      '/ota/devices/FP4/changelog/',
      '/ota/no/such/page',
    ];
    const checked = new Map<string, number>();
    const feeds = new Set<string>();
    const outside: string[] = [];
    const anchors = new Set<string>();
    const resolve = async (href: string, on: string) => {
      const target = new URL(href, server.origin + on);
      if (target.origin !== server.origin) return;
      if (!target.pathname.startsWith('/ota/')) outside.push(`${href} on ${on}`);
      if (target.pathname.endsWith('.xml')) feeds.add(target.pathname);
      if (!checked.has(target.pathname))
        checked.set(target.pathname, (await fetch(server.origin + target.pathname, { redirect: 'manual' })).status);
      if (target.hash && !anchors.has(target.href)) {
        anchors.add(target.href);
        const holder = await context.newPage();
        await holder.goto(target.origin + target.pathname);
        expect(
          await holder.locator(`[id="${decodeURIComponent(target.hash.slice(1))}"]`).count(),
          `${href} on ${on}`,
        ).toBe(1);
        await holder.close();
      }
    };
    for (const url of pages) {
      const { page, response, errors, foreign } = await open(server, url);
      expect(response?.status(), url).toBe(url.endsWith('/no/such/page') ? 404 : 200);
      const hrefs = await page
        .locator('a[href]:not([rel~="external"]), link[rel="alternate"][href], link[rel="stylesheet"][href]')
        .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement | HTMLLinkElement).href));
      for (const href of hrefs) await resolve(href, url);
      // The 404 page: the document's own 404, and the browser's /favicon.ico (it names no icon), which
      // on a project site is the user site's, outside /ota/: nothing of the site's.
      const misses = url.endsWith('/no/such/page')
        ? [
            'Failed to load resource: the server responded with a status of 404 (Not Found)',
            'Failed to load resource: the server responded with a status of 404 (Not Found)',
          ]
        : [];
      expect(errors, url).toEqual(misses);
      if (misses.length > 0) expect((await fetch(`${server.origin}/favicon.ico`)).status).toBe(404);
      // Everything the page loads (its style, its script) comes from the site itself.
      expect(foreign, url).toEqual([]);
      await page.close();
    }
    // The feeds' own links: each entry's page, and the feed's self link.
    for (const feed of [...feeds]) {
      const xml = await (await fetch(server.origin + feed)).text();
      for (const [, href] of xml.matchAll(/<link[^>]*href="([^"]+)"/g))
        await resolve(href.replaceAll('&amp;', '&'), feed);
    }
    expect(outside).toEqual([]);
    expect([...checked].filter(([, status]) => status !== 200)).toEqual([]);
    expect([...checked.keys()]).toEqual(
      expect.arrayContaining([
        '/ota/',
        '/ota/api/devices.json',
        '/ota/api/v1/FP4/stable/index.json',
        '/ota/api/v2/devices/FP4/builds.json',
        '/ota/devices/FP4/stable.xml',
      ]),
    );
    expect(feeds.size).toBeGreaterThan(3);
    expect(anchors.size).toBeGreaterThan(10);
  });
});
