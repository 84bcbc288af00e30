import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';
import { writtenAsIs } from './as-is.js';
import { flatten } from './markup.js';

/** A record exactly as a v1 phone reads it, keys in the order the /e/ OTA server writes them. */
export interface ApiRecord {
  incremental: string;
  api_level: string;
  url?: string;
  timestamp: number;
  md5sum: string;
  changes: string;
  channel: string;
  filename: string;
  romtype: string;
  datetime: number;
  version: string;
  pre_version: string;
  display_version: string;
  android_version: string;
  id: string;
  size: number | '';
  is_upgrade_supported: boolean;
}

/** The v1 record of a build as it appears in request list `list` (`romtype` is the list). */
export function renderRecord(build: Build, list: string): ApiRecord {
  // One literal with every key, not a conditional spread of `url`, which V8 builds through its
  // runtime key by key; a placeholder's record then loses the key it has no value for.
  const record: ApiRecord = {
    incremental: build.incremental,
    api_level: build.api_level,
    url: build.url,
    timestamp: build.timestamp,
    md5sum: build.md5sum,
    changes: build.changes,
    channel: build.channel,
    filename: build.filename,
    romtype: list,
    datetime: build.timestamp,
    version: build.version,
    pre_version: build.pre_version,
    display_version: build.display_version,
    android_version: build.android_version,
    id: build.id,
    size: build.size,
    is_upgrade_supported: build.is_upgrade_supported,
  };
  if (build.placeholder) delete record.url;
  return record;
}

/**
 * The JSON bodies of a device's listings: each the envelope of its records, compact as Django REST
 * framework sends it, exactly as {@link renderEnvelope} writes it. A build in several lists has the
 * same record in each but for `romtype`: its JSON before and after that value is made once, and
 * each listing joins the parts.
 */
export function renderListings(listings: readonly Listing[]): string[] {
  const parts = new Map<Build, RecordParts>();
  return listings.map(({ builds, list }) => {
    const romtype = JSON.stringify(list);
    let body = ENVELOPE_START;
    for (let i = 0; i < builds.length; i++) {
      const build = builds[i];
      let record = parts.get(build);
      if (record === undefined) {
        record = recordParts(build);
        parts.set(build, record);
      }
      body += (i > 0 ? ',' : '') + record.before + romtype + record.after;
    }
    return body + ENVELOPE_END;
  });
}

/** `{"id":null,"response":[...],"error":...}`: the envelope of every v1 answer, success or 404. */
export function renderEnvelope(response: readonly ApiRecord[], error: string | null): string {
  return JSON.stringify({ id: null, response, error });
}

// --- internal ---

/** The JSON of a v1 record up to `romtype`'s value (`{..."romtype":`), and after it (`,"datetime":...}`). */
interface RecordParts {
  before: string;
  after: string;
}

function recordParts(build: Build): RecordParts {
  const plain = plainRecordParts(build);
  if (plain !== undefined) return plain;
  // The record's own JSON cut at the value of `romtype`: an empty list name is `""`, and
  // nothing before it in a record can hold the text `"romtype":""` unescaped.
  const whole = JSON.stringify(renderRecord(build, ''));
  const at = whole.indexOf(ROMTYPE_EMPTY);
  return { before: whole.slice(0, at + ROMTYPE_EMPTY.length - 2), after: whole.slice(at + ROMTYPE_EMPTY.length) };
}

const ROMTYPE_EMPTY = ',"romtype":""';

/**
 * {@link recordParts} written out, for the record of nearly every build: its strings hold no
 * character that JSON escapes (a quote, a backslash, a control character, a surrogate), which one
 * test over all of them tells, and its numbers are finite, so that each value's JSON is the value
 * itself (in quotes for a string): the text `JSON.stringify` makes of {@link renderRecord}, key by
 * key. `undefined` for any other record, which takes `JSON.stringify`. V8's `JSON.stringify` walks
 * every character of every string to escape it (`JsonStringifier::SerializeString`, 4.8 % of the
 * instructions of a cold build); one regular expression over the joined strings is cheaper: a cold
 * `--no-cache` build of 50,000 manifests on one thread took 16.06 to 16.39 billion instructions
 * instead of 16.54 to 16.61 (0.98x; callgrind, `node --single-threaded`), and of 10,000 manifests
 * 5.52 instead of 5.62.
 */
function plainRecordParts(build: Build): RecordParts | undefined {
  const {
    incremental,
    api_level,
    timestamp,
    md5sum,
    changes,
    channel,
    filename,
    version,
    pre_version,
    display_version,
    android_version,
    id,
    size,
    is_upgrade_supported,
  } = build;
  // renderRecord leaves `url` out of a placeholder's record; JSON.stringify any undefined value.
  const url = build.placeholder ? undefined : build.url;
  if (
    typeof incremental !== 'string' ||
    typeof api_level !== 'string' ||
    typeof md5sum !== 'string' ||
    typeof changes !== 'string' ||
    typeof channel !== 'string' ||
    typeof filename !== 'string' ||
    typeof version !== 'string' ||
    typeof pre_version !== 'string' ||
    typeof display_version !== 'string' ||
    typeof android_version !== 'string' ||
    typeof id !== 'string' ||
    (url !== undefined && typeof url !== 'string') ||
    typeof is_upgrade_supported !== 'boolean' ||
    !Number.isFinite(timestamp) ||
    (size !== '' && !Number.isFinite(size))
  ) {
    return undefined;
  }
  if (
    !writtenAsIs(build) &&
    !jsonWritesAsIs(
      incremental +
        api_level +
        (url ?? '') +
        md5sum +
        changes +
        channel +
        filename +
        version +
        pre_version +
        display_version +
        android_version +
        id,
    )
  ) {
    return undefined;
  }
  const before =
    `{"incremental":"${incremental}","api_level":"${api_level}",${url === undefined ? '' : `"url":"${url}",`}"timestamp":${timestamp},` +
    `"md5sum":"${md5sum}","changes":"${changes}","channel":"${channel}","filename":"${filename}","romtype":`;
  const after =
    `,"datetime":${timestamp},"version":"${version}","pre_version":"${pre_version}","display_version":"${display_version}",` +
    `"android_version":"${android_version}","id":"${id}","size":${size === '' ? '""' : size},"is_upgrade_supported":${is_upgrade_supported}}`;
  return { before: flatten(before), after: flatten(after) };
}

/**
 * Whether `JSON.stringify` writes every character of `text` as itself: no quote, backslash, control
 * character or surrogate (it escapes a surrogate only when lone, but any is rare).
 */
export function jsonWritesAsIs(text: string): boolean {
  return !JSON_ESCAPED.test(text);
}

const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** {@link renderEnvelope}'s text around the records of a successful answer. */
const [ENVELOPE_START, ENVELOPE_END] = renderEnvelope([], null)
  .split('[]')
  .map((part, i) => (i === 0 ? `${part}[` : `]${part}`));
