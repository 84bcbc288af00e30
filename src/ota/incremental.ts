/**
 * What `otapress add` reads of an incremental package (`ota_from_target_files -i`): the build it
 * applies on, and the full build of the device it installs, which must be published first. Pure.
 *
 * AOSP `build/make/tools/releasetools/ota_utils.py` (`GetPackageMetadata`, as its tests in
 * `test_ota_from_target_files.py` spell it out for both `ota-type`s, AB and BLOCK): a full package's
 * metadata has `post-build`, `post-build-incremental`, `post-timestamp` and `pre-device`; an
 * incremental one has `pre-build` (the source's fingerprint, several joined by `|` for builds with
 * OEM-dependent fingerprints) and `pre-build-incremental` besides. update_engine (AB) and the
 * recovery's updater (BLOCK) refuse the package on any other build, after the download.
 */
import type { Build } from '../catalog/manifest.js';
import { SOURCE_INCREMENTAL } from '../catalog/field-values.js';
import type { AddProblem } from './add-checks.js';

/** The build an incremental package applies on, as the manifest records it, and where each value came from. */
export interface SourceBuild {
  source_incremental: string;
  source_build?: string;
  origins: { field: 'source_incremental' | 'source_build'; value: string; from: string }[];
}

/**
 * The source build of the package whose metadata is `metadata`: `undefined` for a full package
 * (no `pre-build`, no `pre-build-incremental`), a problem when it is incremental but names no
 * source incremental a phone could ask with.
 */
export function sourceBuildOf(
  metadata: ReadonlyMap<string, string> | undefined,
  zip: string,
): SourceBuild | AddProblem | undefined {
  const value = (key: string) => {
    const v = metadata?.get(key)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const preBuild = value('pre-build');
  const preIncremental = value('pre-build-incremental');
  if (preBuild === undefined && preIncremental === undefined) return undefined;
  const fingerprints = preBuild?.split('|').map((f) => f.trim()) ?? [];
  const fromFingerprint = fingerprints.length === 1 ? incrementalOfFingerprint(fingerprints[0]) : undefined;
  const incremental = preIncremental ?? fromFingerprint;
  if (incremental === undefined || !SOURCE_INCREMENTAL.test(incremental)) {
    return {
      where: zip,
      field: 'source_incremental',
      message:
        incremental === undefined
          ? `the zip is an incremental package (its metadata has pre-build=${preBuild}) but names no pre-build-incremental, the ro.build.version.incremental of the phones it applies on; make it again with ota_from_target_files -i from the source build's target files`
          : `the zip's metadata says pre-build-incremental=${incremental}, which cannot be one path segment of a phone's request (letters, digits, \`.\`, \`-\` and \`_\`, at most 128, not \`index\`)`,
    };
  }
  const origins: SourceBuild['origins'] = [
    {
      field: 'source_incremental',
      value: incremental,
      from: preIncremental !== undefined ? 'metadata pre-build-incremental' : 'metadata pre-build',
    },
  ];
  const result: SourceBuild = { source_incremental: incremental, origins };
  // One fingerprint is recorded; several (OEM-dependent) are in the zip for whoever needs them.
  if (fingerprints.length === 1 && /^[\x21-\x7e]{1,256}$/.test(fingerprints[0])) {
    result.source_build = fingerprints[0];
    origins.push({ field: 'source_build', value: fingerprints[0], from: 'metadata pre-build' });
  }
  return result;
}

/**
 * The full package an incremental one installs must be published on the device first: phones on
 * the source build are offered the incremental package in its place, with its version and build
 * time. A problem when the device has none with the package's incremental and build time.
 */
export function targetProblem(
  facts: { device: string; incremental: string; timestamp: string },
  others: readonly Build[],
  zip: string,
): AddProblem | undefined {
  const full = others.filter((b) => !b.placeholder && b.appliesOn === undefined && b.incremental === facts.incremental);
  if (full.some((b) => String(b.timestamp) === facts.timestamp)) return undefined;
  return {
    where: zip,
    field: 'incremental',
    message:
      full.length === 0
        ? `the zip is an incremental package that installs ${facts.incremental} (post-build-incremental), and ${facts.device} publishes no full package of that build: phones on the source build are offered it in place of that build's full package; add the full package first (otapress add <its zip>), then this one`
        : `the full package of ${facts.incremental} (${full[0].source}) was built at ${full[0].timestamp}, this incremental package at ${facts.timestamp}: it was made from other target files of the same name; make it again from the published build's target files`,
  };
}

// --- internal ---

/** The incremental of a build fingerprint: `brand/product/device:14/UP1A.231005.007/<incremental>:user/release-keys`. */
function incrementalOfFingerprint(fingerprint: string): string | undefined {
  const colon = fingerprint.indexOf(':');
  if (colon < 0) return undefined;
  return (
    fingerprint
      .slice(colon + 1)
      .split(':')[0]
      .split('/')[2] || undefined
  );
}
