/**
 * What the hosts take in one deploy, against what a site would make of its content: the build
 * multiplies (every device gets a listing and a feed per request list, and Netlify's _redirects a rule per
 * device, list and request shape), so a few hundred bytes of site.yaml could make hundreds of
 * thousands of files. Checked from the settings and the device folders alone, before anything is
 * compiled or written; the problem names the list or device folder that passes the limit. Each
 * host module checks its own limits (host.ts `outputLimitProblems`) with the floor counted here. Pure.
 */
import { DIALECT_SETTINGS } from '../catalog/dialects.js';
import type { Site } from '../catalog/site.js';
import type { Problem } from '../catalog/problems.js';
import { endpoints, formatNotFoundScopes, headerRules, NOT_FOUND_FOLDERS, routeTable } from './routes.js';
import { cloudflareRules } from './cloudflare.js';
import { HOSTS } from './host-files.js';
import { limitCheck, type OutputFloor, type OutputLimits } from './limit-check.js';

/**
 * The files a build writes at least, and the Netlify rules it writes, for `site` and
 * `devices` device folders (with its first `lists` lists): every device gets, per list, its listing and its feed, and besides its v1 404s
 * (`404.json`, `404.html`), its v2 builds and its page, and the files of its dialects that list every device.
 */
export function outputFloor(
  site: Site,
  devices: number,
  lists = site.lists.length,
  requestPaths = site.requestPaths.length,
): OutputFloor {
  // A dialect with a list wrapper writes a file per device and list, empty lists included.
  const formatFilesPerDevice = site.formats
    .filter((f) => DIALECT_SETTINGS[f.family].everyDevice)
    .reduce((n, f) => n + f.lists.length, 0);
  const perDevice = 2 * lists + 4 + formatFilesPerDevice;
  // The site with its first `requestPaths` request paths only.
  const trimmed: Site = { ...site, requestPaths: site.requestPaths.slice(0, requestPaths) };
  const used = endpoints(trimmed);
  // Netlify's _redirects: a rule per unslashed path of each endpoint, per device (and list) where the
  // endpoint names them, once for a site-wide one; one for an endpoint's unknown-device answer; one
  // per JSON 404 folder, per device where the folder names one; two more per path of a paged
  // endpoint, for its first page and the pages after it (netlifyRules).
  const unslashed = (endpoint: (typeof used)[number]) =>
    endpoint.paths.filter((p) => !p.endsWith('/')).length * (endpoint.paging ? 3 : 1);
  const perDeviceEndpoints = used.filter((endpoint) => endpoint.paths[0].includes(':device'));
  const rulesPerDevice =
    perDeviceEndpoints.reduce(
      (n, endpoint) => n + (endpoint.paths[0].includes(':list') ? lists : 1) * unslashed(endpoint),
      0,
    ) + NOT_FOUND_FOLDERS.filter((folder) => folder.includes(':device')).length;
  // The formats' JSON 404 folders outside /api/ (and the one for their files at the root) are one rule each.
  const fixedRules =
    NOT_FOUND_FOLDERS.filter((folder) => !folder.includes(':device')).length +
    formatNotFoundScopes(site).length +
    used
      .filter((endpoint) => !endpoint.paths[0].includes(':device'))
      .reduce((n, endpoint) => n + unslashed(endpoint), 0) +
    used.filter((endpoint) => endpoint.unknownDevice !== undefined).length;
  // Cloudflare: the rules of _redirects with placeholders, which no device adds (a placeholder
  // beside fixed text is a static rule per device; so is a known device's v2 answer).
  const dynamicRedirects = cloudflareRules(routeTable(trimmed)).filter(([from]) => /[:*]/.test(from)).length;
  return {
    files: devices * perDevice,
    perDevice,
    rules: devices * rulesPerDevice + fixedRules,
    rulesPerDevice,
    dynamicRedirects,
    headerRules: headerRules(site).length,
  };
}

/**
 * The limits of the site's hosts that its output would pass: each host module's check
 * (`outputLimitProblems`) for the hosts site.yaml's `hosts` names, in {@link HOSTS} order, each
 * problem at the site.yaml list, the request path or the device folder that passes the limit
 * (limit-check.ts). `locateList` says where site.yaml names a list.
 */
export function outputLimitProblems(
  site: Site,
  devices: readonly string[],
  locateList: (name: string) => { line: number; col: number } = () => ({ line: 1, col: 1 }),
): Problem[] {
  const limits: OutputLimits = {
    site,
    devices,
    floor: (count, lists, requestPaths) => outputFloor(site, count, lists, requestPaths),
    check: limitCheck(site, devices, locateList),
  };
  const named: readonly string[] = site.hosts;
  return HOSTS.filter((host) => named.includes(host.name)).flatMap((host) => host.outputLimitProblems(limits));
}
