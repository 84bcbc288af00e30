/**
 * The device fields of a crDroid / Evolution X listing, as `content/<device>/device.yaml` (the shape
 * agreed in the contracts: name, oem, models, maintainers, links, dependencies; every key optional).
 * Pure: the fields in, the file's text and what was kept and left out.
 */
import { LINK_KINDS, parseDeviceFile } from '../catalog/device.js';

/** A device field as the listing has it: its value and the record it was read from. */
export interface DeviceField {
  value: unknown;
  record: number;
}

/** What the import does with the listing's device fields. */
export interface DeviceFile {
  /** The text of device.yaml; `undefined` when no field has a place in it. */
  text?: string;
  /** `listing key → device.yaml key` for each value kept. */
  kept: string[];
  /** `listing key (why)` for each field left out. */
  leftOut: string[];
}

/** A maintainer as device.yaml lists them. */
interface Maintainer {
  name: string;
  url?: string;
}

/**
 * Listing keys and where device.yaml keeps them; any other device key is left out. `maintainers`
 * is the PixelExperience family's list (each kept or left out on its own, {@link maintainersOf});
 * `github` is Evolution X's maintainer's GitHub user name, kept as their page.
 */
const PLACES: Record<string, { key: string; url?: true; github?: true }> = {
  device: { key: 'name' },
  oem: { key: 'oem' },
  maintainer: { key: 'maintainers.name' },
  maintainers: { key: 'maintainers.name' },
  maintainer_url: { key: 'maintainers.url', url: true },
  github: { key: 'maintainers.url', github: true },
  forum: { key: 'links.forum', url: true },
  forum_url: { key: 'links.forum', url: true },
  telegram: { key: 'links.support', url: true },
  paypal: { key: 'links.donate', url: true },
  donate_url: { key: 'links.donate', url: true },
  website_url: { key: 'links.info', url: true },
  news_url: { key: 'links.news', url: true },
  dt: { key: 'links.source', url: true },
};

/**
 * Device keys of these files that no updater reads (Evolution X udc and vic `Utils.parseJsonUpdate`,
 * crDroid's, PixelExperience's): left out, named with who reads them. Evolution X's website shows
 * `currently_maintained` and builds its flashing steps from `initial_installation_images`.
 */
const UNREAD: Record<string, string> = {
  currently_maintained: "no updater reads it; Evolution X's website shows it",
  initial_installation_images: "no updater reads it; Evolution X's website lists the images to flash first",
  extra_images: 'no updater reads it',
  'common-dt': 'no updater reads it',
  kernel: 'no updater reads it',
  github_releases_url: 'no updater reads it',
};

/** The most maintainers device.yaml lists (its schema's limit). */
const MAX_MAINTAINERS = 50;

/** The device.yaml a listing's device fields make (keys in the contract's order, every value quoted). */
export function deviceFileOf(fields: ReadonlyMap<string, DeviceField>, source: string): DeviceFile {
  const values = new Map<string, string>();
  const kept: string[] = [];
  const leftOut: string[] = [];
  let team: Maintainer[] | undefined;
  // In the order of PLACES (crDroid's own keys first), then the others by name.
  const rank = (key: string) => (Object.hasOwn(PLACES, key) ? Object.keys(PLACES).indexOf(key) : Infinity);
  for (const [key, { value }] of [...fields].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))) {
    const place = Object.hasOwn(PLACES, key) ? PLACES[key] : undefined; // Never Object.prototype's `constructor`.
    const text = place?.github && typeof value === 'string' ? githubPage(value) : value;
    const why =
      place === undefined
        ? Object.hasOwn(UNREAD, key)
          ? UNREAD[key]
          : 'no place in device.yaml'
        : key === 'maintainers'
          ? undefined
          : unusable(text, place.url === true || place.github === true);
    if (why === undefined && values.has(place!.key))
      leftOut.push(`${key} (device.yaml ${place!.key} already holds ${keyFor(fields, place!.key)})`);
    else if (why === undefined && key === 'maintainers') {
      team = maintainersOf(value, source, leftOut);
      if (team.length > 0) {
        values.set(place!.key, team[0].name);
        kept.push(`maintainers → maintainers (${team.length})`);
      }
    } else if (why === undefined) {
      values.set(place!.key, String(text).trim());
      kept.push(`${key} → ${place!.key}`);
    } else leftOut.push(`${key} (${why})`);
  }
  // A list's own addresses stand: a second address from another key is left out.
  if (team !== undefined && team.length > 0 && values.has('maintainers.url')) {
    const key = keyFor(fields, 'maintainers.url');
    values.delete('maintainers.url');
    kept.splice(kept.indexOf(`${key} → maintainers.url`), 1);
    leftOut.push(`${key} (device.yaml maintainers already hold the list's maintainers)`);
  }
  if (values.has('maintainers.url') && !values.has('maintainers.name')) {
    values.delete('maintainers.url');
    kept.splice(
      kept.findIndex((k) => k.endsWith('→ maintainers.url')),
      1,
    );
    leftOut.push('maintainer_url (no maintainer name to go with it)');
  }
  // What device.yaml's own rules refuse (a name too long, an address no URL parser reads) is left
  // out too, with its words, so that the next check accepts the file import writes.
  for (let text = render(values, source, team); text !== undefined; text = render(values, source, team)) {
    const refused = parseDeviceFile(text, 'device.yaml').problems.map((p) => ({
      place: p.field.replace(/\.\d+(?=\.|$)/g, ''),
      message: p.message,
    }));
    const known = refused.filter((r) => values.has(r.place));
    if (known.length === 0) break;
    for (const { place, message } of known) {
      values.delete(place);
      const key = keyFor(fields, place);
      kept.splice(kept.indexOf(`${key} → ${place}`), 1);
      leftOut.push(`${key} (device.yaml ${place}: ${message})`);
    }
    if (values.has('maintainers.url') && !values.has('maintainers.name')) {
      values.delete('maintainers.url');
      kept.splice(
        kept.findIndex((k) => k.endsWith('→ maintainers.url')),
        1,
      );
      leftOut.push('maintainer_url (no maintainer name to go with it)');
    }
  }
  const text = render(values, source, team);
  return text === undefined ? { kept, leftOut: leftOut.sort() } : { text, kept, leftOut: leftOut.sort() };
}

// --- internal ---

/**
 * device.yaml's text for `values` (keys in the contract's order, every value quoted), the
 * maintainers `team` lists when there is one; undefined for none.
 */
function render(values: ReadonlyMap<string, string>, source: string, team?: Maintainer[]): string | undefined {
  if (values.size === 0) return undefined;
  const q = (key: string) => JSON.stringify(values.get(key));
  const lines = [`# The device fields of ${source} (otapress import); see the README for the other keys.`];
  if (values.has('name')) lines.push(`name: ${q('name')}`);
  if (values.has('oem')) lines.push(`oem: ${q('oem')}`);
  if (values.has('maintainers.name')) {
    const url = values.get('maintainers.url');
    lines.push('maintainers:', ...maintainerLines(team ?? [{ name: values.get('maintainers.name')!, url }]));
  }
  const links = LINK_KINDS.filter((k) => values.has(`links.${k}`));
  if (links.length > 0) lines.push('links:', ...links.map((k) => `  ${k}: ${q(`links.${k}`)}`));
  return `${lines.join('\n')}\n`;
}

/** The lines of device.yaml's `maintainers:` list, every value quoted. */
function maintainerLines(team: readonly Maintainer[]): string[] {
  return team.flatMap(({ name, url }) => [
    `  - name: ${JSON.stringify(name)}`,
    ...(url === undefined ? [] : [`    url: ${JSON.stringify(url)}`]),
  ]);
}

/**
 * The maintainers of the PixelExperience family's `maintainers` list that device.yaml accepts, each
 * checked alone by its rules: `name`, and the GitHub page of `github_username` (which the
 * pixelexperience dialect writes back from it). One whose page is refused is kept without it; one
 * with no name or a refused one is left out, named in `leftOut`, and so are those past the
 * {@link MAX_MAINTAINERS}th.
 */
function maintainersOf(list: unknown, source: string, leftOut: string[]): Maintainer[] {
  if (!Array.isArray(list)) {
    leftOut.push('maintainers (not a list of maintainers)');
    return [];
  }
  const team: Maintainer[] = [];
  const refusal = (m: Maintainer) =>
    parseDeviceFile(`maintainers:\n${maintainerLines([m]).join('\n')}\n`, source).problems[0]?.message;
  // Only the first ones are read: a hostile list of a million is not checked a million times.
  if (list.length > MAX_MAINTAINERS)
    leftOut.push(
      `maintainers (the ${list.length - MAX_MAINTAINERS} past the first ${MAX_MAINTAINERS}: device.yaml lists at most ${MAX_MAINTAINERS})`,
    );
  list.slice(0, MAX_MAINTAINERS).forEach((m: unknown, i) => {
    const entry = m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
    const name = typeof entry.name === 'string' ? entry.name.trim() : undefined;
    const why = name === undefined ? 'no name' : refusal({ name });
    if (why !== undefined) return leftOut.push(`maintainers.${i} (${why})`);
    const user = entry.github_username;
    const url = typeof user === 'string' && GITHUB_USER.test(user.trim()) ? githubPage(user) : undefined;
    const urlRefused =
      url !== undefined ? refusal({ name: name!, url }) : user === undefined ? undefined : 'not a GitHub user name';
    if (urlRefused !== undefined) leftOut.push(`maintainers.${i}.github_username (${urlRefused})`);
    team.push(url === undefined || urlRefused !== undefined ? { name: name! } : { name: name!, url });
  });
  return team;
}

/** A GitHub user's page from their user name (Evolution X's `github`); the text itself when it is no user name. */
function githubPage(user: string): string {
  return GITHUB_USER.test(user.trim()) ? `https://github.com/${user.trim()}` : user;
}

/** A GitHub user name: letters, digits and `-`, at most 39. */
const GITHUB_USER = /^[A-Za-z0-9-]{1,39}$/;

/** Why a value cannot go into device.yaml, or `undefined` when it can. */
function unusable(value: unknown, url: boolean): string | undefined {
  if (typeof value !== 'string')
    return `not text but ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  const text = value.trim();
  if (text === '') return 'empty';
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(text))
    return 'holds control or direction characters';
  if (text.length > 300) return `${text.length} characters long`;
  if (url && !/^https:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/.test(text))
    return 'not an https address of URL characters';
  return undefined;
}

function keyFor(fields: ReadonlyMap<string, DeviceField>, place: string): string {
  return Object.keys(PLACES).find((k) => PLACES[k].key === place && fields.has(k)) ?? place;
}
