/**
 * Starting compile workers (compile-worker.mjs runs `runWorker` of compile-devices.ts in each):
 * with their job, or ahead of it ({@link prestartWorkers}).
 */
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { cacheDirOf } from './cache-key.js';

/**
 * Below this many manifests left, starting a worker costs more than it saves: a worker takes 50 to
 * 90 ms of a core to start (it loads otapress again), and a manifest about 0.3 ms to compile and
 * write. (It was 4000 while a worker took several times as long to start. With lib/ built ahead of
 * time, cold builds of 1,000 manifests took 0.77 s instead of 0.80 s with the cache written and
 * 1.00 s instead of 1.24 s without, for 10 to 14 % more CPU time: medians of 11 interleaved runs.)
 */
export const PARALLEL_THRESHOLD = 600;

/**
 * Below this many manifests, a warm build takes its devices from the cache on the calling thread
 * alone: a hit costs a tenth of a compile (reading and hashing the manifests, linking the cached
 * files), and a worker only joins after its 300 to 400 ms start. Warm builds (one manifest changed)
 * with a worker started ahead took 1.11x the wall time at 1,000 manifests, 0.80x at 10,000 and
 * 0.81x at 100,000, for 1.2x the CPU time (ABBA rounds).
 */
export const WARM_PARALLEL_THRESHOLD = 5_000;

/**
 * Workers for a build of `root`, started before the build has loaded anything else: the build
 * command calls this first, so that the workers load otapress (50 to 150 ms of a core each) while
 * the calling thread does too, then lists the content, reads the settings, takes the lock and
 * stages the tree. The manifests are counted by name in the device folders (catalog/read.ts reads
 * and checks them later). See {@link prestartFor}.
 */
export function prestartForBuild(
  root: string,
  { cache, threads }: { cache: boolean; threads?: number },
): WorkerPool | undefined {
  const cacheDir = cache ? cacheDirOf(root) : undefined;
  return prestartFor(cacheDir, threads, () => countManifests(path.join(root, 'content'), thresholdOf(cacheDir)));
}

/**
 * Workers started ahead ({@link prestartWorkers}) for a build worth sharing out, on more than one
 * thread: a cold build, with no cache folder yet (a fresh clone, CI) or without the cache
 * (`cacheDir` undefined), of at least {@link PARALLEL_THRESHOLD} manifests, which compiles every
 * device; a warm one of at least {@link WARM_PARALLEL_THRESHOLD}, which reads every manifest to
 * find its devices in the cache.
 */
export function prestartFor(
  cacheDir: string | undefined,
  threads: number | undefined,
  count: () => { devices: number; manifests: number },
): WorkerPool | undefined {
  const { devices, manifests } = count();
  const workers = workersFor(devices, threads);
  return workers > 0 && manifests >= thresholdOf(cacheDir) ? prestartWorkers(workers) : undefined;
}

/** Whether a build compiles every device: it has no cache (`cacheDir` undefined), or no cache folder yet (a fresh clone, CI). */
export function isColdBuild(cacheDir: string | undefined): boolean {
  return cacheDir === undefined || !existsSync(cacheDir);
}

/** How many manifests a build needs for workers started ahead ({@link prestartFor}). */
function thresholdOf(cacheDir: string | undefined): number {
  return isColdBuild(cacheDir) ? PARALLEL_THRESHOLD : WARM_PARALLEL_THRESHOLD;
}

/** Device folders of `content/` and the `.yaml` names in them, counted until `enough` manifests (it then stops reading folders). */
function countManifests(contentDir: string, enough: number): { devices: number; manifests: number } {
  let devices = 0;
  let manifests = 0;
  let folders: string[];
  try {
    folders = readdirSync(contentDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return { devices, manifests };
  }
  for (const folder of folders) {
    let found = 0;
    try {
      found = readdirSync(path.join(contentDir, folder)).filter((name) => name.endsWith('.yaml')).length;
    } catch {
      continue;
    }
    if (found > 0) devices++;
    manifests += found;
    // Past enough manifests, only whether there are two devices still matters.
    if (manifests >= enough && devices >= 2) break;
  }
  return { devices, manifests };
}

/** Starts a worker with the data `data` makes around the port it will answer on; returns the worker and the calling side's port. */
export function startWorker(data: (port: MessagePort) => object): { worker: Worker; port: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_ENTRY, {
    workerData: data(port2),
    transferList: [port2],
    resourceLimits: WORKER_LIMITS,
  });
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
 * A worker's young generation, the size the calling thread's grows to (32 MB). Fewer scavenges
 * leave less garbage to copy and promote: counted under callgrind with `node --single-threaded` (no
 * background compiling or marking, so that every thread's work counts), a cold build of 50,000
 * manifests on one thread (a worker's share at 100k) took 17.53 billion instructions with 32 MB
 * and 18.73 with 16 MB (0.936x); whole cold `--no-cache` 100k builds on two threads 35.81 and 36.02
 * billion against 36.72, 37.28 and 37.77 (0.96x), and 10k builds the same (6.79 and 6.80 against
 * 6.77 to 6.89). It costs about 10 MB of the cold 100k build's peak (about 230 MB) and 18 MB of a
 * warm one's (188 against 170 MB). Two-thread counts without
 * --single-threaded move by 15 % from one run to the next, too much to choose by.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 32 };
