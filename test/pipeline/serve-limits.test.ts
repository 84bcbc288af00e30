// Output amplification: a site.yaml of a few hundred kilobytes used to make
// hundreds of thousands of files and Netlify rule files of tens of megabytes. The hosts' limits
// (src/hosts/limits.ts) are checked from site.yaml and the device folders before anything is
// compiled or written; check and build name the list or device folder that passes them.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { build, check } from '../../src/pipeline/build.js';
import { ContentError, formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { main } from '../../src/cli.js';
import { outputFloor } from '../../src/hosts/limits.js';
import { netlifyRules } from '../../src/hosts/netlify.js';
import { renderCloudflareRedirects } from '../../src/hosts/cloudflare.js';
import { routeTable } from '../../src/hosts/routes.js';
import { catalogProject } from '../helpers/catalog.js';

// Every device rendered on this thread is counted: a catalog refused by its settings renders none.
const rendered = vi.hoisted(() => ({ devices: 0 }));
vi.mock('../../src/render/device.js', async (original) => {
  const module = await original<typeof import('../../src/render/device.js')>();
  const renderDevice: typeof module.renderDevice = (...args) => (rendered.devices++, module.renderDevice(...args));
  return { ...module, renderDevice };
});

const BASE = 'download_base_url: https://dl.example.org\n';
const devices = (n: number, channel = 's') =>
  Array.from({ length: n }, (_, i) => ({ device: `dev${String(i).padStart(5, '0')}`, channel }));
/**
 * `lists:` with `n` lists l0 … l<n-1>, each collecting channel s, on one line (5,000 lists in block
 * style would pass the 64 KiB a content file may have); `at(i)` is where list i is named.
 */
function manyLists(n: number, extra = '') {
  const line = `lists: {${Array.from({ length: n }, (_, i) => `l${i}: [s]`).join(', ')}}`;
  const text = `${BASE}${extra}channels: [s]\n${line}\n`;
  const lineNumber = text.split('\n').indexOf(line) + 1;
  return {
    text,
    at: (i: number) =>
      `${lineNumber}:${line.indexOf(`{l${i}:`) >= 0 ? line.indexOf(`{l${i}:`) + 2 : line.indexOf(` l${i}:`) + 2}`,
  };
}

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe("the hosts' limits on what one deploy holds", () => {
  it(
    '5,000 lists and 40 one-build devices: check and build refuse at the list that passes each limit, and write nothing',
    { timeout: 120_000 },
    async () => {
      const lists = manyLists(5000);
      const root = catalogProject(devices(40), lists.text);
      rendered.devices = 0;
      const expected = [
        // 40 devices × (2 rules per list + 3) + 5: the 123rd list passes 10,000.
        `content/site.yaml:${lists.at(122)}  lists.l122  with this list, 40 devices and 5000 lists make 400,168 Netlify redirect rules, past 10,000 (from this list on, each list adds 80); Netlify asks for placeholders instead of 10,000 rules or more, and may fail a deploy whose rules are too large; use fewer lists or request paths (content/site.yaml), or remove netlify from \`hosts\``,
        // 40 devices × (2 files per list + 4): the 249th list passes 20,000.
        `content/site.yaml:${lists.at(248)}  lists.l248  with this list, 40 devices and 5000 lists make 400,160 files at least, past 20,000 (from this list on, each list adds 80); Cloudflare Pages takes 20,000 files per deploy on its Free plan (100,000 on paid plans); use fewer lists (content/site.yaml), split the devices over several sites, or remove cloudflare from \`hosts\``,
      ];
      expect(check({ root }).problems.map(formatProblem)).toEqual(expected);
      const { code, err } = await run(['check', '--root', root]);
      expect(code).toBe(1);
      expect(err).toContain(expected[0]);
      expect(() => build({ root })).toThrow(ContentError);
      expect(existsSync(path.join(root, 'dist'))).toBe(false);
      expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
      expect(readdirSync(root).sort()).toEqual(['content']);
      // Refused from the settings alone: no device of the 400,000 files was rendered.
      expect(rendered.devices).toBe(0);
    },
  );

  it('just under the limits it builds; one list more is refused', { timeout: 120_000 }, () => {
    // 40 devices: 248 lists make 40 × 500 = 20,000 files (Cloudflare only).
    const under = catalogProject(devices(40), manyLists(248, 'hosts: [cloudflare]\n').text);
    rendered.devices = 0;
    expect(check({ root: under }).problems).toEqual([]);
    expect(rendered.devices).toBe(40);
    const over = manyLists(249, 'hosts: [cloudflare]\n');
    expect(
      check({ root: catalogProject(devices(40), over.text) }).problems.map((p) => `${p.line}:${p.col} ${p.field}`),
    ).toEqual([`${over.at(248)} lists.l248`]);
  });

  it(
    "too many devices for Cloudflare Pages with the interface's four lists: at the device folder that passes its limit (Netlify's 20,408 rules, 12 a device, are left to its advice)",
    { timeout: 180_000 },
    () => {
      const root = catalogProject(devices(1700, 'stable'), BASE);
      expect(
        check({ root })
          .problems.map(formatProblem)
          .map((line) => line.slice(0, line.indexOf(';'))),
      ).toEqual([
        // 1,667 devices × (2 files per list × 4 + 4) passes 20,000.
        'content/dev01666:1:1  (folder)  with this device folder (number 1,667 in name order), 1700 devices make 20,400 files at least, past 20,000',
      ]);
      // Here, not in the shared afterEach, whose hook time is short for 1,700 folders on a loaded machine.
      rmSync(root, { recursive: true, force: true });
    },
  );

  it(
    "request paths multiply too: at the request path that passes Netlify's rules and Cloudflare's 100 rules with placeholders",
    { timeout: 120_000 },
    () => {
      const paths = Array.from({ length: 100 }, (_, i) => `  - /api/v1/x${i}/{device}/{list}/a\n`).join('');
      const root = catalogProject(devices(40, 'stable'), `${BASE}request_paths:\n${paths}`);
      expect(
        check({ root })
          .problems.map(formatProblem)
          .map((line) => line.slice(0, line.indexOf(';'))),
      ).toEqual([
        // 40 devices × 12 + 8 = 488 rules, and 40 × 4 more for each path: the 60th passes 10,000.
        'content/site.yaml:62:5  request_paths.59  with this request path, 40 devices, 4 lists and 100 request paths make 16,488 Netlify redirect rules, past 10,000',
        // 8 built-in rules with placeholders (v1, v2 builds and its [] answer, v2 builds per source build, v2 device) and one for each path: the 93rd is the 101st.
        'content/site.yaml:95:5  request_paths.92  with this request path, 40 devices, 4 lists and 100 request paths make 108 _redirects rules with placeholders, past 100',
      ]);
    },
  );
});

describe("the rule count the limits use is the count of Netlify's _redirects", () => {
  it.each([
    ['the interface lists', 'channels: [stable, official, dev, community]\n', 3],
    [
      'six lists and request paths',
      'channels: [s]\nlists: {a: [s], b: [s], c: [s], d: [s], e: [s], f: [s]}\nrequest_paths:\n  - /api/v1/{device}_{list}\n  - /api/v1/legacy/{device}/{list}/{incremental}\n',
      5,
    ],
  ])('%s', (_, settings, deviceCount) => {
    const root = catalogProject(devices(deviceCount, settings.includes('[s]') ? 's' : 'stable'), `${BASE}${settings}`);
    const { site } = parseSite(readFileSync(path.join(root, 'content/site.yaml'), 'utf8'));
    const names = Array.from({ length: deviceCount }, (_, i) => `dev${String(i).padStart(5, '0')}`);
    expect(outputFloor(site!, deviceCount).rules).toBe(netlifyRules(routeTable(site!, { devices: names })).length);
    const redirects = renderCloudflareRedirects(routeTable(site!, { devices: names }))
      .split('\n')
      .filter((l) => l.startsWith('/'));
    expect(outputFloor(site!, deviceCount).dynamicRedirects).toBe(
      redirects.filter((l) => /[:*]/.test(l.split(' ')[0])).length,
    );
  });
});
