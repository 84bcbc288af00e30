/**
 * How a host module checks its limits before anything is compiled or written (limits.ts runs the
 * check of every host site.yaml's `hosts` names): a count of the output, by lists, devices and
 * request paths, against a limit, reported at the list, the request path or the device folder from
 * which on it is over. Pure.
 */
import { DEFAULT_LISTS, SITE_FILE, type Site } from '../catalog/site.js';
import type { Problem } from '../catalog/problems.js';

/** The least a build writes for a site: files, Netlify rules, Cloudflare's rules with placeholders and header rules. */
export interface OutputFloor {
  files: number;
  perDevice: number;
  rules: number;
  rulesPerDevice: number;
  dynamicRedirects: number;
  headerRules: number;
}

/** A count of the output with the first `lists` lists, `devices` devices and the first `requestPaths` request paths. */
type Measure = (lists: number, devices: number, requestPaths?: number) => number;

/** `devicesToo: false`: no problem when the devices alone pass the limit (the host's advice covers them). */
interface CheckOptions {
  devicesToo?: boolean;
}

/** What a host module's check of its limits is given: the site and its device folders, and the two ways to measure. */
export interface OutputLimits {
  site: Site;
  devices: readonly string[];
  /** limits.ts `outputFloor` with `devices` devices, the first `lists` lists and `requestPaths` request paths. */
  floor(devices: number, lists?: number, requestPaths?: number): OutputFloor;
  /**
   * The problem of `measure` past `limit`, or none: at the list from which on the output is over
   * the limit, when the interface's four lists would stay within it; else at the request path
   * that passes it; else (unless `devicesToo` is false) at the device folder, in name order.
   */
  check(measure: Measure, limit: number, what: string, advice: string, options?: CheckOptions): Problem | undefined;
}

/** {@link OutputLimits.check} for `site` and its `devices`; `locateList` says where site.yaml names a list. */
export function limitCheck(
  site: Site,
  devices: readonly string[],
  locateList: (name: string) => { line: number; col: number },
): OutputLimits['check'] {
  return (measure, limit, what, advice, { devicesToo = true } = {}) => {
    const total = measure(site.lists.length, devices.length);
    const measureWith = (requestPaths: number) => measure(site.lists.length, devices.length, requestPaths);
    if (total <= limit) return undefined;
    // Up to the interface's four lists, the devices are what passes the limit; past them, the lists.
    if (measure(Math.min(site.lists.length, Object.keys(DEFAULT_LISTS).length), devices.length) <= limit) {
      const listIndex = site.lists.findIndex((_, i) => measure(i + 1, devices.length) > limit);
      const list = site.lists[listIndex];
      return {
        file: SITE_FILE,
        ...locateList(list.name),
        field: `lists.${list.name}`,
        message: `with this list, ${devices.length} devices and ${site.lists.length} lists make ${thousands(total)} ${what}, past ${thousands(limit)} (from this list on, each list adds ${thousands(measure(2, devices.length) - measure(1, devices.length))}); ${advice}`,
      };
    }
    // Past the lists, each request path multiplies by the devices and lists: the one that passes.
    if (site.requestPaths.length > 0 && measureWith(0) <= limit) {
      const index = site.requestPaths.findIndex((_, i) => measureWith(i + 1) > limit);
      const requestPath = site.requestPaths[index];
      return {
        file: SITE_FILE,
        line: requestPath.line,
        col: requestPath.col,
        field: `request_paths.${index}`,
        message: `with this request path, ${devices.length} devices, ${site.lists.length} lists and ${site.requestPaths.length} request paths make ${thousands(total)} ${what}, past ${thousands(limit)}; ${advice}`,
      };
    }
    if (!devicesToo) return undefined;
    const deviceIndex = devices.findIndex((_, i) => measure(site.lists.length, i + 1) > limit);
    return {
      file: `content/${devices[deviceIndex]}`,
      line: 1,
      col: 1,
      field: '(folder)',
      message: `with this device folder (number ${thousands(deviceIndex + 1)} in name order), ${devices.length} devices make ${thousands(total)} ${what}, past ${thousands(limit)}; ${advice}`,
    };
  };
}

/**
 * A count with commas between thousands, as `toLocaleString('en-US')` writes it, without ICU: every
 * build checks its limits, and the messages were made (not only printed) each time; the first
 * locale-aware formatting of a process loads ICU's number data, 25 ms before the first device.
 */
export function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
