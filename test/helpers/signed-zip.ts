// Real whole-file signatures, as `signapk -w` makes them (AOSP build/make/tools/signapk,
// `signWholeFile`): the zip's comment holds a PKCS#7 SignedData over everything before the comment
// length field, with the signer's certificate, then a 6-byte footer (signature start from the end,
// 0xff 0xff, comment size), which the recovery verifier (bootable/recovery install/verifier.cpp)
// reads. The signatures are made by `openssl cms` with keys the tests generate (or AOSP's public
// test key, test/fixtures/aosp-test-keys/).
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './helpers.js';

/** A signing key: the PEM files of its private key and self-signed certificate. */
export interface SigningKey {
  key: string;
  cert: string;
  /** SHA-256 of the certificate's public key (SubjectPublicKeyInfo DER), as add records it. */
  fingerprint: string;
}

/** A new RSA key and self-signed certificate in `dir` (openssl, as `make_key` in AOSP development/tools does). */
export function generateKey(dir: string, name: string): SigningKey {
  const key = path.join(dir, `${name}.key.pem`);
  const cert = path.join(dir, `${name}.x509.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '3650',
      '-subj',
      `/C=US/O=otapress tests/CN=${name}`,
    ],
    { stdio: 'ignore' },
  );
  return { key, cert, fingerprint: fingerprintOf(cert) };
}

/** AOSP's public test key (build/make/target/product/security/testkey), its private key in PEM in `dir`. */
export function aospTestKey(dir: string): SigningKey {
  const fixtures = path.join(ROOT, 'test', 'fixtures', 'aosp-test-keys');
  const key = path.join(dir, 'testkey.key.pem');
  execFileSync('openssl', [
    'pkcs8',
    '-inform',
    'DER',
    '-nocrypt',
    '-in',
    path.join(fixtures, 'testkey.pk8'),
    '-out',
    key,
  ]);
  const cert = path.join(fixtures, 'testkey.x509.pem');
  return { key, cert, fingerprint: fingerprintOf(cert) };
}

/** SHA-256 of the public key (SubjectPublicKeyInfo DER) of a PEM certificate. */
function fingerprintOf(certPem: string): string {
  const key = new X509Certificate(readFileSync(certPem)).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(key).digest('hex');
}

/** A new self-signed certificate of `signer`'s key (another subject, serial and validity): a renewed certificate, or one made around a public key. */
export function certifyAgain(dir: string, signer: SigningKey, name: string): SigningKey {
  const cert = path.join(dir, `${name}.x509.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-new',
      '-key',
      signer.key,
      '-out',
      cert,
      '-days',
      '7300',
      '-subj',
      `/C=US/O=otapress tests/CN=${name}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: signer.key, cert, fingerprint: fingerprintOf(cert) };
}

/**
 * Signs the zip at `file` in place with a whole-file signature by `signer`. The zip must end in an
 * end-of-central-directory record without a comment (as writeOtaZip writes it).
 */
export function signWholeFile(file: string, signer: SigningKey, carried?: { certificates: string[] }): void {
  const zip = readFileSync(file);
  if (zip.readUInt32LE(zip.length - 22) !== 0x06054b50 || zip.readUInt16LE(zip.length - 2) !== 0)
    throw new Error(`${file} does not end in a record without comment`);
  // Signed: everything but the comment length field and the comment.
  const signed = zip.subarray(0, zip.length - 2);
  const dir = mkdtempSync(path.join(tmpdir(), 'otapress-sign-'));
  try {
    const input = path.join(dir, 'signed');
    writeFileSync(input, signed);
    // `carried`: the block carries these certificates instead of the signer's (its SignerInfo still names the signer's).
    const certificates = carried ? ['-nocerts', ...carried.certificates.flatMap((c) => ['-certfile', c])] : [];
    const signature = execFileSync('openssl', [
      'cms',
      '-sign',
      '-binary',
      '-noattr',
      '-md',
      'sha256',
      '-outform',
      'DER',
      '-signer',
      signer.cert,
      '-inkey',
      signer.key,
      ...certificates,
      '-in',
      input,
    ]);
    const total = signature.length + 6;
    const footer = Buffer.from([total & 0xff, total >> 8, 0xff, 0xff, total & 0xff, total >> 8]);
    const length = Buffer.from([total & 0xff, total >> 8]);
    writeFileSync(file, Buffer.concat([signed, length, signature, footer]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `META-INF/com/android/otacert` trusting `keys`, as an entry for writeOtaZip. */
export function otacert(...keys: SigningKey[]): Record<string, Buffer> {
  return { 'META-INF/com/android/otacert': Buffer.concat(keys.map((k) => readFileSync(k.cert))) };
}
