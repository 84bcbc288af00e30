import { Worker } from 'node:worker_threads';

/** The size and the digests of a file, read once. */
export interface FileDigests {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

/** Bytes hashed so far and the file's size. */
export type HashProgress = (done: number, total: number) => void;

/** Hashing under way: its result, and a way to stop it early (e.g. when the command refuses). */
export interface Hashing {
  digests: Promise<FileDigests>;
  abort(): Promise<void>;
}

/** Read size: large enough that per-chunk overhead vanishes, and a multiple of every page size. */
const CHUNK = 4 * 1024 * 1024;
/** Chunks in flight: the reader may run this far ahead of MD5. */
const SLOTS = 8;
/** Indexes into the shared state: chunks read, chunks MD5 is done with, 1 once stopped; then each slot's length. */
const READ = 0;
const HASHED = 1;
const STOP = 2;
const LENGTHS = 3;

/**
 * Starts reading `file` once and computing its MD5, SHA-1 and SHA-256 on two cores, off the main
 * thread, as test/bench/hash-floor.mjs does with nothing else around it: one worker reads 4 MiB
 * chunks at aligned offsets into a ring of shared slots (plain blocking reads, no copies) and
 * computes SHA-256 and SHA-1 over each (with the CPUs' SHA instructions both together still run
 * ahead of MD5, which has none); a second worker computes MD5 over the same slots and hands each
 * back. They meet on Atomics, not messages. The main thread stays free to load the rest of the
 * command meanwhile, so the whole takes about as long as MD5 alone.
 */
export function startHashing(file: string, onProgress?: HashProgress): Hashing {
  const shared = new SharedArrayBuffer(CHUNK * SLOTS);
  const state = new Int32Array(new SharedArrayBuffer(4 * (LENGTHS + SLOTS)));
  const data = { file, shared, state, chunk: CHUNK, slots: SLOTS, READ, HASHED, STOP, LENGTHS };
  const reader = new Worker(READ_AND_SHA256, { eval: true, workerData: data });
  const md5Worker = new Worker(MD5, { eval: true, workerData: data });
  const workers = [reader, md5Worker];
  const exited = workers.map((w) => new Promise<void>((resolve) => w.once('exit', () => resolve())));
  let stopped = false;
  // Asked to stop, a worker returns at its next wait and closes the file; one stuck in a read is terminated.
  const stop = async () => {
    stopped = true;
    Atomics.store(state, STOP, 1);
    Atomics.notify(state, READ);
    Atomics.notify(state, HASHED);
    await Promise.all(
      workers.map(async (w, i) => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited[i], new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]);
        clearTimeout(timer);
        await w.terminate();
      }),
    );
  };

  const digests = new Promise<FileDigests>((resolve, reject) => {
    let size = 0;
    let md5: string | undefined;
    let sha256: string | undefined;
    let sha1: string | undefined;
    const fail = (error: Error) => {
      if (stopped) return;
      void stop();
      reject(error);
    };
    const finish = () => {
      if (md5 === undefined || sha256 === undefined || sha1 === undefined) return;
      void stop().then(() => resolve({ size, md5: md5!, sha1: sha1!, sha256: sha256! }));
    };
    for (const w of workers) w.on('error', fail);
    // A worker's messages all arrive before its exit: one that exits without its digest failed.
    reader.on('exit', (code) => sha256 === undefined && fail(new Error(`a hashing worker stopped early (exit code ${code})`)));
    md5Worker.on('exit', (code) => md5 === undefined && fail(new Error(`a hashing worker stopped early (exit code ${code})`)));
    reader.on('message', (m: { size?: number; sha256?: string; sha1?: string }) => {
      if (m.size !== undefined) size = m.size;
      if (m.sha256 !== undefined) {
        sha256 = m.sha256;
        sha1 = m.sha1;
        finish();
      }
    });
    md5Worker.on('message', (m: { done: number; md5?: string }) => {
      if (m.md5 !== undefined) {
        md5 = m.md5;
        finish();
      } else onProgress?.(m.done, size);
    });
  });
  digests.catch(() => {}); // Awaited by the caller; an aborted run must not report it as unhandled.
  return { digests, abort: stop };
}

// --- internal ---

/**
 * Worker 1: reads the file into free slots in order, publishes each, and computes SHA-256 and
 * SHA-1 over it while MD5 does the same; a slot is reused once MD5 is done with it (this thread's
 * digests are done with it before the next read). A zero-length chunk ends the file.
 */
const READ_AND_SHA256 = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const sha256 = createHash('sha256');
const sha1 = createHash('sha1');
const { file, shared, state, chunk, slots, READ, HASHED, STOP, LENGTHS } = workerData;
const fd = fs.openSync(file, 'r');
try {
  read();
} finally {
  fs.closeSync(fd); // A worker's descriptors are the process's: stopped or failed, it must not leak one.
}
function read() {
  const before = fs.fstatSync(fd);
  const { size } = before;
  parentPort.postMessage({ size });
  for (let k = 0, position = 0; ; k++) {
    for (let hashed = Atomics.load(state, HASHED); k - hashed >= slots; hashed = Atomics.load(state, HASHED)) {
      if (Atomics.load(state, STOP)) return;
      Atomics.wait(state, HASHED, hashed, 100);
    }
    const slot = k % slots;
    const length = Math.min(chunk, size - position);
    const view = new Uint8Array(shared, slot * chunk, length);
    for (let filled = 0; filled < length; ) {
      const n = fs.readSync(fd, view, filled, length - filled, position + filled);
      if (n === 0) throw new Error(file + ' became shorter while it was read; try again when it is complete');
      filled += n;
    }
    position += length;
    state[LENGTHS + slot] = length;
    Atomics.store(state, READ, k + 1);
    Atomics.notify(state, READ);
    if (length === 0) break;
    sha256.update(view);
    sha1.update(view);
  }
  // A package still being downloaded or copied would get the hashes of a file that no longer exists.
  const after = fs.fstatSync(fd);
  if (after.size !== size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
    throw new Error(file + ' changed while it was read (' + (after.size !== size ? 'its size went from ' + size + ' to ' + after.size + ' bytes' : 'it was modified') + '); wait until it is complete, then run add again');
  }
  parentPort.postMessage({ sha256: sha256.digest('hex'), sha1: sha1.digest('hex') });
}
`;

/** Worker 2: MD5 over each slot in the order read, handing the slot back; reports progress. */
const MD5 = `
const { workerData, parentPort } = require('node:worker_threads');
const md5 = require('node:crypto').createHash('md5');
const { shared, state, chunk, slots, READ, HASHED, STOP, LENGTHS } = workerData;
let done = 0;
for (let k = 0; ; k++) {
  while (Atomics.load(state, READ) <= k) {
    if (Atomics.load(state, STOP)) process.exit(0);
    Atomics.wait(state, READ, k, 100);
  }
  const slot = k % slots;
  const length = state[LENGTHS + slot];
  if (length === 0) break;
  md5.update(new Uint8Array(shared, slot * chunk, length));
  done += length;
  Atomics.store(state, HASHED, k + 1);
  Atomics.notify(state, HASHED);
  parentPort.postMessage({ done });
}
parentPort.postMessage({ done, md5: md5.digest('hex') });
`;
