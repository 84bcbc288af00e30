/**
 * The device fields of a crDroid / Evolution X listing, as `content/<device>/device.yaml` (the shape
 * agreed in the contracts: name, oem, models, maintainers, links, dependencies; every key optional).
 * Pure: the fields in, the file's text and what was kept and left out.
 */
import { parseDeviceFile } from '../catalog/device.js';

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

/** Listing keys and where device.yaml keeps them; any other device key is left out. */
const PLACES: Record<string, { key: string; url?: true }> = {
  device: { key: 'name' },
  oem: { key: 'oem' },
  maintainer: { key: 'maintainers.name' },
  maintainer_url: { key: 'maintainers.url', url: true },
  forum: { key: 'links.forum', url: true },
  forum_url: { key: 'links.forum', url: true },
  telegram: { key: 'links.support', url: true },
  paypal: { key: 'links.donate', url: true },
  donate_url: { key: 'links.donate', url: true },
  website_url: { key: 'links.info', url: true },
  dt: { key: 'links.source', url: true },
};

/** The device.yaml a listing's device fields make (keys in the contract's order, every value quoted). */
export function deviceFileOf(fields: ReadonlyMap<string, DeviceField>, source: string): DeviceFile {
  const values = new Map<string, string>();
  const kept: string[] = [];
  const leftOut: string[] = [];
  // In the order of PLACES (crDroid's own keys first), then the others by name.
  const rank = (key: string) => (Object.hasOwn(PLACES, key) ? Object.keys(PLACES).indexOf(key) : Infinity);
  for (const [key, { value }] of [...fields].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))) {
    const place = Object.hasOwn(PLACES, key) ? PLACES[key] : undefined; // Never Object.prototype's `constructor`.
    const why = place === undefined ? 'no place in device.yaml' : unusable(value, place.url === true);
    if (why === undefined && values.has(place!.key))
      leftOut.push(`${key} (device.yaml ${place!.key} already holds ${keyFor(fields, place!.key)})`);
    else if (why === undefined) {
      values.set(place!.key, String(value).trim());
      kept.push(`${key} → ${place!.key}`);
    } else leftOut.push(`${key} (${why})`);
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
  for (let text = render(values, source); text !== undefined; text = render(values, source)) {
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
  const text = render(values, source);
  return text === undefined ? { kept, leftOut: leftOut.sort() } : { text, kept, leftOut: leftOut.sort() };
}

// --- internal ---

/** device.yaml's text for `values` (keys in the contract's order, every value quoted); undefined for none. */
function render(values: ReadonlyMap<string, string>, source: string): string | undefined {
  if (values.size === 0) return undefined;
  const q = (key: string) => JSON.stringify(values.get(key));
  const lines = [`# The device fields of ${source} (otapress import); see the README for the other keys.`];
  if (values.has('name')) lines.push(`name: ${q('name')}`);
  if (values.has('oem')) lines.push(`oem: ${q('oem')}`);
  if (values.has('maintainers.name')) {
    lines.push('maintainers:', `  - name: ${q('maintainers.name')}`);
    if (values.has('maintainers.url')) lines.push(`    url: ${q('maintainers.url')}`);
  }
  const links = ['info', 'forum', 'support', 'donate', 'source'].filter((k) => values.has(`links.${k}`));
  if (links.length > 0) lines.push('links:', ...links.map((k) => `  ${k}: ${q(`links.${k}`)}`));
  return `${lines.join('\n')}\n`;
}

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
