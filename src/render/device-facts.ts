/**
 * What the pages show of device.yaml: the heading, the facts (vendor, models, maintainers, links)
 * and the grouping of the home page by vendor. A device without device.yaml renders exactly as
 * before the file existed. Every value goes through the escaping `html` template. Pure.
 */
import { LINK_KINDS, LINK_LABELS, UNKNOWN_OEM, type DeviceInfo } from '../catalog/device.js';
import { html, raw, type Markup } from './markup.js';
import type { DeviceSummary } from './summary.js';
import { byName } from './v2-directory.js';

/** A device as people name it: `Fairphone 4 (FP4)`, or the code name alone. */
export function deviceLabel(device: string, info?: DeviceInfo): string {
  return info?.name !== undefined && info.name !== device ? `${info.name} (${device})` : device;
}

/** The device page's heading: the display name with the code name beside it, or the code name. */
export function deviceHeading(device: string, info?: DeviceInfo): Markup {
  return info?.name !== undefined && info.name !== device
    ? html`<h1>${info.name} <span class="meta">${device}</span></h1>`
    : html`<h1>${device}</h1>`;
}

/** The facts of device.yaml as a definition list; nothing for a device without them. */
export function deviceFacts(info?: DeviceInfo): Markup {
  if (!info) return raw('');
  const rows: Markup[] = [];
  const row = (term: string, value: Markup) => rows.push(html`<div><dt>${term}</dt><dd>${value}</dd></div>`);
  if (info.oem !== undefined) row('Vendor', html`${info.oem}`);
  if (info.models.length > 0) row(info.models.length === 1 ? 'Model' : 'Models', html`${info.models.join(', ')}`);
  if (info.maintainers.length > 0) {
    const people = info.maintainers.map((m) =>
      m.url ? html`<a href="${m.url}" rel="external noopener">${m.name}</a>` : html`${m.name}`,
    );
    row(info.maintainers.length === 1 ? 'Maintainer' : 'Maintainers', join(people, ', '));
  }
  const links = LINK_KINDS.flatMap((kind) =>
    info.links[kind] ? [html`<a href="${info.links[kind]}" rel="external noopener">${LINK_LABELS[kind]}</a>`] : [],
  );
  if (links.length > 0) row('Links', join(links, ' · '));
  if (rows.length === 0) return raw('');
  return html`<dl class="device-facts" aria-label="About this device">
${join(rows, '\n')}
</dl>`;
}

/** The extra style of the facts and vendor groups, only on pages that show them (others stay as they were). */
export const DEVICE_FACTS_STYLE = html`<style>.device-facts{margin:.5rem 0 1rem;display:grid;gap:.15rem}.device-facts div{display:grid;grid-template-columns:9.5rem 1fr;gap:.5rem}.device-facts dt{color:var(--muted)}.device-facts dd{margin:0;min-width:0;overflow-wrap:anywhere}.vendor{font-size:1.3rem}@media (max-width:34rem){.device-facts div{grid-template-columns:6.5rem 1fr}}</style>`;

/**
 * The home page's devices by vendor: vendors by name, {@link UNKNOWN_OEM} last, devices by
 * display name then code name. `undefined` when no device names a vendor: the page keeps its one
 * list then.
 */
export function groupByVendor(
  summaries: readonly DeviceSummary[],
): { vendor: string; devices: DeviceSummary[] }[] | undefined {
  if (!summaries.some((s) => s.info?.oem !== undefined)) return undefined;
  const groups = new Map<string, DeviceSummary[]>();
  for (const summary of summaries) {
    const vendor = summary.info?.oem ?? UNKNOWN_OEM;
    groups.set(vendor, [...(groups.get(vendor) ?? []), summary]);
  }
  const unknownLast = (a: string, b: string) => Number(a === UNKNOWN_OEM) - Number(b === UNKNOWN_OEM) || byName(a, b);
  return [...groups]
    .sort(([a], [b]) => unknownLast(a, b))
    .map(([vendor, devices]) => ({
      vendor,
      devices: devices.sort(
        (a, b) => byName(a.info?.name ?? a.device, b.info?.name ?? b.device) || byName(a.device, b.device),
      ),
    }));
}

// --- internal ---

function join(parts: readonly Markup[], separator: string): Markup {
  return raw(parts.map(String).join(separator));
}
