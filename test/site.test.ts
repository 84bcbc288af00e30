// content/site.yaml: configure only what you use. Lists default from the declared channels, and
// `hosts` says which hosts' rule files are written (and netlify.toml checked).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, check } from '../src/build/build.js';
import { formatProblem } from '../src/catalog/problems.js';
import { parseSite, SITE_KEYS, siteSchema } from '../src/catalog/site.js';
import { catalogProject } from './catalog.js';

const BASE = 'download_base_url: https://dl.example.org\n';
const listsOf = (text: string) => parseSite(BASE + text).site?.lists.map((l) => `${l.name} ← ${l.channels.join(', ')}`);

describe('the settings keys', () => {
  it('are those of the schema, in its order, known without building it', () => {
    expect(SITE_KEYS).toEqual(Object.keys(siteSchema().shape));
  });
});

describe('the lists of a site that names none', () => {
  it.each([
    ['no channels either: the interface lists', '', ['stable ← stable, official', 'official ← official', 'dev ← dev, community', 'community ← community']],
    ['channels of another ROM: one list each', 'channels: [nightly, unofficial]\n', ['nightly ← nightly', 'unofficial ← unofficial']],
    ['the interface channels: the interface lists', 'channels: [stable, official, dev, community]\n', ['stable ← stable, official', 'official ← official', 'dev ← dev, community', 'community ← community']],
    ['some interface channels: only the declared ones are collected', 'channels: [stable, dev, nightly]\n', ['stable ← stable', 'dev ← dev', 'nightly ← nightly']],
    ['a channel named like an Object property', 'channels: [constructor, stable, official]\n', ['constructor ← constructor', 'stable ← stable, official', 'official ← official']],
  ])('%s', (_, text, lists) => {
    expect(parseSite(BASE + text).problems.map(formatProblem)).toEqual([]);
    expect(listsOf(text)).toEqual(lists);
  });

  it('lists written out are kept as written', () => {
    expect(listsOf('channels: [nightly, unofficial]\nlists:\n  all: [nightly, unofficial]\n')).toEqual(['all ← nightly, unofficial']);
  });

  it('channels: [nightly, unofficial] alone builds a listing per channel for every device', () => {
    const root = catalogProject([{ channel: 'nightly' }, { channel: 'unofficial' }], `${BASE}channels: [nightly, unofficial]\n`);
    expect(build({ root })).toMatchObject({ builds: 2, listings: 2, records: 2, notices: [] });
    expect(readdirSync(path.join(root, 'dist/api/v1/FP4')).sort()).toEqual(['404.html', '404.json', 'nightly', 'unofficial']);
  });
});

describe('hosts', () => {
  it.each([
    ['the default: both', '', ['cloudflare', 'netlify']],
    ['Cloudflare only', 'hosts: [cloudflare]\n', ['cloudflare']],
    ['Netlify only', 'hosts:\n  - netlify\n', ['netlify']],
  ])('%s', (_, text, hosts) => {
    expect(parseSite(BASE + text)).toEqual({ site: expect.objectContaining({ hosts }), problems: [] });
  });

  it.each([
    ['an unknown host', 'hosts: [cloudflare, vercel]\n', ['content/site.yaml:2:21  hosts.1  expected a host otapress writes rules for: cloudflare or netlify']],
    ['a host named twice', 'hosts: [netlify, cloudflare, netlify]\n', ['content/site.yaml:2:30  hosts.2  host `netlify` is listed twice']],
    ['no host', 'hosts: []\n', ['content/site.yaml:2:8  hosts  name at least one host (cloudflare, netlify)']],
    ['not a list', 'hosts: cloudflare\n', ['content/site.yaml:2:1  hosts  expected the list of hosts this site deploys to, e.g. [cloudflare]']],
    [
      'an OPTIONS handler without Cloudflare',
      'hosts: [netlify]\noptions_handler: true\n',
      ['content/site.yaml:3:18  options_handler  the OPTIONS handler is a Cloudflare Pages _worker.js, and `hosts` has no cloudflare; remove options_handler or add cloudflare to hosts'],
    ],
  ])('%s is a located problem', (_, text, problems) => {
    expect(parseSite(BASE + text).problems.map(formatProblem)).toEqual(problems);
  });

  it('hosts: [cloudflare] writes no netlify.toml, and check leaves an old one alone', () => {
    const root = catalogProject([{}], `${BASE}hosts: [cloudflare]\n`);
    build({ root });
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/_redirects'))).toBe(true);
    writeFileSync(path.join(root, 'netlify.toml'), '# an old one, from before the site moved\n');
    expect(check({ root }).problems).toEqual([]);
    // The same stale file is a problem for a site that deploys to Netlify.
    writeFileSync(path.join(root, 'content/site.yaml'), BASE);
    expect(check({ root }).problems.map((p) => p.file)).toEqual(['netlify.toml']);
  });

  it("hosts: [netlify] leaves Cloudflare's rule files out of dist/, as --host netlify does", () => {
    const root = catalogProject([{}], `${BASE}hosts: [netlify]\n`);
    build({ root });
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(true);
    expect(existsSync(path.join(root, 'dist/_redirects'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/_headers'))).toBe(false);
  });
});
