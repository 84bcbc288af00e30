/**
 * The LineageOS download portal's reading of the v2 answers, transcribed from its code
 * (lineageos-infra/updater-client at 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa), never from
 * otapress's: src/stores/change.ts (`addNextChangesPage`), src/services/ApiService.ts
 * (`loadMoreChanges`, `filterChanges`, `filterDeviceChanges`, `getDeviceChanges` and the helpers
 * they call), src/components/changes-tab/ChangesTab.vue (what asks for the next page) and
 * src/components/downloadable/ (a file's details and their Compare).
 */
import { createHash } from 'node:crypto';

/** A change as the portal's store types it (src/stores/change.ts). */
export interface PortalChange {
  branch: string;
  project: string;
  repository: string;
  subject: string;
  submitted: number;
  type: string;
  updated: number;
  url: string;
}

/** `/api/v2/devices/<model>` as src/stores/device.ts types it. */
export interface PortalDevice {
  dependencies: string[];
  info_url: string;
  model: string;
  name: string;
  oem: string;
  versions: string[];
}

/** One build of `/api/v2/devices/<model>/builds`, the fields the changes tab reads. */
export interface PortalBuild {
  datetime: number;
  version: string;
  files: { filename: string }[];
}

/** An HTTP answer as `fetch` gives it to the portal. */
export interface PortalResponse {
  status: number;
  body: string;
}

/**
 * The changes tab paging while its list is shorter than the window (a small catalog's list always
 * is): ChangesTab.vue calls `loadMoreChanges` when mounted and again whenever the store's `items`
 * is replaced, which `addNextChangesPage` does after every 2xx answer whose body is a JSON array
 * (`[]` too). An answer that is not 2xx throws in `loadMoreChanges` (`if (!response.ok) throw`),
 * as does a body that is not JSON or not iterable; ChangesTab logs it and `items` stays as it was,
 * so nothing asks again. Returns the requests made (at most `limit`) and the changes kept.
 */
export function pageChanges(
  get: (page: number) => PortalResponse,
  limit = 1000,
): { requests: number; items: PortalChange[] } {
  let page = -1;
  let items: PortalChange[] = [];
  let requests = 0;
  while (requests < limit) {
    const response = get(page + 1);
    requests++;
    if (response.status < 200 || response.status > 299) break;
    let data: unknown;
    try {
      data = JSON.parse(response.body);
    } catch {
      break;
    }
    if (!Array.isArray(data)) break;
    const changes = (data as PortalChange[]).filter((c) => c.subject !== 'Automatic translation import');
    items = [...new Map([...items, ...changes].map((c) => [c.url, c])).values()];
    page++;
  }
  return { requests, items };
}

/** ApiService `isChangeForVersions`. */
function isChangeForVersions(change: PortalChange, versions: readonly string[]): boolean {
  for (const version of versions) {
    if (change.branch.includes(version)) return true;
    if (['20.0', '21.0'].includes(version) && change.branch.includes(version.split('.')[0])) return true;
  }
  return versions.length === 0;
}

/** ApiService `isChangeForDependencies` (with `isAndroidRepository`, `isDeviceSpecificChange`). */
function isChangeForDependencies(change: PortalChange, dependencies: readonly string[]): boolean {
  if (!change.repository.startsWith('android_')) return false;
  if (change.type !== 'device specific') return true;
  return dependencies.includes(change.repository);
}

/**
 * What a device's changes tab shows: ApiService `getDeviceChanges`, groups newest first, each with
 * the file name of the build it was "Included in" (`next` for changes after the newest build).
 */
export function deviceChangesTab(
  device: PortalDevice,
  builds: readonly PortalBuild[],
  changes: readonly PortalChange[],
): { build: string; items: PortalChange[] }[] {
  const kept = changes.filter(
    (c) => isChangeForVersions(c, device.versions) && isChangeForDependencies(c, device.dependencies),
  );
  const bumped = extract(kept, (c) => c.updated > c.submitted);
  const groups = [...builds]
    .sort((a, b) => a.datetime - b.datetime)
    .map((b) => ({
      build: { filename: b.files[0].filename, datetime: b.datetime, version: b.version },
      items: [] as PortalChange[],
    }));
  const newestVersion = device.versions.reduce((a, b) => (parseFloat(a) > parseFloat(b) ? a : b), '');
  groups.push({ build: { filename: 'next', datetime: Number.MAX_SAFE_INTEGER, version: newestVersion }, items: [] });
  const insert = (from: PortalChange[], onlyFilled: boolean) => {
    for (const group of groups) {
      if (onlyFilled && group.items.length === 0) continue;
      for (const change of extract(
        from,
        (c) => c.submitted <= group.build.datetime && isChangeForVersions(c, [group.build.version]),
      )) {
        const at = group.items.findIndex((item) => item.submitted - change.submitted <= 0);
        if (at === -1) group.items.push(change);
        else group.items.splice(at, 0, change);
      }
    }
  };
  insert(kept, false);
  insert(bumped, true);
  return groups.reverse().map((g) => ({ build: g.build.filename, items: g.items }));
}

/**
 * A file's Compare in the portal's build details: DownloadableItem.vue shows the `SHA256` detail
 * only when the file's `sha256` is set, and DownloadableDetail.vue `compareSha256` hashes the whole
 * file the user picks (CryptoService.worker.ts `hashBlob`: SHA-256, two lowercase hex digits a
 * byte) and compares it with the value shown, as text: equal, the dialog says "Matches" (title
 * `SHA256`), else its title is `SHA256 Mismatch`. `undefined` where no Compare is offered.
 */
export function portalCompare(
  file: { sha256?: unknown },
  picked: Uint8Array,
): { title: string; message: string } | undefined {
  if (!file.sha256) return undefined;
  const hashString = createHash('sha256').update(picked).digest('hex');
  return file.sha256 !== hashString
    ? { title: 'SHA256 Mismatch', message: `Expected: ${String(file.sha256)}\n\nGot: ${hashString}` }
    : { title: 'SHA256', message: 'Matches' };
}

// --- internal ---

/** ApiService `conditionalExtract`: removes the matching items from `items`, last first, and returns them. */
function extract<T>(items: T[], fn: (item: T) => boolean): T[] {
  const out: T[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    if (!fn(items[i])) continue;
    out.push(items[i]);
    items.splice(i, 1);
  }
  return out;
}
