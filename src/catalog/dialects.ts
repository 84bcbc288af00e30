/**
 * The updater dialects a site can publish beside its LineageOS and /e/ answers (`formats` in
 * site.yaml), as the setting and the hosts need them: the name site.yaml gives, where the file
 * lies by default, and whether a device has a file even with nothing to offer. What each file
 * holds is render/dialects.ts. Adding a dialect is a row here, a row there and its oracle. Pure.
 */

/** What site.yaml and the hosts need to know of one dialect. */
export interface DialectSetting {
  /** The default path of a device's file, with one list and with several (`{list}`). */
  paths: { oneList: string; lists: string };
  /** A file for every device and list, with nothing to offer too (a list wrapper); else only with a build. */
  everyDevice: boolean;
  /**
   * `json`: the path ends in `.json`, and every host sends the JSON type by the name; `channel`:
   * GrapheneOS's `<base><device>-<channel>`, the path ends in `/{device}-{list}`, in a folder of its own;
   * `updates`: AOSPA's `<base>updates/<device>`, the path ends in `/updates/{device}`, outside `/api/`.
   */
  file: 'json' | 'channel' | 'updates';
  /**
   * What the hosts send it as: `json`, the site's API headers; `text`, `text/plain; charset=utf-8`,
   * for an updater that refuses any other (AOSPA's Compose Hub reads only `text/*`). A text file
   * lies in a folder of its own outside `/api/`, whose header rule carries that type.
   */
  type: 'json' | 'text';
}

const under = (folder: string): DialectSetting['paths'] => ({
  oneList: `/api/${folder}/{device}.json`,
  lists: `/api/${folder}/{list}/{device}.json`,
});

/**
 * Every dialect by the name site.yaml gives it. The default paths lie in a folder of their own
 * under `/api/`, where every host already sends the API headers (JSON type, CORS, Cache-Control)
 * and the JSON 404s; `path:` puts a file where the ROM's phones already ask.
 */
export const DIALECT_SETTINGS = {
  /** crDroid's Kotlin updater (crDroid 11 and later). */
  crdroid: { paths: under('crdroid'), everyDevice: true, file: 'json', type: 'json' },
  /** The PixelExperience updater (and PixelOS up to thirteen): one object, the newest build. */
  pixelexperience: { paths: under('pixelexperience'), everyDevice: false, file: 'json', type: 'json' },
  /** crDroid's Java updater 11.0–14.0 and its forks (Evolution X, AlphaDroid, CherishOS, and the six-field ones). */
  'crdroid-java': { paths: under('crdroid-java'), everyDevice: true, file: 'json', type: 'json' },
  /** The six-field md5 readers: Matrixx, Project Infinity-X, VoltageOS. */
  'md5-six': { paths: under('md5-six'), everyDevice: true, file: 'json', type: 'json' },
  /** LineageOS v1 records in a static file (DerpFest, AxionOS, SuperiorOS, unofficial LineageOS builds). */
  'lineage-v1': { paths: under('lineage-v1'), everyDevice: true, file: 'json', type: 'json' },
  /** The PixelOS 15 reader: `{"response": [...]}` read record by record. */
  pixelos15: { paths: under('pixelos15'), everyDevice: true, file: 'json', type: 'json' },
  /** PixelOS's strict feed: a bare array of builds, one file each. */
  'pixelos-feed': { paths: under('pixelos-feed'), everyDevice: true, file: 'json', type: 'json' },
  /**
   * GrapheneOS's updater (also CalyxOS's, LMODroid's): one line for the newest build of the
   * channel, in the file `<device>-<channel>`; the channel is the list.
   */
  grapheneos: {
    paths: { oneList: '/api/grapheneos/{device}-{list}', lists: '/api/grapheneos/{device}-{list}' },
    everyDevice: false,
    file: 'channel',
    type: 'json',
  },
  /**
   * Paranoid Android's hub (the Java Hub AOSPA builds ship, and the Compose Hub fork): `{"updates": [...]}`
   * at `<system_update_server_url>updates/<ro.aospa.device>`, served as text.
   */
  aospa: {
    paths: { oneList: '/aospa/updates/{device}', lists: '/aospa/{list}/updates/{device}' },
    everyDevice: false,
    file: 'updates',
    type: 'text',
  },
} as const satisfies Record<string, DialectSetting>;
