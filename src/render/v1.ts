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
  return {
    incremental: build.incremental,
    api_level: build.api_level,
    ...(build.placeholder ? {} : { url: build.url }),
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
}

/** The JSON body of a listing: the envelope, compact as Django REST framework sends it. */
export function renderListing(listing: Listing): string {
  return renderEnvelope(listing.builds.map((b) => renderRecord(b, listing.list)), null);
}

/** `{"id":null,"response":[...],"error":...}`: the envelope of every v1 answer, success or 404. */
export function renderEnvelope(response: readonly ApiRecord[], error: string | null): string {
  return JSON.stringify({ id: null, response, error });
}
