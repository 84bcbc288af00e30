import { MessageChannel, Worker } from 'node:worker_threads';

/** The size and both digests of a file, read once. */
export interface FileDigests {
  size: number;
  md5: string;
  sha256: string;
}

/** Bytes hashed so far and the file's size. */
export type HashProgress = (done: number, total: number) => void;

/** Hashing under way: its result, and a way to stop it early (e.g. when the command refuses). */
export interface Hashing {
  digests: Promise<FileDigests>;
  abort(): Promise<void>;
}

/** Read size: large enough that per-chunk overhead vanishes; SLOTS of them are shared by both workers. */
const CHUNK = 4 * 1024 * 1024;
const SLOTS = 6;

/**
 * Starts reading `file` once and computing its MD5 and SHA-256 on two cores, off the main thread:
 * one worker reads into shared memory (the next read already under way on libuv's pool) and feeds
 * MD5, the slower digest; a second worker computes SHA-256 over the same bytes and hands each slot
 * back. The main thread stays free to load the rest of the command meanwhile, so the whole takes
 * about as long as `md5sum` alone.
 */
export function startHashing(file: string, onProgress?: HashProgress): Hashing {
  const shared = new SharedArrayBuffer(CHUNK * SLOTS);
  const { port1, port2 } = new MessageChannel();
  const reader = new Worker(READ_AND_MD5, { eval: true, workerData: { file, shared, chunk: CHUNK, slots: SLOTS, port: port1 }, transferList: [port1] });
  const sha = new Worker(SHA256, { eval: true, workerData: { shared, chunk: CHUNK, port: port2 }, transferList: [port2] });
  const workers = [reader, sha];
  let stopped = false;
  const stop = async () => {
    stopped = true;
    for (const w of workers) w.removeAllListeners('exit');
    await Promise.all(workers.map((w) => w.terminate()));
  };

  const digests = new Promise<FileDigests>((resolve, reject) => {
    let size = 0;
    let md5: string | undefined;
    let sha256: string | undefined;
    const fail = (error: Error) => {
      if (stopped) return;
      void stop();
      reject(error);
    };
    const finish = () => {
      if (md5 === undefined || sha256 === undefined) return;
      void stop().then(() => resolve({ size, md5: md5!, sha256: sha256! }));
    };
    for (const w of workers) {
      w.on('error', fail);
      w.on('exit', (code) => fail(new Error(`a hashing worker stopped early (exit code ${code})`)));
    }
    reader.on('message', (m: { size?: number; done?: number; md5?: string }) => {
      if (m.md5 !== undefined) {
        md5 = m.md5;
        finish();
      } else if (m.done !== undefined) onProgress?.(m.done, size);
      else if (m.size !== undefined) size = m.size;
    });
    sha.on('message', (m: { sha256: string }) => {
      sha256 = m.sha256;
      finish();
    });
  });
  digests.catch(() => {}); // Awaited by the caller; an aborted run must not report it as unhandled.
  return { digests, abort: stop };
}

// --- internal ---

/** Worker 1: reads the file into free slots, one read ahead, and computes MD5 in read order. */
const READ_AND_MD5 = `
const { workerData, parentPort } = require('node:worker_threads');
const { open } = require('node:fs/promises');
const md5 = require('node:crypto').createHash('md5');
const { file, shared, chunk, slots, port } = workerData;
const free = Array.from({ length: slots }, (_, i) => i);
const waiting = [];
port.on('message', (slot) => (waiting.length > 0 ? waiting.shift()(slot) : free.push(slot)));
const take = () => (free.length > 0 ? Promise.resolve(free.shift()) : new Promise((resolve) => waiting.push(resolve)));
(async () => {
  const handle = await open(file, 'r');
  const before = await handle.stat();
  const { size } = before;
  parentPort.postMessage({ size });
  const read = async (position) => {
    const slot = await take();
    const length = Math.min(chunk, size - position);
    const view = new Uint8Array(shared, slot * chunk, length);
    for (let filled = 0; filled < length; ) {
      const { bytesRead } = await handle.read(view, filled, length - filled, position + filled);
      if (bytesRead === 0) throw new Error(file + ' became shorter while it was read; try again when it is complete');
      filled += bytesRead;
    }
    return { slot, length };
  };
  let position = 0;
  let next = size > 0 ? read(0) : undefined;
  while (next) {
    const { slot, length } = await next;
    position += length;
    next = position < size ? read(position) : undefined;
    if (next) next.catch(() => {});
    md5.update(new Uint8Array(shared, slot * chunk, length));
    port.postMessage({ slot, length });
    parentPort.postMessage({ done: position });
  }
  // A package still being downloaded or copied would get the hashes of a file that no longer exists.
  const after = await handle.stat();
  if (after.size !== size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
    throw new Error(file + ' changed while it was read (' + (after.size !== size ? 'its size went from ' + size + ' to ' + after.size + ' bytes' : 'it was modified') + '); wait until it is complete, then run add again');
  }
  port.postMessage({ end: true });
  await handle.close();
  parentPort.postMessage({ md5: md5.digest('hex') });
})().catch((error) => setImmediate(() => { throw error; }));
`;

/** Worker 2: SHA-256 over each slot in the order read, handing the slot back to the reader. */
const SHA256 = `
const { workerData, parentPort } = require('node:worker_threads');
const sha256 = require('node:crypto').createHash('sha256');
const { shared, chunk, port } = workerData;
port.on('message', (message) => {
  if (message.end) return parentPort.postMessage({ sha256: sha256.digest('hex') });
  sha256.update(new Uint8Array(shared, message.slot * chunk, message.length));
  port.postMessage(message.slot);
});
`;
