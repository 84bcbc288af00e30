/**
 * Wing `pipeline/`: compiling devices (on worker threads, through the cache), assembling the site,
 * writing dist/ atomically under a lock, and the preview's rebuild of changed devices and its
 * server. The disk, threads and sockets live here. Imports `hosts/`, `render/` and `catalog/`;
 * never `ota/`, `import/` or the commands.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { folderCaseProblems } from './output-case.js';
import type { Build } from '../catalog/manifest.js';
import { checkCatalog, type Listing } from '../catalog/plan.js';
import { compareStrings, ContentError, sortProblems, type Problem } from '../catalog/problems.js';
import { listContent, readContent, type Content, type ContentListing } from '../catalog/read.js';
import { placeholderHostNotice, type Site } from '../catalog/site.js';
import { hostRuleProblems, renderHostFiles, type Host } from '../hosts/host-files.js';
import { oldNetlifyTomlNotice } from '../hosts/netlify.js';
import { githubPagesNotices, pagesCopies } from '../hosts/github-pages.js';
import { routeTable, type IncrementalAnswer } from '../hosts/routes.js';
import { renderIndexes } from '../render/device-index.js';
import type { OutputFile } from '../render/output.js';
import { linksOf, servedByGitHubPages } from '../render/urls.js';
import type { DeviceSummary } from '../render/summary.js';
import { infoUrlNotice } from '../render/v2-directory.js';
import { compileDevice, compileSettings, filesByDevice, groupByDevice, type DeviceOutput } from './compile-device.js';
import { cacheDirOf } from './cache-key.js';
import { compileDevices } from './compile-devices.js';
import { isColdBuild, prestartFor, workersFor, type WorkerPool } from './worker-pool.js';
import { checkOutDir, OUTPUT_MARKER_FILE, writeFailure } from './out-dir.js';
import { withOutputLock } from './output-lock.js';
import { withJitBudget, withTightHeap } from './v8-tuning.js';
import { recoverTree, stageTree, writeStagedFile } from './write.js';

/** The outcome of compiling the content: the output tree, or every problem that prevents it. */
export interface CompiledSite {
  site?: Site;
  builds: Build[];
  listings: Listing[];
  /** Files of `dist/`, sorted by path. Empty when there are problems. */
  files: OutputFile[];
  problems: Problem[];
  /** Worth saying but not wrong: e.g. builds a v2 answer leaves out. They never stop a build. */
  notices: Problem[];
}

/** Validates and renders the whole site from content already read. Pure: no disk, no clock. */
export function compileSite(content: Content, host: Host = 'all'): CompiledSite {
  const { site, problems } = compileSettings(content);
  if (!site) return { builds: [], listings: [], files: [], problems, notices: [] };

  const devices = groupByDevice(content).map(({ device, manifests }) => compileDevice(device, manifests, site));
  const target = hostOf(site, host);
  const assembled = assembleSite(content, site, devices, target, problems);
  const builds = devices.flatMap((d) => d.builds).sort((a, b) => compareStrings(a.source, b.source));
  if (assembled.problems.length > 0)
    return { site, builds, listings: [], files: [], problems: assembled.problems, notices: [] };
  const byPath = new Map(assembled.files.map((f) => [f.path, f.contents]));
  const copies = target === 'github-pages' ? pagesCopies(site, content.devices) : [];
  for (const copy of copies) {
    const contents = byPath.get(copy.from);
    if (contents !== undefined && !byPath.has(copy.path)) assembled.files.push({ path: copy.path, contents });
  }
  const files = assembled.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const listings = devices.flatMap((d) => d.listings);
  return { site, builds, listings, files, problems: [], notices: assembled.notices };
}

/**
 * Joins compiled devices into the site: the checks between devices, the indexes, the host files
 * (`hostFiles` and `indexFiles` let the preview reuse them while the devices stay the same), and every problem in
 * one sorted list, so the result does not depend on which thread or cache compiled which device.
 * The files come in no particular order: {@link compileSite} sorts them.
 */
export function assembleSite(
  content: Pick<Content, 'devices'>,
  site: Site,
  devices: readonly DeviceOutput[],
  host: Host,
  problems: Problem[],
  hostFiles?: () => OutputFile[],
  indexFiles: (summaries: DeviceSummary[]) => OutputFile[] = (summaries) =>
    renderIndexes(summaries, linksOf(site), site.formats),
): { files: OutputFile[]; problems: Problem[]; notices: Problem[] } {
  // One route table for the hosts' limits and their rule files (the preview brings its own files).
  const table = routeTable(site, {
    devices: content.devices,
    incrementals: incrementalAnswers(devices),
    rootFiles: rootFormatAnswers(devices),
  });
  const all = [
    ...problems,
    ...devices.flatMap((d) => d.problems),
    ...checkCatalog([], content.devices),
    ...hostRuleProblems(site, host, table),
  ];
  if (all.length > 0) return { files: [], problems: sortProblems(all), notices: [] };
  const files: OutputFile[] = [
    ...devices.flatMap((d) => d.files),
    ...indexFiles(devices.map((d) => d.summary!)),
    ...(hostFiles ? hostFiles() : renderHostFiles(site, host, table)),
    OUTPUT_MARKER_FILE,
  ];
  // Sorted when asked for: the preview, which rebuilds on every change, never asks.
  return {
    files,
    problems: [],
    get notices() {
      // The newest download of each list is what phones are offered: on init's placeholder host, it leads nowhere.
      const offered = devices.flatMap((d) => d.summary?.lists.flatMap((l) => (l.newest ? [l.newest.url] : [])) ?? []);
      const placeholderHost = placeholderHostNotice(site, offered);
      const infoUrls = infoUrlNotice(
        site,
        devices.flatMap((d) => (d.summary ? [d.summary] : [])),
      );
      // What Pages cannot answer, for a build for it or a site published there.
      const onPages = servedByGitHubPages(site);
      const changes = devices.some((d) => d.summary?.changes !== undefined);
      // A site on github.io is deployed by a build for Pages (init's workflow), which writes the copies.
      const copies = host === 'github-pages' || onPages;
      const catalog = { changes, incrementals: incrementalAnswers(devices), linksToFiles: onPages, copies };
      const pages = host === 'github-pages' || onPages ? githubPagesNotices(site, catalog) : [];
      return sortProblems([
        ...devices.flatMap((d) => d.notices),
        ...(placeholderHost ? [placeholderHost] : []),
        ...(infoUrls ? [infoUrls] : []),
        ...pages,
      ]);
    },
  };
}

/** The answers for phones on one build that the compiled devices have, for the hosts' rules (in device order). */
export function incrementalAnswers(devices: readonly Pick<DeviceOutput, 'device' | 'summary'>[]): IncrementalAnswer[] {
  return devices.flatMap((d) =>
    (d.summary?.incrementals ?? []).map(({ list, incremental }) => ({ device: d.device, list, incremental })),
  );
}

/** The files of the other updater formats that the compiled devices write at the root of the site (`/akita.json`), for the hosts' rules (in device order). */
export function rootFormatAnswers(devices: readonly Pick<DeviceOutput, 'summary'>[]): string[] {
  return devices.flatMap((d) => d.summary?.rootFiles ?? []);
}

/** Options of {@link build}; paths default to the conventional layout under `root`. */
export interface BuildOptions {
  root: string;
  outDir?: string;
  /** `netlify` writes Netlify's `_redirects` and `_headers` in place of Cloudflare's, which Netlify would also read. */
  host?: Host;
  /** Keep compiled devices in `node_modules/.cache/otapress` to reuse unchanged ones (default true). */
  cache?: boolean;
  /** Threads to compile on; default: every core (one for small catalogs). The output is the same. */
  threads?: number;
  /**
   * Workers the caller started ahead for this build ({@link prestartForBuild}, as the build command
   * does before loading the rest of otapress); the caller closes the pool. Without it, a cold build,
   * or a warm one of many manifests ({@link prestartFor}), starts its own once `content/` is listed.
   */
  pool?: WorkerPool;
  /** How long to wait for another build writing the same folder (ms); then refuse. */
  waitMs?: number;
  /** Told once when another build holds the output folder and this one waits for it. */
  onWait?(holder: number): void;
  /** Replace `outDir` even when it holds files no build wrote (they are deleted). */
  overwrite?: boolean;
}

/** What a build wrote: counts for the summary line, and the notices to print. */
export interface BuildSummary {
  notices: Problem[];
  builds: number;
  devices: number;
  listings: number;
  records: number;
  files: number;
}

/**
 * Reads `content/`, and writes `dist/` only if everything is valid (never `netlify.toml`). The output is
 * that of {@link compileSite}, byte for byte; devices come from the cache or are compiled on every core.
 */
export function build(options: BuildOptions): BuildSummary {
  const outDir = options.outDir ?? path.join(options.root, 'dist');
  try {
    return buildInto(outDir, options);
  } catch (error) {
    // A full disk, a read-only or forbidden folder: said in words, with the path (the tree is untouched).
    throw writeFailure(error, outDir) ?? error;
  }
}

/** Validates like {@link build} and writes nothing; returns every problem. */
export function check({ root }: { root: string }): CompiledSite {
  const content = readContent(root);
  // On the calling thread alone, with the budget set once otapress is loaded (check's `setsJitBudget`).
  const compiled = withJitBudget(content.manifests.length, () => compileSite(content));
  const old = compiled.site && oldNetlifyToml(root, compiled.site);
  return old ? { ...compiled, notices: sortProblems([...compiled.notices, old]) } : compiled;
}

// --- internal ---

function buildInto(
  outDir: string,
  { root, host = 'all', cache = true, threads, waitMs, onWait, overwrite, pool: given }: BuildOptions,
): BuildSummary {
  checkOutDir(outDir, root, { overwrite });
  // Only listed here: each thread reads a device's manifests when it takes the device, and drops
  // them once it is compiled, so that memory does not grow with the catalog.
  const content = listContent(root);
  const cacheDir = cache ? cacheDirOf(root) : undefined;
  const cold = isColdBuild(cacheDir);
  // Without workers started by the caller, a build worth sharing out (prestartFor: cold, or warm and
  // large) starts its own now, as soon as it knows how many manifests there are: they load otapress
  // while this thread reads the settings, takes the lock and stages the tree, instead of after its
  // first two compiled devices (or never, in a warm build).
  const pool =
    given ??
    prestartFor(cacheDir, threads, () => ({ devices: content.devices.length, manifests: content.files.length }));
  try {
    // A cold build's calling thread has its heap collected at once, so that its next limit is set
    // by the tight growing percentage (see collectNow). Not a warm one's: its heap holds the cached
    // devices' summaries, and more collections with less room cost it more than they save (100k,
    // one manifest changed: 5.2 s and 150 MB with, 4.3 to 4.6 s and 177 MB without).
    const perThread = content.files.length / (workersFor(content.devices.length, threads) + 1);
    return withJitBudget(perThread, () =>
      withTightHeap(
        content.files.length,
        () => buildListed(outDir, content, { root, host, cache, threads, waitMs, onWait }, pool),
        { collectFirst: cold },
      ),
    );
  } finally {
    if (!given) void pool?.close();
  }
}

function buildListed(
  outDir: string,
  content: ContentListing,
  { root, host = 'all', cache = true, threads, waitMs, onWait }: BuildOptions,
  pool?: WorkerPool,
): BuildSummary {
  // One build at a time writes a folder (its devices go into the staging folder as they compile);
  // a tree a killed build had moved aside is put back even when this one fails.
  return withOutputLock(
    outDir,
    () => {
      recoverTree(outDir);
      const { site, problems } = compileSettings(content);
      if (!site) throw new ContentError(problems);
      const tree = stageTree(outDir);
      try {
        const folderClashes = folderCaseProblems(site, tree.staging);
        if (folderClashes.length > 0) throw new ContentError(folderClashes);
        // Each valid device's files go into the staging folder as soon as they are ready; the tree
        // only replaces dist/ once every device and the host files are in.
        const devices = compileDevices(filesByDevice(content), content.site!, site, {
          cacheDir: cache ? cacheDirOf(root) : undefined,
          threads,
          writeTo: tree.staging,
          root,
          pool,
        });
        const target = hostOf(site, host);
        const compiled = assembleSite(content, site, devices, target, problems);
        if (compiled.problems.length > 0) throw new ContentError(compiled.problems);
        const made = new Set<string>();
        for (const file of compiled.files) writeStagedFile(tree.staging, file, made);
        // Pages' copies of the listings the request paths answer (compileSite adds the same).
        const staged = (file: string) => existsSync(path.join(tree.staging, file));
        const copies = (target === 'github-pages' ? pagesCopies(site, content.devices) : []).filter(
          (c) => staged(c.from) && !staged(c.path),
        );
        for (const copy of copies) {
          writeStagedFile(
            tree.staging,
            { path: copy.path, contents: readFileSync(path.join(tree.staging, copy.from)) },
            made,
          );
        }
        tree.commit();
        const old = oldNetlifyToml(root, site);
        const sum = (key: keyof DeviceOutput['counts']) => devices.reduce((n, d) => n + d.counts[key], 0);
        return {
          notices: old ? sortProblems([...compiled.notices, old]) : compiled.notices,
          builds: sum('builds'),
          // Every device the site publishes, one with a device.yaml and no build yet included.
          devices: devices.length,
          listings: sum('listings'),
          records: sum('records'),
          files: compiled.files.length + copies.length + sum('files'),
        };
      } catch (error) {
        tree.discard();
        throw error;
      }
    },
    { waitMs, onWait },
  );
}

/**
 * The notice for a `netlify.toml` that an earlier otapress build wrote with the catalog's routes
 * (netlify.ts), for a site whose `hosts` has netlify. The file is only read: no command rewrites it.
 */
function oldNetlifyToml(root: string, site: Site): Problem | undefined {
  const file = path.join(root, 'netlify.toml');
  if (!site.hosts.includes('netlify') || !existsSync(file) || !statSync(file).isFile()) return undefined;
  return oldNetlifyTomlNotice(readFileSync(file, 'utf8'));
}

/**
 * A site whose `hosts` has no cloudflare gets no Cloudflare rule files: Netlify's, as with
 * `--host netlify`, or, for a site on GitHub Pages alone, what Pages needs.
 */
export function hostOf(site: Site, host: Host): Host {
  if (site.hosts.includes('cloudflare') || host !== 'all') return host;
  return site.hosts.includes('netlify') ? 'netlify' : 'github-pages';
}
