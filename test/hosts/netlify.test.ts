// Netlify, its own rule engine: the committed netlify.toml and the one a `--host netlify` build
// writes, over the `--host netlify` dist/, against the host table. For each row: the rule that
// fires, that its target exists in dist/, the status, the headers that apply and the body.
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith, describeProbe, expectedAnswer, hostTable, INCREMENTAL_EXAMPLE, LISTING_CACHE_CONTROL, REQUEST_PATHS_YAML, writeManifests, type Probe, type Seen } from '../helpers/host-table.js';
import { loadNetlifySite, netlifyAnswer, type NetlifySite } from '../helpers/netlify-engine.js';

const content = readContent(EXAMPLE);
// The committed netlify.toml is the example's; the generated one adds site.yaml's request paths and
// an incremental package.
const tables: Record<string, Probe[]> = {
  committed: hostTable(compileSite(content)),
  generated: hostTable(compileWith(content, REQUEST_PATHS_YAML, INCREMENTAL_EXAMPLE)),
};

let root: string;
const dist = () => path.join(root, 'dist');
const sites: Record<string, NetlifySite> = {};

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-netlify-'));
  cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
  // The Cloudflare-only option must not leak into a Netlify deploy either.
  appendFileSync(path.join(root, 'content', 'site.yaml'), `\noptions_handler: true\n${REQUEST_PATHS_YAML}`);
  // The answers for phones on one build take rules of their own in the generated netlify.toml.
  writeManifests(root, INCREMENTAL_EXAMPLE);
  build({ root, host: 'netlify' });
  sites.committed = await loadNetlifySite(path.join(EXAMPLE, 'netlify.toml'), dist());
  sites.generated = await loadNetlifySite(path.join(root, 'netlify.toml'), dist());
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a --host netlify build', () => {
  it('has none of Cloudflare\'s files, which Netlify would read before netlify.toml', () => {
    for (const name of ['_redirects', '_headers', '_worker.js', '_routes.json']) expect(existsSync(path.join(dist(), name)), name).toBe(false);
  });

  it.each(['committed', 'generated'])('%s netlify.toml parses without errors, every 200 rule forced', (which) => {
    const site = sites[which];
    expect(site.errors).toEqual([]);
    // A rewrite that is not forced loses to any file at the requested path.
    expect(site.redirects.filter((r) => r.status === 200 && !r.force)).toEqual([]);
  });
});

describe.each(['committed', 'generated'])('Netlify rule engine, %s netlify.toml', (which) => {
  it.each(tables[which].map((probe) => ({ probe, name: describeProbe(probe) })))('$name', ({ probe }) => {
    const answer = netlifyAnswer(sites[which], probe.path, probe.method);
    // The rule that fires, and its target in dist/.
    if (probe.status === 200) {
      expect(answer.rule).toMatchObject({ to: `/${probe.file}`, status: 200, force: true });
    } else if (probe.kind === 'json') {
      expect(answer.rule).toMatchObject({ from: `${probe.scope}*`, to: `${probe.scope}404.json`, status: 404 });
    } else {
      expect(answer.rule).toBeNull();
    }
    expect(answer.served && existsSync(path.join(dist(), answer.served)), `served file ${answer.served} exists`).toBe(true);

    const seen: Seen = {
      status: answer.status,
      contentType: answer.headers['Content-Type'] ?? null,
      allow: answer.headers.Allow ?? null,
      vary: answer.headers.Vary ?? null,
      cacheControl: answer.headers['Cache-Control'] ?? null,
      allowOrigin: answer.headers['Access-Control-Allow-Origin'] ?? null,
      location: null,
      body: answer.body,
    };
    const file = readFileSync(path.join(dist(), probe.file), 'utf8');
    // Netlify applies the [[headers]] Cache-Control to 404s too (Cloudflare forces no-store).
    expect(seen).toEqual(expectedAnswer(probe, file, { json: LISTING_CACHE_CONTROL, html: null }));
  });
});
