/**
 * One record of a saved v1 listing: its shape and types checked, and the manifest values it stands
 * for. Problems and normalisations go to the caller's context, located at the record's fields.
 */
import { displayVersionOf, parseBuildFilename } from '../catalog/filename.js';
import { androidVersionOf, API_LEVELS } from '../catalog/api-levels.js';
import type { ManifestValues } from '../catalog/manifest-text.js';
import type { Site } from '../catalog/site.js';

/** The keys of a v1 record in the order of interface.md (and of every listing otapress writes). */
export const RECORD_KEYS = [
  'incremental',
  'api_level',
  'url',
  'timestamp',
  'md5sum',
  'changes',
  'channel',
  'filename',
  'romtype',
  'datetime',
  'version',
  'pre_version',
  'display_version',
  'android_version',
  'id',
  'size',
  'is_upgrade_supported',
] as const;

/**
 * The fields a LineageOS v1 updater reads: it drops a record that lacks any of them. Every other
 * field of the interface is only the /e/ updater's, so a record without it is still importable.
 */
export const PHONE_KEYS = ['datetime', 'filename', 'id', 'romtype', 'size', 'url', 'version'] as const;

/** Where a record is read: the site, the device and list it is imported into, and where messages go. */
export interface RecordContext {
  site: Site;
  device: string;
  list: string;
  problem(field: string | undefined, message: string): void;
  note(field: string | undefined, message: string): void;
  /**
   * A field the record lacks, filled in (`how` in {@link FILLED}); `detail` is what it was derived
   * from, e.g. `30 → 11`. The caller reports each field once per listing, not once per record.
   */
  filled(field: FilledField, detail?: string): void;
}

/** How the import fills each field a record may lack (the phone does not read them), for the one note per field. */
export const FILLED = {
  timestamp: 'set to datetime (the build time phones compare)',
  channel: 'set to the list imported into (the download folder of the default address)',
  channel_from_name: 'set to the channel the file name states (the download folder of the default address)',
  android_version: "derived from api_level by interface.md's pairing",
  android_version_from_name: "derived from the file name's platform part",
  api_level: 'derived from android_version by the same pairing, as the build does',
  display_version: 'derived from the file name, as the build does',
  incremental: 'published as ""',
  md5sum: 'published as "" (placeholders only: a package needs its MD5)',
  changes: 'published as ""',
  pre_version: 'published as ""',
  is_upgrade_supported: 'published as false',
} as const;

/** A field the import may fill in; see {@link FILLED}. */
export type FilledField = keyof typeof FILLED;

/** Fields the interface types as strings that servers also send as JSON numbers. */
const NUMERIC_TEXT = new Set(['incremental', 'api_level', 'android_version']);

/** Checks one record's shape and types; returns the manifest values it stands for. */
export function readRecord(record: unknown, c: RecordContext): (ManifestValues & { placeholder?: true }) | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    c.problem(undefined, `expected a record (a JSON object), found ${record === null ? 'null' : Array.isArray(record) ? 'an array' : typeof record}`);
    return undefined;
  }
  const r = { ...(record as Record<string, unknown>) };
  const placeholder = r.url === undefined && r.filename === '';
  for (const key of Object.keys(r)) {
    if (!(RECORD_KEYS as readonly string[]).includes(key)) c.note(key, `\`${key}\` is not a field of the v1 interface; it is left out`);
  }
  // What a phone needs must be there: a phone drops a record without it, so it is not a build it offers.
  // A placeholder (no url, filename "") is dropped by phones anyway and lacks only the url.
  for (const key of PHONE_KEYS) {
    if (r[key] === undefined && !(key === 'url' && placeholder)) {
      c.problem(key, `missing \`${key}\`${key === 'url' ? ' (only a placeholder, with filename, id and size "", has no url)' : ''}; a phone drops a record without it`);
    }
  }
  fillMissing(r, placeholder, c);
  const text = (key: string): string | undefined => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (v === null) {
      c.problem(key, `${key} is JSON null; phones read it as the text "null"; write the value, or "" for none`);
      return undefined;
    }
    if (typeof v === 'number' && NUMERIC_TEXT.has(key) && Number.isSafeInteger(v) && v >= 0) {
      c.note(key, `${key} is the number ${v}; published as the text "${v}", as the interface types it`);
      return String(v);
    }
    if (typeof v !== 'string') {
      c.problem(key, `expected text for ${key}, found ${describe(v)}`);
      return undefined;
    }
    return v;
  };
  const seconds = (key: string): number | undefined => {
    const v = r[key];
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    c.problem(key, `expected Unix seconds as a JSON number, e.g. 1731067200, found ${describe(v)}`);
    return undefined;
  };
  const hex = (key: string, length: number): string | undefined => {
    const v = text(key);
    if (v === undefined || v === '') return v;
    if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(v)) {
      c.problem(key, `expected ${length} hex characters for ${key}, found ${describe(v)}`);
      return undefined;
    }
    if (v !== v.toLowerCase()) c.note(key, `${key} is in upper-case hex; published in lowercase`);
    return v.toLowerCase();
  };

  const values = {
    incremental: text('incremental'),
    api_level: text('api_level'),
    timestamp: seconds('timestamp'),
    datetime: seconds('datetime'),
    md5sum: hex('md5sum', 32),
    changes: text('changes'),
    channel: text('channel'),
    filename: text('filename'),
    romtype: text('romtype'),
    version: text('version'),
    pre_version: text('pre_version'),
    display_version: text('display_version'),
    android_version: text('android_version'),
    id: hex('id', 64),
  };
  const url = placeholder ? undefined : text('url');
  let size: number | '' | undefined;
  const rawSize = r.size;
  if (typeof rawSize === 'number' && Number.isSafeInteger(rawSize) && rawSize >= 0) size = rawSize;
  else if (typeof rawSize === 'string' && /^\d{1,15}$/.test(rawSize)) {
    size = Number(rawSize);
    c.note('size', `size is the text "${rawSize}"; published as the number ${size}`);
  } else if (rawSize === '' && placeholder) size = '';
  else if (rawSize !== undefined) c.problem('size', `expected the size in bytes as a whole number${placeholder ? ', or "" in a placeholder' : ''}, found ${describe(rawSize)}`);
  const upgrade = r.is_upgrade_supported;
  if (upgrade !== undefined && typeof upgrade !== 'boolean') c.problem('is_upgrade_supported', `expected true or false, found ${describe(upgrade)}`);

  if (values.datetime !== undefined && values.timestamp !== undefined && values.datetime !== values.timestamp) {
    c.problem('datetime', `datetime ${values.datetime} differs from timestamp ${values.timestamp}; phones compare datetime with their build time, so otapress publishes one build time: make them equal`);
  }
  if (values.romtype !== undefined && values.romtype !== c.list) {
    c.note('romtype', `romtype is \`${values.romtype}\`; published as \`${c.list}\`, the list it is in (phones offer a record only when romtype is their release type)`);
  }
  if (placeholder) {
    if (values.id !== '' && values.id !== undefined) c.problem('id', 'a placeholder (no url, filename "") has id ""; a phone would otherwise treat it as a download');
    if (size !== '' && size !== undefined) c.problem('size', 'a placeholder (no url, filename "") has size ""; a numeric size would make a phone offer it');
  } else if (r.url !== undefined && r.filename === '') {
    c.problem('filename', 'a record with a url needs its file name; a placeholder has neither');
  }
  if (Object.values(values).some((v) => v === undefined) || size === undefined || upgrade === undefined || (!placeholder && url === undefined)) return undefined;
  const v = values as { [K in keyof typeof values]-?: NonNullable<(typeof values)[K]> };
  // Keep only what the build would not derive by itself, as a maintainer would write it.
  if (placeholder) {
    return {
      placeholder: true,
      version: v.version,
      channel: v.channel,
      timestamp: v.timestamp,
      android_version: v.android_version,
      api_level: v.api_level || undefined,
      incremental: v.incremental || undefined,
      md5sum: v.md5sum || undefined,
      display_version: v.display_version,
      changes: v.changes || undefined,
      pre_version: v.pre_version || undefined,
      is_upgrade_supported: upgrade === true ? true : undefined,
    };
  }
  const defaultUrl = `${c.site.downloadBaseUrl}/${v.channel}/${c.device}/${v.filename}`;
  return {
    filename: v.filename,
    version: v.version,
    channel: v.channel,
    timestamp: v.timestamp,
    android_version: v.android_version,
    api_level: v.api_level === API_LEVELS[v.android_version] ? undefined : v.api_level,
    incremental: v.incremental,
    md5sum: v.md5sum,
    id: v.id,
    size: size as number,
    url: url === defaultUrl ? undefined : url,
    display_version: v.display_version === displayVersionOf(v.filename) ? undefined : v.display_version,
    changes: v.changes || undefined,
    pre_version: v.pre_version || undefined,
    is_upgrade_supported: upgrade === true ? true : undefined,
  };
}

/** What a record, valid or not, says about which build it is. */
export function rawIdentity(r: Record<string, unknown>): { placeholder: boolean; id: unknown; filename: unknown; display_version: unknown } {
  return { placeholder: r.url === undefined && r.filename === '', id: typeof r.id === 'string' ? r.id.toLowerCase() : r.id, filename: r.filename, display_version: r.display_version };
}

/** Whether the record's known keys come in the interface's order. */
export function sameOrder(keys: string[]): boolean {
  const known = keys.filter((k) => (RECORD_KEYS as readonly string[]).includes(k));
  const expected = RECORD_KEYS.filter((k) => known.includes(k));
  return known.join() === expected.join();
}

// --- internal ---

/** Fills in, in `r`, the fields only the /e/ updater reads, from what the record has; reports each through `c.filled`. */
function fillMissing(r: Record<string, unknown>, placeholder: boolean, c: RecordContext): void {
  const fill = (key: FilledField, value: unknown, detail?: string) => {
    r[key] = value;
    c.filled(key, detail);
  };
  if (r.timestamp === undefined && r.datetime !== undefined) fill('timestamp', r.datetime);
  // The channel is the download folder: the one a known file name form states, else the list's.
  const named = typeof r.filename === 'string' ? parseBuildFilename(r.filename) : undefined;
  if (r.channel === undefined && named) {
    r.channel = named.channel;
    c.filled('channel_from_name');
  } else if (r.channel === undefined) fill('channel', c.list);
  if (r.android_version === undefined) {
    const fromLevel = androidVersionOf(typeof r.api_level === 'number' ? String(r.api_level) : (r.api_level as string | undefined));
    const fromName = named?.androidVersion;
    if (fromLevel !== undefined) fill('android_version', fromLevel, `${String(r.api_level)} → ${fromLevel}`);
    else if (fromName !== undefined) {
      r.android_version = fromName;
      c.filled('android_version_from_name', `${String(r.filename)} → ${fromName}`);
    } else {
      const pairs = Object.entries(API_LEVELS).map(([v, l]) => `${l} → ${v}`).join(', ');
      const level = r.api_level === undefined || r.api_level === '' ? 'an api_level' : `api_level ${JSON.stringify(r.api_level)}`;
      c.problem('android_version', `missing \`android_version\`, and neither ${level} (interface.md pairs ${pairs}) nor the file name tells it; add \`"android_version": "N"\` to the record`);
    }
  }
  // The build derives api_level from android_version; "" is what a placeholder shows without it.
  if (r.api_level === undefined) fill('api_level', placeholder ? '' : API_LEVELS[String(r.android_version)] ?? '');
  if (r.display_version === undefined && typeof r.filename === 'string' && r.filename !== '') fill('display_version', displayVersionOf(r.filename));
  if (r.display_version === undefined) c.problem('display_version', 'missing `display_version`, which names a placeholder (it has no file name to derive it from); add it');
  if (r.md5sum === undefined && placeholder) fill('md5sum', '');
  else if (r.md5sum === undefined) c.problem('md5sum', 'missing `md5sum`; every manifest carries the MD5 of its package: add it (md5sum FILE)');
  for (const [key, value] of [['incremental', ''], ['changes', ''], ['pre_version', ''], ['is_upgrade_supported', false]] as const) {
    if (r[key] === undefined) fill(key, value);
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `${v}`;
  return Array.isArray(v) ? 'an array' : 'an object';
}
