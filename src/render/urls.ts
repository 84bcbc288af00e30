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
  devicePage: (device: string) => `/devices/${device}/`,
  feed: (device: string, list: string) => `/devices/${device}/${list}.xml`,
} as const;

/** The `dist/` file that a host serves for `url`: folder URLs get their `index.html`. */
export function fileOf(url: string): string {
  return url.endsWith('/') ? `${url.slice(1)}index.html` : url.slice(1);
}
