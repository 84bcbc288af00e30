// Cloudflare Pages, its real runtime, on a catalog of many devices: the example with 120 more
// devices of one build each, built into a temp folder and served by `wrangler pages dev`. With
// more than a few dozen devices, `_redirects` has more rules than the dynamic limit of 100 would
// allow if the per-device rules were read as dynamic; wrangler then skips the rest of the file. Every
// endpoint must still answer, for the first and the last device alike.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { observe } from '../helpers/host-table.js';
import { startWrangler, type Wrangler } from '../helpers/wrangler.js';

const DEVICES = Array.from({ length: 120 }, (_, i) => `many${String(i + 1).padStart(3, '0')}`);

describe(`Cloudflare Pages runtime (wrangler pages dev) with ${DEVICES.length + 3} devices`, () => {
  let root: string;
  let wrangler: Wrangler | undefined;
  const dist = (file: string) => readFileSync(path.join(root, 'dist', file), 'utf8');

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'otapress-cf-many-'));
    cpSync(path.join(EXAMPLE, 'content'), path.join(root, 'content'), { recursive: true });
    for (const device of DEVICES) {
      const filename = `e-2.5-a14-20241108446322-official-${device}.zip`;
      const hash = createHash('sha256').update(filename).digest('hex');
      mkdirSync(path.join(root, 'content', device));
      writeFileSync(
        path.join(root, 'content', device, `${filename.slice(0, -4)}.yaml`),
        `filename: ${filename}\nversion: "2.5"\nchannel: official\ntimestamp: 1731067200\nandroid_version: "14"\n` +
          `incremental: "eng.root.20241108.100000"\nmd5sum: ${hash.slice(0, 32)}\nid: ${hash}\nsize: 1387003904\n`,
      );
    }
    build({ root });
    wrangler = await startWrangler(path.join(root, 'dist'));
  }, 180_000);

  afterAll(async () => {
    await wrangler?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 30_000);

  it('reads every rule of _redirects: none skipped or counted past a limit', () => {
    expect(wrangler!.log()).not.toMatch(/Maximum number of|Skipping/);
  });

  it.each([
    ['/api/v2/oems', 'api/v2/oems.json'],
    ['/api/v2/changes', 'api/v2/changes.json'],
    ['/api/v2/devices/FP3/builds', 'api/v2/devices/FP3/builds.json'],
    [`/api/v2/devices/${DEVICES.at(-1)}/builds`, `api/v2/devices/${DEVICES.at(-1)}/builds.json`],
    [`/api/v2/devices/${DEVICES.at(-1)}`, `api/v2/devices/${DEVICES.at(-1)}/index.json`],
    ['/api/v2/devices/no-such-device/builds', 'api/v2/unknown-device-builds.json'],
    [`/api/v1/${DEVICES.at(-1)}/stable/eng.root.20241108.100000`, `api/v1/${DEVICES.at(-1)}/stable/index.json`],
    [`/api/v1/${DEVICES.at(-1)}/official/`, `api/v1/${DEVICES.at(-1)}/official/index.json`],
  ])(
    'GET %s answers 200 with %s',
    async (sent, file) => {
      const seen = await observe(wrangler!.url, 'GET', sent);
      expect({ status: seen.status, contentType: seen.contentType, body: seen.body }).toEqual({
        status: 200,
        contentType: 'application/json',
        body: dist(file),
      });
    },
    30_000,
  );
});
