// Every device x list of the catalog, with its records in otapress's order and key order.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

const API_LEVELS = { 7: '25', 9: '28', 10: '29', 11: '30', 12: '32', 13: '33', 14: '34', 15: '35', 16: '36' };

export default function () {
  const content = process.env.OTAPRESS_CATALOG;
  const site = yaml.load(readFileSync(path.join(content, 'site.yaml'), 'utf8'));
  const listings = [];
  const devices = readdirSync(content, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const device of devices) {
    const builds = [];
    for (const name of readdirSync(path.join(content, device)).sort()) {
      if (!name.endsWith('.yaml')) continue;
      const m = yaml.load(readFileSync(path.join(content, device, name), 'utf8'));
      const placeholder = m.placeholder === true;
      const filename = placeholder ? '' : m.filename;
      const display = m.display_version ?? (filename.endsWith('.disabled.zip') ? filename.slice(0, -'.disabled.zip'.length) : filename.replace(/\.zip$/, '').replace(/^e-/, ''));
      const lists = m.lists ?? Object.keys(site.lists).filter((list) => site.lists[list].includes(m.channel));
      builds.push({
        lists,
        record: {
          incremental: m.incremental ?? '',
          api_level: placeholder ? '' : API_LEVELS[m.android_version],
          ...(placeholder ? {} : { url: `${site.download_base_url}/${m.channel}/${device}/${filename}` }),
          timestamp: m.timestamp,
          md5sum: m.md5sum ?? '',
          changes: m.changes ?? '',
          channel: m.channel,
          filename,
          romtype: '',
          datetime: m.timestamp,
          version: m.version,
          pre_version: m.pre_version ?? '',
          display_version: display,
          android_version: m.android_version,
          id: placeholder ? '' : m.id,
          size: placeholder ? '' : m.size,
          is_upgrade_supported: m.is_upgrade_supported ?? false,
        },
      });
    }
    const byAge = (a, b) => Number(b.record.android_version) - Number(a.record.android_version) || b.record.timestamp - a.record.timestamp || (a.record.filename < b.record.filename ? -1 : a.record.filename > b.record.filename ? 1 : 0);
    builds.sort(byAge);
    for (const list of Object.keys(site.lists)) {
      listings.push({ device, list, records: builds.filter((b) => b.lists.includes(list)).map((b) => ({ ...b.record, romtype: list })) });
    }
  }
  return listings;
}
