/**
 * What to probe: every answer the planned site publishes, at the path its updater asks, or the one
 * answer a ROM build asks (its build.prop). Pure: the compiled site and the text in, URLs out.
 */
import { formatPath } from '../catalog/formats.js';
import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from '../render/output.js';
import { API_FILES, fill, servedByGitHubPages, URLS } from '../render/urls.js';
import type { AnswerKind } from './updaters.js';

/** One answer to fetch: which updater reads it, for which device and list, and where. */
export interface Target {
  kind: AnswerKind;
  device: string;
  list?: string;
  url: string;
}

/**
 * Every answer of the site at `base` (no trailing slash): each device's v1 listing of every list,
 * its v2 builds, and each `formats` file it has, where phones ask (on GitHub Pages, the files).
 * Listings are in build order, newest first.
 */
export function siteTargets(
  site: Site,
  listings: readonly (Pick<Listing, 'device' | 'list'> & { builds?: readonly Pick<Build, 'incremental'>[] })[],
  files: readonly Pick<OutputFile, 'path'>[],
  base: string,
): Target[] {
  const pages = servedByGitHubPages(site);
  const at = (path: string) => `${base}${path}`;
  const devices = [...new Set(listings.map((l) => l.device))];
  const written = new Set(files.map((f) => `/${f.path}`));
  const targets = [
    ...listings.map(({ device, list, builds = [] }): Target => {
      // A phone asks `/api/v1/<device>/<list>/<its incremental>` (Utils.getServerURL): as one on the
      // list's newest build does, when it has one; on Pages, the file its ROM build names.
      const incremental = builds.map((b) => b.incremental).find((i) => /^[A-Za-z0-9._-]+$/.test(i));
      const path = pages
        ? fill(API_FILES.listing, { device, list })
        : `${URLS.listing(device, list)}${incremental ?? ''}`;
      return { kind: 'v1', device, list, url: at(path) };
    }),
    ...devices.map((device): Target => {
      const path = pages ? fill(API_FILES.v2Builds, { device }) : URLS.v2Builds(device);
      return { kind: 'v2', device, url: at(path) };
    }),
    // The answers for phones on a build an incremental package applies on; Pages cannot answer them.
    ...(pages ? [] : perBuildTargets(files, at)),
    ...site.formats.flatMap((format) =>
      devices.flatMap((device) =>
        format.lists
          .map((list) => ({ list, path: formatPath(format, device, list) }))
          .filter(({ path }) => written.has(path))
          .map(({ list, path }): Target => ({ kind: format.family, device, list, url: at(path) })),
      ),
    ),
  ];
  // The newest build's v1 request may be one of the per-build answers: asked once.
  return targets.filter((t, i) => targets.findIndex((o) => o.kind === t.kind && o.url === t.url) === i);
}

/** What a ROM build's build.prop says about where its updater asks. */
export interface BuildProps {
  device?: string;
  releaseType?: string;
  incremental?: string;
  uri?: string;
  /** `ro.lineage.build.version`: 23.2 and later run the v2 (Kotlin) updater. */
  lineageVersion?: string;
}

/** Reads `key=value` lines (comments and blank lines skipped); the last value of a key wins, as init does. */
export function readBuildProps(text: string): BuildProps {
  const props = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^#=\s][^=]*?)\s*=(.*)$/.exec(line);
    if (match) props.set(match[1], match[2].trim());
  }
  const first = (...keys: string[]) => keys.map((k) => props.get(k)).find((v) => v !== undefined && v !== '');
  return {
    device: first('ro.updater.next_device', 'ro.lineage.device', 'ro.product.device'),
    releaseType: first('ro.lineage.releasetype'),
    incremental: first('ro.build.version.incremental'),
    uri: first('lineage.updater.uri'),
    lineageVersion: first('ro.lineage.build.version'),
  };
}

/**
 * The one answer a build asks: its URI with `{device}`, `{type}` (lower-cased) and `{incr}`
 * replaced, every occurrence (Utils.getServerURL of the Java updater, UpdatesNetworkDataSource.kt's
 * `serverUrl` of the Kotlin one); read by the v2 updater on LineageOS 23.2 and later (or, without
 * `ro.lineage.build.version`, when the URI asks `/api/v2/`), else by v1. Or what the build lacks.
 */
export function buildTarget(props: BuildProps): Target | string {
  const missing = (['uri', 'device', 'releaseType'] as const).filter((k) => props[k] === undefined);
  if (missing.length > 0) {
    const names = { uri: 'lineage.updater.uri', device: 'ro.lineage.device', releaseType: 'ro.lineage.releasetype' };
    return `the build.prop has no ${missing.map((k) => names[k]).join(', ')}; the probe asks what that build asks, so it needs them`;
  }
  const url = props
    .uri!.replaceAll('{device}', props.device!)
    .replaceAll('{type}', props.releaseType!.toLowerCase())
    .replaceAll('{incr}', props.incremental ?? '');
  if (!URL.canParse(url)) return `its updater URI gives ${url}, which is not a URL`;
  const version = /^(\d+)\.(\d+)/.exec(props.lineageVersion ?? '');
  const v2 = version
    ? Number(version[1]) > 23 || (Number(version[1]) === 23 && Number(version[2]) >= 2)
    : /\/api\/v2\//.test(url);
  return { kind: v2 ? 'v2' : 'v1', device: props.device!, list: props.releaseType!.toLowerCase(), url };
}

// --- internal ---

/**
 * The per-build answers among the files (API_FILES.v1Incremental, v2Incremental), at the address a
 * phone on that build asks: v1 `/api/v1/<device>/<list>/<incremental>`, v2 (a ROM whose URI ends in
 * `/builds/{incr}`) `/api/v2/devices/<device>/builds/<incremental>`.
 */
function perBuildTargets(files: readonly Pick<OutputFile, 'path'>[], at: (path: string) => string): Target[] {
  return files.flatMap(({ path }): Target[] => {
    const v1 = /^api\/v1\/([^/]+)\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (v1 && v1[3] !== 'index' && v1[3] !== '404')
      return [{ kind: 'v1', device: v1[1], list: v1[2], url: at(`/api/v1/${v1[1]}/${v1[2]}/${v1[3]}`) }];
    const v2 = /^api\/v2\/devices\/([^/]+)\/builds\/([^/]+)\.json$/.exec(path);
    return v2 ? [{ kind: 'v2', device: v2[1], url: at(`/api/v2/devices/${v2[1]}/builds/${v2[2]}`) }] : [];
  });
}
