import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

/** Metadata of a typical A/B OTA of /e/OS for the FP4, as `key=value` lines. */
export const FP4_METADATA = [
  'ota-property-files=payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880      ',
  'ota-required-cache=0',
  'ota-type=AB',
  'post-build=Fairphone/FP4/FP4:14/UQ1A.240205.004/eng.root.20241108.123456:user/release-keys',
  'post-build-incremental=eng.root.20241108.123456',
  'post-sdk-level=34',
  'post-security-patch-level=2024-11-05',
  'post-timestamp=1731067200',
  'pre-device=FP4',
  '',
].join('\n');

/** Deterministic bytes that do not compress: a SHA-256 counter stream. */
export function payloadBytes(length: number, seed = 'payload'): Buffer {
  const key = `${seed}:${length}`;
  const cached = payloads.get(key);
  if (cached) return cached;
  const out = Buffer.alloc(length);
  for (let offset = 0, i = 0; offset < length; i++) {
    offset += createHash('sha256').update(`${seed}:${i}`).digest().copy(out, offset);
  }
  payloads.set(key, out);
  return out;
}
const payloads = new Map<string, Buffer>();

/**
 * Writes an OTA-shaped zip with a real zip writer (yazl): `payload.bin` stored as real packages
 * store it, `payload_properties.txt`, and `META-INF/com/android/metadata` when given, optionally in
 * Zip64 format, as packages over 4 GB are.
 */
export async function writeOtaZip(
  file: string,
  { metadata, payloadSize = 3 * 1024 * 1024, zip64 = false, metadataLast = false }: { metadata?: string; payloadSize?: number; zip64?: boolean; metadataLast?: boolean } = {},
): Promise<void> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2024-11-08T12:34:56Z');
  const add = (name: string, data: Buffer, compress: boolean) => zip.addBuffer(data, name, { mtime, compress, forceZip64Format: zip64 });
  if (metadata !== undefined && !metadataLast) add('META-INF/com/android/metadata', Buffer.from(metadata), false);
  add('payload.bin', payloadBytes(payloadSize), false);
  add('payload_properties.txt', Buffer.from('FILE_HASH=abc\nFILE_SIZE=3145728\n'), false);
  add('care_map.pb', Buffer.alloc(4096, 1), true);
  if (metadata !== undefined && metadataLast) add('META-INF/com/android/metadata', Buffer.from(metadata), true);
  zip.end({ forceZip64Format: zip64 } as yazl.EndOptions);
  await finished(zip.outputStream.pipe(createWriteStream(file)));
}
