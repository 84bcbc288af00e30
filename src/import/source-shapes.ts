/**
 * What a file given to `import` is when it is not a listing of records, and what the site lacks
 * for the list it is imported into: each said in one line, with what to pass or edit. Pure.
 */
import { nearest } from '../catalog/problems.js';
import { SITE_FILE, type Site } from '../catalog/site.js';
import { readYamlSource } from '../catalog/yaml-source.js';

/** One build as an object of its own (the PixelExperience family's answer), not a listing. */
export function isSingleBuild(json: unknown): json is Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return false;
  const r = json as Record<string, unknown>;
  return typeof r.filename === 'string' && (r.url !== undefined || r.id !== undefined || r.datetime !== undefined);
}

/** What a file that is no listing is, and what to pass instead: one line. */
export function whatTheFileIs(json: unknown): string {
  const shapes =
    'a v1 listing ({"id": null, "response": [records...], "error": null}), an array of records, a LineageOS v2 answer ([{"datetime": ..., "files": [...], "type": ..., "version": ...}]), a crDroid-family device file ({"response": [...]}), a PixelExperience-family answer ({"error": false, "filename": ..., "url": ..., ...}) or an AOSPA file ({"updates": [...]})';
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const r = json as Record<string, unknown>;
    if (r.error === true)
      return `this is a PixelExperience-family answer with "error": true, which says the server had no build for the device: there is nothing to import; save the answer of a device that has one`;
    // CherishOS-Devices/OTA udc `builds/chime.json`: one crDroid-family record with no wrapper.
    if (typeof r.download === 'string' && r.filename !== undefined && r.response === undefined)
      return 'this is one crDroid-family record on its own: crDroid-family phones read the records of `{"response": [...]}` (getJSONArray("response")) and get nothing from this file; put the record in {"response": [ ... ]}, then import again';
    const entries = Object.entries(r);
    // ArrowOS's records name their file by `filepath` under the download server, not by an address.
    const isServerRecord = (x: unknown) =>
      x !== null &&
      typeof x === 'object' &&
      !Array.isArray(x) &&
      typeof (x as { filepath?: unknown }).filepath === 'string';
    if (entries.length > 0 && entries.every(([, v]) => Array.isArray(v) && v.length > 0 && v.every(isServerRecord))) {
      const names = entries.map(([k]) => k);
      const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? `, and ${names.length - 3} more` : '');
      // ArrowOS/arrow_ota (arrow-13.0_vanilla_builds_community_unofficial.json at 45f94d24b340b394aad0d1d7e12f2d270cedf2d9):
      // `filepath` under its download server and `datetime` as a day ("20230309"); its server makes the answers phones read.
      return `this is server data keyed by device (${names.length} device${names.length === 1 ? '' : 's'}: ${shown}), as ArrowOS's OTA repository keeps it, not a listing phones read: its records name the file under the download server (filepath) and often only the build day, not the download address and exact build time phones compare; add each build with otapress add <zip> (the zip's metadata has the build time), or import the listing its server answers for one device`;
    }
  }
  return `expected ${shapes}`;
}

/** `list` is not a list of the site: the one site.yaml edit that makes it one, as `add` says it. */
export function missingListMessage(list: string, site: Site, siteText: Uint8Array | undefined): string {
  const names = site.lists.map((l) => l.name);
  const hint = nearest(list, names);
  const head = `\`${list}\` is not a request list of this site${hint ? `; did you mean \`${hint}\`?` : ''} (lists: ${names.join(', ')})`;
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(list))
    return `${head}; a list name is a URL path segment: lowercase letters, digits, \`-\` and \`_\``;
  const source = siteText ? readYamlSource(siteText, SITE_FILE) : undefined;
  const value = (source?.value ?? {}) as Record<string, unknown>;
  const line = (key: string) => (source ? ` (line ${source.locate([key], { key: true }).line})` : '');
  const channel = site.channels.includes(list) ? undefined : list;
  const channels =
    value.channels !== undefined
      ? `\`${list}\` to \`channels\`${line('channels')}`
      : `the line \`channels: [${[...site.channels, list].join(', ')}]\``;
  const edit =
    value.lists !== undefined
      ? `the list \`${list}: [${list}]\` under \`lists:\`${line('lists')}${channel ? ` and ${channels}` : ''}`
      : channel
        ? channels
        : `the list \`${list}: [${list}]\` under a \`lists:\` that names every list`;
  return `${head}; phones of release type \`${list}\` ask for /api/v1/<device>/${list}/. The one edit in ${SITE_FILE}: add ${edit}; then run the same import again`;
}
