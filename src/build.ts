import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseManifest, type Build } from './manifest.js';
import { checkCatalog, planListings, type Listing } from './plan.js';
import { ContentError, sortProblems, type Problem } from './problems.js';
import { readContent, type Content } from './read.js';
import { renderListing } from './render.js';
import { listingsByDevice, renderDevice } from './render-device.js';
import { renderIndexes } from './render-index.js';
import { renderHostFiles, renderNetlifyToml, type Host } from './routes.js';
import { parseSite, type Site } from './site.js';
import { writeTree, type OutputFile } from './write.js';

/** The outcome of compiling the content: the output tree, or every problem that prevents it. */
export interface CompiledSite {
  site?: Site;
  builds: Build[];
  listings: Listing[];
  /** Files of `dist/`, sorted by path. Empty when there are problems. */
  files: OutputFile[];
  /** The project's `netlify.toml`, generated from the same routes as `dist/_redirects`. */
  netlifyToml?: string;
  problems: Problem[];
  /** Worth saying but not wrong: e.g. builds a v2 answer leaves out. They never stop a build. */
  notices: Problem[];
}

/** Validates and renders the whole site from content already read. Pure: no disk, no clock. */
export function compileSite(content: Content, host: Host = 'all'): CompiledSite {
  const problems = [...content.problems];
  const { site, problems: siteProblems } = content.site ? parseSite(content.site) : { site: undefined, problems: [] };
  problems.push(...siteProblems);
  if (!site) return { builds: [], listings: [], files: [], problems: sortProblems(problems), notices: [] };

  const builds: Build[] = [];
  for (const manifest of content.manifests) {
    const parsed = parseManifest(manifest.bytes, manifest.file, manifest.device, site);
    problems.push(...parsed.problems);
    if (parsed.build) builds.push(parsed.build);
  }
  problems.push(...checkCatalog(builds, content.devices));
  if (problems.length > 0) return { site, builds, listings: [], files: [], problems: sortProblems(problems), notices: [] };

  const listings = planListings(builds, content.devices, site);
  const devices = listingsByDevice(listings).map(([device, lists]) => renderDevice(device, lists, site));
  const files: OutputFile[] = [
    ...listings.map((l) => ({ path: `api/v1/${l.device}/${l.list}/index.json`, contents: renderListing(l) })),
    ...devices.flatMap((d) => d.files),
    ...renderIndexes(devices.map((d) => d.summary)),
    ...renderHostFiles(site, content.devices, host),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const notices = sortProblems(devices.flatMap((d) => d.notices));
  return { site, builds, listings, files, netlifyToml: renderNetlifyToml(site, content.devices), problems, notices };
}

/** Options of {@link build}; paths default to the conventional layout under `root`. */
export interface BuildOptions {
  root: string;
  outDir?: string;
  /** `netlify` leaves out Cloudflare's `_redirects` and `_headers`, which Netlify would also read. */
  host?: Host;
}

/** Reads `content/`, and writes `dist/` and `netlify.toml` only if everything is valid. */
export function build({ root, outDir = path.join(root, 'dist'), host = 'all' }: BuildOptions): CompiledSite {
  const compiled = compileSite(readContent(root), host);
  if (compiled.problems.length > 0) throw new ContentError(compiled.problems);
  writeTree(outDir, compiled.files);
  writeIfChanged(path.join(root, 'netlify.toml'), compiled.netlifyToml!);
  return compiled;
}

/** Validates like {@link build} and writes nothing; returns every problem. */
export function check({ root }: { root: string }): CompiledSite {
  return compileSite(readContent(root));
}

// --- internal ---

function writeIfChanged(file: string, contents: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === contents) return;
  writeFileSync(file, contents);
}
