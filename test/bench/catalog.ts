import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Size of a synthetic catalog. */
export interface CatalogSize {
  devices: number;
  builds: number;
  /** Also a device.yaml for every device and a changelog for every build ; the manifests are otherwise the same. */
  extras?: boolean;
  /**
   * Also, for one build in ten, an incremental package from the build before it (see
   * incrementalManifest): `newest`, the newest tenth of each device's builds, as ROMs keep them for
   * the builds phones still run; `spread`, a tenth spread over the whole history (the worst case:
   * the answer for phones on an old build holds every newer build).
   */
  incrementals?: 'newest' | 'spread';
}

/** Real device code names, suffixed with a number to reach any count while looking like a catalog. */
const CODE_NAMES = [
  'FP3',
  'FP4',
  'FP5',
  'starlte',
  'star2lte',
  'herolte',
  'sailfish',
  'walleye',
  'taimen',
  'bonito',
  'sargo',
  'redfin',
  'oriole',
  'raven',
  'panther',
  'lynx',
  'akita',
  'beyond1lte',
  'a5y17lte',
  'dipper',
  'lavender',
  'guacamole',
  'kebab',
  'instantnoodlep',
  'emerald',
  'two',
  'teracube2e',
  'gs290',
  'zirconia',
  'axolotl',
];

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
export function manifest(
  d: number,
  b: number,
  builds: number,
  { extras = false } = {},
): { name: string; text: string } {
  const device = deviceName(d);
  const digest = (what: string) => createHash('sha256').update(`${what}/${device}/${b}`).digest('hex');
  const noise = parseInt(digest('noise').slice(0, 8), 16);
  const [platform, android] = PLATFORMS[Math.min(PLATFORMS.length - 1, Math.floor((b / builds) * PLATFORMS.length))];
  const channel = CHANNELS[noise % CHANNELS.length];
  const version =
    noise % 7 === 0 ? `${1 + Math.floor(b / 40)}.${b % 40}.${noise % 4}` : `${1 + Math.floor(b / 40)}.${b % 40}`;
  const timestamp = 1577836800 + b * 86400 * 3 + d * 60 + (noise % 3600);
  const date = new Date(timestamp * 1000).toISOString();
  const ymd = date.slice(0, 10).replace(/-/g, '');
  const hms = date.slice(11, 19).replace(/:/g, '');
  const number = String(100000 + ((noise >>> 8) % 900000));
  const stem = `e-${version}-${platform}-${ymd}${number}-${channel}-${device}`;
  const lines: string[] = [];

  if (noise % 97 === 0) {
    lines.push('# Announced build, package not published yet.');
    lines.push(
      'placeholder: true',
      `version: "${version}"`,
      `channel: ${channel}`,
      `timestamp: ${timestamp}`,
      `android_version: "${android}"`,
    );
    if (noise % 2 === 0) lines.push(`md5sum: ${digest('md5').slice(0, 32)}`);
    lines.push(`display_version: ${stem.slice(2)}`);
    if (extras) lines.push(...changelog(d, b, version, timestamp, noise));
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
  if (extras) lines.push(...changelog(d, b, version, timestamp, noise));
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
export function generateCatalog(root: string, { devices, builds, extras = false, incrementals }: CatalogSize): number {
  const content = path.join(root, 'content');
  mkdirSync(content, { recursive: true });
  writeFileSync(path.join(content, 'site.yaml'), SITE);
  let added = 0;
  for (let d = 0; d < devices; d++) {
    const dir = path.join(content, deviceName(d));
    mkdirSync(dir, { recursive: true });
    if (extras) writeFileSync(path.join(dir, 'device.yaml'), deviceFile(d));
    for (let b = 0; b < builds; b++) {
      const { name, text } = manifest(d, b, builds, { extras });
      writeFileSync(path.join(dir, name), text);
      const incremental = incrementals && b > 0 ? incrementalManifest(d, b, builds, incrementals) : undefined;
      if (incremental) {
        writeFileSync(path.join(dir, incremental.name), incremental.text);
        added++;
      }
    }
  }
  return devices * builds + added;
}

/**
 * The incremental package from build `b - 1` to build `b` of device `d`, for one build in ten
 * placed as `placement` says (both packages, neither withdrawn): the target's fields, its own file
 * name, digests and size, and the source's incremental. Undefined for the other builds.
 */
function incrementalManifest(
  d: number,
  b: number,
  builds: number,
  placement: 'newest' | 'spread',
): { name: string; text: string } | undefined {
  const target = manifest(d, b, builds).text;
  const source = manifest(d, b - 1, builds).text;
  const field = (text: string, key: string) => new RegExp(`^${key}: (.*)$`, 'm').exec(text)?.[1];
  const filename = field(target, 'filename');
  const from = field(source, 'incremental');
  const chosen =
    placement === 'newest'
      ? b >= builds - Math.ceil(builds / 10)
      : parseInt(field(target, 'id')!.slice(0, 4), 16) % 10 === 0;
  if (!chosen || !filename || !from || field(source, 'filename') === undefined || filename.endsWith('.disabled.zip'))
    return undefined;
  const digest = (what: string) => createHash('sha256').update(`incremental/${what}/${d}/${b}`).digest('hex');
  const stem = `${filename.replace(/\.zip$/, '')}-incremental-${b - 1}`;
  const text = target
    .replace(/^filename: .*$/m, `filename: ${stem}.zip`)
    .replace(/^(incremental: .*)$/m, `$1\nsource_incremental: ${from}`)
    .replace(/^md5sum: .*$/m, `md5sum: ${digest('md5').slice(0, 32)}`)
    .replace(/^id: .*$/m, `id: ${digest('sha256')}`)
    .replace(/^size: .*$/m, `size: ${50_000_000 + (parseInt(digest('size').slice(0, 6), 16) % 50_000_000)}`);
  return { name: `${stem}.yaml`, text };
}

// --- extras: device files and changelogs ---

/** Display name, vendor, the vendor's name in repository names, and the SoC of each code name, in the order of CODE_NAMES. */
const DEVICES: Record<string, [name: string, oem: string, vendor: string, soc: string]> = {
  FP3: ['Fairphone 3', 'Fairphone', 'fairphone', 'sdm632'],
  FP4: ['Fairphone 4', 'Fairphone', 'fairphone', 'sm7225'],
  FP5: ['Fairphone 5', 'Fairphone', 'fairphone', 'qcm6490'],
  starlte: ['Galaxy S9', 'Samsung', 'samsung', 'exynos9810'],
  star2lte: ['Galaxy S9+', 'Samsung', 'samsung', 'exynos9810'],
  herolte: ['Galaxy S7', 'Samsung', 'samsung', 'exynos8890'],
  sailfish: ['Pixel', 'Google', 'google', 'msm8996'],
  walleye: ['Pixel 2', 'Google', 'google', 'msm8998'],
  taimen: ['Pixel 2 XL', 'Google', 'google', 'msm8998'],
  bonito: ['Pixel 3a XL', 'Google', 'google', 'sdm670'],
  sargo: ['Pixel 3a', 'Google', 'google', 'sdm670'],
  redfin: ['Pixel 5', 'Google', 'google', 'sm7250'],
  oriole: ['Pixel 6', 'Google', 'google', 'gs101'],
  raven: ['Pixel 6 Pro', 'Google', 'google', 'gs101'],
  panther: ['Pixel 7', 'Google', 'google', 'gs201'],
  lynx: ['Pixel 7a', 'Google', 'google', 'gs201'],
  akita: ['Pixel 8a', 'Google', 'google', 'zuma'],
  beyond1lte: ['Galaxy S10', 'Samsung', 'samsung', 'exynos9820'],
  a5y17lte: ['Galaxy A5 (2017)', 'Samsung', 'samsung', 'exynos7880'],
  dipper: ['Mi 8', 'Xiaomi', 'xiaomi', 'sdm845'],
  lavender: ['Redmi Note 7', 'Xiaomi', 'xiaomi', 'sdm660'],
  guacamole: ['OnePlus 7 Pro', 'OnePlus', 'oneplus', 'sm8150'],
  kebab: ['OnePlus 8T', 'OnePlus', 'oneplus', 'sm8250'],
  instantnoodlep: ['OnePlus 8 Pro', 'OnePlus', 'oneplus', 'sm8250'],
  emerald: ['Teracube 2e (2022)', 'Teracube', 'teracube', 'mt6762'],
  two: ['Murena Two', 'Murena', 'murena', 'mt6771'],
  teracube2e: ['Teracube 2e', 'Teracube', 'teracube', 'mt6765'],
  gs290: ['Gigaset GS290', 'Gigaset', 'gigaset', 'mt6763'],
  zirconia: ['Volla Phone X23', 'Volla', 'volla', 'mt6789'],
  axolotl: ['SHIFT6mq', 'SHIFT', 'shift', 'sdm845'],
};

const MAINTAINERS = [
  'Jane Doe',
  'Ravi Kumar',
  'Alex Martin',
  'Mei Chen',
  'Jonas Becker',
  'Sofia Rossi',
  'Kwame Mensah',
  'Olga Ivanova',
  'Lucas Silva',
  'Aiko Tanaka',
  'Noah Dubois',
  'Fatima Zahra',
];

/** A device's device.yaml, as a maintainer writes it (see content/FP4/device.yaml): 1 or 2 maintainers, links, sources. */
function deviceFile(d: number): string {
  const device = deviceName(d);
  const base = CODE_NAMES[d % CODE_NAMES.length];
  const [name, oem, vendor, soc] = DEVICES[base];
  const revision = Math.floor(d / CODE_NAMES.length);
  const noise = parseInt(createHash('sha256').update(`device/${device}`).digest('hex').slice(0, 8), 16);
  const handle = (who: string) => who.toLowerCase().replace(/ /g, '');
  const first = MAINTAINERS[noise % MAINTAINERS.length];
  const second = MAINTAINERS[(noise >>> 4) % MAINTAINERS.length];
  const lines = [
    '# yaml-language-server: $schema=../device.schema.json',
    `name: ${revision === 0 ? name : `${name} rev ${revision}`}`,
    `oem: ${oem}`,
    noise % 3 === 0 ? `models: [${device}, ${device}-5G]` : `models: [${device}]`,
    'maintainers:',
    `  - name: ${first}`,
    `    url: https://github.com/${handle(first)}`,
    ...(noise % 2 === 0 && second !== first
      ? [`  - name: ${second}`, ...(noise % 5 === 0 ? [] : [`    url: https://gitlab.example.org/${handle(second)}`])]
      : []),
    'links:',
    `  info: https://wiki.example.org/devices/${device}`,
    ...(noise % 4 !== 0 ? [`  forum: https://forum.example.org/c/${device.toLowerCase()}`] : []),
    ...(noise % 3 !== 1 ? [`  support: https://t.me/example_${device.toLowerCase()}`] : []),
    ...(noise % 7 === 0 ? ['  donate: https://opencollective.com/example'] : []),
    `  source: https://github.com/example/android_device_${vendor}_${device}`,
    `dependencies: [android_device_${vendor}_${device}, android_kernel_${vendor}_${soc}${noise % 2 === 1 ? `, android_vendor_${vendor}_${device}` : ''}]`,
  ];
  return `${lines.join('\n')}\n`;
}

const CHANGE_ITEMS = [
  'Updated the camera app: faster shutter, HDR on the front camera',
  'Fixed Wi-Fi calling on some carriers',
  'Battery: less drain while the screen is off',
  '`adb sideload` works again in recovery',
  'Bluetooth & NFC: pairing with some car kits fixed',
  'Browser updated to the latest upstream release',
  'Fixed the fingerprint sensor after a reboot',
  'Known issue: VoLTE may need a reboot after the update',
  'New `fastboot` images for the recovery partition',
  'Removed the old weather widget; use the new one from the app store',
  'Improved GPS time to first fix',
  'Keyboard: suggestions for more languages',
];

/** A build's `changelog:` block, 3 to 8 lines: a sentence, a `## Changes` heading and `- ` items; sometimes code and an https link. */
function changelog(d: number, b: number, version: string, timestamp: number, noise: number): string[] {
  const month = new Date(timestamp * 1000).toISOString().slice(0, 7);
  const items = 1 + ((noise >>> 12) % 5);
  const lines = [
    'changelog: |',
    `  Version ${version} for ${deviceName(d)}, with the Android security patch of ${month}.`,
    '',
    '  ## Changes',
  ];
  for (let i = 0; i < items; i++)
    lines.push(`  - ${CHANGE_ITEMS[(b * 7 + d + i * 5 + (noise >>> 16)) % CHANGE_ITEMS.length]}`);
  if ((noise >>> 20) % 3 === 0)
    lines.push(`  - See [the release notes](https://doc.example.org/releases/${version}) for the details`);
  return lines;
}
