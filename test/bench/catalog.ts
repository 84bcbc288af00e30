import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Size of a synthetic catalog. */
export interface CatalogSize {
  devices: number;
  builds: number;
}

/** Real device code names, suffixed with a number to reach any count while looking like a catalog. */
const CODE_NAMES = ['FP3', 'FP4', 'FP5', 'starlte', 'star2lte', 'herolte', 'sailfish', 'walleye', 'taimen', 'bonito', 'sargo', 'redfin', 'oriole', 'raven', 'panther', 'lynx', 'akita', 'beyond1lte', 'a5y17lte', 'dipper', 'lavender', 'guacamole', 'kebab', 'instantnoodlep', 'emerald', 'two', 'teracube2e', 'gs290', 'zirconia', 'axolotl'];

/** Platform part of the file name and its Android version, oldest first (a build's age picks one). */
const PLATFORMS = [
  ['n', '7'],
  ['p', '9'],
  ['q', '10'],
  ['r', '11'],
  ['s', '12'],
  ['t', '13'],
  ['a14', '14'],
  ['a15', '15'],
  ['a16', '16'],
] as const;

const CHANNELS = ['stable', 'official', 'dev', 'community'] as const;

/** The device code name of device number `d`. */
export function deviceName(d: number): string {
  const base = CODE_NAMES[d % CODE_NAMES.length];
  return d < CODE_NAMES.length ? base : `${base}${Math.floor(d / CODE_NAMES.length)}`;
}

/**
 * One manifest's file name and text: build `b` of device `d`, as a maintainer would write it, with
 * the occasional comment, `lists:` override, upgrade flag, `.disabled.zip` and placeholder.
 * Deterministic: the same numbers give the same bytes.
 */
export function manifest(d: number, b: number, builds: number): { name: string; text: string } {
  const device = deviceName(d);
  const digest = (what: string) => createHash('sha256').update(`${what}/${device}/${b}`).digest('hex');
  const noise = parseInt(digest('noise').slice(0, 8), 16);
  const [platform, android] = PLATFORMS[Math.min(PLATFORMS.length - 1, Math.floor((b / builds) * PLATFORMS.length))];
  const channel = CHANNELS[noise % CHANNELS.length];
  const version = noise % 7 === 0 ? `${1 + Math.floor(b / 40)}.${b % 40}.${noise % 4}` : `${1 + Math.floor(b / 40)}.${b % 40}`;
  const timestamp = 1577836800 + b * 86400 * 3 + d * 60 + (noise % 3600);
  const date = new Date(timestamp * 1000).toISOString();
  const ymd = date.slice(0, 10).replace(/-/g, '');
  const hms = date.slice(11, 19).replace(/:/g, '');
  const number = String(100000 + ((noise >>> 8) % 900000));
  const stem = `e-${version}-${platform}-${ymd}${number}-${channel}-${device}`;
  const lines: string[] = [];

  if (noise % 97 === 0) {
    lines.push('# Announced build, package not published yet.');
    lines.push('placeholder: true', `version: "${version}"`, `channel: ${channel}`, `timestamp: ${timestamp}`, `android_version: "${android}"`);
    if (noise % 2 === 0) lines.push(`md5sum: ${digest('md5').slice(0, 32)}`);
    lines.push(`display_version: ${stem.slice(2)}`);
    return { name: `placeholder-${version}-${platform}-${channel}-${b}.yaml`, text: `${lines.join('\n')}\n` };
  }
  const disabled = noise % 53 === 0;
  const filename = `${stem}${disabled ? '.disabled' : ''}.zip`;
  if (noise % 11 === 0) lines.push('# Tested by the device maintainer.');
  lines.push(
    `filename: ${filename}`,
    `version: "${version}"`,
    `channel: ${channel}`,
    `timestamp: ${timestamp}`,
    `android_version: "${android}"`,
    noise % 13 === 0 ? `incremental: "${timestamp}"` : `incremental: "eng.root.${ymd}.${hms}"`,
    `md5sum: ${digest('md5').slice(0, 32)}`,
    `id: ${digest('sha256')}`,
    `size: ${900_000_000 + (noise % 700_000_000)}`,
  );
  if (noise % 5 === 0) lines.push('is_upgrade_supported: true');
  if (noise % 17 === 0 && channel === 'official') lines.push('lists: [official]');
  if (noise % 19 === 0 && channel === 'community') lines.push('lists: [dev, community, stable]');
  return { name: `${filename.replace(/\.zip$/, '')}.yaml`, text: `${lines.join('\n')}\n` };
}

const SITE = `# Synthetic catalog for the benchmark.
download_base_url: https://images.example.org/builds/full
channels: [stable, official, dev, community]
lists:
  stable: [stable, official]
  official: [official]
  dev: [dev, community]
  community: [community]
`;

/** Writes `content/` for a catalog of the given size under `root`; returns the manifest count. */
export function generateCatalog(root: string, { devices, builds }: CatalogSize): number {
  const content = path.join(root, 'content');
  mkdirSync(content, { recursive: true });
  writeFileSync(path.join(content, 'site.yaml'), SITE);
  for (let d = 0; d < devices; d++) {
    const dir = path.join(content, deviceName(d));
    mkdirSync(dir, { recursive: true });
    for (let b = 0; b < builds; b++) {
      const { name, text } = manifest(d, b, builds);
      writeFileSync(path.join(dir, name), text);
    }
  }
  return devices * builds;
}
