/**
 * Starting compile workers (compile-worker.mjs runs `runWorker` of compile-devices.ts in each):
 * with their job, or ahead of it ({@link prestartWorkers}).
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

/** Starts a worker with the data `data` makes around the port it will answer on; returns the worker and the calling side's port. */
export function startWorker(data: (port: MessagePort) => object): { worker: Worker; port: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_ENTRY, { workerData: data(port2), transferList: [port2], resourceLimits: WORKER_LIMITS });
  worker.unref();
  return { worker, port: port1 };
}

/**
 * Workers started before their job is known, by {@link prestartWorkers}: each loads otapress (50 to
 * 150 ms of a core) while the calling thread is still listing the content, reading the settings and
 * making the staging folder, then waits on its port for the job that {@link compileDevices} posts.
 */
export interface WorkerPool {
  /** Up to `count` of the waiting workers, each handed out once. */
  take(count: number): { worker: Worker; port: MessagePort }[];
  /** Stops the workers never handed out (the build failed first, or needed fewer); resolves once they have ended. */
  close(): Promise<void>;
}

/** Starts `count` workers that wait for their job (see {@link WorkerPool}). */
export function prestartWorkers(count: number): WorkerPool {
  let waiting = Array.from({ length: count }, () => startWorker((port) => ({ port, waiting: true })));
  return {
    take(n) {
      const taken = waiting.slice(0, n);
      waiting = waiting.slice(n);
      return taken;
    },
    close() {
      const ended = waiting.map(({ worker, port }) => {
        port.close();
        return worker.terminate();
      });
      waiting = [];
      return Promise.all(ended).then(() => undefined);
    },
  };
}

/** How many workers {@link compileDevices} would start for `devices` devices on `threads` threads. */
export function workersFor(devices: number, threads = availableParallelism()): number {
  return Math.max(0, Math.min(threads - 1, devices - 1));
}

const WORKER_ENTRY = new URL('./compile-worker.mjs', import.meta.url);

/**
 * A young generation half the calling thread's (which grows to 32 MB) keeps a worker's garbage,
 * and so the build's peak memory, low, without collecting it as often as 8 MB did: 16 MB made cold
 * 100k builds take 0.95x to 0.98x the CPU time (same-round medians of three interleaved runs; no
 * change at 10k) for 7 to 14 MB more peak memory (about 260 MB in all).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 16 };

