// The signer of a zip, read from its whole-file signature and META-INF/com/android/otacert: real
// signatures made with keys the tests generate and with AOSP's public test key.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { readContent } from '../../src/catalog/read.js';
import { compileSite } from '../../src/pipeline/build.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { runMain } from '../helpers/cli-process.js';
import { LINEAGE_V1_TEMPLATE, v1Lists, v1RequestUrl } from '../helpers/clients.js';
import { ROOT } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';
import { aospTestKey, generateKey, otacert, signWholeFile, type SigningKey } from '../helpers/signed-zip.js';
import { akitaMetadata as metadata } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the signer of an OTA zip', { timeout: 60_000 }, () => {
  let base: string;
  let keys: { release: SigningKey; rotated: SigningKey; aosp: SigningKey };
  const catalog = () => {
    const root = path.join(mkdtempSync(path.join(base, 'catalog-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    return root;
  };
  /** A zip of the build of `date`, signed by `signer` (none: unsigned) and trusting `trusts`. */
  const zip = async (
    root: string,
    name: string,
    options: { date: string; timestamp: number; from?: string; signer?: SigningKey; trusts?: SigningKey[] },
  ) => {
    const file = path.join(root, name);
    await writeOtaZip(file, {
      metadata: metadata(options.date, options.timestamp, options.from),
      payloadSize: 64 * 1024,
      entries: options.trusts ? otacert(...options.trusts) : {},
    });
    if (options.signer) signWholeFile(file, options.signer);
    return file;
  };

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'otapress-signing-'));
    keys = { release: generateKey(base, 'release'), rotated: generateKey(base, 'rotated'), aosp: aospTestKey(base) };
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('records the fingerprint of the signing certificate and of the certificates the build trusts', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', {
      date: '20250110',
      timestamp: 1736500000,
      signer: keys.release,
      trusts: [keys.release],
    });
    const added = await runMain(['add', file, '--root', root]);
    expect(added.code).toBe(0);
    const report = added.err.map((l) => l.trim().split(/\s{2,}/));
    expect(report).toContainEqual([
      'signer',
      'whole-file signature (C=US, O=otapress tests, CN=release)',
      keys.release.fingerprint,
    ]);
    expect(report).toContainEqual(['otacert', 'META-INF/com/android/otacert', keys.release.fingerprint]);
    expect(added.err.filter((l) => l.startsWith('notice:'))).toEqual([]);
    const text = readFileSync(path.join(root, 'content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml'), 'utf8');
    expect(text).toContain(`\nsigner: ${keys.release.fingerprint}\notacert: [${keys.release.fingerprint}]\n`);
    // The device page shows it.
    const page = String(
      compileSite(readContent(root)).files.find((f) => f.path === 'devices/akita/index.html')!.contents,
    );
    expect(page).toContain(keys.release.fingerprint);
  });

  it('refuses a zip signed with the AOSP test key, naming it, unless told it is a test build', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', {
      date: '20250110',
      timestamp: 1736500000,
      signer: keys.aosp,
      trusts: [keys.release],
    });
    const refused = await runMain(['add', file, '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([
      `${file}  signer  the zip is signed with the public AOSP test key \`testkey\` (build/make/target/product/security/testkey.x509.pem), whose private key anyone has: phones that trust it install updates signed by anyone; sign the build with your release keys (sign_target_files_apks, then ota_from_target_files -k), or pass --test-build if it is a test build`,
      '1 problem found; nothing was written.',
    ]);
    const test = await runMain(['add', file, '--root', root, '--test-build']);
    expect(test.err.filter((l) => !l.startsWith(' '))).toEqual([
      'content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml:',
    ]);
    expect(
      readFileSync(path.join(root, 'content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml'), 'utf8'),
    ).toContain('\ntest_build: true\n');
    // build first: it writes netlify.toml for the new device, which check holds to the catalog.
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const checkedTest = await runMain(['check', '--root', root]);
    expect(checkedTest.code).toBe(0);
    // Its only notice is init's placeholder download host: nothing about the key.
    expect(checkedTest.err.filter((l) => /signer|otacert|test key/.test(l))).toEqual([]);
  });

  it('refuses a zip whose otacert trusts the AOSP test key, naming it', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', {
      date: '20250110',
      timestamp: 1736500000,
      signer: keys.release,
      trusts: [keys.release, keys.aosp],
    });
    const refused = await runMain(['add', file, '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toBe(
      `${file}  otacert  the build trusts the public AOSP test key \`testkey\` (build/make/target/product/security/testkey.x509.pem) for its next update (META-INF/com/android/otacert): it installs updates signed by anyone; build it with your release keys, or pass --test-build if it is a test build`,
    );
  });

  it('says that an unsigned zip will not install, and publishes it all the same', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', {
      date: '20250110',
      timestamp: 1736500000,
    });
    const added = await runMain(['add', file, '--root', root]);
    expect(added.code).toBe(0);
    expect(added.err.filter((l) => l.startsWith('notice:'))).toEqual([
      `notice: ${file} has no whole-file signature (signapk -w): recovery and update_engine refuse to install an unsigned package; sign it, then run add again`,
    ]);
  });

  it('announces a key change, shows it on the page, and leaves the build out of the answer for phones that cannot install it', async () => {
    const root = catalog();
    const old = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', {
      date: '20250110',
      timestamp: 1736500000,
      signer: keys.release,
      trusts: [keys.release],
    });
    const rotated = await zip(root, 'lineage-22.1-20250117-nightly-akita-signed.zip', {
      date: '20250117',
      timestamp: 1737100000,
      signer: keys.rotated,
      trusts: [keys.rotated],
    });
    const incremental = await zip(root, 'lineage-22.1-20250117-nightly-akita-signed-incremental-20250110.zip', {
      date: '20250117',
      timestamp: 1737100000,
      from: '20250110',
      signer: keys.rotated,
      trusts: [keys.rotated],
    });
    for (const file of [old, rotated, incremental])
      expect((await runMain(['add', file, '--root', root])).err.filter((l) => !l.startsWith(' '))).toEqual([
        expect.stringMatching(/yaml:$/),
      ]);

    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const checked = await runMain(['check', '--root', root]);
    expect(checked.code).toBe(0);
    expect(checked.err.join('\n')).toContain(
      `content/akita/lineage-22.1-20250117-nightly-akita-signed.yaml:1:1  signer  signed with another key (${keys.rotated.fingerprint.toUpperCase().match(/../g)!.slice(0, 8).join(':')}…) than lineage-22.1-20250110-nightly-akita-signed.zip trusts (its otacert): phones on that build cannot install lineage-22.1-20250117-nightly-akita-signed.zip over the air; its page says a clean install is required`,
    );
    const compiled = compileSite(readContent(root));
    const page = String(compiled.files.find((f) => f.path === 'devices/akita/index.html')!.contents);
    expect(page).toContain('Clean install required');

    // Phones on the old build are offered neither the incremental package nor the full one.
    const tree = servedTree(compiled.site!, compiled.files);
    const offered = (incr: string, buildDate: number) => {
      const phone = {
        device: 'akita',
        releaseType: 'nightly',
        incremental: incr,
        buildDate,
        version: '22.1',
        allowMajorUpgrades: false,
      };
      const body = String(respond(tree, 'GET', v1RequestUrl(LINEAGE_V1_TEMPLATE, phone)).body);
      return (JSON.parse(body) as { response: Record<string, unknown>[] }).response
        .filter((r) => v1Lists(r as never, phone))
        .map((r) => r.filename);
    };
    expect(offered('eng.build.20250110', 1736500000)).toEqual([]);
    // A phone on another build gets the full listing (what it can install is its own build's affair).
    expect(offered('eng.build.20250103', 1735900000)).toEqual([
      'lineage-22.1-20250117-nightly-akita-signed.zip',
      'lineage-22.1-20250110-nightly-akita-signed.zip',
    ]);
  });
});
