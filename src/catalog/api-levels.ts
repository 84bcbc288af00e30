/** Platform API level for each Android major version, as the /e/ OTA server publishes them (README, The v1 interface). */
export const API_LEVELS: Record<string, string> = {
  '7': '25',
  '9': '28',
  '10': '29',
  '11': '30',
  '12': '32',
  '13': '33',
  '14': '34',
  '15': '35',
  '16': '36',
};

/** The Android major version of an API level by the same pairing; `undefined` for a level it lacks. */
export function androidVersionOf(apiLevel: string | undefined): string | undefined {
  return Object.keys(API_LEVELS).find((version) => API_LEVELS[version] === apiLevel);
}
