/**
 * The signer of an OTA zip, read from its end: the whole-file signature `signapk -w` writes into
 * the zip comment, and the certificates of `META-INF/com/android/otacert`. A few kilobytes, beside
 * the one read that hashes the file.
 *
 * The footer (bootable/recovery `install/verifier.cpp`, `verify_file`): the last six bytes are the
 * signature's start counted from the end (2 bytes, little-endian), 0xff 0xff, and the comment's
 * size (2 bytes); the comment ends the end-of-central-directory record (22 bytes before it); the
 * signature is the `signature_start - 6` bytes at `signature_start` from the end: a PKCS#7
 * SignedData whose certificates hold the signer's (signapk `writeSignatureBlock` adds it). The
 * signature itself is not checked here (that takes a second read of the whole file): phones check
 * it, against the keys their build trusts.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Build } from '../catalog/manifest.js';
import { testKeyName } from '../catalog/test-keys.js';

/**
 * What the zip says of its signing: the signer's public key and the keys the build trusts, each as
 * the SHA-256 of its SubjectPublicKeyInfo (DER). Recovery and update_engine verify with a key, not
 * a certificate: a renewed certificate of the same key is the same signer.
 */
export interface ZipSigning {
  /** Undefined: the zip has no whole-file signature. */
  signer?: string;
  /** SHA-256 of the signer's certificate (DER): test keys known only by their certificate are recognised by it. */
  signerCertificate?: string;
  /** Whom the signer's certificate names, for messages. */
  signerSubject?: string;
  /** `META-INF/com/android/otacert`, when the zip has one. */
  otacert?: string[];
  /** SHA-256 of each certificate of `otacert` (DER), for the same recognition. */
  otacertCertificates?: string[];
}

/** The signature block could not be read: the message says what is wrong. */
export class SignatureError extends Error {}

/**
 * Reads the whole-file signature from the end of `zipPath` and the certificates of `otacert` (the
 * entry's bytes, when the zip has one). Throws {@link SignatureError} for a footer that announces
 * a signature that is not there, and for a signature or certificate that cannot be read.
 */
export function readZipSigning(zipPath: string, otacert: Uint8Array | undefined): ZipSigning {
  const signing: ZipSigning = {};
  const block = signatureBlock(zipPath);
  if (block) {
    const signer = signerOfBlock(block);
    signing.signer = signer.key;
    signing.signerCertificate = signer.certificate;
    signing.signerSubject = signer.subject;
  }
  if (otacert !== undefined) {
    const certificates = pemCertificates(Buffer.from(otacert).toString('latin1'));
    if (certificates.length === 0) throw new SignatureError('META-INF/com/android/otacert holds no PEM certificate');
    const read = certificates.map((der) =>
      readCertificate(der, 'META-INF/com/android/otacert holds a certificate that cannot be read'),
    );
    signing.otacert = [...new Set(read.map((c) => c.key))];
    signing.otacertCertificates = [...new Set(read.map((c) => c.certificate))];
  }
  return signing;
}

/**
 * The signer of a whole-file signature block (a PKCS#7 SignedData, DER): its public key's and its
 * certificate's SHA-256 and the name the certificate gives. Any block that is not such a signature
 * (damaged, cut short, naming a certificate it does not carry) throws {@link SignatureError} and
 * nothing else.
 */
export function signerOfBlock(block: Buffer): { key: string; certificate: string; subject: string } {
  let certificate: Buffer | undefined;
  try {
    certificate = signerCertificate(block);
  } catch (error) {
    if (error instanceof SignatureError) throw error;
    throw new SignatureError('its whole-file signature is not DER');
  }
  if (!certificate) throw new SignatureError('its whole-file signature holds no certificate of the signer');
  return readCertificate(certificate, 'the certificate of its whole-file signature cannot be read');
}

/** The DER bytes of each `-----BEGIN CERTIFICATE-----` block of `text`. */
function pemCertificates(text: string): Buffer[] {
  return [...text.matchAll(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/g)].map((m) =>
    Buffer.from(m[1].replace(/\s+/g, ''), 'base64'),
  );
}

// --- internal ---

const FOOTER_SIZE = 6;
const EOCD_HEADER_SIZE = 22;
/** The largest comment a zip holds (its size is 2 bytes), with the record it ends. */
const TAIL = 0xffff + EOCD_HEADER_SIZE;

function sha256(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('hex');
}

/** A certificate's public key and own SHA-256, and its subject; `refusal` when it cannot be read. */
function readCertificate(der: Buffer, refusal: string): { key: string; certificate: string; subject: string } {
  try {
    const certificate = new X509Certificate(der);
    const key = certificate.publicKey.export({ type: 'spki', format: 'der' });
    return { key: sha256(key), certificate: sha256(der), subject: certificate.subject.replace(/\n/g, ', ') };
  } catch {
    throw new SignatureError(refusal);
  }
}

/** The signature block at the end of the zip, or undefined when its footer announces none. */
function signatureBlock(zipPath: string): Buffer | undefined {
  const fd = openSync(zipPath, 'r');
  let tail: Buffer;
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL);
    tail = Buffer.alloc(length);
    for (let filled = 0; filled < length;) {
      const n = readSync(fd, tail, filled, length - filled, size - length + filled);
      if (n === 0) throw new SignatureError('the file became shorter while its end was read');
      filled += n;
    }
  } finally {
    closeSync(fd);
  }
  if (tail.length < FOOTER_SIZE) return undefined;
  const footer = tail.subarray(tail.length - FOOTER_SIZE);
  if (footer[2] !== 0xff || footer[3] !== 0xff) return undefined;
  const commentSize = footer[4] + (footer[5] << 8);
  const signatureStart = footer[0] + (footer[1] << 8);
  const eocdSize = commentSize + EOCD_HEADER_SIZE;
  // Unless they end a comment of that size, which ends the end-of-central-directory record, the
  // bytes are no footer (a Zip64 archive's record ends in 0xffffffff and a comment size of 0).
  const eocd = tail.length - eocdSize;
  if (
    commentSize < FOOTER_SIZE ||
    eocd < 0 ||
    tail.readUInt32LE(eocd) !== 0x06054b50 ||
    tail.readUInt16LE(eocd + 20) !== commentSize
  )
    return undefined;
  if (signatureStart <= FOOTER_SIZE || signatureStart > commentSize) {
    throw new SignatureError(
      `its zip comment announces a whole-file signature ${signatureStart} bytes from the end in a comment of ${commentSize} bytes, which cannot be`,
    );
  }
  return tail.subarray(tail.length - signatureStart, tail.length - FOOTER_SIZE);
}

/** One DER element: its tag, and where its content starts and ends. */
interface Element {
  tag: number;
  start: number;
  end: number;
  /** Where the element (its tag) starts. */
  from: number;
}

function element(der: Buffer, at: number, limit = der.length): Element {
  if (at + 2 > limit) throw new SignatureError('its whole-file signature is cut short');
  const tag = der[at];
  let length = der[at + 1];
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > limit)
      throw new SignatureError('its whole-file signature is not DER');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i];
    start += bytes;
  }
  if (start + length > limit) throw new SignatureError('its whole-file signature is cut short');
  return { tag, start, end: start + length, from: at };
}

function children(der: Buffer, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = element(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

/** `1.2.840.113549.1.7.2`, PKCS#7 signedData. */
const SIGNED_DATA = Buffer.from('2a864886f70d010702', 'hex');

/**
 * The certificate of the signer in a PKCS#7 SignedData: the one whose issuer and serial number the
 * first SignerInfo names. A SignerInfo naming a certificate the block does not carry has no signer
 * here, even when the block carries one other certificate: that one did not sign (a block signed
 * with a test key can carry the release certificate beside its SignerInfo).
 */
function signerCertificate(der: Buffer): Buffer | undefined {
  const content = element(der, 0);
  const [oid, explicit] = children(der, content);
  if (
    content.tag !== 0x30 ||
    oid?.tag !== 0x06 ||
    !der.subarray(oid.start, oid.end).equals(SIGNED_DATA) ||
    explicit?.tag !== 0xa0
  ) {
    throw new SignatureError('its whole-file signature is not a PKCS#7 SignedData');
  }
  const signedData = children(der, explicit)[0];
  if (signedData?.tag !== 0x30) throw new SignatureError('its whole-file signature is not a PKCS#7 SignedData');
  const parts = children(der, signedData);
  const certificates = parts.find((p) => p.tag === 0xa0);
  if (!certificates) return undefined;
  const certs = children(der, certificates).map((c) => der.subarray(c.from, c.end));
  const signerInfos = parts[parts.length - 1];
  const signerInfo = signerInfos?.tag === 0x31 ? children(der, signerInfos)[0] : undefined;
  const issuerAndSerial = signerInfo?.tag === 0x30 ? children(der, signerInfo)[1] : undefined;
  if (issuerAndSerial?.tag !== 0x30)
    throw new SignatureError('its whole-file signature names no signer by issuer and serial number');
  const [issuer, serial] = children(der, issuerAndSerial).map((e) => der.subarray(e.from, e.end));
  if (issuer === undefined || serial === undefined)
    throw new SignatureError('its whole-file signature names no signer by issuer and serial number');
  const named = certs.find((cert) => {
    const outer = element(cert, 0);
    const tbs = outer.tag === 0x30 ? children(cert, outer)[0] : undefined;
    if (tbs?.tag !== 0x30) return false;
    const fields = children(cert, tbs);
    const offset = fields[0]?.tag === 0xa0 ? 1 : 0; // [0] version
    const certSerial = fields[offset];
    const certIssuer = fields[offset + 2];
    return (
      certSerial &&
      certIssuer &&
      cert.subarray(certSerial.from, certSerial.end).equals(serial) &&
      cert.subarray(certIssuer.from, certIssuer.end).equals(issuer)
    );
  });
  if (!named) throw new SignatureError('its whole-file signature names a signer certificate it does not carry');
  return named;
}

/**
 * What `add` does with a zip's signing: refuses a public AOSP test key as signer or in otacert
 * (unless `testBuild`), says that an unsigned zip will not install, and the manifest values and
 * report lines of the rest.
 */
export function signingFacts(
  signing: ZipSigning,
  testBuild: boolean,
  zip: string,
): {
  problems: { where: string; field: string; message: string }[];
  notices: string[];
  values: { signer?: string; otacert?: string[]; test_build?: boolean };
  report: [string, string, string][];
} {
  const problems: { where: string; field: string; message: string }[] = [];
  const signerKey = [signing.signer, signing.signerCertificate].map((f) => f && testKeyName(f)).find(Boolean);
  if (signerKey && !testBuild)
    problems.push({
      where: zip,
      field: 'signer',
      message: `the zip is signed with ${signerKey}, whose private key anyone has: phones that trust it install updates signed by anyone; sign the build with your release keys (sign_target_files_apks, then ota_from_target_files -k), or pass --test-build if it is a test build`,
    });
  // By key or, for test keys known only by their certificate, by certificate: each named once.
  const trusted = new Set(
    [...(signing.otacert ?? []), ...(signing.otacertCertificates ?? [])].flatMap((f) => testKeyName(f) ?? []),
  );
  for (const key of trusted) {
    if (!testBuild)
      problems.push({
        where: zip,
        field: 'otacert',
        message: `the build trusts ${key} for its next update (META-INF/com/android/otacert): it installs updates signed by anyone; build it with your release keys, or pass --test-build if it is a test build`,
      });
  }
  const notices =
    signing.signer === undefined
      ? [
          `notice: ${zip} has no whole-file signature (signapk -w): recovery and update_engine refuse to install an unsigned package; sign it, then run add again`,
        ]
      : [];
  const report: [string, string, string][] = [];
  if (signing.signer) report.push(['signer', signing.signer, `whole-file signature (${signing.signerSubject})`]);
  if (signing.otacert) report.push(['otacert', signing.otacert.join(', '), 'META-INF/com/android/otacert']);
  if (testBuild) report.push(['test_build', 'true', '--test-build']);
  return {
    problems,
    notices,
    values: { signer: signing.signer, otacert: signing.otacert, ...(testBuild && { test_build: true }) },
    report,
  };
}

/**
 * Manifests of the device that record this zip's signer by its certificate, as `signer` and
 * `otacert` were written before otapress recorded keys: compared with the key this zip's manifest
 * records, they would make a key change, and phones on those builds would be offered nothing newer.
 */
export function certificateFingerprintNotices(signing: ZipSigning, others: readonly Build[], zip: string): string[] {
  const certificate = signing.signerCertificate;
  if (certificate === undefined || certificate === signing.signer) return [];
  const legacy = others.filter((b) => b.signer === certificate || b.otacert?.includes(certificate));
  if (legacy.length === 0) return [];
  const named = `${legacy[0].source}${legacy.length > 1 ? ` and ${legacy.length - 1} more` : ''}`;
  return [
    `notice: ${named} ${legacy.length > 1 ? 'record' : 'records'} the certificate of the key ${zip} is signed with, not the key (as otapress wrote signer and otacert before): beside this build's key that reads as a key change, and phones on ${legacy.length > 1 ? 'those builds' : 'that build'} would be offered nothing newer; run otapress add --force on ${legacy.length > 1 ? 'their zips' : 'its zip'}`,
  ];
}
