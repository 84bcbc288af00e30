// The raw-branch bridge: `otapress raw-branch` copies each updater format's file and each
// request_paths file of a built site into a checkout of the branch that ROM builds in the field
// fetch from raw.githubusercontent.com, at the paths they ask, byte for byte as the site (on GitHub
// Pages) serves them, and never touches a file it did not write. Served by the look-alikes of raw
// (test/helpers/raw-github-server.ts) and of Pages (test/helpers/github-pages-server.ts).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSite } from '../../src/catalog/site.js';
import { rawBranchFiles } from '../../src/hosts/raw-branch.js';
import { build } from '../../src/pipeline/build.js';
import { runMain } from '../helpers/cli-process.js';
import { dialectOracles } from '../helpers/dialects/oracles.js';
import { startGitHubPagesServer } from '../helpers/github-pages-server.js';
import { tempProject } from '../helpers/helpers.js';
import { startRawGitHubServer } from '../helpers/raw-github-server.js';

const SETTINGS = `site_url: https://owner.github.io/ota/
hosts: [github-pages]
formats:
  crdroid:
    lists: [stable]
    path: /{device}.json
  pixelexperience:
    lists: [stable]
    path: /API/updater/{device}.json
request_paths:
  - /api/v1/{device}_{list}.json
`;

describe('the raw-branch files', () => {
  it("are each format's file at its path, and each request path's listing, per device", () => {
    const { site } = parseSite(`download_base_url: https://dl.example.org\n${SETTINGS}`);
    expect(rawBranchFiles(site!, ['FP4'])).toEqual([
      { path: 'FP4.json', from: 'FP4.json' },
      { path: 'API/updater/FP4.json', from: 'API/updater/FP4.json' },
      ...['stable', 'official', 'dev', 'community'].map((list) => ({
        path: `api/v1/FP4_${list}.json`,
        from: `api/v1/FP4/${list}/index.json`,
      })),
    ]);
  });
});

describe('otapress raw-branch', () => {
  it("copies the site's files into the branch byte for byte, and only ever touches its own", async () => {
    const root = tempProject({ withContent: true });
    const siteFile = path.join(root, 'content', 'site.yaml');
    writeFileSync(siteFile, readFileSync(siteFile, 'utf8').replace(/^site_url: .*\n/m, '') + SETTINGS);
    build({ root, cache: false, threads: 1 });
    const branch = path.join(root, 'raw');
    mkdirSync(branch);
    writeFileSync(path.join(branch, 'README.md'), 'the OTA branch\n');
    writeFileSync(path.join(branch, 'FP3.json'), '{"response":[]}\n');

    // A file at one of its paths that it did not write: left as it is, and nothing copied.
    const refused = await runMain(['raw-branch', branch, '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain(
      'FP3.json: not written by otapress (not in .otapress-raw), so it is left as it is',
    );
    expect(existsSync(path.join(branch, 'FP4.json'))).toBe(false);
    expect(readFileSync(path.join(branch, 'FP3.json'), 'utf8')).toBe('{"response":[]}\n');

    rmSync(path.join(branch, 'FP3.json'));
    const copied = await runMain(['raw-branch', branch, '--root', root]);
    expect(copied.code).toBe(0);
    const devices = ['FP3', 'FP4', 'starlte'];
    const site = parseSite(readFileSync(siteFile, 'utf8')).site!;
    const files = rawBranchFiles(site, devices).filter((f) => existsSync(path.join(root, 'dist', f.from)));
    expect(files.length).toBeGreaterThanOrEqual(devices.length * 5);
    expect(readFileSync(path.join(branch, '.otapress-raw'), 'utf8').split('\n').slice(1, -1)).toEqual(
      files.map((f) => f.path).sort(),
    );

    // What phones fetch from raw is, byte for byte, what the site answers on Pages.
    const raw = await startRawGitHubServer({ owner: 'rom', repo: 'ota', branch: 'main', root: branch });
    const pages = await startGitHubPagesServer({ root: path.join(root, 'dist'), repository: 'ota' });
    try {
      for (const file of files) {
        const fromRaw = await fetch(`${raw.base}${file.path}`, { redirect: 'manual' });
        const fromPages = await fetch(`${pages.base}${file.from}`, { redirect: 'manual' });
        expect([fromRaw.status, fromPages.status], file.path).toEqual([200, 200]);
        expect(await fromRaw.text(), file.path).toBe(await fromPages.text());
      }
      // crDroid's Kotlin reader takes raw's text/plain: the stable list's builds, as on the site.
      const body = await (await fetch(`${raw.base}FP4.json`)).text();
      expect(dialectOracles.crdroidKotlin(body, { buildDate: 0 })?.length).toBeGreaterThan(0);
    } finally {
      await raw.close();
      await pages.close();
    }

    // A device the site no longer has: its files go; the branch's own files stay.
    rmSync(path.join(root, 'content', 'starlte'), { recursive: true });
    build({ root, cache: false, threads: 1 });
    const again = await runMain(['raw-branch', branch, '--root', root]);
    expect(again.code).toBe(0);
    expect(again.out.join('\n')).toMatch(/removed \d+ files the site no longer has/);
    expect(existsSync(path.join(branch, 'starlte.json'))).toBe(false);
    expect(existsSync(path.join(branch, 'api', 'v1', 'starlte_stable.json'))).toBe(false);
    expect(readFileSync(path.join(branch, 'README.md'), 'utf8')).toBe('the OTA branch\n');
  });

  it("says, for GrapheneOS's channel files, that raw cannot redirect their zips", async () => {
    const root = tempProject({ withContent: true });
    const siteFile = path.join(root, 'content', 'site.yaml');
    writeFileSync(siteFile, `${readFileSync(siteFile, 'utf8')}\nformats:\n  grapheneos: {}\n`);
    build({ root, cache: false, threads: 1 });
    const branch = path.join(root, 'raw');
    mkdirSync(branch);
    const copied = await runMain(['raw-branch', branch, '--root', root]);
    expect(copied.code).toBe(0);
    expect(existsSync(path.join(branch, 'api', 'grapheneos', 'FP4-official'))).toBe(true);
    expect(copied.err).toEqual([
      '/api/grapheneos/{device}-{list}: raw.githubusercontent.com cannot redirect, so GrapheneOS phones find <device>-ota_update-<incremental>.zip (and <device>-incremental-<from>-<to>.zip) there only if the zip is committed under that name beside the channel file',
    ]);
  });
});
