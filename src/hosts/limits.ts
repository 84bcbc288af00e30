/**
 * What the hosts take in one deploy, against what a site would make of its content: the build
 * multiplies (every device gets a listing and a feed per request list, and Netlify's _redirects a rule per
 * device, list and request shape), so a few hundred bytes of site.yaml could make hundreds of
 * thousands of files. Checked from the settings and the device folders alone, before anything is
 * compiled or written; the problem names the list or device folder that passes the limit. The
 * limits are the host modules' (cloudflare.ts, netlify.ts `limits`). Pure.
 */
import { DEFAULT_LISTS, SITE_FILE, type Site } from '../catalog/site.js';
import type { Problem } from '../catalog/problems.js';
import { endpoints, formatNotFoundScopes, headerRules, NOT_FOUND_FOLDERS, problemAtFormat, routeTable } from './routes.js';
import { CLOUDFLARE_LIMITS, cloudflareRules } from './cloudflare.js';
import { NETLIFY_LIMITS } from './netlify.js';
import { formatFolder } from '../catalog/formats.js';

/**
 * The files a build writes at least, and the Netlify rules it writes, for `site` and
 * `devices` device folders (with its first `lists` lists): every device gets, per list, its listing and its feed, and besides its v1 404s
 * (`404.json`, `404.html`), its v2 builds and its page, and the files of its crDroid-family formats.
 */
export function outputFloor(
  site: Site,
  devices: number,
  lists = site.lists.length,
  requestPaths = site.requestPaths.length,
): { files: number; perDevice: number; rules: number; rulesPerDevice: number; dynamicRedirects: number; headerRules: number } {
  // A crDroid-family format writes a file per device and list, empty lists included.
  const formatFilesPerDevice = site.formats.filter((f) => f.family === 'crdroid').reduce((n, f) => n + f.lists.length, 0);
  const perDevice = 2 * lists + 4 + formatFilesPerDevice;
  // The site with its first `requestPaths` request paths only.
  const trimmed: Site = { ...site, requestPaths: site.requestPaths.slice(0, requestPaths) };
  const used = endpoints(trimmed);
  // Netlify's _redirects: a rule per unslashed path of each endpoint, per device (and list) where the
  // endpoint names them, once for a site-wide one; one for an endpoint's unknown-device answer; one
  // per JSON 404 folder, per device where the folder names one; two more per path of a paged
  // endpoint, for its first page and the pages after it (netlifyRules).
  const unslashed = (endpoint: (typeof used)[number]) => endpoint.paths.filter((p) => !p.endsWith('/')).length * (endpoint.paging ? 3 : 1);
  const perDeviceEndpoints = used.filter((endpoint) => endpoint.paths[0].includes(':device'));
  const rulesPerDevice =
    perDeviceEndpoints.reduce((n, endpoint) => n + (endpoint.paths[0].includes(':list') ? lists : 1) * unslashed(endpoint), 0) +
    NOT_FOUND_FOLDERS.filter((folder) => folder.includes(':device')).length;
  // The formats' JSON 404 folders outside /api/ (and the one for their files at the root) are one rule each.
  const fixedRules =
    NOT_FOUND_FOLDERS.filter((folder) => !folder.includes(':device')).length +
    formatNotFoundScopes(site).length +
    used.filter((endpoint) => !endpoint.paths[0].includes(':device')).reduce((n, endpoint) => n + unslashed(endpoint), 0) +
    used.filter((endpoint) => endpoint.unknownDevice !== undefined).length;
  // Cloudflare: the rules of _redirects with placeholders, which no device adds (a placeholder
  // beside fixed text is a static rule per device; so is a known device's v2 answer).
  const dynamicRedirects = cloudflareRules(routeTable(trimmed)).filter(([from]) => /[:*]/.test(from)).length;
  return { files: devices * perDevice, perDevice, rules: devices * rulesPerDevice + fixedRules, rulesPerDevice, dynamicRedirects, headerRules: headerRules(site).length };
}

/**
 * The limits of the site's hosts that its output would pass, each at the site.yaml list or the
 * device folder that passes it: the list from which on the output is over the limit, when the
 * interface's four lists would stay within it; else the device folder (in name order) from which on
 * it is over. `locateList` says where site.yaml names a list.
 */
export function outputLimitProblems(site: Site, devices: readonly string[], locateList: (name: string) => { line: number; col: number } = () => ({ line: 1, col: 1 })): Problem[] {
  const problems: Problem[] = [];
  const check = (
    measure: (lists: number, devices: number, requestPaths?: number) => number,
    limit: number,
    what: string,
    advice: string,
    { devicesToo = true } = {},
  ) => {
    const total = measure(site.lists.length, devices.length);
    const measureWith = (requestPaths: number) => measure(site.lists.length, devices.length, requestPaths);
    if (total <= limit) return;
    // Up to the interface's four lists, the devices are what passes the limit; past them, the lists.
    if (measure(Math.min(site.lists.length, Object.keys(DEFAULT_LISTS).length), devices.length) <= limit) {
      const listIndex = site.lists.findIndex((_, i) => measure(i + 1, devices.length) > limit);
      const list = site.lists[listIndex];
      problems.push({
        file: SITE_FILE,
        ...locateList(list.name),
        field: `lists.${list.name}`,
        message: `with this list, ${devices.length} devices and ${site.lists.length} lists make ${thousands(total)} ${what}, past ${thousands(limit)} (from this list on, each list adds ${thousands(measure(2, devices.length) - measure(1, devices.length))}); ${advice}`,
      });
      return;
    }
    // Past the lists, each request path multiplies by the devices and lists: the one that passes.
    if (site.requestPaths.length > 0 && measureWith(0) <= limit) {
      const index = site.requestPaths.findIndex((_, i) => measureWith(i + 1) > limit);
      const requestPath = site.requestPaths[index];
      problems.push({
        file: SITE_FILE,
        line: requestPath.line,
        col: requestPath.col,
        field: `request_paths.${index}`,
        message: `with this request path, ${devices.length} devices, ${site.lists.length} lists and ${site.requestPaths.length} request paths make ${thousands(total)} ${what}, past ${thousands(limit)}; ${advice}`,
      });
      return;
    }
    if (!devicesToo) return;
    const deviceIndex = devices.findIndex((_, i) => measure(site.lists.length, i + 1) > limit);
    problems.push({
      file: `content/${devices[deviceIndex]}`,
      line: 1,
      col: 1,
      field: '(folder)',
      message: `with this device folder (number ${thousands(deviceIndex + 1)} in name order), ${devices.length} devices make ${thousands(total)} ${what}, past ${thousands(limit)}; ${advice}`,
    });
  };
  if (site.hosts.includes('cloudflare')) {
    check(
      (lists, count) => outputFloor(site, count, lists).files,
      CLOUDFLARE_LIMITS.files,
      'files at least',
      `Cloudflare Pages takes ${thousands(CLOUDFLARE_LIMITS.files)} files per deploy on its Free plan (100,000 on paid plans); use fewer lists (content/site.yaml), split the devices over several sites, or remove cloudflare from \`hosts\``,
    );
  }
  if (site.hosts.includes('cloudflare')) {
    // Request paths without a placeholder beside fixed text are one rule each, for every device.
    check(
      (_lists, _count, requestPaths) => outputFloor(site, 0, site.lists.length, requestPaths).dynamicRedirects,
      CLOUDFLARE_LIMITS.dynamicRedirects,
      '_redirects rules with placeholders',
      `Cloudflare Pages takes ${CLOUDFLARE_LIMITS.dynamicRedirects} of them; declare fewer request paths`,
      { devicesToo: false },
    );
  }
  const headers = outputFloor(site, 0).headerRules;
  if (site.hosts.includes('cloudflare') && headers > CLOUDFLARE_LIMITS.headerRules) {
    // Only a format at the root adds a rule per list: reported at the first that has {list}.
    const format = site.formats.find((f) => formatFolder(f.path) === undefined && f.path.includes('{list}')) ?? site.formats[site.formats.length - 1];
    problems.push(
      problemAtFormat(
        format,
        `the formats take ${headers} _headers rules on Cloudflare Pages (one for /api/, one per folder of their own outside it, one per list of a format at the root), past its ${CLOUDFLARE_LIMITS.headerRules}; publish fewer lists at the root, or put the format in a folder of its own, e.g. /ota/{list}/{device}.json, which is one rule for every list`,
      ),
    );
  }
  if (site.hosts.includes('netlify')) {
    check(
      (lists, count, requestPaths) => outputFloor(site, count, lists, requestPaths).rules,
      NETLIFY_LIMITS.rules,
      'Netlify redirect rules',
      `Netlify asks for placeholders instead of ${thousands(NETLIFY_LIMITS.rules)} rules or more, and may fail a deploy whose rules are too large; use fewer lists or request paths (content/site.yaml), or remove netlify from \`hosts\``,
      // A rule per device is what keeps an unknown device on the JSON 404 there: the devices alone
      // (10 rules each with the interface's lists) may pass the advice, the lists may not multiply them.
      { devicesToo: false },
    );
    // Every device is a folder in dist/api/v1/ and dist/devices/.
    if (devices.length > NETLIFY_LIMITS.filesPerFolder) {
      const device = devices[NETLIFY_LIMITS.filesPerFolder];
      problems.push({
        file: `content/${device}`,
        line: 1,
        col: 1,
        field: '(folder)',
        message: `${thousands(devices.length)} device folders make as many folders in dist/api/v1/, past Netlify's ${thousands(NETLIFY_LIMITS.filesPerFolder)} files per folder; split the devices over several sites`,
      });
    }
  }
  return problems;
}

/**
 * A count with commas between thousands, as `toLocaleString('en-US')` writes it, without ICU: every
 * build checks its limits, and the messages were made (not only printed) each time; the first
 * locale-aware formatting of a process loads ICU's number data, 25 ms before the first device.
 */
function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
