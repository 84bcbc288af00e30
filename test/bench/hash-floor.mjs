// What bare node reaches hashing a file as `otapress add` must: one read feeding MD5 and SHA-256 on
// two threads. Nothing else: no zip, no manifest, no progress. A worker reads 4 MiB aligned chunks
// into a ring of shared slots and computes SHA-256 over each; this thread computes MD5 over the
// same slots and hands them back. The bench compares `otapress add` with this and with md5sum.
// usage: node hash-floor.mjs <file>
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

const CHUNK = 4 << 20;
const SLOTS = 8;
const shared = new SharedArrayBuffer(CHUNK * SLOTS);
// [0] chunks read, [1] chunks MD5 is done with, [2 + slot] bytes in the slot.
const state = new Int32Array(new SharedArrayBuffer(4 * (2 + SLOTS)));
const worker = new Worker(
  `const { workerData: { file, shared, state, CHUNK, SLOTS } } = require('node:worker_threads');
  const fs = require('node:fs');
  const sha = require('node:crypto').createHash('sha256');
  const fd = fs.openSync(file, 'r');
  for (let k = 0, position = 0; ; k++) {
    while (k - Atomics.load(state, 1) >= SLOTS) Atomics.wait(state, 1, Atomics.load(state, 1));
    const slot = k % SLOTS;
    const view = new Uint8Array(shared, slot * CHUNK, CHUNK);
    let n = 0;
    for (let r = -1; r !== 0 && n < CHUNK; n += r) r = fs.readSync(fd, view, n, CHUNK - n, position + n);
    position += n;
    state[2 + slot] = n;
    Atomics.store(state, 0, k + 1);
    Atomics.notify(state, 0);
    if (n === 0) break;
    sha.update(view.subarray(0, n));
  }
  require('node:worker_threads').parentPort.postMessage(sha.digest('hex'));`,
  { eval: true, workerData: { file: process.argv[2], shared, state, CHUNK, SLOTS } },
);
const sha256 = new Promise((resolve) => worker.once('message', resolve));
const md5 = createHash('md5');
for (let k = 0; ; k++) {
  while (Atomics.load(state, 0) <= k) Atomics.wait(state, 0, k);
  const slot = k % SLOTS;
  const n = state[2 + slot];
  if (n === 0) break;
  md5.update(new Uint8Array(shared, slot * CHUNK, n));
  Atomics.store(state, 1, k + 1);
  Atomics.notify(state, 1);
}
console.log(md5.digest('hex'), await sha256);
