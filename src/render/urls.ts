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
