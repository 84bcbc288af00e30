// GrapheneOS's zip names: its updater reads <base><device>-<channel>, then downloads
// <base><device>-incremental-<its incremental>-<target>.zip, else <base><device>-ota_update-<target>.zip
// (GrapheneOS/platform_packages_apps_Updater src/app/seamlessupdate/client/Service.java at
// c7d5dfc1486f1c4b799a50b620b807c2cc196585, onHandleIntent). Every host that can redirect sends those
// names to the build's url (302); this file holds the rules each host gets, and the preview's answers
// to a phone as the transcription (test/helpers/dialects/grapheneos.ts) asks. The engines themselves:
// grapheneos-zips.slow.test.ts (wrangler, Netlify's rule engine, otapress serve) and
// test/servers/grapheneos-zips.servers.ts (nginx, Caddy, Apache).
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { renderApacheRules } from '../../src/hosts/apache.js';
import { cloudflareRuleProblems } from '../../src/hosts/cloudflare.js';
import { githubPagesNotices } from '../../src/hosts/github-pages.js';
import { outputFloor } from '../../src/hosts/limits.js';
import { thousands } from '../../src/hosts/limit-check.js';
import { renderNetlifyRedirects } from '../../src/hosts/netlify.js';
import { parseSite } from '../../src/catalog/site.js';
import { createHash } from 'node:crypto';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { listingRedirects, routeTable } from '../../src/hosts/routes.js';
import { readGrapheneChannel } from '../helpers/dialects/grapheneos.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith, INCREMENTAL_EXAMPLE } from '../helpers/host-table.js';
import { compileFiles, type CatalogFiles } from '../helpers/memory-catalog.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const GRAPHENEOS = '\nformats:\n  grapheneos: {}\n';
const compiled = compileWith(readContent(EXAMPLE), GRAPHENEOS, INCREMENTAL_EXAMPLE);
const site = compiled.site!;
const redirects = listingRedirects(site, compiled.listings);
const tree = servedTree(site, compiled.files, redirects);
const BASE = '/api/grapheneos/';
/** The download each manifest names, by its zip's file name. */
const urlOf = (filename: string) => compiled.builds.find((b) => b.filename === filename)!.url!;

describe("the redirects of GrapheneOS's zip names", () => {
  it('send each build a channel file can name, and each incremental package, to its download', () => {
    const at = (from: string) => redirects.find((r) => r.from === `${BASE}${from}`)?.to;
    expect(at('FP4-ota_update-eng.root.20241220.110000.zip')).toBe(
      urlOf('e-2.6.3-a14-20241220455571-official-FP4.zip'),
    );
    expect(at('FP4-incremental-eng.root.20241108.123456-eng.root.20241220.110000.zip')).toBe(
      urlOf('e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.zip'),
    );
    // Older builds too: a channel file a cache still holds names the one before the newest.
    expect(at('FP4-ota_update-eng.root.20241108.123456.zip')).toBe(urlOf('e-2.5-a14-20241108446322-official-FP4.zip'));
    // Each name once, each a build of the catalog with its incremental; no placeholder, no withdrawn build.
    expect(new Set(redirects.map((r) => r.from)).size).toBe(redirects.length);
    const downloads = new Set(compiled.builds.map((b) => b.url));
    expect(redirects.every((r) => downloads.has(r.to))).toBe(true);
    const withdrawn = compiled.builds.filter((b) => b.filename.endsWith('.disabled.zip')).map((b) => b.url);
    expect(withdrawn.length).toBeGreaterThan(0);
    expect(redirects.filter((r) => withdrawn.includes(r.to))).toEqual([]);
  });

  it('are none for a download that is not https, which phones would not follow: a notice says so', () => {
    const http = compileWith(readContent(EXAMPLE), GRAPHENEOS, {
      ...INCREMENTAL_EXAMPLE,
      'FP4/e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.yaml': `${INCREMENTAL_EXAMPLE['FP4/e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.yaml']}url: http://dl.example.org/FP4-incremental.zip\n`,
    });
    const name = `${BASE}FP4-incremental-eng.root.20241108.123456-eng.root.20241220.110000.zip`;
    expect(listingRedirects(http.site!, http.listings).some((r) => r.from === name)).toBe(false);
    expect(http.notices.filter((n) => n.message.includes(name)).map((n) => `${n.file} ${n.message}`)).toEqual([
      `content/FP4/e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.yaml no host rule sends ${name} (the GrapheneOS channel zip name) to its download: its url is not https: the updater follows no redirect from https to http, and Cloudflare Pages takes none; upload the zip under that name instead`,
    ]);
  });

  it('are none without a grapheneos format', () => {
    const plain = compileWith(readContent(EXAMPLE), '', INCREMENTAL_EXAMPLE);
    expect(listingRedirects(plain.site!, plain.listings)).toEqual([]);
    expect(String(plain.files.find((f) => f.path === '_redirects')!.contents)).not.toContain(' 302');
  });

  it("are Cloudflare's static 302 rules, before every rule with a placeholder, and Netlify's 302 rules, not forced", () => {
    const lines = String(compiled.files.find((f) => f.path === '_redirects')!.contents).split('\n');
    const rules = lines.filter((l) => / 302$/.test(l));
    expect(rules).toEqual(redirects.map((r) => `${r.from}  ${r.to}  302`));
    const firstPlaceholder = lines.findIndex((l) => l.split(/\s+/)[0].includes(':'));
    expect(firstPlaceholder).toBeGreaterThan(lines.indexOf(rules[rules.length - 1]));
    const netlify = renderNetlifyRedirects(routeTable(site, { redirects })).split('\n');
    expect(netlify.filter((l) => /302!?$/.test(l))).toEqual(redirects.map((r) => `${r.from}  ${r.to}  302`));
  });

  it("count against Cloudflare's 2,000 static rules, refused past them at the grapheneos format", () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        from: `${BASE}FP4-ota_update-${i}.zip`,
        to: `https://dl.example.org/${i}.zip`,
      }));
    const devices = ['FP3', 'FP4', 'starlte'];
    expect(cloudflareRuleProblems(routeTable(site, { devices, redirects: many(1900) }))).toEqual([]);
    const over = cloudflareRuleProblems(routeTable(site, { devices, redirects: many(2000) }));
    expect(over.map((p) => `${p.field}  ${p.message.split(':')[0]}`)).toEqual([
      "formats.grapheneos.path  GrapheneOS's zip names (2000, one per build its channel files can name and per incremental package) take one _redirects rule each on Cloudflare Pages",
    ]);
  });

  it("count against Netlify's 10,000 rules once compiled, refused past them at the grapheneos format", () => {
    // One build per device: the devices' own rules are what the check before compiling counts
    // (limits.ts); each build's zip name adds one rule once the catalog is compiled.
    const siteYaml =
      'download_base_url: https://dl.example.org\nhosts: [netlify]\nchannels: [s]\nlists: { stable: [s] }\n' +
      'formats:\n  grapheneos: {}\n';
    const catalog = (count: number) => {
      const files: CatalogFiles = { 'content/site.yaml': siteYaml };
      for (let i = 0; i < count; i++) {
        const device = `d${String(i).padStart(4, '0')}`;
        files[`content/${device}/build-${device}.yaml`] =
          `filename: build-${device}.zip\nversion: "1.0"\nchannel: s\ntimestamp: 1734692400\nandroid_version: "15"\n` +
          `incremental: "100${i}"\nmd5sum: ${md5(device)}\nid: ${sha256(device)}\nsize: 1000\n`;
      }
      return files;
    };
    const floor = (count: number) => outputFloor(parseSite(siteYaml).site!, count).rules;
    // The most devices whose rules, with one zip name each, fit.
    let fit = 1;
    while (floor(fit + 1) + fit + 1 <= 10_000) fit++;
    const within = compileFiles(catalog(fit), 'netlify');
    expect(within.problems).toEqual([]);
    const written = String(within.files.find((f) => f.path === '_redirects')!.contents).split('\n');
    expect(written.filter((line) => / 302$/.test(line))).toHaveLength(fit);
    expect(written.filter((line) => line.startsWith('/'))).toHaveLength(floor(fit) + fit);
    // One device more: within the limit before compiling, past it with the zip names.
    const over = fit + 1;
    expect(floor(over)).toBeLessThanOrEqual(10_000);
    const compiled = compileFiles(catalog(over), 'netlify');
    expect(compiled.problems.map((p) => `${p.file}:${p.line}:${p.col}  ${p.field}  ${p.message}`)).toEqual([
      `content/site.yaml:6:3  formats.grapheneos.path  GrapheneOS's zip names (${thousands(over)}, one per build its channel files can name and per incremental package) take one Netlify redirect rule each: ${thousands(floor(over) + over)} Netlify redirect rules, past 10,000; Netlify asks for placeholders instead of 10,000 rules or more, and may fail a deploy whose rules are too large; remove the manifests of builds no phone still updates to, or remove netlify from \`hosts\``,
    ]);
    expect(compiled.files).toEqual([]);
  });

  it("are Apache's external redirects, with $ and % escaped as mod_rewrite reads them", () => {
    const rules = renderApacheRules(site, [
      { from: '/api/grapheneos/FP4-ota_update-1.zip', to: 'https://dl.example.org/a$1/b%20c.zip?x=%1' },
    ]);
    expect(rules).toContain(
      'RewriteRule ^api/grapheneos/FP4-ota_update-1\\.zip$ https://dl.example.org/a\\$1/b\\%20c.zip?x=\\%1 [R=302,NE,L]',
    );
  });
});

describe('a GrapheneOS phone asking the preview (as Cloudflare answers)', () => {
  /** What Service.onHandleIntent fetches: the channel file, then the incremental name, else the full one. */
  function update(phone: { device: string; incremental: string; channel: string }) {
    const channel = respond(tree, 'GET', `${BASE}${phone.device}-${phone.channel}`);
    expect(channel.status).toBe(200);
    const check = readGrapheneChannel(String(channel.body), { ...phone, buildDate: 0 });
    if (check.kind !== 'update') throw new Error(`no update: ${JSON.stringify(check)}`);
    const asked: string[] = [];
    for (const name of [check.incrementalName, check.fullName]) {
      asked.push(name);
      // getInputStream throws on a status of 400 and above: the updater then asks the full name.
      const answer = respond(tree, 'GET', `${BASE}${name}`);
      if (answer.status < 400) return { asked, answer };
    }
    throw new Error(`neither zip answers: ${asked.join(', ')}`);
  }

  it('gets the incremental package on the build it applies on, by a 302 to its url', () => {
    const { asked, answer } = update({ device: 'FP4', incremental: 'eng.root.20241108.123456', channel: 'official' });
    // The newest build of the list, which the incremental package installs.
    expect(String(respond(tree, 'GET', `${BASE}FP4-official`).body).split(' ')[0]).toBe('eng.root.20241220.110000');
    expect(asked).toHaveLength(1);
    expect(answer.status).toBe(302);
    expect(answer.headers.Location).toBe(urlOf('e-2.6.3-a14-20241220455571-official-FP4-incremental-20241108.zip'));
  });

  it('gets the full package on any other build: the incremental name is a 404, the full one a 302 to its url', () => {
    const { asked, answer } = update({ device: 'FP4', incremental: 'eng.root.20240101.000000', channel: 'official' });
    expect(asked).toEqual([
      'FP4-incremental-eng.root.20240101.000000-eng.root.20241220.110000.zip',
      'FP4-ota_update-eng.root.20241220.110000.zip',
    ]);
    expect(respond(tree, 'GET', `${BASE}${asked[0]}`).status).toBe(404);
    expect([answer.status, answer.headers.Location]).toEqual([
      302,
      urlOf('e-2.6.3-a14-20241220455571-official-FP4.zip'),
    ]);
  });

  it('is redirected on HEAD too, and refused other methods as every path is', () => {
    const path = `${BASE}FP4-ota_update-eng.root.20241220.110000.zip`;
    expect(respond(tree, 'HEAD', path).status).toBe(302);
    expect(respond(tree, 'POST', path).status).toBe(405);
  });
});

describe('GitHub Pages, which cannot redirect', () => {
  it('says so in check, at the grapheneos format, with what to do', () => {
    const notices = githubPagesNotices(site, { changes: false, incrementals: [], linksToFiles: true, copies: true });
    const grapheneos = notices.filter((n) => n.field === 'formats.grapheneos.path');
    expect(grapheneos).toHaveLength(1);
    expect(grapheneos[0].message).toMatch(
      /^GitHub Pages \(and raw\.githubusercontent\.com\) cannot redirect: .*<device>-ota_update-<incremental>\.zip.*uploaded under that name/,
    );
  });
});
