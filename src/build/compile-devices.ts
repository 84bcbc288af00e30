import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { compileDevice, type DeviceOutput } from './compile-device.js';
import type { Problem } from '../catalog/problems.js';
import type { ManifestFile } from '../catalog/read.js';
import { parseSite, type Site } from '../catalog/site.js';
import { writeStagedFile } from './write.js';

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
  /** Start workers only for at least this many manifests (default {@link PARALLEL_THRESHOLD}). */
  workersFrom?: number;
  /** `false` leaves every device to the workers, when there are any (tests use it to be sure they run). */
  callerCompiles?: boolean;
}

/** The manifests of one device folder, as {@link groupByDevice} returns them. */
export interface DeviceGroup {
  device: string;
  manifests: ManifestFile[];
}

/** Below this many manifests, starting a worker costs more than it saves. */
export const PARALLEL_THRESHOLD = 4000;

/**
 * Compiles every device like {@link compileDevice}, with the same result in the same order, but
 * takes a device from the cache when its manifests, the site settings and otapress itself are
 * unchanged, and shares the devices out between the calling thread and worker threads.
 * Synchronous: the calling thread does its share, then blocks until the workers report theirs.
 */
export function compileDevices(groups: readonly DeviceGroup[], siteBytes: Uint8Array, site: Site, options: CompileOptions = {}): DeviceOutput[] {
  const { cacheDir, writeTo } = options;
  const job: Job = { siteBytes, cacheDir, writeTo };
  const done: Done[] = new Array(groups.length);
  const made = new Set<string>();
  // Cache hits cost a read and a hash: the calling thread takes them, so that workers start only
  // when there is compiling to share.
  if (cacheDir) {
    mkdirSync(cacheDir, { recursive: true });
    const base = baseKey(siteBytes);
    groups.forEach((group, i) => {
      const key = deviceKey(base, group);
      const output = readCacheEntry(cacheDir, key);
      done[i] = output ? [key, writeOut(output, job, made)] : [key, undefined];
    });
  }
  const missing = groups.flatMap((_, i) => (done[i]?.[1] ? [] : [i]));
  const manifests = missing.reduce((n, i) => n + groups[i].manifests.length, 0);
  const threads = options.threads ?? availableParallelism();
  const workers = manifests < (options.workersFrom ?? PARALLEL_THRESHOLD) ? 0 : Math.max(0, Math.min(threads - 1, missing.length - 1));
  const tasks = missing.map((i) => ({ ...groups[i], key: done[i]?.[0] }));
  const compiled = workers === 0 ? tasks.map((task) => processDevice(task, job, site, made)) : processInThreads(tasks, job, site, workers, options.callerCompiles ?? true);
  missing.forEach((i, n) => (done[i] = [done[i]?.[0], compiled[n]]));
  if (cacheDir) pruneCache(cacheDir, new Set(done.map(([key]) => key!)));
  return done.map(([, output]) => output!);
}

/** Runs in a worker thread (see compile-worker.mjs): processes the devices it claims, then reports them. */
export function runWorker({ shared, job, state, slot, port }: WorkerData): void {
  try {
    if (Atomics.compareExchange(state, slot, IDLE, RUNNING) !== IDLE) return;
    const { site } = parseSite(job.siteBytes);
    const done: [number, DeviceOutput][] = [];
    const made = new Set<string>();
    for (let i = Atomics.add(state, 0, 1); i < shared.devices.length; i = Atomics.add(state, 0, 1)) {
      done.push([i, processDevice({ device: shared.devices[i], manifests: unpack(shared, i), key: shared.keys[i] }, job, site!, made)]);
    }
    port.postMessage({ done });
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    Atomics.store(state, slot, DONE);
    Atomics.notify(state, slot);
  }
}

// --- internal ---

/** What every thread needs to process a device, besides its manifests. */
interface Job {
  siteBytes: Uint8Array;
  cacheDir?: string;
  writeTo?: string;
}

/** A device to compile, with the cache key to store the result under (when caching). */
interface Task extends DeviceGroup {
  key?: string;
}

/** A processed device: its cache key (when caching) and its output. */
type Done = [string | undefined, DeviceOutput | undefined];

/** Compiles one device in whichever thread claimed it, stores it in the cache and writes it out. */
function processDevice(task: Task, job: Job, site: Site, made: Set<string>): DeviceOutput {
  const { device, problems, files, summary, notices, counts } = compileDevice(task.device, task.manifests, site);
  const output = { device, problems, files, summary, notices, counts }; // No builds: they stay in this thread.
  if (task.key !== undefined) writeCacheEntry(job.cacheDir!, task.key, output);
  return writeOut(output, job, made);
}

/** Writes a valid device's files into the staging folder, if there is one; what is left to return. */
function writeOut(output: DeviceOutput, job: Job, made: Set<string>): DeviceOutput {
  if (job.writeTo === undefined || output.problems.length > 0) return output;
  for (const file of output.files) writeStagedFile(job.writeTo, file, made);
  return { ...output, files: [] };
}

const IDLE = 0;
const RUNNING = 1;
const DONE = 2;
const CANCELLED = 3;

/** The manifests of every device in one shared buffer: cloning 100,000 small buffers is slow. */
interface SharedGroups {
  devices: string[];
  keys: (string | undefined)[];
  /** Per device, the index of its first manifest in `files`; one more entry than devices. */
  firstFile: number[];
  files: string[];
  /** Byte offset of each manifest in `bytes`; one more entry than files. */
  offsets: Int32Array;
  bytes: Uint8Array;
}

interface WorkerData {
  shared: SharedGroups;
  job: Job;
  /** [0]: the next device to claim; [slot]: the worker's IDLE, RUNNING, DONE or CANCELLED. */
  state: Int32Array;
  slot: number;
  port: MessagePort;
}

function processInThreads(groups: readonly Task[], job: Job, site: Site, workers: number, callerCompiles: boolean): DeviceOutput[] {
  const shared = pack(groups);
  const state = new Int32Array(new SharedArrayBuffer(4 * (workers + 1)));
  const started = Array.from({ length: workers }, (_, w) => {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./compile-worker.mjs', import.meta.url), {
      workerData: { shared, job, state, slot: w + 1, port: port2 } satisfies WorkerData,
      transferList: [port2],
      // A small young generation keeps the worker's garbage, and so the build's peak memory, low.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    return { worker, port: port1, slot: w + 1 };
  });

  const done: DeviceOutput[] = new Array(groups.length);
  const made = new Set<string>();
  if (callerCompiles) {
    for (let i = Atomics.add(state, 0, 1); i < groups.length; i = Atomics.add(state, 0, 1)) done[i] = processDevice(groups[i], job, site, made);
  }
  for (const { worker, port, slot } of started) {
    // A worker that has not started by now has nothing left to do: cancel it rather than wait.
    if (callerCompiles && Atomics.compareExchange(state, slot, IDLE, CANCELLED) === IDLE) {
      void worker.terminate();
      continue;
    }
    const deadline = Date.now() + 10 * 60_000;
    for (let now = Atomics.load(state, slot); now !== DONE && now !== CANCELLED; now = Atomics.load(state, slot)) {
      if (Date.now() > deadline) throw new Error('a compile worker did not finish within 10 minutes');
      Atomics.wait(state, slot, now, 1000);
    }
    const message = receiveMessageOnPort(port)?.message as { done?: [number, DeviceOutput][]; error?: string } | undefined;
    void worker.terminate();
    if (!message?.done) throw new Error(`a compile worker failed: ${message?.error ?? 'no answer'}`);
    for (const [i, result] of message.done) done[i] = result;
  }
  return done;
}

function pack(groups: readonly Task[]): SharedGroups {
  const all = groups.flatMap((g) => g.manifests);
  const offsets = new Int32Array(new SharedArrayBuffer(4 * (all.length + 1)));
  all.forEach((m, i) => (offsets[i + 1] = offsets[i] + m.bytes.byteLength));
  const bytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, offsets[all.length])));
  all.forEach((m, i) => bytes.set(m.bytes, offsets[i]));
  const firstFile = [0];
  for (const g of groups) firstFile.push(firstFile[firstFile.length - 1] + g.manifests.length);
  return { devices: groups.map((g) => g.device), keys: groups.map((g) => g.key), firstFile, files: all.map((m) => m.file), offsets, bytes };
}

function unpack(shared: SharedGroups, device: number): ManifestFile[] {
  const manifests: ManifestFile[] = [];
  for (let f = shared.firstFile[device]; f < shared.firstFile[device + 1]; f++) {
    // A copy, not a view: TextDecoder does not decode from shared memory.
    manifests.push({ file: shared.files[f], device: shared.devices[device], bytes: shared.bytes.slice(shared.offsets[f], shared.offsets[f + 1]) });
  }
  return manifests;
}

// --- the cache ---

/**
 * One file per device, named by the SHA-256 of everything its output depends on: the cache format,
 * otapress's own code and version and the versions of yaml and zod, the site settings, the device name and
 * every manifest's path and bytes. A changed input gives another name, so a stale entry is never
 * found, let alone served.
 */
function baseKey(siteBytes: Uint8Array): string {
  return createHash('sha256').update(CACHE_FORMAT).update(codeVersion()).update(`${siteBytes.byteLength}\0`).update(siteBytes).digest('hex');
}

function deviceKey(base: string, { device, manifests }: DeviceGroup): string {
  const hash = createHash('sha256').update(base).update(`${device}\0`);
  for (const m of manifests) hash.update(`${m.file}\0${m.bytes.byteLength}\0`).update(m.bytes);
  return hash.digest('hex');
}

const CACHE_FORMAT = 'otapress device cache 2\n';

let code: string | undefined;
/** A digest of the sources of otapress and of the libraries that shape its output. */
function codeVersion(): string {
  if (code !== undefined) return code;
  const hash = createHash('sha256');
  // Every wing of src/ shapes the output, so the digest covers them all, not only this folder.
  const dir = path.dirname(import.meta.dirname);
  const names = (readdirSync(dir, { recursive: true }) as string[]).map((n) => n.split(path.sep).join('/')).sort();
  for (const name of names) {
    if (/\.(ts|mjs|js)$/.test(name)) hash.update(name).update('\0').update(readFileSync(path.join(dir, name)));
  }
  // package.json (beside src/, or lib/ when installed) holds the version of otapress, so an upgrade
  // never reuses an entry, and the exact versions of yaml and zod (bundled into lib/ when installed).
  hash.update(readFileSync(new URL('../../package.json', import.meta.url)));
  return (code = hash.digest('hex'));
}

/**
 * An entry is the SHA-256 of the rest of the file on the first line, then a header line (JSON: the
 * device's problems and counts, each file's path and length), then the files' bytes. Anything that
 * does not check out (a truncated or corrupt file, another format) is treated as missing.
 */
function readCacheEntry(cacheDir: string, key: string): DeviceOutput | undefined {
  let data: Buffer;
  try {
    data = readFileSync(path.join(cacheDir, `${key}.bin`));
  } catch {
    return undefined;
  }
  try {
    if (data.byteLength < 65 || data[64] !== 10) return undefined;
    const rest = data.subarray(65);
    if (createHash('sha256').update(rest).digest('hex') !== data.toString('latin1', 0, 64)) return undefined;
    const newline = rest.indexOf(10);
    const header = JSON.parse(rest.subarray(0, newline).toString('utf8')) as CacheHeader;
    if (header.format !== CACHE_FORMAT || header.key !== key) return undefined;
    let offset = newline + 1;
    const files = header.files.map(([file, length]) => ({ path: file, contents: rest.subarray(offset, (offset += length)) }));
    if (offset !== rest.byteLength) return undefined;
    return { device: header.device, problems: header.problems, summary: header.summary, notices: header.notices, counts: header.counts, files };
  } catch {
    return undefined;
  }
}

interface CacheHeader {
  format: string;
  key: string;
  device: string;
  problems: Problem[];
  summary: DeviceOutput['summary'];
  notices: Problem[];
  counts: DeviceOutput['counts'];
  files: [string, number][];
}

function writeCacheEntry(cacheDir: string, key: string, output: DeviceOutput): void {
  const contents = output.files.map((f) => (typeof f.contents === 'string' ? Buffer.from(f.contents) : f.contents));
  const header: CacheHeader = {
    format: CACHE_FORMAT,
    key,
    device: output.device,
    problems: output.problems,
    summary: output.summary,
    notices: output.notices,
    counts: output.counts,
    files: output.files.map((f, i) => [f.path, contents[i].byteLength]),
  };
  const rest = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ...contents]);
  const digest = createHash('sha256').update(rest).digest('hex');
  const temporary = path.join(cacheDir, `.${key}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${digest}\n`), rest]));
    renameSync(temporary, path.join(cacheDir, `${key}.bin`));
  } catch {
    rmSync(temporary, { force: true }); // A cache that cannot be written only makes the next build slower.
  }
}

/** Removes entries this build did not use, so the cache holds one catalog's worth, not history. */
function pruneCache(cacheDir: string, used: Set<string>): void {
  for (const name of readdirSync(cacheDir)) {
    const match = /^([0-9a-f]{64})\.bin$/.exec(name);
    if (match && !used.has(match[1])) rmSync(path.join(cacheDir, name), { force: true });
  }
}
