// @ts-check
// Hashing worker 2 (hash.ts): MD5 over each slot in the order the reader filled them, handing each
// slot back; reports its progress. Plain JavaScript for the reason hash-read-worker.mjs gives.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {import('./hash.ts').HashWorkerData} */
const { shared, state, chunk, slots, READ, HASHED, STOP, LENGTHS } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const md5 = createHash('md5');
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
  port.postMessage({ done });
}
port.postMessage({ done, md5: md5.digest('hex') });
