// Netlify, its own rule engine: the `--host netlify` dist/ (its _redirects and _headers, which
// Netlify reads before netlify.toml) beside the netlify.toml init writes, and beside the one an
// earlier otapress build wrote with every route in it, against the host table. For each row: the
// rule that fires, that its target exists in dist/, the status, the headers that apply and the body.
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { NETLIFY_TOML, netlify } from '../../src/hosts/netlify.js';
import { EXAMPLE, ROOT } from '../helpers/helpers.js';
import {
  compileWith,
  describeProbe,
  expectedAnswer,
  hostTable,
  INCREMENTAL_EXAMPLE,
  LISTING_CACHE_CONTROL,
  REQUEST_PATHS_YAML,
  FORMATS_OUTSIDE_API_YAML,
  writeManifests,
  type Probe,
  type Seen,
} from '../helpers/host-table.js';
import { loadNetlifySite, netlifyAnswer, type NetlifySite } from '../helpers/netlify-engine.js';

// The table has site.yaml's request paths, the other updaters' formats and an incremental package: the build writes their rules into dist/_redirects.
const table: Probe[] = hostTable(
  compileWith(readContent(EXAMPLE), `${REQUEST_PATHS_YAML}${FORMATS_OUTSIDE_API_YAML}`, INCREMENTAL_EXAMPLE),
);
const TOMLS = {
  "init's": path.join(EXAMPLE, 'netlify.toml'),
  "an earlier build's": path.join(ROOT, 'test', 'fixtures', 'netlify-toml', 'written-by-earlier-build.toml'),
};
type Which = keyof typeof TOMLS;

let root: string;
const dist = () => path.join(root, 'dist');
const sites = {} as Record<Which, NetlifySite>;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'otapress-netlify-'));
  cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
  // The Cloudflare-only option must not leak into a Netlify deploy either.
  appendFileSync(
    path.join(root, 'content', 'site.yaml'),
    `\noptions_handler: true\n${REQUEST_PATHS_YAML}${FORMATS_OUTSIDE_API_YAML}`,
  );
  // The answers for phones on one build take rules of their own in dist/_redirects.
  writeManifests(root, INCREMENTAL_EXAMPLE);
  build({ root, host: 'netlify' });
  for (const [which, toml] of Object.entries(TOMLS)) sites[which as Which] = await loadNetlifySite(toml, dist());
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a --host netlify build', () => {
  it("has Netlify's rule files, none of Cloudflare's, and writes no netlify.toml", () => {
    for (const name of ['_worker.js', '_routes.json', 'netlify.toml'])
      expect(existsSync(path.join(dist(), name)), name).toBe(false);
    expect(existsSync(path.join(root, 'netlify.toml'))).toBe(false);
    expect(readFileSync(path.join(dist(), '_redirects'), 'utf8')).toMatch(
      /^\/api\/v1\/FP4\/stable {2}\/api\/v1\/FP4\/stable\/index\.json {2}200!$/m,
    );
  });

  it("the example's netlify.toml is the one init writes: build settings only, nothing a device or list changes", () => {
    expect(readFileSync(TOMLS["init's"], 'utf8')).toBe(NETLIFY_TOML);
    expect(NETLIFY_TOML).not.toMatch(/\[\[(redirects|headers)\]\]|FP4|stable/);
    // Every rule is dist/_redirects': the API's, and the JSON 404s of the formats' folders outside it.
    const folders = ['/api/', '/API/updater/', '/aospa/updates/', '/OTA/device/', '/builds/'];
    expect(sites["init's"].redirects.every((r) => folders.some((f) => r.from.startsWith(f)))).toBe(true);
  });

  it.each(Object.keys(TOMLS) as Which[])(
    'with %s netlify.toml, the rules parse without errors, every 200 rule forced',
    (which) => {
      const site = sites[which];
      expect(site.errors).toEqual([]);
      // A rewrite that is not forced loses to any file at the requested path.
      expect(site.redirects.filter((r) => r.status === 200 && !r.force)).toEqual([]);
    },
  );
});

describe.each(Object.keys(TOMLS) as Which[])('Netlify rule engine, dist/ with %s netlify.toml', (which) => {
  // A miss of a format's file at the root has no rule of its own here (a placeholder is a whole
  // segment, which would take every miss at the root): it answers the HTML 404 page, as the module says.
  const htmlMiss = netlify.answers.rootFormatMiss === 'html';
  const rows = table.map((probe): Probe =>
    probe.rootFormat && htmlMiss
      ? { method: probe.method, path: probe.path, what: probe.what, status: 404, kind: 'html', file: '404.html' }
      : probe,
  );
  it.each(rows.map((probe) => ({ probe, name: describeProbe(probe) })))('$name', ({ probe }) => {
    const answer = netlifyAnswer(sites[which], probe.path, probe.method);
    // The rule that fires, and its target in dist/.
    if (probe.atItsPath) {
      // The file at the path asked is served: the JSON 404 rule under /api/ is not forced, so it yields to it.
      expect(answer.rule === null || answer.rule.force === false).toBe(true);
    } else if (probe.status === 200) {
      expect(answer.rule).toMatchObject({ to: `/${probe.file}`, status: 200, force: true });
    } else if (probe.kind === 'json' && !probe.scope) {
      expect(answer.rule).toMatchObject({ to: `/${probe.file}`, status: 404, force: true });
    } else if (probe.kind === 'json') {
      expect(answer.rule).toMatchObject({ from: `${probe.scope}*`, to: probe.scopeFile, status: 404 });
    } else {
      expect(answer.rule).toBeNull();
    }
    expect(answer.served && existsSync(path.join(dist(), answer.served)), `served file ${answer.served} exists`).toBe(
      true,
    );

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
    // Netlify applies the [[headers]] Cache-Control to 404s too (Cloudflare forces no-store), as the module says.
    expect(netlify.answers.notFoundCacheControl).toBe('rules');
    const caching = { json: LISTING_CACHE_CONTROL, html: null };
    let expected = expectedAnswer(probe, file, caching);
    if (probe.kind === 'html' && probe.what.endsWith('its path in lower case, another folder')) {
      // Netlify matches a header rule's path ignoring case (@netlify/headers-parser 9.0.3,
      // lib/for_regexp.js, a RegExp with the `i` flag) and its redirects by case: a capitalised
      // format folder's path in lower case is a miss, whose HTML 404 page gets that folder's API headers.
      const { status, body, location } = expected;
      expected = { ...expectedAnswer({ ...probe, kind: 'json', status: 200 }, file, caching), status, body, location };
    }
    expect(seen).toEqual(expected);
  });
});
