import yauzl from 'yauzl';

/** Where a full OTA package keeps its build facts, as `key=value` lines. */
const METADATA_ENTRY = 'META-INF/com/android/metadata';

/** The certificates a build accepts its next update from (`signapk -w` adds the signer's). */
const OTACERT_ENTRY = 'META-INF/com/android/otacert';

/** Largest metadata entry we read; real ones are under 2 KiB. */
const MAX_METADATA_BYTES = 64 * 1024;

/**
 * Reads the text of `META-INF/com/android/metadata` from an OTA zip, and the bytes of
 * `META-INF/com/android/otacert` (same size limit) when the zip has it, using only its central
 * directory and those entries (yauzl seeks to the end of the file and reads the directory,
 * Zip64 included), so a 4 GB package costs a few kilobytes of reading. No `metadata` when the zip
 * has no such entry. Rejects with a readable message when the file is not a zip.
 */
export async function readOtaEntries(zipPath: string): Promise<{ metadata?: string; otacert?: Buffer }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    throw new ZipReadError(
      `${zipPath} is not a readable zip (${(error as Error).message}); pass the OTA package itself`,
    );
  }
  try {
    let text: string | undefined;
    let otacert: Buffer | undefined;
    // Every entry of the central directory is read (a few kilobytes), not only up to the metadata:
    // a damaged directory, or an entry that reaches past the end of a truncated file, is refused.
    for (;;) {
      const entry = await nextEntry(zip);
      if (entry === undefined) return { ...(text !== undefined && { metadata: text }), ...(otacert && { otacert }) };
      if (entry.relativeOffsetOfLocalHeader + 30 + entry.fileName.length + entry.compressedSize > zip.fileSize) {
        throw new ZipReadError(
          `${zipPath} is a damaged or truncated zip (${entry.fileName} reaches past the end of the file); download it again`,
        );
      }
      const wanted =
        (entry.fileName === METADATA_ENTRY && text === undefined) ||
        (entry.fileName === OTACERT_ENTRY && otacert === undefined);
      if (!wanted) continue;
      if (entry.uncompressedSize > MAX_METADATA_BYTES) {
        throw new ZipReadError(
          `${entry.fileName} in ${zipPath} is ${entry.uncompressedSize} bytes, far more than ${entry.fileName === METADATA_ENTRY ? 'build metadata' : 'a few certificates'}; is this an OTA package?`,
        );
      }
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      if (entry.fileName === METADATA_ENTRY) text = Buffer.concat(chunks).toString('utf8');
      else otacert = Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof ZipReadError) throw error;
    throw new ZipReadError(`${zipPath} is a damaged zip (${(error as Error).message}); download or copy it again`);
  } finally {
    zip.close();
  }
}

/** The zip could not be read; the message says what to do. */
export class ZipReadError extends Error {}

// --- internal ---

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (error: Error) => (cleanup(), reject(error));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}
