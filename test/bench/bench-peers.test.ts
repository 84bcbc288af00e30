import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { compareListings } from './peers.js';
import { generateCatalog } from './catalog.js';
import { tempProject } from '../helpers/helpers.js';

// `npm run bench -- --peers` compares otapress with Hugo and Eleventy only after checking that they
// wrote the same v1 listings (test/bench/peers.ts): that check, and Hugo's project, tested here.
describe('the peers of the benchmark', { timeout: 120_000 }, () => {
  it('finds a listing that differs by one byte, one that is missing and one too many', () => {
    const root = tempProject();
    generateCatalog(root, { devices: 3, builds: 6 });
    build({ root });
    const dist = path.join(root, 'dist');
    const copy = path.join(root, 'copy');
    const fresh = () => cpSync(dist, copy, { recursive: true, force: true });
    fresh();
    expect(compareListings(dist, copy, 'copy')).toBe(3 * 4);
    const listing = path.join(copy, 'api', 'v1', 'FP4', 'dev', 'index.json');
    writeFileSync(listing, '{"id":null,"response":[],"error":null}');
    expect(() => compareListings(dist, copy, 'copy')).toThrow(
      /copy: api\/v1\/FP4\/dev\/index.json differs from otapress's at byte 23/,
    );
    rmSync(copy, { recursive: true });
    fresh();
    rmSync(listing);
    expect(() => compareListings(dist, copy, 'copy')).toThrow('listings differ: missing api/v1/FP4/dev/index.json');
    rmSync(copy, { recursive: true });
    fresh();
    mkdirSync(path.join(copy, 'api', 'v1', 'FP4', 'nightly'));
    writeFileSync(path.join(copy, 'api', 'v1', 'FP4', 'nightly', 'index.json'), '{}');
    expect(() => compareListings(dist, copy, 'copy')).toThrow('extra api/v1/FP4/nightly/index.json');
  });

  it.runIf(spawnSync('hugo', ['version']).status === 0)(
    "Hugo's project writes otapress's listings byte for byte (placeholders, withdrawn builds, lists: overrides)",
    () => {
      const root = tempProject();
      generateCatalog(root, { devices: 20, builds: 50 });
      build({ root });
      const out = path.join(root, 'hugo-out');
      cpSync(path.join(import.meta.dirname, '..', 'bench', 'peers', 'hugo'), path.join(root, 'hugo-project'), {
        recursive: true,
      });
      const hugo = spawnSync(
        'hugo',
        [
          '--quiet',
          '--source',
          path.join(root, 'hugo-project'),
          '--destination',
          out,
          '--cacheDir',
          path.join(root, 'hugo-cache'),
        ],
        {
          env: {
            ...process.env,
            HUGO_DATADIR: path.join(root, 'content'),
            HUGO_RESOURCEDIR: path.join(root, 'hugo-resources'),
          },
          encoding: 'utf8',
        },
      );
      expect(hugo.stderr).toBe('');
      expect(compareListings(path.join(root, 'dist'), out, 'Hugo')).toBe(20 * 4);
    },
  );
});
