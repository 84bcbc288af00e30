/**
 * `ota_property_files`: the `ota-property-files` value of an OTA zip's metadata, entries
 * `name:offset:size` separated by commas, with which an A/B phone streams `payload.bin` by HTTP
 * range requests instead of downloading the zip.
 *
 * How the LineageOS v2 updater reads it (LineageOS/android_packages_apps_Updater,
 * `app/src/main/java/org/lineageos/updater/data/source/network/NetworkUpdate.kt` at commit
 * 022b56cbe31073fdcf16a92e07c6b99c18a6522c, `parsePackageFileRanges`): split on `,`, each entry
 * trimmed and split on `:`, the second and third parts read with Kotlin's `toLong()`. A number past
 * 2^63-1 (or an entry with fewer than three parts) throws, and `UpdatesRepository.kt` (commit
 * 2d441e8b2d45966e4306fac2689de13b2118f37f) maps every entry of the answer with `toUpdate()` before
 * filtering, so one bad value makes the phone refuse the device's whole v2 answer.
 */

/** The shape of the value: `name:offset:size` entries, comma separated, as the zip's metadata writes it. */
export const PROPERTY_FILES_FORMAT = /^[A-Za-z0-9._-]+:\d+:\d+(,[A-Za-z0-9._-]+:\d+:\d+)*\s*$/;

/** The largest number Kotlin's `String.toLong()` reads: 2^63-1. */
const LONG_MAX = 2n ** 63n - 1n;

/** What is wrong with a value, and where in the (trimmed) value the entry it is about starts. */
export interface PropertyFilesProblem {
  message: string;
  index?: number;
}

/**
 * Why a phone could not use `value`, or `undefined` when it can: the shape, each offset and size
 * within 64 bits, and (when the zip's size is known: positive) each entry within the zip.
 */
export function propertyFilesProblem(value: string, zipSize: number | undefined): PropertyFilesProblem | undefined {
  if (!PROPERTY_FILES_FORMAT.test(value))
    return { message: 'expected name:offset:size entries separated by commas, as in META-INF/com/android/metadata' };
  let index = 0;
  for (const entry of value.trim().split(',')) {
    const [name, offsetText, sizeText] = entry.split(':');
    const offset = BigInt(offsetText);
    const size = BigInt(sizeText);
    for (const [what, text, n] of [
      ['offset', offsetText, offset],
      ['size', sizeText, size],
    ] as const) {
      if (n > LONG_MAX) {
        return {
          index,
          message: `the ${what} of \`${name}\`, ${text}, is past the largest number the LineageOS v2 updater reads (${LONG_MAX}): it would refuse the whole v2 answer of the device, not just this build; copy ota-property-files from the zip's META-INF/com/android/metadata (otapress add writes it)`,
        };
      }
    }
    if (zipSize !== undefined && zipSize > 0 && offset + size > BigInt(zipSize)) {
      return {
        index,
        message: `\`${name}\` ends at byte ${offset + size} (offset + size), past the end of the zip (\`size\`: ${zipSize} bytes): phones would ask for bytes the zip does not hold; copy ota-property-files from this zip's META-INF/com/android/metadata, or correct \`size\``,
      };
    }
    index += entry.length + 1;
  }
  return undefined;
}
