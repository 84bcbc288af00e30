// Incremental packages and key changes never strand a phone: a withdrawn, size-0, unlisted or
// untrusted incremental package leaves its source's phones the full package, with a notice; every
// build before a key change has an answer without what its phones cannot install; key changes are
// judged list by list; import never hides a package. Real zips, signed with keys the tests make,
// asked for as the LineageOS v1 updater and the v2 one with `{incr}` in its URI ask, read as they read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { importListing } from '../../src/import/import-listing.js';
import { readContent } from '../../src/catalog/read.js';
import { compileSite } from '../../src/pipeline/build.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { runMain } from '../helpers/cli-process.js';
import {
  LINEAGE_V1_TEMPLATE,
  LINEAGE_V2_INCR_TEMPLATE,
  v1Lists,
  v1RequestUrl,
  v2DecodeAnswer,
  v2Offers,
  v2RequestUrl,
  type V2Entry,
} from '../helpers/clients.js';
import { ROOT } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';
import { generateKey, otacert, signWholeFile, type SigningKey } from '../helpers/signed-zip.js';
import { akitaMetadata as metadata } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const OLD = { date: '20250110', timestamp: 1736500000 };
const NEW = { date: '20250117', timestamp: 1737100000 };
const full = (date: string, type = 'nightly') => `lineage-22.1-${date}-${type}-akita-signed.zip`;
const INCREMENTAL = `lineage-22.1-${NEW.date}-nightly-akita-signed-incremental-${OLD.date}.zip`;
const manifestOf = (name: string) => `content/akita/${name.replace(/\.zip$/, '.yaml')}`;

describe('no phone stranded', { timeout: 120_000 }, () => {
  let base: string;
  let keys: { release: SigningKey; rotated: SigningKey };
  const catalog = (channels = ['nightly']) => {
    const root = path.join(mkdtempSync(path.join(base, 'catalog-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels });
    return root;
  };
  /** Makes, signs and adds the zip of the build of `date`; `from`: an incremental package from that build. */
  const add = async (
    root: string,
    name: string,
    o: { date: string; timestamp: number; from?: string; signer: SigningKey; trusts: SigningKey[] },
  ) => {
    const file = path.join(root, name);
    await writeOtaZip(file, {
      metadata: metadata(o.date, o.timestamp, o.from),
      payloadSize: (o.from ? 8 : 64) * 1024,
      entries: otacert(...o.trusts),
    });
    signWholeFile(file, o.signer);
    const added = await runMain(['add', file, '--root', root]);
    expect(added.code, added.err.join('\n')).toBe(0);
  };
  /**
   * What a LineageOS phone of `type` on the build of `date` lists: through the v1 client, and the
   * `files[0]` of the entries the v2 transcription offers, with `{incr}` in its URI.
   */
  const offeredBoth = (root: string, date: string, timestamp: number, type = 'nightly') => {
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    const tree = servedTree(compiled.site!, compiled.files);
    const phone = {
      device: 'akita',
      releaseType: type,
      incremental: `eng.build.${date}`,
      buildDate: timestamp,
      version: '22.1',
      allowMajorUpgrades: false,
    };
    const get = (url: string) => String(respond(tree, 'GET', url.replace(/^https:\/\/[^/]+/, '')).body);
    const v1 = (JSON.parse(get(v1RequestUrl(LINEAGE_V1_TEMPLATE, phone))) as { response: Record<string, unknown>[] })
      .response;
    const v2 = v2DecodeAnswer(get(v2RequestUrl(LINEAGE_V2_INCR_TEMPLATE, phone)));
    expect(v2).toBeDefined();
    return {
      v1: v1.filter((r) => v1Lists(r as never, phone)).map((r) => r.filename),
      v2: v2!.filter((e) => v2Offers(e, phone)).map((e) => e.files[0].filename),
    };
  };
  /** What the phone lists, the same in v1 and in v2. */
  const offered = (root: string, date: string, timestamp: number, type = 'nightly') => {
    const { v1, v2 } = offeredBoth(root, date, timestamp, type);
    expect(v2, 'v2 with {incr}').toEqual(v1);
    return v1;
  };
  const notices = (root: string) =>
    compileSite(readContent(root)).notices.map((n) => `${n.file}  ${n.field}  ${n.message}`);
  /** Two full builds and an incremental package between them, all signed with the release key. */
  const withIncremental = async () => {
    const root = catalog();
    const release = { signer: keys.release, trusts: [keys.release] };
    await add(root, full(OLD.date), { ...OLD, ...release });
    await add(root, full(NEW.date), { ...NEW, ...release });
    await add(root, INCREMENTAL, { ...NEW, from: OLD.date, ...release });
    expect(offered(root, OLD.date, OLD.timestamp)).toEqual([INCREMENTAL]);
    return root;
  };
  const edit = (root: string, name: string, change: (text: string) => string) => {
    const file = path.join(root, manifestOf(name));
    writeFileSync(file, change(readFileSync(file, 'utf8')));
  };

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'otapress-stranded-'));
    keys = { release: generateKey(base, 'release'), rotated: generateKey(base, 'rotated') };
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it.each([
    [
      'withdrawn (.disabled.zip)',
      (t: string) => t.replace(/^filename: (.*)\.zip$/m, 'filename: $1.disabled.zip'),
      'filename',
      'it is withdrawn (`.disabled.zip`)',
    ],
    ['of size 0', (t: string) => t.replace(/^size: \d+$/m, 'size: 0'), 'size', 'its size is 0'],
    ['in no list', (t: string) => `${t}lists: []\n`, 'lists', 'its `lists` is empty'],
  ])(
    'leaves an incremental package %s out, with a notice, and offers its source the full package',
    async (_, change, field, why) => {
      const root = await withIncremental();
      edit(root, INCREMENTAL, change);
      expect(offered(root, OLD.date, OLD.timestamp)).toEqual([full(NEW.date)]);
      expect(notices(root)).toContainEqual(
        expect.stringMatching(new RegExp(`^${manifestOf(INCREMENTAL)}  ${field}  `)),
      );
      expect(notices(root)).toContain(
        `${manifestOf(INCREMENTAL)}  ${field}  ${why}: left out of every answer, so phones on eng.build.${OLD.date} are offered the full package ${full(NEW.date)}`,
      );
    },
  );

  it('keeps a withdrawn incremental package in its answer with v1_withdrawn: list, as a full build, and says so', async () => {
    const root = await withIncremental();
    writeFileSync(
      path.join(root, 'content/site.yaml'),
      readFileSync(path.join(root, 'content/site.yaml'), 'utf8').replace(/^v1_withdrawn: omit$/m, 'v1_withdrawn: list'),
    );
    edit(root, INCREMENTAL, (t) => t.replace(/^filename: (.*)\.zip$/m, 'filename: $1.disabled.zip'));
    // v2 has no shape that marks a build withdrawn: its phones on the source get the full package.
    expect(offeredBoth(root, OLD.date, OLD.timestamp)).toEqual({
      v1: [INCREMENTAL.replace(/\.zip$/, '.disabled.zip')],
      v2: [full(NEW.date)],
    });
    expect(notices(root)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${manifestOf(INCREMENTAL).replace(/\./g, '\\.')}  filename  it is withdrawn \\(\`\\.disabled\\.zip\`\\), and \`v1_withdrawn: list\` keeps it in the answer`,
        ),
      ),
    );
  });

  it("keeps an incremental package in its answer when the site's own listing is imported", async () => {
    const root = await withIncremental();
    const compiled = compileSite(readContent(root));
    const listing = path.join(root, 'nightly.json');
    writeFileSync(listing, String(compiled.files.find((f) => f.path === 'api/v1/akita/nightly/index.json')!.contents));
    const before = readFileSync(path.join(root, manifestOf(INCREMENTAL)), 'utf8');
    importListing({ source: listing, root, device: 'akita', list: 'nightly' });
    expect(readFileSync(path.join(root, manifestOf(INCREMENTAL)), 'utf8')).toBe(before);
    expect(offered(root, OLD.date, OLD.timestamp)).toEqual([INCREMENTAL]);
  });

  it("streams the incremental package by its own ota_property_files in v2, never by the target's", async () => {
    const root = await withIncremental();
    const props = (date: string) => {
      const compiled = compileSite(readContent(root));
      expect(compiled.problems).toEqual([]);
      const file = compiled.files.find((f) => f.path === `api/v2/devices/akita/builds/eng.build.${date}.json`)!;
      return (JSON.parse(String(file.contents)) as V2Entry[]).map((e) => e.files[0].ota_property_files);
    };
    // A/B phones read these offsets in files[0], the incremental package: the full build's point elsewhere.
    edit(root, full(NEW.date), (t) => `${t}ota_property_files: "payload.bin:1577:4096,metadata:69:520"\n`);
    expect(props(OLD.date)).toEqual([undefined]);
    edit(root, INCREMENTAL, (t) => `${t}ota_property_files: "payload.bin:1200:2048,metadata:69:400"\n`);
    expect(props(OLD.date)).toEqual(['payload.bin:1200:2048,metadata:69:400']);
  });

  it("offers the full package, with a notice, where the source build does not trust the incremental package's key", async () => {
    const root = catalog();
    const release = { signer: keys.release, trusts: [keys.release] };
    await add(root, full(OLD.date), { ...OLD, ...release });
    await add(root, full(NEW.date), { ...NEW, ...release });
    await add(root, INCREMENTAL, { ...NEW, from: OLD.date, signer: keys.rotated, trusts: [keys.release] });
    expect(offered(root, OLD.date, OLD.timestamp)).toEqual([full(NEW.date)]);
    expect(notices(root)).toContain(
      `${manifestOf(INCREMENTAL)}  signer  signed with a key ${full(OLD.date)} does not trust (its otacert): left out of the answer for phones on eng.build.${OLD.date}, which are offered the full package ${full(NEW.date)} where they can install it; sign the incremental package with the key its source trusts`,
    );
  });

  it('answers every build before a key change without the builds its phones cannot install', async () => {
    const root = catalog();
    const release = { signer: keys.release, trusts: [keys.release] };
    await add(root, full('20250103'), { date: '20250103', timestamp: 1735900000, ...release });
    await add(root, full(OLD.date), { ...OLD, ...release });
    await add(root, full(NEW.date), { ...NEW, signer: keys.rotated, trusts: [keys.rotated] });
    // Neither build before the key change is the source of an incremental package.
    expect(offered(root, '20250103', 1735900000)).toEqual([full(OLD.date)]);
    expect(offered(root, OLD.date, OLD.timestamp)).toEqual([]);
    // A phone on the new key's build, or on a build the site does not know: the listing.
    expect(offered(root, NEW.date, NEW.timestamp)).toEqual([]);
    expect(offered(root, '20241227', 1735300000)).toEqual([full(NEW.date), full(OLD.date), full('20250103')]);
  });

  it('judges no key change across a withdrawn build of another key that phones are not offered', async () => {
    const root = catalog();
    const release = { signer: keys.release, trusts: [keys.release] };
    await add(root, full('20250103'), { date: '20250103', timestamp: 1735900000, ...release });
    await add(root, full(OLD.date), { ...OLD, signer: keys.rotated, trusts: [keys.rotated] });
    await add(root, full(NEW.date), { ...NEW, ...release });
    edit(root, full(OLD.date), (t) => t.replace(/^filename: (.*)\.zip$/m, 'filename: $1.disabled.zip'));
    expect(notices(root).filter((n) => n.includes('signed with another key'))).toEqual([]);
    expect(offered(root, '20250103', 1735900000)).toEqual([full(NEW.date)]);
  });

  it('judges key changes list by list: a dev build of another key between stable builds is no stable key change', async () => {
    const root = catalog(['nightly', 'experimental']);
    const [a, b] = [keys.release, keys.rotated];
    const builds = [
      { name: full('20250101'), date: '20250101', timestamp: 1735700000, signer: a, trusts: [a] },
      { name: full('20250102', 'experimental'), date: '20250102', timestamp: 1735800000, signer: b, trusts: [b] },
      { name: full('20250103'), date: '20250103', timestamp: 1735900000, signer: a, trusts: [a] },
      { name: full('20250104', 'experimental'), date: '20250104', timestamp: 1736000000, signer: a, trusts: [a, b] },
      { name: full('20250105'), date: '20250105', timestamp: 1736100000, signer: b, trusts: [b] },
    ];
    for (const { name, ...o } of builds) await add(root, name, o);
    const changed = notices(root)
      .filter((n) => n.includes('  signer  signed with another key'))
      .map((n) => n.split('  ')[0]);
    // nightly: 0101 (a) → 0103 (a) → 0105 (b): a change at 0105; experimental: 0102 (trusts b) → 0104 (a): one at 0104.
    expect(changed).toEqual([manifestOf(full('20250104', 'experimental')), manifestOf(full('20250105'))]);
    const page = String(
      compileSite(readContent(root)).files.find((f) => f.path === 'devices/akita/index.html')!.contents,
    );
    expect(page.split('Clean install required').length - 1).toBe(2);
    // Nightly phones on 0103 are not offered 0105; on 0101 they are offered 0103 only.
    expect(offered(root, '20250103', 1735900000)).toEqual([]);
    expect(offered(root, '20250101', 1735700000)).toEqual([full('20250103')]);
  });
});
