import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempProject } from './helpers.js';

/** The site.yaml of {@link catalogFiles} unless a test gives its own. */
const SITE = 'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\n';

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
 * A temporary project whose content/ holds `specs` as real manifest files ({@link catalogFiles}).
 * Returns the project root.
 */
export function catalogProject(specs: BuildSpec[], site = SITE): string {
  const root = tempProject();
  for (const [file, text] of Object.entries(catalogFiles(specs, site))) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/**
 * The files of a catalog of `specs`, by path from the project root (`content/site.yaml`,
 * `content/<device>/<name>.yaml`), each manifest with a unique file name, id and md5 derived from
 * its position: for the tests that compile in memory (memory-catalog.ts) and for {@link catalogProject}.
 */
export function catalogFiles(specs: BuildSpec[], site = SITE): Record<string, string> {
  const files: Record<string, string> = { 'content/site.yaml': site };
  specs.forEach((spec, i) => {
    const {
      device = 'FP4',
      version = '2.5',
      channel = 'official',
      timestamp = 1731067200 + i * 3600,
      android = '14',
    } = spec;
    const number = String(100000 + i);
    const name = `e-${version}-a${android}-20241108${number}-${channel}-${device}`;
    const lines = spec.placeholder
      ? [
          'placeholder: true',
          `version: "${version}"`,
          `channel: ${channel}`,
          `timestamp: ${timestamp}`,
          `android_version: "${android}"`,
          `display_version: ${name.slice(2)}`,
        ]
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
    files[`content/${device}/${name}.yaml`] = [...lines, ...(spec.extra ?? []), ''].join('\n');
  });
  return files;
}

/** A lowercase hex string of `length` characters that is unique for `i`. */
export function hex(i: number, length: number): string {
  return (i.toString(16).padStart(8, '0') + 'ab'.repeat(length)).slice(0, length);
}
