// The hosts' rule limits for a large catalog: 1000 devices with the example's four lists, three
// builds each, generated in a temp folder and built for real. Cloudflare counts a rule with a
// placeholder or a splat as dynamic (limits: 2000 static + 100 dynamic redirects, 100 header
// rules); Netlify's rules are counted by its own parser and must stay under 10,000.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type CompiledSite } from '../src/build.js';
import { ROOT } from './helpers.js';
import { loadNetlifySite } from './netlify-engine.js';

const DEVICES = 1000;
let root: string;
let compiled: CompiledSite;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-limits-'));
  cpSync(path.join(ROOT, 'content', 'site.yaml'), path.join(root, 'content', 'site.yaml'));
  for (let n = 1; n <= DEVICES; n++) {
    const device = `dev${String(n).padStart(4, '0')}`;
    mkdirSync(path.join(root, 'content', device));
    for (const [version, channel, timestamp] of [['2.5', 'official', 1731067200], ['2.6', 'community', 1733997600], ['3.0', 'dev', 1749549600]] as const) {
      const filename = `e-${version}-a14-20241108446322-${channel}-${device}.zip`;
      const hash = createHash('sha256').update(filename).digest('hex');
      writeFileSync(
        path.join(root, 'content', device, `${filename.slice(0, -4)}.yaml`),
        `filename: ${filename}\nversion: "${version}"\nchannel: ${channel}\ntimestamp: ${timestamp}\nandroid_version: "14"\n` +
          `incremental: "${timestamp}"\nmd5sum: ${hash.slice(0, 32)}\nid: ${hash}\nsize: 1387003904\n`,
      );
    }
  }
  compiled = build({ root });
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`rules for ${DEVICES} devices × 4 lists`, () => {
  it('builds every listing', () => {
    expect(compiled.listings).toHaveLength(DEVICES * 4);
  });

  it('Cloudflare _redirects: at most 2000 static and 100 dynamic rules', () => {
    const rules = ruleLines(readFileSync(path.join(root, 'dist', '_redirects'), 'utf8')).map((line) => line.split(/\s+/)[0]);
    const dynamic = rules.filter((from) => /[:*]/.test(from));
    const counts = { static: rules.length - dynamic.length, dynamic: dynamic.length };
    console.info(`Cloudflare _redirects for ${DEVICES} devices: ${counts.static} static, ${counts.dynamic} dynamic rules`);
    expect(counts.static).toBeLessThanOrEqual(2000);
    expect(counts.dynamic).toBeLessThanOrEqual(100);
  });

  it('Cloudflare _headers: at most 100 rules', () => {
    const rules = ruleLines(readFileSync(path.join(root, 'dist', '_headers'), 'utf8')).filter((line) => !/^\s/.test(line));
    console.info(`Cloudflare _headers for ${DEVICES} devices: ${rules.length} rules`);
    expect(rules.length).toBeLessThanOrEqual(100);
  });

  it('netlify.toml: under 10,000 rules, all parsed by Netlify', async () => {
    // A --host netlify publish folder has no _redirects/_headers: netlify.toml's rules are all there is.
    const publish = path.join(root, 'netlify-publish');
    mkdirSync(publish);
    const site = await loadNetlifySite(path.join(root, 'netlify.toml'), publish);
    expect(site.errors).toEqual([]);
    console.info(`netlify.toml for ${DEVICES} devices × 4 lists: ${site.redirects.length} redirect rules, ${site.headers.length} header rules`);
    // Today: 2 per device × list, 1 per device, 2 for the whole API.
    expect(site.redirects.length).toBeLessThan(10_000);
  }, 60_000);
});

// --- internal ---

/** Lines that are rules (or rule headers): not blank, not comments. */
function ruleLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}
