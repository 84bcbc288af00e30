// The signer of a zip is its key: recorded and compared by the SHA-256 of its public key, never by
// the certificate around it; named only by a certificate the signature carries; and a damaged
// signature is refused in one line. Real signatures, by keys the tests generate and AOSP's testkey.
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { readZipSigning, SignatureError, signerOfBlock } from '../../src/ota/signature.js';
import { runMain } from '../helpers/cli-process.js';
import { SEED } from '../helpers/arbitraries.js';
import { ROOT } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';
import {
  aospTestKey,
  certifyAgain,
  generateKey,
  otacert,
  signWholeFile,
  type SigningKey,
} from '../helpers/signed-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const fingerprint = (incremental: string) => `google/akita/akita:15/BP1A.250105.002/${incremental}:user/release-keys`;
const metadata = (date: string, timestamp: number) =>
  [
    'ota-type=AB',
    `post-build=${fingerprint(`eng.build.${date}`)}`,
    `post-build-incremental=eng.build.${date}`,
    'post-sdk-level=35',
    `post-timestamp=${timestamp}`,
    'pre-device=akita',
    '',
  ].join('\n');

/** The signature block of a signed zip: the bytes the footer announces. */
function blockOf(file: string): Buffer {
  const zip = readFileSync(file);
  const start = zip[zip.length - 6] + (zip[zip.length - 5] << 8);
  return zip.subarray(zip.length - start, zip.length - 6);
}

describe('signers are keys', { timeout: 120_000 }, () => {
  let base: string;
  let keys: { release: SigningKey; aosp: SigningKey };
  const catalog = () => {
    const root = path.join(mkdtempSync(path.join(base, 'catalog-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    return root;
  };
  const zip = async (root: string, name: string, date: string, timestamp: number, trusts: SigningKey[]) => {
    const file = path.join(root, name);
    await writeOtaZip(file, {
      metadata: metadata(date, timestamp),
      payloadSize: 16 * 1024,
      entries: otacert(...trusts),
    });
    return file;
  };

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'otapress-keys-'));
    keys = { release: generateKey(base, 'release'), aosp: aospTestKey(base) };
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('refuses a new certificate made around the AOSP testkey, as the testkey itself', async () => {
    const root = catalog();
    const disguised = certifyAgain(base, keys.aosp, 'not-a-test-key');
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', '20250110', 1736500000, [
      keys.release,
    ]);
    signWholeFile(file, disguised);
    const refused = await runMain(['add', file, '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(
      new RegExp(`^${file}  signer  the zip is signed with the public AOSP test key \`testkey\``),
    );
    // And trusting it under another certificate is refused the same.
    const trusting = await zip(root, 'lineage-22.1-20250117-nightly-akita-signed.zip', '20250117', 1737100000, [
      keys.release,
      disguised,
    ]);
    signWholeFile(trusting, keys.release);
    const refusedTrust = await runMain(['add', trusting, '--root', root]);
    expect(refusedTrust.err[0]).toMatch(
      new RegExp(`^${trusting}  otacert  the build trusts the public AOSP test key \`testkey\``),
    );
  });

  it('records a renewed certificate of the release key as the same signer: no key change', async () => {
    const root = catalog();
    const renewed = certifyAgain(base, keys.release, 'release-renewed');
    expect(renewed.fingerprint).toBe(keys.release.fingerprint);
    const first = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', '20250110', 1736500000, [
      keys.release,
    ]);
    signWholeFile(first, keys.release);
    const second = await zip(root, 'lineage-22.1-20250117-nightly-akita-signed.zip', '20250117', 1737100000, [renewed]);
    signWholeFile(second, renewed);
    for (const file of [first, second]) expect((await runMain(['add', file, '--root', root])).code).toBe(0);
    expect(
      readFileSync(path.join(root, 'content/akita/lineage-22.1-20250117-nightly-akita-signed.yaml'), 'utf8'),
    ).toContain(`\nsigner: ${keys.release.fingerprint}\n`);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const checked = await runMain(['check', '--root', root]);
    expect(checked.err.filter((l) => / signer /.test(l))).toEqual([]);
  });

  it('says which manifests record the signer by its certificate, as written before keys were recorded', async () => {
    const root = catalog();
    const first = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', '20250110', 1736500000, [
      keys.release,
    ]);
    signWholeFile(first, keys.release);
    expect((await runMain(['add', first, '--root', root])).code).toBe(0);
    const manifest = path.join(root, 'content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml');
    const certificate = createHash('sha256')
      .update(new X509Certificate(readFileSync(keys.release.cert)).raw)
      .digest('hex');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replaceAll(keys.release.fingerprint, certificate));
    const second = await zip(root, 'lineage-22.1-20250117-nightly-akita-signed.zip', '20250117', 1737100000, [
      keys.release,
    ]);
    signWholeFile(second, keys.release);
    const added = await runMain(['add', second, '--root', root]);
    expect(added.code).toBe(0);
    expect(added.err.filter((l) => l.startsWith('notice:'))).toEqual([
      `notice: content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml records the certificate of the key ${second} is signed with, not the key (as otapress wrote signer and otacert before): beside this build's key that reads as a key change, and phones on that build would be offered nothing newer; run otapress add --force on its zip`,
    ]);
  });

  it('names no signer whose certificate the signature does not carry, even when it carries one other', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', '20250110', 1736500000, [
      keys.release,
    ]);
    // Signed with the testkey; the block carries the release certificate only.
    signWholeFile(file, keys.aosp, { certificates: [keys.release.cert] });
    expect(() => readZipSigning(file, undefined)).toThrow(
      new SignatureError('its whole-file signature names a signer certificate it does not carry'),
    );
    const refused = await runMain(['add', file, '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([
      `${file}  signer  its whole-file signature names a signer certificate it does not carry; sign the zip again (signapk -w), or download it again`,
      '1 problem found; nothing was written.',
    ]);
  });

  it('refuses a damaged signature in one line, whatever byte of it changed', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', '20250110', 1736500000, [
      keys.release,
    ]);
    signWholeFile(file, keys.release);
    const original = readFileSync(file);
    const block = blockOf(file);
    const blockStart = original.length - 6 - block.length;
    // Every single-byte change of the block: a signer, or the refusal; never another error.
    const outcomes = new Set<string>();
    for (let i = 0; i < block.length; i++) {
      const damaged = Buffer.from(block);
      damaged[i] ^= 0x5a;
      try {
        signerOfBlock(damaged);
        outcomes.add('read');
      } catch (error) {
        expect(error).toBeInstanceOf(SignatureError);
        outcomes.add((error as Error).message);
      }
    }
    expect(outcomes.has('the certificate of its whole-file signature cannot be read')).toBe(true);
    // One such byte, end to end: exit 1 and one line, as for any other damaged zip.
    const certificateByte = [...Array(block.length).keys()].find((i) => {
      const damaged = Buffer.from(block);
      damaged[i] ^= 0x5a;
      try {
        signerOfBlock(damaged);
        return false;
      } catch (error) {
        return (error as Error).message === 'the certificate of its whole-file signature cannot be read';
      }
    })!;
    const damagedZip = Buffer.from(original);
    damagedZip[blockStart + certificateByte] ^= 0x5a;
    writeFileSync(file, damagedZip);
    const refused = await runMain(['add', file, '--root', root]);
    expect(refused).toEqual({
      code: 1,
      out: [],
      err: [
        `${file}  signer  the certificate of its whole-file signature cannot be read; sign the zip again (signapk -w), or download it again`,
        '1 problem found; nothing was written.',
      ],
    });
  });

  it('walks any DER, random or cut short, to a signer or the refusal, never another error', async () => {
    const root = catalog();
    const file = await zip(root, 'lineage-22.1-20250110-nightly-akita-signed.zip', '20250110', 1736500000, [
      keys.release,
    ]);
    signWholeFile(file, keys.release);
    const block = blockOf(file);
    const onlyRefusal = (bytes: Buffer) => {
      try {
        signerOfBlock(bytes);
      } catch (error) {
        if (!(error instanceof SignatureError)) throw error;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => onlyRefusal(Buffer.from(bytes))),
      { seed: SEED, numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.nat(block.length), (length) => onlyRefusal(block.subarray(0, length))),
      { seed: SEED, numRuns: 500 },
    );
    // A real block with random bytes changed, and DER-looking prefixes (SEQUENCE, long lengths) before random tails.
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(block.length - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 3 }),
        (changes) => {
          const damaged = Buffer.from(block);
          for (const [at, xor] of changes) damaged[at] ^= xor;
          onlyRefusal(damaged);
        },
      ),
      { seed: SEED, numRuns: 1000 },
    );
    const prefix = fc.constantFrom(
      Buffer.from('3082', 'hex'),
      Buffer.from('3084ffffffff', 'hex'),
      Buffer.from('3080', 'hex'),
      block.subarray(0, 30),
    );
    fc.assert(
      fc.property(prefix, fc.uint8Array({ maxLength: 200 }), (head, tail) => onlyRefusal(Buffer.concat([head, tail]))),
      { seed: SEED, numRuns: 1000 },
    );
  });
});
