// Entry point of a compile worker thread (see compile-devices.ts): loads the compiled module beside
// it when it runs from lib/ (the installed package), else the TypeScript source through tsx, as
// src/bin.mjs does for the main thread; then compiles the devices it claims. A worker started
// ahead of its job (prestartWorkers) loads the module meanwhile, then waits for the job on its port.
import { existsSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

const built = new URL('./compile-devices.js', import.meta.url);
let runWorker;
if (existsSync(built)) {
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
