import type { Site } from '../catalog/site.js';

/**
 * Where each output lives, as the URL people and clients use and as the file in `dist/` that
 * answers it. Pages use folder URLs (`/devices/FP4/` → `devices/FP4/index.html`) because
 * Cloudflare Pages redirects `/x.html` to `/x` (308) and Netlify serves both; feeds live beside
 * the pages, outside `/api/`, whose header rule makes everything `application/json`, and outside
 * `/api/v1/<device>/<list>/`, where Cloudflare's placeholder rule would rewrite any file to the
 * listing before looking for it.
 */
export const URLS = {
  home: '/',
  deviceIndex: '/api/devices.json',
  listing: (device: string, list: string) => `/api/v1/${device}/${list}/`,
  v2Builds: (device: string) => `/api/v2/devices/${device}/builds`,
  v2Device: (device: string) => `/api/v2/devices/${device}`,
  v2Oems: '/api/v2/oems',
  devicePage: (device: string) => `/devices/${device}/`,
  /** `sha256sum -c` input of the device's downloads, beside its page. */
  checksums: (device: string) => `/devices/${device}/SHA256SUMS`,
  feed: (device: string, list: string) => `/devices/${device}/${list}.xml`,
  changelogPage: (device: string) => `/devices/${device}/changelog/`,
  v2Changes: '/api/v2/changes',
} as const;

/**
 * The path a site is published under, from `site_url` without its trailing slash: `/<repository>`
 * for a GitHub Pages project site (`https://<owner>.github.io/<repository>`), empty at the root of
 * a domain. Pages, feeds and indexes link with it: a root-relative link (`/devices/...`) leaves
 * the site when it lives in a folder of its domain.
 */
export function basePath(site: Pick<Site, 'siteUrl'>): string {
  return site.siteUrl === undefined ? '' : new URL(site.siteUrl).pathname.replace(/\/+$/, '');
}

/** {@link URLS} as a site links to them ({@link linksOf}). */
export type Links = { [K in keyof typeof URLS]: (typeof URLS)[K] extends string ? string : (typeof URLS)[K] };

/**
 * {@link URLS} as the links of the site's pages, feeds and indexes: under its {@link basePath},
 * and, on GitHub Pages ({@link servedByGitHubPages}), at the files that answer the API:
 * Pages has no rewrites, serves no `index.json` for a folder, and types a file by its extension.
 */
export function linksOf(site: Pick<Site, 'siteUrl' | 'hosts'>): Links {
  const base = basePath(site);
  if (!servedByGitHubPages(site)) return base === '' ? URLS : under(base, URLS);
  return under(base, {
    ...URLS,
    listing: (device: string, list: string) => fill(API_FILES.listing, { device, list }),
    v2Builds: (device: string) => fill(API_FILES.v2Builds, { device }),
    v2Device: (device: string) => fill(API_FILES.v2Device, { device }),
    v2Oems: API_FILES.v2Oems,
    v2Changes: API_FILES.v2Changes,
  });
}

/**
 * Is the site published on GitHub Pages: is its `site_url` at `<owner>.github.io`, or is Pages the
 * one host its `hosts` names?
 */
export function servedByGitHubPages(site: Pick<Site, 'siteUrl' | 'hosts'>): boolean {
  if (site.siteUrl !== undefined && new URL(site.siteUrl).hostname.endsWith('.github.io')) return true;
  return site.hosts.length === 1 && site.hosts[0] === 'github-pages';
}

/** The `dist/` file that a host serves for `url`: folder URLs get their `index.html`. */
export function fileOf(url: string): string {
  return url.endsWith('/') ? `${url.slice(1)}index.html` : url.slice(1);
}

/**
 * The files that answer the API, as patterns (`:device`, `:list`): the renderers write them here,
 * and the route table (hosts/routes.ts) points every request shape of an endpoint at them.
 */
export const API_FILES = {
  listing: '/api/v1/:device/:list/index.json',
  /**
   * The listing for phones on one build (`/api/v1/<device>/<list>/<their incremental>`) when an
   * incremental package applies on it; other phones get `listing` (catalog/incremental.ts).
   */
  v1Incremental: '/api/v1/:device/:list/:incremental.json',
  v2Builds: '/api/v2/devices/:device/builds.json',
  /**
   * The v2 answer for phones on one build (`/api/v2/devices/<device>/builds/<their incremental>`,
   * which LineageOS 23.2+ asks when the ROM's URI has `{incr}`) when the device has v1 answers for
   * it; other phones get `v2Builds` (catalog/incremental.ts).
   */
  v2Incremental: '/api/v2/devices/:device/builds/:incremental.json',
  /** `/api/v2/devices/<device>`: in the device's folder, so no device name can clash with it. */
  v2Device: '/api/v2/devices/:device/index.json',
  v2Oems: '/api/v2/oems.json',
  /** The v2 builds of a device the catalog does not have: `[]`, as the official server answers. */
  v2UnknownDeviceBuilds: '/api/v2/unknown-device-builds.json',
  v2Changes: '/api/v2/changes.json',
  /** What `/api/v2/changes` answers, with 404, for any page but the first: the download portal pages until an answer is not 2xx. */
  v2ChangesPastEnd: '/api/v2/changes-past-end.json',
} as const;

/** Fills `:device`, `:list` and the like into a path pattern; other placeholders stay. */
export function fill(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([a-z]+)/g, (whole, name: string) => params[name] ?? whole);
}

// --- internal ---

/** Every path of `urls` with `base` before it. */
function under(base: string, urls: Links): Links {
  const entries = Object.entries(urls).map(([name, url]) => {
    if (typeof url === 'string') return [name, `${base}${url}`];
    const path = url as (...args: string[]) => string;
    return [name, (...args: string[]) => `${base}${path(...args)}`];
  });
  return Object.fromEntries(entries) as Links;
}
