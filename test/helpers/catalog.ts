import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempProject } from './helpers.js';

/** What a test says about one build; everything else gets a valid default. */
export interface BuildSpec {
  device?: string;
  version?: string;
  channel?: string;
  timestamp?: number;
  android?: string;
  extra?: string[];
  placeholder?: boolean;
  /** Default: 1000000 plus the position. */
  size?: number;
  /** A withdrawn build: its file name ends in `.disabled.zip`. */
  disabled?: boolean;
}

/**
 * A temporary project whose content/ holds `specs` as real manifest files, each with a unique
 * file name, id and md5 derived from its position. Returns the project root.
 */
export function catalogProject(specs: BuildSpec[], site = 'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\n'): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'), { recursive: true });
  writeFileSync(path.join(root, 'content', 'site.yaml'), site);
  specs.forEach((spec, i) => {
    const { device = 'FP4', version = '2.5', channel = 'official', timestamp = 1731067200 + i * 3600, android = '14' } = spec;
    const number = String(100000 + i);
    const name = `e-${version}-a${android}-20241108${number}-${channel}-${device}`;
    const lines = spec.placeholder
      ? ['placeholder: true', `version: "${version}"`, `channel: ${channel}`, `timestamp: ${timestamp}`, `android_version: "${android}"`, `display_version: ${name.slice(2)}`]
      : [
          `filename: ${name}${spec.disabled ? '.disabled' : ''}.zip`,
          `version: "${version}"`,
          `channel: ${channel}`,
          `timestamp: ${timestamp}`,
          `android_version: "${android}"`,
          `incremental: "eng.root.20241108.${number}"`,
          `md5sum: ${hex(i, 32)}`,
          `id: ${hex(i, 64)}`,
          `size: ${spec.size ?? 1000000 + i}`,
        ];
    mkdirSync(path.join(root, 'content', device), { recursive: true });
    writeFileSync(path.join(root, 'content', device, `${name}.yaml`), [...lines, ...(spec.extra ?? []), ''].join('\n'));
  });
  return root;
}

/** A lowercase hex string of `length` characters that is unique for `i`. */
export function hex(i: number, length: number): string {
  return (i.toString(16).padStart(8, '0') + 'ab'.repeat(length)).slice(0, length);
}
