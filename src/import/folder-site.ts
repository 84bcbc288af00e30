/**
 * The edits of `content/site.yaml` a repository import needs: the lists (and channels) it lacks,
 * and a `formats` entry per dialect with the path the repository uses. Made as text insertions
 * beside the nodes the YAML parser locates, so that every comment and the maintainer's layout
 * stay; then read back as the build reads it. Pure.
 */
import { yaml } from '../catalog/libraries.js';
import type { FormatFamily, OutputFormat } from '../catalog/formats.js';
import { parseSite, type Site } from '../catalog/site.js';
import type * as Yaml from 'yaml';

/** One `formats` entry the import adds. */
export interface FormatEntry {
  family: FormatFamily;
  lists: string[];
  /** One path, or each list's (`{ gapps: /gapps/{device}.json, vanilla: /vanilla/{device}.json }`). */
  path: string | Record<string, string>;
  changelog?: string;
  buildtype?: string;
  /** aospa: each list's `build_type`, where it is not the list's name. */
  buildtypes?: Record<string, string>;
  deviceInfo?: string;
}

/**
 * site.yaml's text with `lists` (each a list collecting a channel of its own name) and `formats`
 * added, and the site it reads as; or why the edit cannot be made, in words naming the edit to make.
 */
export function editSite(
  text: string,
  site: Site,
  lists: readonly string[],
  formats: readonly FormatEntry[],
): { text: string; site: Site } | { problem: string } {
  if (!text.endsWith('\n')) text += '\n';
  const doc = yaml().parseDocument(text);
  if (doc.errors.length > 0 || !yaml().isMap(doc.contents))
    return { problem: 'content/site.yaml is not a mapping the import can add to; fix it (otapress check) first' };
  const map = doc.contents;
  const edits: { at: number; insert: string }[] = [];
  const newChannels = lists.filter((l) => !site.channels.includes(l));
  if (newChannels.length > 0) {
    const edit = addToSequence(text, map, 'channels', newChannels, [...site.channels, ...newChannels]);
    if (typeof edit === 'string') return { problem: edit };
    edits.push(edit);
  }
  if (lists.length > 0) {
    const entries = lists.map((l) => [l, `[${l}]`] as const);
    const all = [...site.lists.map((l) => [l.name, `[${l.channels.join(', ')}]`] as const), ...entries];
    const edit = addToMapping(text, map, 'lists', entries, all);
    if (typeof edit === 'string') return { problem: edit };
    edits.push(edit);
  }
  // An entry site.yaml already has, as the repository needs it (an import run again), stays as it is.
  formats = formats.filter((f) => !writes(site.formats, f));
  if (formats.length > 0) {
    const taken = formats.find((f) => site.formats.some((s) => s.family === f.family));
    if (taken)
      return {
        problem: `content/site.yaml already has a \`${taken.family}\` format; the repository's files need \`${taken.family}: ${formatValue(taken)}\`: remove or change the entry, then import again`,
      };
    const entries = formats.map((f) => [f.family, formatValue(f)] as const);
    const comment = "\n# Other updaters' files, where the imported OTA repository kept them (otapress import).\n";
    const edit = addToMapping(text, map, 'formats', entries, entries, comment);
    if (typeof edit === 'string') return { problem: edit };
    edits.push(edit);
  }
  let edited = text;
  for (const { at, insert } of edits.sort((a, b) => b.at - a.at))
    edited = edited.slice(0, at) + insert + edited.slice(at);
  const read = parseSite(edited);
  if (!read.site)
    return {
      problem: `the edited content/site.yaml would not be read: ${read.problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    };
  return { text: edited, site: read.site };
}

// --- internal ---

/** Whether the site's formats write what `entry` asks for; a path per list is a format per list (catalog/formats.ts). */
function writes(formats: readonly OutputFormat[], entry: FormatEntry): boolean {
  const { path } = entry;
  if (typeof path === 'string') return formats.some((f) => sameFormat(f, { ...entry, path }));
  return Object.entries(path).every(([list, own]) =>
    formats.some((f) => sameFormat(f, { ...entry, lists: [list], path: own })),
  );
}

/** Whether the site's format writes what `entry` asks for: the same path, changelog and device list, every list of it. */
function sameFormat(format: OutputFormat, entry: FormatEntry & { path: string }): boolean {
  return (
    format.family === entry.family &&
    format.path === entry.path &&
    format.changelog === entry.changelog &&
    format.buildtype === entry.buildtype &&
    JSON.stringify(format.buildtypes) === JSON.stringify(entry.buildtypes) &&
    format.deviceInfo === entry.deviceInfo &&
    entry.lists.every((l) => format.lists.includes(l))
  );
}

type Edit = { at: number; insert: string };

/** One format's settings in flow style, on one line: `{ lists: [x], path: /{device}.json }`. */
function formatValue(f: FormatEntry): string {
  // Quoted: `{device}` would open a flow mapping.
  // A path per list names the lists itself.
  const parts =
    typeof f.path === 'string'
      ? [`lists: [${f.lists.join(', ')}]`, `path: ${JSON.stringify(f.path)}`]
      : [
          `path: { ${Object.entries(f.path)
            .map(([list, path]) => `${list}: ${JSON.stringify(path)}`)
            .join(', ')} }`,
        ];
  if (f.changelog !== undefined) parts.push(`changelog: ${JSON.stringify(f.changelog)}`);
  if (f.buildtype !== undefined) parts.push(`buildtype: ${JSON.stringify(f.buildtype)}`);
  if (f.buildtypes !== undefined) {
    const types = Object.entries(f.buildtypes).map(([list, type]) => `${list}: ${JSON.stringify(type)}`);
    parts.push(`buildtype: { ${types.join(', ')} }`);
  }
  if (f.deviceInfo !== undefined) parts.push(`device_info: ${JSON.stringify(f.deviceInfo)}`);
  return `{ ${parts.join(', ')} }`;
}

/** Adds `items` to the sequence at `key`; without the key, writes it with every value (`all`). */
function addToSequence(text: string, map: Yaml.YAMLMap, key: string, items: string[], all: string[]): Edit | string {
  const node = map.get(key, true);
  if (node === undefined) return { at: text.length, insert: `${key}: [${all.join(', ')}]\n` };
  if (!yaml().isSeq(node) || !node.range) return `add ${items.join(', ')} to \`${key}\` in content/site.yaml`;
  if (node.flow) {
    const close = text.lastIndexOf(']', node.range[1]);
    const empty = node.items.length === 0;
    return { at: close, insert: `${empty ? '' : ', '}${items.join(', ')}` };
  }
  const indent = indentOf(text, (node.items[0] as Yaml.Node | undefined)?.range?.[0] ?? node.range[0]) - 2;
  const last = node.items[node.items.length - 1] as Yaml.Node | undefined;
  return {
    at: lineEnd(text, (last?.range?.[1] ?? node.range[1]) - 1),
    insert: items.map((i) => `${' '.repeat(Math.max(indent, 0))}- ${i}\n`).join(''),
  };
}

/** Adds `entries` (key and flow value) to the mapping at `key`; without the key (or empty), writes it with `all`. */
function addToMapping(
  text: string,
  map: Yaml.YAMLMap,
  key: string,
  entries: readonly (readonly [string, string])[],
  all: readonly (readonly [string, string])[],
  comment = '',
): Edit | string {
  const pair = map.items.find((p) => yaml().isScalar(p.key) && p.key.value === key);
  const node = map.get(key, true);
  const block = (pairs: readonly (readonly [string, string])[], indent: string) =>
    pairs.map(([k, v]) => `${indent}${k}: ${v}\n`).join('');
  if (pair === undefined) return { at: text.length, insert: `${comment}${key}:\n${block(all, '  ')}` };
  if (node === null || node === undefined || (yaml().isScalar(node) && node.value === null)) {
    const keyNode = pair.key as Yaml.Node;
    return { at: lineEnd(text, keyNode.range![1]), insert: block(all, '  ') };
  }
  if (!yaml().isMap(node) || !node.range)
    return `add ${entries.map(([k, v]) => `${k}: ${v}`).join(', ')} under \`${key}\` in content/site.yaml`;
  if (node.flow) {
    const close = text.lastIndexOf('}', node.range[1]);
    return {
      at: close,
      insert: `${node.items.length === 0 ? '' : ', '}${entries.map(([k, v]) => `${k}: ${v}`).join(', ')}`,
    };
  }
  const first = node.items[0]?.key as Yaml.Node | undefined;
  const indent = ' '.repeat(first?.range ? indentOf(text, first.range[0]) : 2);
  const last = node.items[node.items.length - 1];
  const end = Math.max((last.value as Yaml.Node | null)?.range?.[1] ?? 0, (last.key as Yaml.Node).range![1]);
  return { at: lineEnd(text, end - 1), insert: block(entries, indent) };
}

/** The column (0-based) of the line holding `offset`. */
function indentOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The offset just past the end of the line holding `offset` (a text without a final newline gets one). */
function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', Math.max(offset, 0));
  return end === -1 ? text.length : end + 1;
}
