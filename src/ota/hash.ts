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

/** What both hashing workers (hash-read-worker.mjs, hash-md5-worker.mjs) start with: the ring of slots, its state. */
export interface HashWorkerData {
  file: string;
  /** The slots, `chunk` bytes each. */
  shared: SharedArrayBuffer;
  /** Chunks read, chunks MD5 is done with, 1 once stopped; then each slot's length (indexes below). */
  state: Int32Array;
  chunk: number;
  slots: number;
  READ: number;
  HASHED: number;
  STOP: number;
  LENGTHS: number;
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
  const data: HashWorkerData = { file, shared, state, chunk: CHUNK, slots: SLOTS, READ, HASHED, STOP, LENGTHS };
  // Plain JavaScript beside this module, in src/ as in lib/ (.ci/build-lib.mjs copies .mjs files as they are).
  const reader = new Worker(new URL('./hash-read-worker.mjs', import.meta.url), { workerData: data });
  const md5Worker = new Worker(new URL('./hash-md5-worker.mjs', import.meta.url), { workerData: data });
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
    reader.on(
      'exit',
      (code) => sha256 === undefined && fail(new Error(`a hashing worker stopped early (exit code ${code})`)),
    );
    md5Worker.on(
      'exit',
      (code) => md5 === undefined && fail(new Error(`a hashing worker stopped early (exit code ${code})`)),
    );
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
