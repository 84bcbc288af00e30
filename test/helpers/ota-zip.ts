import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
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
function payloadBytes(length: number, seed = 'payload'): Buffer {
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
  {
    metadata,
    payloadSize = 3 * 1024 * 1024,
    zip64 = false,
    metadataLast = false,
    entries = {},
  }: {
    metadata?: string;
    payloadSize?: number;
    zip64?: boolean;
    metadataLast?: boolean;
    entries?: Record<string, Buffer>;
  } = {},
): Promise<void> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2024-11-08T12:34:56Z');
  const add = (name: string, data: Buffer, compress: boolean) =>
    zip.addBuffer(data, name, { mtime, compress, forceZip64Format: zip64 });
  if (metadata !== undefined && !metadataLast) add('META-INF/com/android/metadata', Buffer.from(metadata), false);
  add('payload.bin', payloadBytes(payloadSize), false);
  add('payload_properties.txt', Buffer.from('FILE_HASH=abc\nFILE_SIZE=3145728\n'), false);
  // Stored, as packages store the entries phones read by range: it makes the zip reach past the last
  // byte FP4_METADATA's ota-property-files names, as a real package does.
  add('apex_info.pb', Buffer.alloc(4096, 2), false);
  add('care_map.pb', Buffer.alloc(4096, 1), true);
  if (metadata !== undefined && metadataLast) add('META-INF/com/android/metadata', Buffer.from(metadata), true);
  // Further entries (META-INF/com/android/otacert), stored, as signapk writes its own.
  for (const [name, data] of Object.entries(entries)) add(name, data, false);
  zip.end({ forceZip64Format: zip64 } as yazl.EndOptions);
  await finished(zip.outputStream.pipe(createWriteStream(file)));
}

/**
 * Writes an OTA zip whose `payload.bin` is a sparse hole of `payloadSize` bytes (stored, with its
 * true CRC), so a test gets a package of a gigabyte in an instant and without using the disk.
 */
export function writeSparseOtaZip(file: string, metadata: string, payloadSize: number): void {
  const entries: { name: Buffer; data?: Buffer; size: number; crc: number; offset: number }[] = [];
  const meta = Buffer.from(metadata);
  let crc = 0;
  const zeros = Buffer.alloc(16 * 1024 * 1024);
  for (let left = payloadSize; left > 0; left -= zeros.length)
    crc = zlib.crc32(zeros.subarray(0, Math.min(left, zeros.length)), crc);
  const fd = openSync(file, 'w');
  try {
    let offset = 0;
    const write = (bytes: Buffer) => {
      writeSync(fd, bytes, 0, bytes.length, offset);
      offset += bytes.length;
    };
    for (const [name, data, size, sum] of [
      ['META-INF/com/android/metadata', meta, meta.length, zlib.crc32(meta)],
      ['payload.bin', undefined, payloadSize, crc],
    ] as const) {
      const entry = { name: Buffer.from(name), data, size, crc: sum, offset };
      entries.push(entry);
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(0x0021, 12); // 1980-01-01
      header.writeUInt32LE(entry.crc, 14);
      header.writeUInt32LE(size, 18);
      header.writeUInt32LE(size, 22);
      header.writeUInt16LE(entry.name.length, 26);
      write(Buffer.concat([header, entry.name]));
      if (data) write(data);
      else offset += size; // The hole: nothing written, the file system reads it as zeros.
    }
    const directoryStart = offset;
    for (const entry of entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0021, 14);
      header.writeUInt32LE(entry.crc, 16);
      header.writeUInt32LE(entry.size, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      header.writeUInt32LE(entry.offset, 42);
      write(Buffer.concat([header, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(offset - directoryStart, 12);
    end.writeUInt32LE(directoryStart, 16);
    write(end);
  } finally {
    closeSync(fd);
  }
}

/** The fingerprint of an akita build (`post-build`, `pre-build`) with the given incremental. */
const akitaFingerprint = (incremental: string) =>
  `google/akita/akita:15/BP1A.250105.002/${incremental}:user/release-keys`;

/**
 * The metadata of an akita OTA package built on `date` (its incremental `eng.build.<date>`) at
 * `timestamp`; with `from`, an incremental package that applies on the build of that date.
 */
export const akitaMetadata = (date: string, timestamp: number, from?: string) =>
  [
    'ota-type=AB',
    `post-build=${akitaFingerprint(`eng.build.${date}`)}`,
    `post-build-incremental=eng.build.${date}`,
    'post-sdk-level=35',
    `post-timestamp=${timestamp}`,
    ...(from ? [`pre-build=${akitaFingerprint(`eng.build.${from}`)}`, `pre-build-incremental=eng.build.${from}`] : []),
    'pre-device=akita',
    '',
  ].join('\n');
