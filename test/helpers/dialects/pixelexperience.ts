/**
 * PixelExperience's updater (and the forks that kept it, PixelOS up to thirteen among them): one
 * build as a single JSON object, read with org.json; which build a phone lists (`isCompatible`)
 * and which it lets the user install (`canInstall`) are two different rules.
 */
import {
  JSONException,
  NULL,
  getLong,
  getString,
  isNull,
  javaDoubleToString,
  joinLines,
  parseJSONObject,
  type JsonObject,
} from './org-json.js';

/**
 * The branches transcribed: the key Gson reads a maintainer's user name from (`MaintainerInfo`'s
 * second field; `name` is the first on every branch) and the address a maintainer's card opens,
 * `String.format(Constants.MAINTAINER_URL, username)` (`Utils.getMaintainerURL`, called from
 * ExtrasFragment.java `updatePrefs`: one card per maintainer, its summary the name). Everything
 * else `parseJsonUpdate` reads is the same on all three.
 */
export const pixelExperienceBranches = {
  /**
   * PixelExperience/packages_apps_Updates branch thirteen at head
   * 50c6109df4a3af5ecba94a1382a2d5d2460422fa: app/src/main/java/org/pixelexperience/ota/misc/Utils.java
   * (last changed at ede7af5006a9f0f1fdf3970c8994f95f81eea922), model/MaintainerInfo.java
   * `ci_username` since 6bd403f231b1a57be77bf56bbe83437e3efc4e39 ("Fix maintainer username"),
   * misc/Constants.java `MAINTAINER_URL`.
   */
  thirteen: { usernameKey: 'ci_username', maintainerUrl: 'https://download.pixelexperience.org/team/%s' },
  /**
   * Branch twelve at head 196ae87e274353cf2e2090f9e620bd7f8cc15bfb: src/org/pixelexperience/ota/misc/Utils.java
   * the same reading, model/MaintainerInfo.java `github_username`, the same `MAINTAINER_URL`.
   */
  twelve: { usernameKey: 'github_username', maintainerUrl: 'https://download.pixelexperience.org/team/%s' },
  /**
   * PixelOS's fork, PixelOS-AOSP/packages_apps_Updates branch thirteen at head
   * 4f4d31741956ae6b66a024c74a0d7576d3145080 (thirteen-qpr1 and fourteen the same):
   * app/src/main/java/net/pixelos/ota/misc/Utils.java `parseJsonUpdate` as above,
   * model/MaintainerInfo.java `github_username`, misc/Constants.java `MAINTAINER_URL` a GitHub
   * profile. (Its `canInstall` asks only for a newer build; {@link pixelExperienceCanInstall} is
   * PixelExperience's.)
   */
  'pixelos-thirteen': { usernameKey: 'github_username', maintainerUrl: 'https://github.com/%s' },
} as const;

export type PixelExperienceBranch = keyof typeof pixelExperienceBranches;

/** The update as `Utils.parseJsonUpdate` fills it. */
export interface PixelExperienceBuild {
  timestamp: number;
  name: string;
  downloadId: string;
  fileSize: number;
  downloadUrl: string;
  version: string;
  hash: string;
  /** Every maintainer, as Gson maps `MaintainerInfo` (unknown keys ignored; a JSON null element stays null). */
  maintainers: ({ name: string | null; username: string | null } | null)[];
  donateUrl: string;
  forumUrl: string;
  websiteUrl: string;
  newsUrl: string;
}

/** A PixelExperience phone: `org.pixelexperience.build_date_utc` and `org.pixelexperience.version`. */
export interface PixelExperiencePhone {
  buildDate: number;
  version: string;
}

/**
 * `Utils.parseJson(file, false, context)`: the file's lines joined, `new JSONObject(...)`, then
 * `parseJsonUpdate`: `getLong("datetime")`, `getString` of `filename`, `id`, `url`, `version`,
 * `filehash`, `getLong("size")`; each of `donate_url`, `forum_url`, `website_url`, `news_url` is
 * `""` when missing or null, else read with getString; `maintainers` through Gson, an empty list
 * when that fails. A JSONException anywhere (the object itself included, since `parseJson`
 * throws it to `loadUpdatesList`) means no update: `undefined`. The top-level `error` key is not
 * read.
 */
export function decodePixelExperienceUpdate(
  text: string,
  branch: PixelExperienceBranch = 'thirteen',
): PixelExperienceBuild | undefined {
  try {
    const obj = parseJSONObject(joinLines(text));
    const maintainers = gsonMaintainers(obj, pixelExperienceBranches[branch].usernameKey);
    const link = (key: string) => (isNull(obj, key) ? '' : getString(obj, key));
    return {
      timestamp: getLong(obj, 'datetime'),
      name: getString(obj, 'filename'),
      downloadId: getString(obj, 'id'),
      fileSize: getLong(obj, 'size'),
      downloadUrl: getString(obj, 'url'),
      version: getString(obj, 'version'),
      hash: getString(obj, 'filehash'),
      maintainers,
      donateUrl: link('donate_url'),
      forumUrl: link('forum_url'),
      websiteUrl: link('website_url'),
      newsUrl: link('news_url'),
    };
  } catch (error) {
    if (error instanceof JSONException) return undefined;
    throw error;
  }
}

/**
 * `Utils.isCompatible`: what decides whether the phone lists the update (`parseJson(file, true)`
 * in `loadUpdatesList`): the update's version not below the phone's in `String.compareTo` order
 * (case-sensitive, code unit by code unit), and newer than the phone's build.
 */
export function pixelExperienceIsCompatible(update: PixelExperienceBuild, phone: PixelExperiencePhone): boolean {
  return !(update.version < phone.version) && update.timestamp > phone.buildDate;
}

/**
 * `Utils.canInstall`: whether the listed update shows an Install button (UpdatesListAdapter):
 * newer than the phone's build and the same version ignoring case.
 */
export function pixelExperienceCanInstall(update: PixelExperienceBuild, phone: PixelExperiencePhone): boolean {
  return update.timestamp > phone.buildDate && equalsIgnoreCase(update.version, phone.version);
}

/** A maintainer's card in the Extras screen: the summary it shows and the address a tap opens. */
export interface PixelExperienceMaintainerCard {
  summary: string | null;
  opens: string;
}

/**
 * ExtrasFragment `updatePrefs`: a card per maintainer, `setSummary(maintainer.getName())` and a tap
 * opening `String.format(MAINTAINER_URL, maintainer.getUsername())`, where Java formats a null
 * user name as "null". A null element of the list throws a NullPointerException in the app.
 */
export function pixelExperienceMaintainerCards(
  update: PixelExperienceBuild,
  branch: PixelExperienceBranch,
): PixelExperienceMaintainerCard[] {
  return update.maintainers.map((maintainer) => {
    if (maintainer === null) throw new Error('NullPointerException: a null maintainer in ExtrasFragment.updatePrefs');
    const opens = pixelExperienceBranches[branch].maintainerUrl.replace('%s', maintainer.username ?? 'null');
    return { summary: maintainer.name, opens };
  });
}

// --- internal ---

/**
 * `new Gson().fromJson(object.getJSONArray("maintainers").toString(), ArrayList<MaintainerInfo>)`:
 * no array (getJSONArray throws) or any element that is not an object, or a field that is an
 * object or array, gives the empty list; a number or boolean in a String field is read as its text.
 */
function gsonMaintainers(obj: JsonObject, usernameKey: string): PixelExperienceBuild['maintainers'] {
  const list = obj.get('maintainers');
  if (!Array.isArray(list)) return [];
  const out: PixelExperienceBuild['maintainers'] = [];
  for (const element of list) {
    if (element === null || element === NULL) {
      out.push(null);
      continue;
    }
    if (!(element instanceof Map)) return [];
    const field = (key: string): string | null | undefined => {
      const v = element.get(key);
      if (v === undefined || v === NULL) return null;
      if (typeof v === 'string' || typeof v === 'boolean') return String(v);
      if (v instanceof Map || Array.isArray(v)) return undefined;
      return gsonNumberText(v.java, v.value);
    };
    const name = field('name');
    const username = field(usernameKey);
    if (name === undefined || username === undefined) return [];
    out.push({ name, username });
  }
  return out;
}

/**
 * The text Gson gives a JSON number read as a String: org.json's `toString()` of the array writes integers
 * plainly and doubles as `JSONObject.numberToString` does.
 */
function gsonNumberText(java: string, value: bigint | number): string {
  if (java !== 'Double') return String(value);
  const d = value as number;
  return Number.isInteger(d) && Math.abs(d) < 2 ** 63 ? BigInt(d).toString() : javaDoubleToString(d);
}

/** Java's `equalsIgnoreCase`: equal lengths, each pair equal after upper-casing or lower-casing. */
function equalsIgnoreCase(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y || x.toUpperCase() === y.toUpperCase() || x.toLowerCase() === y.toLowerCase()) continue;
    return false;
  }
  return true;
}
