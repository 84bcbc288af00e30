// Incremental packages on a fresh `init --channels nightly` catalog: `add` recognises one by its
// metadata and records the build it applies on; the build answers phones on that build with it and
// every other phone with the full packages, as the LineageOS updater asks and reads the answer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBuild, AddRefusal } from '../../src/ota/add-build.js';
import { initCatalog } from '../../src/commands/init.js';
import { readContent } from '../../src/catalog/read.js';
import { compileSite } from '../../src/pipeline/build.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { runMain } from '../helpers/cli-process.js';
import {
  LINEAGE_V1_TEMPLATE,
  v1CanInstall,
  v1Lists,
  v1RequestUrl,
  type Phone,
  type PhoneProperties,
} from '../helpers/clients.js';
import { ROOT } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const OLD = { incremental: 'eng.build.20250110', timestamp: 1736500000, date: '20250110' };
const NEW = { incremental: 'eng.build.20250117', timestamp: 1737100000, date: '20250117' };
const fingerprint = (incremental: string) => `google/akita/akita:15/BP1A.250105.002/${incremental}:user/release-keys`;

/** Metadata as ota_from_target_files writes it: a full package, or (with `from`) an incremental one. */
function metadata(build: typeof OLD, from?: typeof OLD): string {
  return [
    'ota-type=AB',
    `post-build=${fingerprint(build.incremental)}`,
    `post-build-incremental=${build.incremental}`,
    'post-sdk-level=35',
    'post-security-patch-level=2025-01-05',
    `post-timestamp=${build.timestamp}`,
    ...(from ? [`pre-build=${fingerprint(from.incremental)}`, `pre-build-incremental=${from.incremental}`] : []),
    'pre-device=akita',
    '',
  ].join('\n');
}

const FULL_OLD = `lineage-22.1-${OLD.date}-nightly-akita-signed.zip`;
const FULL_NEW = `lineage-22.1-${NEW.date}-nightly-akita-signed.zip`;
const INCREMENTAL = `lineage-22.1-${NEW.date}-nightly-akita-signed-incremental-${OLD.date}.zip`;

/** A phone running `build` of LineageOS 22.1 nightly on akita, as the updater sees itself. */
const phoneOn = (build: { incremental: string; timestamp: number }): Phone & PhoneProperties => ({
  device: 'akita',
  releaseType: 'NIGHTLY',
  incremental: build.incremental,
  buildDate: build.timestamp,
  version: '22.1',
  allowMajorUpgrades: false,
});

describe('incremental packages on a fresh init --channels nightly catalog', { timeout: 60_000 }, () => {
  let root: string;
  const zip = (name: string) => path.join(root, name);

  beforeAll(async () => {
    // Shared by the tests in order (tempProject's folders go after each test).
    root = path.join(mkdtempSync(path.join(tmpdir(), 'otapress-incremental-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    await writeOtaZip(zip(FULL_OLD), { metadata: metadata(OLD), payloadSize: 3 * 1024 * 1024 });
    await writeOtaZip(zip(FULL_NEW), { metadata: metadata(NEW), payloadSize: 3 * 1024 * 1024 + 4096 });
    await writeOtaZip(zip(INCREMENTAL), { metadata: metadata(NEW, OLD), payloadSize: 256 * 1024 });
  });

  afterAll(() => rmSync(path.dirname(root), { recursive: true, force: true }));

  it('refuses an incremental package before the full package of the build it installs, saying what to add first', async () => {
    await expect(addBuild({ zip: zip(INCREMENTAL), root })).rejects.toThrow(AddRefusal);
    const refused = await runMain(['add', zip(INCREMENTAL), '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([
      `${zip(INCREMENTAL)}  incremental  the zip is an incremental package that installs ${NEW.incremental} (post-build-incremental), and akita publishes no full package of that build: phones on the source build are offered it in place of that build's full package; add the full package first (otapress add <its zip>), then this one`,
      '1 problem found; nothing was written.',
    ]);
  });

  it('records the build the package applies on, beside the full builds', async () => {
    for (const name of [FULL_OLD, FULL_NEW]) expect((await runMain(['add', zip(name), '--root', root])).code).toBe(0);
    const added = await runMain(['add', zip(INCREMENTAL), '--root', root]);
    expect(added.code).toBe(0);
    expect(added.out).toEqual([`wrote content/akita/${INCREMENTAL.replace(/\.zip$/, '.yaml')}`]);
    expect(added.err.map((l) => l.trim().split(/\s{2,}/))).toContainEqual([
      'source_incremental',
      'metadata pre-build-incremental',
      OLD.incremental,
    ]);
    expect(added.err.map((l) => l.trim().split(/\s{2,}/))).toContainEqual([
      'source_build',
      'metadata pre-build',
      fingerprint(OLD.incremental),
    ]);
    const text = readFileSync(path.join(root, 'content/akita', INCREMENTAL.replace(/\.zip$/, '.yaml')), 'utf8');
    expect(text).toContain(
      `\nincremental: "${NEW.incremental}"\nsource_incremental: "${OLD.incremental}"\nsource_build: ${fingerprint(OLD.incremental)}\n`,
    );
  });

  it('offers the incremental package to phones on its source build only, as the LineageOS updater asks and reads', () => {
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    const tree = servedTree(compiled.site!, compiled.files);
    const offered = (phone: Phone & PhoneProperties, template = LINEAGE_V1_TEMPLATE) => {
      const answer = respond(tree, 'GET', v1RequestUrl(template, phone));
      expect(answer.status).toBe(200);
      const records = (JSON.parse(String(answer.body)) as { response: Record<string, unknown>[] }).response;
      return records
        .filter((r) => v1Lists(r as never, phone))
        .map((r) => ({ filename: r.filename, installable: v1CanInstall(r as never, phone), size: r.size, id: r.id }));
    };
    const sha256 = (name: string) =>
      createHash('sha256')
        .update(readFileSync(zip(name)))
        .digest('hex');

    // On the source build: the newer build's record is the incremental package.
    expect(offered(phoneOn(OLD))).toEqual([
      { filename: INCREMENTAL, installable: true, size: statSync(zip(INCREMENTAL)).size, id: sha256(INCREMENTAL) },
    ]);
    // On an older build, and on the source build through a URL without {incr}: the full package.
    const full = [{ filename: FULL_NEW, installable: true, size: statSync(zip(FULL_NEW)).size, id: sha256(FULL_NEW) }];
    expect(offered(phoneOn({ incremental: 'eng.build.20250103', timestamp: 1735900000 }))).toEqual([
      ...full,
      { filename: FULL_OLD, installable: true, size: statSync(zip(FULL_OLD)).size, id: sha256(FULL_OLD) },
    ]);
    expect(offered(phoneOn(OLD), 'https://download.example.org/api/v1/{device}/{type}')).toEqual(full);
    expect(offered(phoneOn(OLD), 'https://download.example.org/api/v1/{device}/{type}/')).toEqual(full);
    // On the newest build nothing is newer.
    expect(offered(phoneOn(NEW))).toEqual([]);
  });

  it('keeps the incremental package out of every answer but the per-build ones, v1 and v2 (and SHA256SUMS and the device page): listings, v2, feeds', () => {
    const compiled = compileSite(readContent(root));
    const holding = compiled.files.filter((f) => String(f.contents).includes(INCREMENTAL)).map((f) => f.path);
    expect(holding).toEqual([
      `api/v1/akita/nightly/${OLD.incremental}.json`,
      `api/v2/devices/akita/builds/${OLD.incremental}.json`,
      'devices/akita/SHA256SUMS',
      'devices/akita/index.html',
    ]);
    // In v2, the newer build's entry with the incremental package as files[0], which phones install.
    const v2 = JSON.parse(
      String(compiled.files.find((f) => f.path === `api/v2/devices/akita/builds/${OLD.incremental}.json`)!.contents),
    ) as { datetime: number; files: { filename: string }[] }[];
    expect(v2.map((e) => [e.datetime, e.files[0].filename])).toEqual([[NEW.timestamp, INCREMENTAL]]);
    const answer = JSON.parse(
      String(compiled.files.find((f) => f.path === `api/v1/akita/nightly/${OLD.incremental}.json`)!.contents),
    ) as { response: Record<string, unknown>[] };
    const listing = JSON.parse(
      String(compiled.files.find((f) => f.path === 'api/v1/akita/nightly/index.json')!.contents),
    ) as { response: Record<string, unknown>[] };
    // The builds newer than the source (a phone on it offers nothing older), the newer build's
    // record with the incremental package's download; its version and build time stay.
    expect(listing.response.map((r) => r.datetime)).toEqual([NEW.timestamp, OLD.timestamp]);
    expect(answer.response.map((r) => r.datetime)).toEqual([NEW.timestamp]);
    const { filename, url, size, id, md5sum, ...rest } = answer.response[0];
    const { filename: _f, url: _u, size: _s, id: _i, md5sum: _m, ...restListed } = listing.response[0];
    expect(rest).toEqual(restListed);
    expect({ filename, url }).toEqual({
      filename: INCREMENTAL,
      url: `${compiled.site!.downloadBaseUrl}/nightly/akita/${INCREMENTAL}`,
    });
    expect(md5sum).toBe(
      createHash('md5')
        .update(readFileSync(zip(INCREMENTAL)))
        .digest('hex'),
    );
    expect(size).not.toBe(listing.response[0].size);
    expect(id).not.toBe(listing.response[0].id);
  });

  it("publishes SHA256SUMS of the device's downloads, incremental package included, which sha256sum -c verifies against the zips", () => {
    const compiled = compileSite(readContent(root));
    const sums = String(compiled.files.find((f) => f.path === 'devices/akita/SHA256SUMS')!.contents);
    expect(sums.split('\n').map((l) => l.split('  ')[1])).toEqual([FULL_OLD, INCREMENTAL, FULL_NEW, undefined]);
    writeFileSync(path.join(root, 'SHA256SUMS'), sums);
    // GNU coreutils, as people downloading by hand run it, in the folder of the downloads.
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: root, encoding: 'utf8' })).toBe(
      `${FULL_OLD}: OK\n${INCREMENTAL}: OK\n${FULL_NEW}: OK\n`,
    );
    const page = String(compiled.files.find((f) => f.path === 'devices/akita/index.html')!.contents);
    expect(page).toContain('<a href="/devices/akita/SHA256SUMS">SHA256SUMS</a>');
  });
});
