/**
 * The file name families of ROMs whose names otapress reads beyond the /e/ and LineageOS forms of
 * filename.ts: what each name says of the Android version, the ROM version and the release type.
 * Only facts: the names are never refused for not fitting here (filename-checks.ts cross-checks
 * the two forms of filename.ts only). Pure.
 */
import { androidVersionOfLineage, parseBuildFilename } from './filename.js';
import { androidVersionOf } from './api-levels.js';

/** What a name of a known family says. `androidVersion` is a major version (`14`). */
export interface NameFamilyFacts {
  family: string;
  androidVersion?: string;
  /** The ROM's own version, as its updater shows it (`v10.3` → `10.3`), when the name has one. */
  version?: string;
  /** The release type the name states, lower-cased (`official`, `unofficial`), when it states one. */
  releaseType?: string;
  device?: string;
}

/**
 * The families, with an example each (the README's table of name families is written from this).
 * A LineageOS build time may be `yyyymmdd` or `yyyymmdd_hhmmss` (unofficial builds of the
 * LineageOS build scripts); the Android version after crDroid's, Evolution X's, PixelOS's and
 * Project Elixir's names is the platform's, not the ROM's.
 */
export const NAME_FAMILIES: {
  family: string;
  example: string;
  read: (name: string) => NameFamilyFacts | null | undefined;
}[] = [
  {
    family: 'LineageOS',
    example: 'lineage-21.0-20240409_164757-UNOFFICIAL-m20lte.zip',
    read: (name) => {
      const m =
        /^lineage-(\d+\.\d+(?:\.\d+)?)-\d{8}(?:_\d{6})?-([A-Za-z0-9]+)-([A-Za-z0-9][A-Za-z0-9_.-]*?)(?:-signed)?\.zip$/.exec(
          name,
        );
      return (
        m && {
          family: 'LineageOS',
          androidVersion: androidVersionOfLineage(m[1]),
          version: m[1],
          releaseType: m[2].toLowerCase(),
          device: m[3],
        }
      );
    },
  },
  {
    family: 'crDroid',
    example: 'crDroidAndroid-14.0-20240315-akita-v10.3.zip',
    read: (name) => {
      const m = /^crDroidAndroid-(\d{1,2})(?:\.\d+)?-\d{8}-([A-Za-z0-9_.-]+?)-v(\d+(?:\.\d+){0,2})\.zip$/.exec(name);
      return m && { family: 'crDroid', androidVersion: m[1], version: m[3], device: m[2] };
    },
  },
  {
    family: 'Evolution X',
    example: 'EvolutionX-14.0-20240315-akita-9.0-Official.zip',
    read: (name) => {
      // A variant may stand before the release type: EvolutionX-16.0-20260802-Pong-11.9-Vanilla-Official.zip.
      const m =
        /^EvolutionX-(\d{1,2})(?:\.\d+)?-\d{8}-([A-Za-z0-9_.-]+?)-v?(\d+(?:\.\d+){0,2})(?:-[A-Za-z]+)*-([A-Za-z]+)\.zip$/.exec(
          name,
        );
      return (
        m && {
          family: 'Evolution X',
          androidVersion: m[1],
          version: m[3],
          releaseType: m[4].toLowerCase(),
          device: m[2],
        }
      );
    },
  },
  {
    family: 'PixelOS',
    example: 'PixelOS_akita-14.0-20240315-0820.zip',
    read: (name) => {
      const m = /^PixelOS_([A-Za-z0-9_.-]+?)-(\d{1,2})\.\d+-\d{8}-\d{4}\.zip$/.exec(name);
      // PixelOS's updater compares `version` with org.pixelexperience.version, the branch's name.
      return (
        m && {
          family: 'PixelOS',
          androidVersion: m[2],
          ...(BRANCH_NAMES[m[2]] !== undefined && { version: BRANCH_NAMES[m[2]] }),
          device: m[1],
        }
      );
    },
  },
  {
    family: 'Project Elixir',
    example: 'ProjectElixir_4.1_alioth-14.0-20240226-2058-OFFICIAL.zip',
    read: (name) => {
      const m =
        /^ProjectElixir_(\d+(?:\.\d+){0,2})_([A-Za-z0-9_.-]+?)-(\d{1,2})\.\d+-\d{8}-\d{4}-([A-Za-z]+)\.zip$/.exec(name);
      return (
        m && {
          family: 'Project Elixir',
          androidVersion: m[3],
          version: m[1],
          releaseType: m[4].toLowerCase(),
          device: m[2],
        }
      );
    },
  },
  {
    family: 'RisingOS',
    example: 'RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip',
    // The name holds RisingOS's own version and no Android one.
    read: (name) => {
      const m =
        /^RisingOS(?:_Revived)?-(\d+(?:\.\d+){0,2})-\d{6}-\d{4}-[A-Za-z]+-([A-Za-z]+)-([A-Za-z0-9_.-]+?)(?:-ota)?\.zip$/.exec(
          name,
        );
      return m && { family: 'RisingOS', version: m[1], releaseType: m[2].toLowerCase(), device: m[3] };
    },
  },
];

/**
 * PixelOS's branch of each Android version, the `version` its phones compare (PixelOS-AOSP/
 * official_devices, API/updater/G.json at 2e94a20a3ecfd995e91e2c666de7fc66ea924643: `fourteen` for
 * PixelOS_G-14.0-...).
 */
const BRANCH_NAMES: Record<string, string> = { '13': 'thirteen', '14': 'fourteen', '15': 'fifteen', '16': 'sixteen' };

/** The facts of a name of one of {@link NAME_FAMILIES}, or `undefined`. */
export function readNameFamily(name: string): NameFamilyFacts | undefined {
  for (const family of NAME_FAMILIES) {
    const facts = family.read(name);
    if (facts) return facts;
  }
  return undefined;
}

/**
 * The Android major version of a build the manifest does not state: from its file name (the /e/
 * and LineageOS forms, then the families above), else from its API level; `undefined` when
 * nothing tells it.
 */
export function deriveAndroidVersion(filename: string | undefined, apiLevel: string | undefined): string | undefined {
  if (filename !== undefined) {
    const fromName = parseBuildFilename(filename)?.androidVersion ?? readNameFamily(filename)?.androidVersion;
    if (fromName !== undefined) return fromName;
  }
  return androidVersionOf(apiLevel);
}
