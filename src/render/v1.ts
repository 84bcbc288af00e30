import type { Build } from '../catalog/manifest.js';
import type { Listing } from '../catalog/plan.js';

/** A record exactly as a v1 phone reads it, keys in the order of interface.md's Build table. */
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
  // The record's own JSON cut at the value of `romtype`: an empty list name is `""`, and
  // nothing before it in a record can hold the text `"romtype":""` unescaped.
  const whole = JSON.stringify(renderRecord(build, ''));
  const at = whole.indexOf(ROMTYPE_EMPTY);
  return { before: whole.slice(0, at + ROMTYPE_EMPTY.length - 2), after: whole.slice(at + ROMTYPE_EMPTY.length) };
}

const ROMTYPE_EMPTY = ',"romtype":""';

/** {@link renderEnvelope}'s text around the records of a successful answer. */
const [ENVELOPE_START, ENVELOPE_END] = renderEnvelope([], null).split('[]').map((part, i) => (i === 0 ? `${part}[` : `]${part}`));
