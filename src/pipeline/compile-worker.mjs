// Entry point of a compile worker thread (see compile-devices.ts): loads the compiled module beside
// it when it runs from lib/ (the installed package; see below), else the TypeScript source through tsx, as
// src/bin.mjs does for the main thread; then compiles the devices it claims. A worker started
// ahead of its job (prestartWorkers) loads the module meanwhile, then waits for the job on its port.
import { existsSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

// In lib/, the worker loads compile-devices.js and all it imports as one module (.ci/build-lib.mjs).
const bundled = new URL('./compile-worker-bundle.js', import.meta.url);
const built = new URL('./compile-devices.js', import.meta.url);
let runWorker;
if (existsSync(bundled)) {
  ({ runWorker } = await import(bundled.href));
} else if (existsSync(built)) {
  ({ runWorker } = await import(built.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runWorker } = await import('./compile-devices.ts'));
}
if (workerData.waiting) {
  const { port } = workerData;
  const job = await new Promise((resolve) => port.once('message', resolve));
  port.unref(); // Nothing more comes from the calling thread: the worker ends when its devices are done.
  runWorker({ ...job, port });
} else {
  runWorker(workerData);
}
