import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

/** The size and both digests of a file, read once. */
export interface FileDigests {
  size: number;
  md5: string;
  sha256: string;
}

/** Bytes hashed so far and the file's size, reported after every chunk. */
export type HashProgress = (done: number, total: number) => void;

/** Read size: large enough that per-chunk overhead vanishes, small enough to keep 4 in flight cheaply. */
const CHUNK = 4 * 1024 * 1024;
const BUFFERS = 4;

/**
 * Reads `file` once and computes its MD5 and SHA-256 on two cores: this thread reads and feeds
 * MD5 (the slower of the two), and a worker thread computes SHA-256 over the same chunks, which
 * are transferred to it (no copy) and handed back for the next read. The next read is already
 * under way (on libuv's thread pool) while a chunk is hashed, so the whole takes about as long as
 * `md5sum` alone.
 */
export async function hashFile(file: string, onProgress?: HashProgress): Promise<FileDigests> {
  const handle = await open(file, 'r');
  const worker = new Worker(SHA256_WORKER, { eval: true });
  try {
    const { size } = await handle.stat();
    const md5 = createHash('md5');
    const free: ArrayBuffer[] = Array.from({ length: BUFFERS }, () => new ArrayBuffer(CHUNK));
    const waiting: ((buffer: ArrayBuffer) => void)[] = [];
    let failed: ((error: Error) => void) | undefined;
    let digest: ((hex: string) => void) | undefined;
    const workerFailure = new Promise<never>((_, reject) => {
      failed = reject;
    });
    workerFailure.catch(() => {}); // Observed through the races below.
    worker.on('error', (error) => failed!(error));
    worker.on('exit', (code) => failed!(new Error(`the SHA-256 worker stopped (exit code ${code})`)));
    worker.on('message', (message: { buffer?: ArrayBuffer; sha256?: string }) => {
      if (message.sha256 !== undefined) digest!(message.sha256);
      else if (waiting.length > 0) waiting.shift()!(message.buffer!);
      else free.push(message.buffer!);
    });
    const takeBuffer = () =>
      free.length > 0 ? Promise.resolve(free.pop()!) : Promise.race([new Promise<ArrayBuffer>((r) => waiting.push(r)), workerFailure]);
    const readChunk = async (position: number) => {
      const buffer = await takeBuffer();
      const length = Math.min(CHUNK, size - position);
      const view = new Uint8Array(buffer, 0, length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(view, filled, length - filled, position + filled);
        if (bytesRead === 0) throw new Error(`${file} became shorter while it was read; try again when it is complete`);
        filled += bytesRead;
      }
      return { buffer, length };
    };

    let position = 0;
    let next = size > 0 ? readChunk(0) : undefined;
    while (next) {
      const { buffer, length } = await next;
      position += length;
      next = position < size ? readChunk(position) : undefined;
      next?.catch(() => {}); // Awaited on the next turn; keeps an early rejection from going unhandled.
      md5.update(new Uint8Array(buffer, 0, length));
      worker.postMessage({ buffer, length }, [buffer]);
      onProgress?.(position, size);
    }
    const sha256 = await Promise.race([
      new Promise<string>((resolve) => {
        digest = resolve;
        worker.postMessage({ done: true });
      }),
      workerFailure,
    ]);
    return { size, md5: md5.digest('hex'), sha256 };
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
    await handle.close();
  }
}

// --- internal ---

/** The worker: SHA-256 over each chunk in arrival order, handing every buffer back for reuse. */
const SHA256_WORKER = `
const { parentPort } = require('node:worker_threads');
const hash = require('node:crypto').createHash('sha256');
parentPort.on('message', (message) => {
  if (message.done) return parentPort.postMessage({ sha256: hash.digest('hex') });
  hash.update(new Uint8Array(message.buffer, 0, message.length));
  parentPort.postMessage({ buffer: message.buffer }, [message.buffer]);
});
`;
