// @ts-check
// Hashing worker 1 (hash.ts): reads the file into free slots in order, publishes each, and computes
// SHA-256 and SHA-1 over it while the MD5 worker does the same; a slot is reused once MD5 is done
// with it (this thread's digests are done with it before the next read). A zero-length chunk ends
// the file. Plain JavaScript, like the compile worker's entry: a worker thread loads it as it is,
// from src/ and from lib/ alike, without tsx; `@ts-check` has tsc check it against hash.ts's types.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {import('./hash.ts').HashWorkerData} */
const { file, shared, state, chunk, slots, READ, HASHED, STOP, LENGTHS } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const sha256 = createHash('sha256');
const sha1 = createHash('sha1');
const fd = openSync(file, 'r');
try {
  read();
} finally {
  closeSync(fd); // A worker's descriptors are the process's: stopped or failed, it must not leak one.
}

function read() {
  const before = fstatSync(fd);
  const { size } = before;
  port.postMessage({ size });
  for (let k = 0, position = 0; ; k++) {
    for (let hashed = Atomics.load(state, HASHED); k - hashed >= slots; hashed = Atomics.load(state, HASHED)) {
      if (Atomics.load(state, STOP)) return;
      Atomics.wait(state, HASHED, hashed, 100);
    }
    const slot = k % slots;
    const length = Math.min(chunk, size - position);
    const view = new Uint8Array(shared, slot * chunk, length);
    for (let filled = 0; filled < length;) {
      const n = readSync(fd, view, filled, length - filled, position + filled);
      if (n === 0) throw new Error(`${file} became shorter while it was read; try again when it is complete`);
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
  const after = fstatSync(fd);
  if (after.size !== size || after.mtimeMs !== before.mtimeMs || after.ino !== before.ino) {
    const how = after.size !== size ? `its size went from ${size} to ${after.size} bytes` : 'it was modified';
    throw new Error(`${file} changed while it was read (${how}); wait until it is complete, then run add again`);
  }
  port.postMessage({ sha256: sha256.digest('hex'), sha1: sha1.digest('hex') });
}
