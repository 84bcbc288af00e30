// Entry point of a compile worker thread (see compile-devices.ts): loads the TypeScript sources
// through tsx, as src/bin.mjs does for the main thread, and compiles the devices it claims.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runWorker } = await import('./compile-devices.ts');
runWorker(workerData);
