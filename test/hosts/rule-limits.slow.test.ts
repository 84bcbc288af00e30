// The hosts' rule limits for a large catalog: 1000 devices with the example's four lists, three
// builds each, generated in a temp folder and built for real. Cloudflare counts a rule with a
// placeholder or a splat as dynamic (limits: 2000 static + 100 dynamic redirects, 100 header
// rules); Netlify's rules are counted by its own parser: 12 per device, about the 10,000 from which
// Netlify advises placeholders (advice, not a limit).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSite, type CompiledSite } from '../../src/pipeline/build.js';
import type { ManifestFile } from '../../src/catalog/read.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { NETLIFY_TOML } from '../../src/hosts/netlify.js';
import { cloudflareRules } from '../../src/hosts/cloudflare.js';
import { routeTable } from '../../src/hosts/routes.js';
import { EXAMPLE, tempProject } from '../helpers/helpers.js';
import { loadNetlifySite } from '../helpers/netlify-engine.js';

const DEVICES = 1000;
let compiled: CompiledSite;
let content: { manifests: ManifestFile[]; devices: string[] };
const file = (name: string) => String(compiled.files.find((f) => f.path === name)!.contents);

// The catalog is made in memory and compiled by the real pipeline (reading 3000 files from disk
// would only test the disk).
beforeAll(() => {
  const devices: string[] = [];
  const manifests: ManifestFile[] = [];
  for (let n = 1; n <= DEVICES; n++) {
    const device = `dev${String(n).padStart(4, '0')}`;
    devices.push(device);
    for (const [version, channel, timestamp] of [
      ['2.5', 'official', 1731067200],
      ['2.6', 'community', 1733997600],
      ['3.0', 'dev', 1749549600],
    ] as const) {
      const filename = `e-${version}-a14-20241108446322-${channel}-${device}.zip`;
      const hash = createHash('sha256').update(filename).digest('hex');
      const text =
        `filename: ${filename}\nversion: "${version}"\nchannel: ${channel}\ntimestamp: ${timestamp}\nandroid_version: "14"\n` +
        `incremental: "${timestamp}"\nmd5sum: ${hash.slice(0, 32)}\nid: ${hash}\nsize: 1387003904\n`;
      manifests.push({ file: `content/${device}/${filename.slice(0, -4)}.yaml`, device, bytes: Buffer.from(text) });
    }
  }
  content = { manifests, devices };
  compiled = compileSite({
    site: readFileSync(path.join(EXAMPLE, 'content', 'site.yaml')),
    manifests,
    devices,
    problems: [],
  });
  expect(compiled.problems).toEqual([]);
}, 120_000);

describe(`rules for ${DEVICES} devices × 4 lists`, () => {
  it('builds every listing', () => {
    expect(compiled.listings).toHaveLength(DEVICES * 4);
  });

  it('Cloudflare _redirects: at most 2000 static and 100 dynamic rules', () => {
    const counts = cloudflareCounts(ruleLines(file('_redirects')).map((line) => line.split(/\s+/)[0]));
    console.info(
      `Cloudflare _redirects for ${DEVICES} devices: ${counts.static} static, ${counts.dynamic} dynamic rules`,
    );
    expect(counts.static).toBeLessThanOrEqual(2000);
    expect(counts.dynamic).toBeLessThanOrEqual(100);
  });

  it.each([60, 998])(
    'Cloudflare _redirects of %i devices (998: the most whose v2 rules each fit) within its limits as Cloudflare counts them',
    (count) => {
      const site = compiled.site!;
      const rules = cloudflareRules(routeTable(site, { devices: content.devices.slice(0, count) })).map(
        ([from]) => from,
      );
      expect(rules).toContain(`/api/v2/devices/dev${String(count).padStart(4, '0')}/builds`);
      const counts = cloudflareCounts(rules);
      expect(counts.static).toBeLessThanOrEqual(2000);
      expect(counts.dynamic).toBeLessThanOrEqual(100);
    },
  );

  it("v2 builds of unknown devices: each device's static rule and the [] answer while they fit Cloudflare's static limit, else the one placeholder rule", () => {
    const site = compiled.site!;
    // 998 devices: 1996 static v2 rules + /api/v2/oems and /api/v2/changes in both forms = 2000, the limit.
    const fits = cloudflareRules(routeTable(site, { devices: content.devices.slice(0, 998) }));
    expect(fits).toContainEqual(['/api/v2/devices/dev0998/builds', '/api/v2/devices/dev0998/builds.json']);
    expect(fits).toContainEqual(['/api/v2/devices/:device/builds', '/api/v2/unknown-device-builds.json']);
    expect(fits.findIndex(([from]) => from === '/api/v2/devices/:device/builds')).toBeGreaterThan(
      fits.findIndex(([from]) => from === '/api/v2/devices/dev0998/builds'),
    );
    // 999 devices would be 2002: a rule past the limit would be ignored and that device would answer [].
    expect(cloudflareRules(routeTable(site, { devices: content.devices.slice(0, 999) }))).not.toContainEqual([
      '/api/v2/devices/:device/builds',
      '/api/v2/unknown-device-builds.json',
    ]);
    const rules = ruleLines(file('_redirects'));
    expect(rules).toContain('/api/v2/devices/:device/builds  /api/v2/devices/:device/builds.json  200');
    expect(
      rules.filter((line) => line.includes('unknown-device-builds') || line.startsWith('/api/v2/devices/dev')),
    ).toEqual([]);
  });

  it('a request path beside fixed text would pass the static limit: the build refuses it at its line', () => {
    const site = Buffer.concat([
      readFileSync(path.join(EXAMPLE, 'content', 'site.yaml')),
      Buffer.from('\nrequest_paths:\n  - /api/v1/{device}_{list}\n'),
    ]);
    const line = site.toString().split('\n').length - 1;
    const over = compileSite({ site, manifests: content.manifests, devices: content.devices, problems: [] });
    expect(over.problems.map(formatProblem)).toEqual([
      `content/site.yaml:${line}:5  request_paths.0  /api/v1/{device}_{list} takes one _redirects rule per device and list on Cloudflare Pages (a placeholder beside fixed text cannot be one rule there): 4004 static rules for 1000 devices, over its limit of 2000; use a path of whole segments such as /api/v1/legacy/{device}/{list}, which is one rule for every device`,
    ]);
    // Netlify has no such limit: a --host netlify build takes it.
    expect(
      compileSite({ site, manifests: content.manifests, devices: content.devices, problems: [] }, 'netlify').problems,
    ).toEqual([]);
  }, 60_000);

  it('Cloudflare _headers: at most 100 rules', () => {
    const rules = ruleLines(file('_headers')).filter((line) => !/^\s/.test(line));
    console.info(`Cloudflare _headers for ${DEVICES} devices: ${rules.length} rules`);
    expect(rules.length).toBeLessThanOrEqual(100);
  });

  it('Netlify _redirects: at most 12 rules per device, all parsed by Netlify', async () => {
    // A --host netlify publish folder's _redirects and _headers, beside the netlify.toml init writes (no rules).
    const netlify = compileSite(
      { site: readFileSync(path.join(EXAMPLE, 'content', 'site.yaml')), ...content, problems: [] },
      'netlify',
    );
    const root = tempProject();
    mkdirSync(path.join(root, 'dist'));
    for (const name of ['_redirects', '_headers'])
      writeFileSync(path.join(root, 'dist', name), String(netlify.files.find((f) => f.path === name)!.contents));
    writeFileSync(path.join(root, 'netlify.toml'), NETLIFY_TOML);
    const site = await loadNetlifySite(path.join(root, 'netlify.toml'), path.join(root, 'dist'));
    expect(site.errors).toEqual([]);
    console.info(
      `Netlify _redirects for ${DEVICES} devices × 4 lists: ${site.redirects.length} redirect rules, ${site.headers.length} header rules`,
    );
    // Today: 2 per device × list, 1 per device for v1 misses, 1 per device for its v2 builds, 1 for
    // them per source build and 1 for its v2 description, 8 for the whole API (v2 vendors, the v2
    // builds of unknown devices, /api/v2/changes with its first page and the pages after it, 3 JSON
    // 404 folders): 12,008 here.
    // Enumerating devices is what keeps unknown ones on the JSON 404s (Netlify does not fall
    // through from a rewrite whose file is missing).
    expect(site.redirects.length).toBeLessThanOrEqual(12 * DEVICES + 8);
  }, 60_000);
});

// --- internal ---

/** Lines that are rules (or rule headers): not blank, not comments. */
function ruleLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

/**
 * Static and dynamic rules as Cloudflare counts them: a rule without placeholders is static only
 * before the first rule with one; every later rule is dynamic, and past 100 of those the rest of
 * the file is skipped (wrangler 4.86.0, workers-shared utils/configuration/parseRedirects.ts).
 */
function cloudflareCounts(froms: readonly string[]): { static: number; dynamic: number } {
  const firstDynamic = froms.findIndex((from) => /[:*]/.test(from));
  const dynamic = firstDynamic === -1 ? 0 : froms.length - firstDynamic;
  return { static: froms.length - dynamic, dynamic };
}
