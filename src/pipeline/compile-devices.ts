import { mkdirSync, rmSync } from 'node:fs';
import { receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { deflateRawSync } from 'node:zlib';
import { compileDevice, type DeviceOutput } from './compile-device.js';
import { readManifests, type ManifestFile } from '../catalog/read.js';
import type { Site } from '../catalog/site.js';
import { pruneCache, readCachedFiles, readCacheEntry, writeCacheEntry, type CacheHit } from './cache-entry.js';
import { baseKey, deviceKey } from './cache-key.js';
import { PARALLEL_THRESHOLD, startWorker, workersFor, type WorkerPool } from './worker-pool.js';
import { startWriteback } from './disk.js';
import { createStagedFile, linkStagedFile, writeStagedFile } from './write.js';

export { PARALLEL_THRESHOLD };

/** How {@link compileDevices} may go faster than one device after the other. */
export interface CompileOptions {
  /** Folder of the build cache (outside `dist/` and git); `undefined` compiles everything. */
  cacheDir?: string;
  /** Threads to compile on, the calling one included; default: every core, one for small catalogs. */
  threads?: number;
  /**
   * A staging folder ({@link stageTree}) to write each valid device's files into as soon as it is
   * ready, by the thread that compiled it; those outputs then come back without `files`. Peak
   * memory then no longer grows with the catalog, and the writing is spread over the threads.
   */
  writeTo?: string;
  /** The project root, to read the manifests of {@link DeviceFiles} from. */
  root?: string;
  /**
   * Hand each valid device's files back deflated, in `deflated` (see {@link DeviceOutput}): a tree
   * of 100,000 manifests is 370 MB of bytes and 62 MB deflated. Instead of `writeTo`.
   */
  deflate?: boolean;
  /** Start workers only for at least this many manifests left to compile (default {@link PARALLEL_THRESHOLD}). */
  workersFrom?: number;
  /** `false` leaves every device to the workers, when there are any (tests use it to be sure they run). */
  callerCompiles?: boolean;
  /** How often (ms) to start writing `writeTo` back to disk while compiling (default {@link WRITEBACK_EVERY_MS}); it is also started once the calling thread has taken the last device, and once every device is in. */
  writebackEveryMs?: number;
  /**
   * Workers started ahead ({@link prestartWorkers}), to be given the job as soon as compiling
   * starts instead of being started after the first two devices; the caller closes the pool.
   */
  pool?: WorkerPool;
}

/** The manifests of one device folder, already read, as {@link groupByDevice} returns them. */
export interface DeviceGroup {
  device: string;
  manifests: ManifestFile[];
}

/**
 * The manifests of one device folder, still to be read (paths relative to the root): each thread
 * reads a device when it takes it, and drops the bytes once it is compiled, so that no thread ever
 * holds more than a device's manifests.
 */
export interface DeviceFiles {
  device: string;
  files: { file: string; device: string }[];
  /** The folder's other entries, as listed ({@link ContentListing}); without them, the cache key lists the folder. */
  others?: readonly string[];
}

/** While a build writes into a staging folder, how often (ms) the calling thread starts writing it back to disk ({@link startWriteback}). */
export const WRITEBACK_EVERY_MS = 1000;

/**
 * Compiles every device like {@link compileDevice}, with the same result in the same order, but
 * takes a device from the cache when its manifests, the site settings and otapress itself are
 * unchanged, and shares the devices out between the calling thread and worker threads. Devices
 * given as {@link DeviceFiles} are read by the thread that takes them; problems reading them come
 * back among the device's problems. Synchronous: the calling thread takes devices one after the
 * other and, once it has compiled two (cache hits do not count) with enough left to share, starts
 * the workers, which take devices from the same counter; then it waits for them.
 */
export function compileDevices(
  sources: readonly (DeviceGroup | DeviceFiles)[],
  siteBytes: Uint8Array,
  site: Site,
  options: CompileOptions = {},
): DeviceOutput[] {
  const { cacheDir, writeTo, root, deflate } = options;
  // A cache folder this build makes (a fresh clone, CI) holds no entry of its own to look up or prune.
  const fresh = cacheDir !== undefined && mkdirSync(cacheDir, { recursive: true }) !== undefined;
  const job: Job = { site, cacheDir, fresh, writeTo, root, deflate, base: cacheDir ? baseKey(siteBytes) : undefined };
  const done: Done[] = new Array(sources.length);
  const made = new Set<string>();
  // Manifests from device i on, to know whether what is left is worth a worker.
  const left = new Array<number>(sources.length + 1).fill(0);
  for (let i = sources.length - 1; i >= 0; i--) left[i] = left[i + 1] + sizeOf(sources[i]);
  const workersFrom = options.workersFrom ?? PARALLEL_THRESHOLD;
  const workers = workersFor(sources.length, options.threads);
  const callerCompiles = (options.callerCompiles ?? true) || workers === 0;

  const state = new Int32Array(new SharedArrayBuffer(4 * (workers + 1)));
  let started: Started[] | undefined;
  const start = () => (started = startWorkers(sources, job, state, workers, options.pool));
  // Started ahead, the workers were meant for this build (a cold one, or a warm one with many
  // manifests to read): they get their job at once, and the calling thread works beside them.
  if (!callerCompiles || (options.pool && workers > 0 && left[0] >= Math.max(1, workersFrom))) start();
  if (callerCompiles) {
    let compiled = 0;
    const writebackEvery = options.writebackEveryMs ?? WRITEBACK_EVERY_MS;
    let writeback = performance.now();
    for (let i = Atomics.add(state, 0, 1); i < sources.length; i = Atomics.add(state, 0, 1)) {
      const [key, output, hit] = processDevice(sources[i], job, site, made);
      done[i] = [key, output];
      // What every thread has written so far starts going to disk while the build goes on.
      if (writeTo !== undefined && performance.now() - writeback >= writebackEvery) {
        startWriteback(writeTo);
        writeback = performance.now();
      }
      if (!hit) compiled++;
      if (!started && workers > 0 && (compiled >= 2 || workersFrom === 0) && left[i + 1] >= Math.max(1, workersFrom))
        start();
    }
  }
  // The calling thread has nothing left to take: what is written starts going to disk while the
  // last devices compile and the indexes and host files are rendered, and again once every device
  // is in, instead of all in the flush before the swap. That flush took 51 to 57 ms of a cold 1k
  // build here, 13 to 24 ms with them (10k: 41 to 55 ms, 27 to 40 ms), measured with strace.
  if (writeTo !== undefined) startWriteback(writeTo);
  if (started) {
    collect(started, state, done, sources.length);
    if (writeTo !== undefined) startWriteback(writeTo);
  }
  if (cacheDir && !fresh) pruneCache(cacheDir, new Set(done.map(([key]) => key!)));
  return done.map(([, output]) => output);
}

/** Runs in a worker thread (see compile-worker.mjs): processes the devices it claims, then reports them. */
export function runWorker({ shared, job, state, slot, port }: WorkerData): void {
  try {
    if (Atomics.compareExchange(state, slot, IDLE, RUNNING) !== IDLE) return;
    const made = new Set<string>();
    let count = 0;
    for (let i = Atomics.add(state, 0, 1); i < shared.devices.length; i = Atomics.add(state, 0, 1), count++) {
      // Sent one by one, so that the worker never holds more than the device it is on.
      const [key, output] = processDevice(unpack(shared, i), job, job.site, made);
      port.postMessage({ device: [i, key, output] });
    }
    port.postMessage({ done: count });
  } catch (error) {
    // The errno fields too (a full disk in a worker is a message for the user, not a stack trace).
    const { code, path: at, dest, syscall } = error as NodeJS.ErrnoException & { dest?: string };
    port.postMessage({
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      errno: { code, path: at, dest, syscall },
    });
  } finally {
    Atomics.store(state, slot, DONE);
    Atomics.notify(state, slot);
  }
}

// --- internal ---

/** What every thread needs to process a device, besides its manifests. */
interface Job {
  /**
   * The settings the calling thread has parsed, copied to each worker with the rest of the job: a
   * worker parsing site.yaml again took 20 to 25 ms of its start, the first YAML document it read.
   */
  site: Site;
  cacheDir?: string;
  /**
   * The cache folder was made by this build: nothing is looked up in it (a lookup that misses cost
   * an exception apiece, 75 ms of a single-threaded cold build of 100,000 manifests), and what it
   * holds at the end is this build's, or a build's that started since: nothing to prune.
   */
  fresh?: boolean;
  writeTo?: string;
  root?: string;
  deflate?: boolean;
  /** The part of the cache key common to every device ({@link baseKey}), when caching. */
  base?: string;
}

/** A processed device: its cache key (when caching) and its output. */
type Done = [string | undefined, DeviceOutput];

function sizeOf(source: DeviceGroup | DeviceFiles): number {
  return 'manifests' in source ? source.manifests.length : source.files.length;
}

/**
 * Processes one device in whichever thread claimed it: reads its manifests (for {@link DeviceFiles}),
 * takes it from the cache or compiles it and stores it there, and writes it out. Returns its cache
 * key, what is left of its output, and whether the cache had it.
 */
function processDevice(
  source: DeviceGroup | DeviceFiles,
  job: Job,
  site: Site,
  made: Set<string>,
): [string | undefined, DeviceOutput, boolean] {
  const { manifests, problems: unread } =
    'manifests' in source ? { manifests: source.manifests, problems: [] } : readManifests(job.root!, source.files);
  const key =
    job.base === undefined
      ? undefined
      : deviceKey(job.base, source.device, manifests, job.root, 'others' in source ? source.others : undefined);
  const hit = key === undefined || job.fresh ? undefined : readCacheEntry(job.cacheDir!, key);
  // A manifest that could not be read is the device's problem, and not the cache's: never stored.
  const unreadable = (output: DeviceOutput) =>
    unread.length > 0 ? { ...output, problems: [...unread, ...output.problems], files: [] } : output;
  if (hit && unread.length === 0) {
    if (job.writeTo !== undefined) {
      // The build links the cached files into its tree; one gone since it was checked (another build
      // sharing the cache pruned it) is compiled below instead.
      if (hit.output.problems.length > 0 || linkCached(hit, job.writeTo, made)) return [key, hit.output, true];
    } else {
      // The preview and callers that keep the files read them.
      const files = readCachedFiles(hit);
      if (files) return [key, finish({ ...hit.output, files }, job), true];
    }
  }
  const { device, problems, files: rendered, summary, notices, counts } = compileDevice(source.device, manifests, site);
  // Bytes once, for the staging folder, the cache and whoever keeps them (the preview serves bytes).
  const files = rendered.map((f) => ({
    path: f.path,
    contents: typeof f.contents === 'string' ? Buffer.from(f.contents) : f.contents,
  }));
  const output: DeviceOutput = { device, problems, files, summary, notices, counts }; // No builds: they are not needed past this point.
  if (unread.length > 0) return [key, finish(unreadable(output), job), false];
  if (job.writeTo === undefined || problems.length > 0) {
    if (key !== undefined) writeCacheEntry(job.cacheDir!, key, output);
    return [key, finish(output, job), false];
  }
  // Written into the tree first; the cache then links to those very files.
  if (key === undefined) for (const file of files) writeStagedFile(job.writeTo!, file, made);
  else
    writeCacheEntry(
      job.cacheDir!,
      key,
      output,
      files.map((file) => createStagedFile(job.writeTo!, file, made)),
    );
  return [key, { ...output, files: [] }, false];
}

/**
 * Links a cache hit's files into the staging tree. If one of them cannot be placed (another build
 * sharing the cache removed it since it was checked), takes back those already placed and returns
 * false: the device is then compiled, never left half-written.
 */
function linkCached(hit: CacheHit, staging: string, made: Set<string>): boolean {
  const placed: string[] = [];
  try {
    for (const file of hit.files) placed.push(linkStagedFile(staging, file.path, file.source, made));
    return true;
  } catch {
    for (const file of placed) rmSync(file, { force: true });
    return false;
  }
}

/** What is left to return of an output that is not written into a tree: deflated for the preview, else as it is. */
function finish(output: DeviceOutput, job: Job): DeviceOutput {
  return job.deflate && output.problems.length === 0 ? deflateOutput(output) : output;
}

/** A valid device's output with its files moved to `deflated`, as raw DEFLATE (level 1). */
export function deflateOutput(output: DeviceOutput): DeviceOutput {
  const deflated = output.files.map((f) => ({ path: f.path, contents: deflateRawSync(f.contents, { level: 1 }) }));
  return { ...output, files: [], deflated };
}

const IDLE = 0;
const RUNNING = 1;
const DONE = 2;
const CANCELLED = 3;

/**
 * The devices as workers see them. Manifests already read travel in one shared buffer (cloning
 * 100,000 small buffers is slow); devices to read travel as their file names.
 */
interface SharedGroups {
  devices: string[];
  /** Per device, the index of its first manifest in `files`; one more entry than devices. */
  firstFile: number[];
  files: string[];
  /** Per device to read, its folder's other entries as listed ({@link DeviceFiles}), when given. */
  others: (readonly string[] | undefined)[];
  /** Manifests already read: byte offset of each in `bytes` (one more entry than files), and the bytes. */
  offsets?: Int32Array;
  bytes?: Uint8Array;
}

interface WorkerData {
  shared: SharedGroups;
  job: Job;
  /** [0]: the next device to claim; [slot]: the worker's IDLE, RUNNING, DONE or CANCELLED. */
  state: Int32Array;
  slot: number;
  port: MessagePort;
}

interface Started {
  worker: Worker;
  port: MessagePort;
  slot: number;
}

function startWorkers(
  sources: readonly (DeviceGroup | DeviceFiles)[],
  job: Job,
  state: Int32Array,
  workers: number,
  pool?: WorkerPool,
): Started[] {
  const shared = pack(sources);
  const ready = pool?.take(workers) ?? [];
  return Array.from({ length: workers }, (_, w) => {
    const slot = w + 1;
    if (w < ready.length) {
      // Started ahead: it has loaded otapress meanwhile, and waits for this on its port.
      const { worker, port } = ready[w];
      port.postMessage({ shared, job, state, slot } satisfies Omit<WorkerData, 'port'>);
      return { worker, port, slot };
    }
    return { ...startWorker((port) => ({ shared, job, state, slot, port }) satisfies WorkerData), slot };
  });
}

/** Waits for the workers (cancelling those that have not started: nothing is left for them) and takes their outputs. */
function collect(started: Started[], state: Int32Array, done: Done[], devices: number): void {
  for (const { worker, port, slot } of started) {
    // Once every device is taken, a worker still starting up has nothing left to do: cancel it.
    if (Atomics.load(state, 0) >= devices && Atomics.compareExchange(state, slot, IDLE, CANCELLED) === IDLE) {
      void worker.terminate();
      continue;
    }
    const deadline = Date.now() + 10 * 60_000;
    for (let now = Atomics.load(state, slot); now !== DONE && now !== CANCELLED; now = Atomics.load(state, slot)) {
      if (Date.now() > deadline) throw new Error('a compile worker did not finish within 10 minutes');
      Atomics.wait(state, slot, now, 1000);
    }
    let count = 0;
    for (;;) {
      const message = receiveMessageOnPort(port)?.message as
        | { device?: [number, string | undefined, DeviceOutput]; done?: number; error?: string; errno?: object }
        | undefined;
      if (message?.device) {
        const [i, key, output] = message.device;
        done[i] = [key, output];
        count++;
        continue;
      }
      void worker.terminate();
      if (message?.done !== count)
        throw Object.assign(new Error(`a compile worker failed: ${message?.error ?? 'no answer'}`), message?.errno);
      break;
    }
  }
}

function pack(sources: readonly (DeviceGroup | DeviceFiles)[]): SharedGroups {
  const firstFile = [0];
  const files: string[] = [];
  const read: ManifestFile[] = [];
  for (const source of sources) {
    if ('manifests' in source) {
      read.push(...source.manifests);
      files.push(...source.manifests.map((m) => m.file));
    } else files.push(...source.files.map((f) => f.file));
    firstFile.push(files.length);
  }
  const others = sources.map((s) => ('others' in s ? s.others : undefined));
  const shared: SharedGroups = { devices: sources.map((s) => s.device), firstFile, files, others };
  if (read.length === 0) return shared;
  if (read.length !== files.length) throw new Error('compileDevices: devices to read and devices read cannot be mixed');
  const offsets = new Int32Array(new SharedArrayBuffer(4 * (read.length + 1)));
  read.forEach((m, i) => (offsets[i + 1] = offsets[i] + m.bytes.byteLength));
  const bytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, offsets[read.length])));
  read.forEach((m, i) => bytes.set(m.bytes, offsets[i]));
  return { ...shared, offsets, bytes };
}

function unpack(shared: SharedGroups, device: number): DeviceGroup | DeviceFiles {
  const name = shared.devices[device];
  const range = shared.files.slice(shared.firstFile[device], shared.firstFile[device + 1]);
  if (!shared.bytes)
    return { device: name, files: range.map((file) => ({ file, device: name })), others: shared.others[device] };
  const first = shared.firstFile[device];
  // A copy, not a view: TextDecoder does not decode from shared memory.
  return {
    device: name,
    manifests: range.map((file, n) => ({
      file,
      device: name,
      bytes: shared.bytes!.slice(shared.offsets![first + n], shared.offsets![first + n + 1]),
    })),
  };
}
