import { inflateRawSync } from 'node:zlib';
import { assembleSite, compileSite, incrementalAnswers, rootFormatAnswers, zipRedirects } from './build.js';
import { cacheDirOf } from './cache-key.js';
import { withTightHeap } from './v8-tuning.js';
import { compileSettings, filesByDevice, groupByDevice, type DeviceOutput } from './compile-device.js';
import { compileDevices, deflateOutput } from './compile-devices.js';
import { DEVICE_NAME } from '../catalog/plan.js';
import { compareStrings, type Problem } from '../catalog/problems.js';
import { listContent, readContent } from '../catalog/read.js';
import { servedTree, type ServedTree } from '../hosts/respond.js';
import { renderHostFiles } from '../hosts/host-files.js';
import { listingRedirects, routeTable } from '../hosts/routes.js';
import type { Site } from '../catalog/site.js';
import { renderIndexes } from '../render/device-index.js';
import type { OutputFile } from '../render/output.js';
import { linksOf } from '../render/urls.js';
import type { DeviceSummary } from '../render/summary.js';

/** The outcome of one rebuild: a tree to serve, or the problems that prevent it. */
export interface RebuildResult {
  tree?: ServedTree;
  problems: Problem[];
}

/**
 * Produces the tree to serve after the files in `changed` (paths relative to the project root;
 * empty on the first build) have changed. The server only swaps in what this returns, so a faster
 * implementation (re-rendering only the affected device) can replace {@link fullRebuild}.
 */
export type Rebuild = (changed: readonly string[]) => RebuildResult;

/** Reads and compiles the whole of `content/` again, whatever changed: in memory, nothing written. */
export function fullRebuild(root: string): Rebuild {
  return () => {
    const compiled = compileSite(readContent(root));
    if (compiled.problems.length > 0 || !compiled.site) return { problems: compiled.problems };
    const redirects = listingRedirects(compiled.site, compiled.listings);
    return { tree: servedTree(compiled.site, compiled.files, redirects), problems: [] };
  };
}

/**
 * The preview's rebuild: after a change inside device folders, re-reads and re-renders those
 * devices only, and reuses every other device's rendered listings (and the host files while the
 * device list stays the same), so a change in a catalog of 100,000 manifests is served in
 * milliseconds. Anything else (the first build, `site.yaml`, a file directly in `content/`)
 * compiles everything. The tree is always the one {@link compileSite} renders from the same files.
 */
export function changedDevicesRebuild(root: string): Rebuild {
  let state: State | undefined;

  const assemble = (s: State): RebuildResult => {
    const outputs = s.devices.flatMap((d) => s.outputs.get(d) ?? []);
    // Cloudflare's rules name each answer for phones on one build: they change with those too.
    const incrementals = incrementalAnswers(outputs);
    // And the formats' files at the root, each of which has a rule there.
    const rootFiles = rootFormatAnswers(outputs);
    // And GrapheneOS's zip names, each redirected to its download.
    const redirects = zipRedirects(outputs);
    const key = `${s.devices.join('/')}\u0000${incrementals.map((a) => `${a.device}/${a.list}/${a.incremental}`).join(' ')}\u0000${rootFiles.join(' ')}\u0000${redirects.map((r) => `${r.from} ${r.to}`).join(' ')}`;
    if (s.hostFiles?.key !== key)
      s.hostFiles = {
        key,
        files: renderHostFiles(
          s.site,
          'all',
          routeTable(s.site, { devices: s.devices, incrementals, rootFiles, redirects }),
        ),
      };
    const problems = [...s.siteProblems, ...[...s.layoutProblems.values()].flat()];
    // The devices' own files stay deflated, out of the assembly: only the indexes and host files come back.
    const assembled = assembleSite(
      s,
      s.site,
      outputs,
      'all',
      problems,
      () => s.hostFiles!.files,
      (summaries) => {
        // The indexes only change when a summary does: a changed manifest is rarely a list's newest build.
        if (!s.indexes || !sameSummaries(s.indexes.summaries, summaries))
          s.indexes = { summaries, files: renderIndexes(summaries, linksOf(s.site), s.site.formats) };
        return s.indexes.files;
      },
    );
    if (assembled.problems.length > 0) return { problems: assembled.problems };
    const files = new Map<string, Stored>();
    for (const output of outputs)
      for (const file of output.deflated ?? []) files.set(`/${file.path}`, new Deflated(file.contents as Uint8Array));
    for (const [served, contents] of servedTree(s.site, assembled.files).files) files.set(served, contents);
    const served = {
      site: s.site,
      files: new DeflatedFiles(files),
      redirects: new Map(redirects.map((r) => [r.from, r.to])),
    };
    return { tree: served, problems: [] };
  };

  const full = (): RebuildResult => {
    const listing = listContent(root);
    const { site, problems } = compileSettings(listing);
    state = undefined;
    if (!site) return { problems }; // Nothing to build on: the next change compiles everything again.
    const compiled = withTightHeap(listing.files.length, () =>
      compileDevices(filesByDevice(listing), listing.site!, site, { cacheDir: cacheDirOf(root), root, deflate: true }),
    );
    state = {
      site,
      siteBytes: listing.site!,
      siteProblems: problems.filter((p) => !listing.problems.includes(p)),
      layoutProblems: byFolder(listing.problems),
      devices: listing.devices,
      outputs: new Map(compiled.map((o) => [o.device, o])),
    };
    return assemble(state);
  };

  return (changed) => {
    const devices = state ? changedDevices(changed) : undefined;
    if (!state || !devices) return full();
    const partial = readContent(root, { devices });
    const { outputs, layoutProblems } = state;
    for (const device of devices) {
      outputs.delete(device);
      layoutProblems.delete(device);
    }
    for (const [device, problems] of byFolder(partial.problems)) layoutProblems.set(device, problems);
    // Served as they are, deflated right after: a few milliseconds sooner for the one who is waiting.
    const compiled = compileDevices(groupByDevice(partial), state.siteBytes, state.site, { threads: 1 });
    for (const output of compiled) outputs.set(output.device, output);
    state.devices = [...state.devices.filter((d) => !devices.includes(d)), ...partial.devices].sort(compareStrings);
    const result = assemble(state);
    setImmediate(() => {
      for (const output of compiled)
        if (outputs.get(output.device) === output && output.problems.length === 0)
          outputs.set(output.device, deflateOutput(output));
    });
    return result;
  };
}

/**
 * What the preview serves from: the devices' files deflated (a tree of 100,000 manifests is
 * 370 MB of bytes, 62 MB deflated), inflated when asked for, ~0.1 ms for a listing; the indexes
 * and host files as they are.
 */
export class DeflatedFiles implements ReadonlyMap<string, string | Uint8Array> {
  constructor(private readonly stored: ReadonlyMap<string, Stored>) {}
  get size(): number {
    return this.stored.size;
  }
  has(served: string): boolean {
    return this.stored.has(served);
  }
  get(served: string): string | Uint8Array | undefined {
    const value = this.stored.get(served);
    return value instanceof Deflated ? inflateRawSync(value.bytes) : value;
  }
  /** The bytes kept for a path (deflated or not): the same object for as long as the file is unchanged. */
  storedAt(served: string): string | Uint8Array | undefined {
    const value = this.stored.get(served);
    return value instanceof Deflated ? value.bytes : value;
  }
  keys(): MapIterator<string> {
    return this.stored.keys();
  }
  values(): MapIterator<string | Uint8Array> {
    const stored = this.stored.keys();
    return (function* (files) {
      for (const served of stored) yield files.get(served)!;
    })(this) as MapIterator<string | Uint8Array>;
  }
  entries(): MapIterator<[string, string | Uint8Array]> {
    const stored = this.stored.keys();
    return (function* (files): Generator<[string, string | Uint8Array]> {
      for (const served of stored) yield [served, files.get(served)!];
    })(this) as MapIterator<[string, string | Uint8Array]>;
  }
  forEach(
    callback: (value: string | Uint8Array, key: string, map: ReadonlyMap<string, string | Uint8Array>) => void,
    thisArg?: unknown,
  ): void {
    for (const [served, contents] of this.entries()) callback.call(thisArg, contents, served, this);
  }
  [Symbol.iterator](): MapIterator<[string, string | Uint8Array]> {
    return this.entries();
  }
}

/** A file kept as raw DEFLATE. */
class Deflated {
  constructor(readonly bytes: Uint8Array) {}
}

type Stored = Deflated | string | Uint8Array;

// --- internal ---

/** What the preview keeps between rebuilds: everything but the manifests themselves. */
interface State {
  site: Site;
  siteBytes: Uint8Array;
  /** Problems of `site.yaml` (they only change with a full rebuild). */
  siteProblems: Problem[];
  /** Layout problems of `listContent` and `readContent`, by the device folder they are in ('' for the rest). */
  layoutProblems: Map<string, Problem[]>;
  /** Device folders with manifests, sorted. */
  devices: string[];
  outputs: Map<string, DeviceOutput>;
  hostFiles?: { key: string; files: OutputFile[] };
  indexes?: { summaries: DeviceSummary[]; files: OutputFile[] };
}

/** Whether two lists of summaries are equal: the same objects, or equal as JSON. */
function sameSummaries(a: readonly DeviceSummary[], b: readonly DeviceSummary[]): boolean {
  return (
    a.length === b.length &&
    a.every((summary, i) => summary === b[i] || JSON.stringify(summary) === JSON.stringify(b[i]))
  );
}

/** Groups problems by the device folder of their file: `content/<device>` or anything inside it. */
function byFolder(problems: readonly Problem[]): Map<string, Problem[]> {
  const groups = new Map<string, Problem[]>();
  for (const problem of problems) {
    const parts = problem.file.split('/');
    const inFolder =
      parts[0] === 'content' && (parts.length >= 3 || (parts.length === 2 && problem.field === '(folder)'));
    const folder = inFolder ? parts[1] : '';
    groups.set(folder, [...(groups.get(folder) ?? []), problem]);
  }
  return groups;
}

/** The device folders that `changed` touches, or `undefined` when the change reaches beyond them. */
function changedDevices(changed: readonly string[]): string[] | undefined {
  if (changed.length === 0) return undefined;
  const devices = new Set<string>();
  for (const file of changed) {
    const parts = file.split('/');
    // content/<device> itself (a folder created, renamed or removed) or a file inside it.
    if (parts[0] !== 'content' || parts.length < 2 || parts[1] === 'site.yaml' || !DEVICE_NAME.test(parts[1]))
      return undefined;
    if (parts.length === 2 && /\.ya?ml$/i.test(parts[1])) return undefined; // A stray manifest beside site.yaml.
    devices.add(parts[1]);
  }
  return [...devices].sort(compareStrings);
}
