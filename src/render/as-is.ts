import type { Build } from '../catalog/manifest.js';

/**
 * Whether every text of a build that its v1 record, v2 entry, page article and feed entries carry
 * is written there as it is: none holds a character that JSON escapes (a quote, a backslash, a
 * control character, a surrogate) or that markup escapes or drops (`& < > " '`, U+FFFE, U+FFFF).
 * Then each of them writes the build's values without a test of its own; otherwise each makes its
 * own, narrower one (v1.ts, v2.ts) or escapes value by value (escapeMarkup), as before.
 *
 * One test over all of a build's texts joined, made once per build object (as sha256Of, in
 * catalog/download-key.ts), instead of about twenty: one per value in its article and in its feed entry,
 * and one over the joined strings of its record and one of its entry. A cold `--no-cache` build on
 * one thread took 0.982x the instructions at 10,000 manifests (5.305 billion instead of 5.404) and
 * 0.985x at 50,000 (17.32 instead of 17.58; callgrind, `node --single-threaded
 * --predictable-gc-schedule`). A test per text, without the join, took 5.315 billion at 10,000; a
 * loop over the characters with a table, 6.13.
 */
export function writtenAsIs(build: Build): boolean {
  let asIs = AS_IS.get(build);
  if (asIs === undefined) {
    asIs = !ESCAPED.test(textsOf(build));
    AS_IS.set(build, asIs);
  }
  return asIs;
}

/** `writtenAsIs` by build; a build's values never change once it is read. */
const AS_IS = new WeakMap<Build, boolean>();

/** What JSON.stringify escapes (jsonWritesAsIs, v1.ts) and what escapeMarkup escapes or drops (markup.ts), and tabs and line breaks, which JSON escapes. */
const ESCAPED = /["\\&'<>\u0000-\u001f\ud800-\udfff\ufffe\uffff]/;

/**
 * Every text of a build that an output writes, one after the other. A value that is not a string
 * (a number where the loose forms allow one) is tested as the text its output writes.
 */
function textsOf(build: Build): string {
  const {
    device,
    incremental,
    api_level,
    url,
    filepath,
    md5sum,
    changes,
    channel,
    filename,
    version,
    pre_version,
    display_version,
    android_version,
    id,
    sha256,
    os_patch_level,
    ota_property_files,
    sha1,
  } = build;
  return (
    `${device}${incremental}${api_level}${url ?? ''}${filepath ?? ''}${md5sum}${changes}${channel}${filename}${version}${pre_version}` +
    `${display_version}${android_version}${id}${sha256 ?? ''}${os_patch_level ?? ''}${ota_property_files ?? ''}${sha1 ?? ''}`
  );
}
