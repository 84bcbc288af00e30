/**
 * Every dialect's oracle behind one signature, so a test can run a file through each dialect it is
 * meant for: the file names (as the updater names the build) a phone with the given properties is
 * offered, or `undefined` when the whole answer fails. The readers themselves are the modules
 * next to this one; this table only adapts their phones and results.
 */
import { aospaComposeOffers, aospaHubOffers, decodeAospaCompose, decodeAospaHub } from './aospa.js';
import { decodeCrDroidKotlin } from './crdroid-kotlin.js';
import { javaResponseOffers, javaResponseReaders } from './crdroid-java.js';
import { decodeDerpFest, derpFestOffers } from './derpfest.js';
import { readGrapheneChannel } from './grapheneos.js';
import { decodePixelExperienceUpdate, pixelExperienceIsCompatible } from './pixelexperience.js';
import {
  PIXELOS_FEED,
  PIXELOS_FEED_INCREMENTAL,
  decodePixelOs15,
  decodePixelOsFeed,
  pixelOs15Offers,
  pixelOsFeedOffers,
} from './pixelos.js';

/** What a phone of any dialect may need known about itself; each oracle reads what its updater reads. */
export interface DialectPhone {
  /** `ro.build.date.utc` (PixelExperience: `org.pixelexperience.build_date_utc`). */
  buildDate: number;
  /** Codename (`Build.DEVICE` for GrapheneOS). */
  device?: string;
  /** PixelExperience `org.pixelexperience.version`; AOSPA `ro.aospa.version.minor` (its version code). */
  version?: string;
  /** AlphaDroid `ro.alpha.build.package`. */
  buildType?: string;
  /** Android SDK level (PixelOS strict feed). */
  sdkLevel?: number;
  /** Android release (`ro.build.version.release`, AOSPA). */
  androidVersion?: string;
  /** GrapheneOS `Build.VERSION.INCREMENTAL` and channel. */
  incremental?: string;
  channel?: string;
  isAB?: boolean;
  /** The response's Content-Type, for the one reader that checks it (AOSPA Compose Hub). */
  contentType?: string;
}

/** One dialect's oracle: offered file names, or `undefined` when the answer fails as a whole. */
export type DialectOracle = (text: string, phone: DialectPhone) => string[] | undefined;

type JavaReader = (typeof javaResponseReaders)[keyof typeof javaResponseReaders];
const javaRow =
  (reader: JavaReader): DialectOracle =>
  (text, phone) =>
    javaResponseOffers(text, { buildDate: phone.buildDate, buildType: phone.buildType }, reader)?.map((u) => u.name);

/** Every dialect transcribed, by name. */
export const dialectOracles = {
  crdroidJava: javaRow(javaResponseReaders.crdroid),
  evolutionxUdc: javaRow(javaResponseReaders.evolutionxUdc),
  evolutionxVic: javaRow(javaResponseReaders.evolutionxVic),
  alphadroid: javaRow(javaResponseReaders.alphadroid),
  cherishos: javaRow(javaResponseReaders.cherishos),
  matrixx: javaRow(javaResponseReaders.matrixx),
  infinityx: javaRow(javaResponseReaders.infinityx),
  voltageos: javaRow(javaResponseReaders.voltageos),
  crdroidKotlin: (text, phone) =>
    decodeCrDroidKotlin(text)
      ?.filter((u) => u.timestamp > phone.buildDate)
      .map((u) => u.name),
  derpfest: (text, phone) =>
    decodeDerpFest(text)
      ?.filter((u) => derpFestOffers(u, phone))
      .map((u) => u.name),
  pixelos15: (text, phone) =>
    decodePixelOs15(text)
      ?.filter((u) => pixelOs15Offers(u, phone))
      .map((u) => u.name),
  pixelosFeed: (text, phone) => feedNames(decodePixelOsFeed(text, PIXELOS_FEED), phone),
  pixelosFeedIncremental: (text, phone) => feedNames(decodePixelOsFeed(text, PIXELOS_FEED_INCREMENTAL), phone),
  pixelexperience: (text, phone) => {
    const update = decodePixelExperienceUpdate(text);
    if (update === undefined) return undefined;
    const listed = pixelExperienceIsCompatible(update, { buildDate: phone.buildDate, version: phone.version ?? '' });
    return listed ? [update.name] : [];
  },
  aospaHub: (text, phone) => {
    const update = decodeAospaHub(text);
    if (update === undefined) return undefined;
    const offered = aospaHubOffers(update, {
      buildDate: phone.buildDate,
      versionNumber: phone.version ?? '',
      androidVersion: phone.androidVersion ?? '',
    });
    return offered === undefined ? undefined : offered ? [update.fileName] : [];
  },
  aospaCompose: (text, phone) => {
    const updates = decodeAospaCompose(text, phone.contentType ?? 'text/plain');
    if (updates === undefined) return undefined;
    const shown = aospaComposeOffers(updates, {
      androidVersion: phone.androidVersion ?? '',
      versionCode: phone.version ?? '',
      // Build.TIME is in milliseconds; the hub compares it with `datetime` (seconds) as text.
      buildDate: String(phone.buildDate * 1000),
      beta: phone.buildType === 'Beta',
    });
    return shown === undefined ? [] : [shown.filename ?? ''];
  },
  // The full update's name: the incremental one is asked for first, and only a host that has it answers.
  grapheneos: (text, phone) => {
    const check = readGrapheneChannel(text, {
      device: phone.device ?? '',
      incremental: phone.incremental ?? '',
      buildDate: phone.buildDate,
      channel: phone.channel ?? 'stable',
    });
    if (check.kind === 'update') return [check.fullName];
    return check.kind === 'up-to-date' ? [] : undefined;
  },
} satisfies Record<string, DialectOracle>;

export type DialectName = keyof typeof dialectOracles;

// --- internal ---

function feedNames(updates: ReturnType<typeof decodePixelOsFeed>, phone: DialectPhone): string[] | undefined {
  if (updates === undefined) return undefined;
  const feedPhone = { buildDate: phone.buildDate, sdkLevel: phone.sdkLevel ?? 0, isAB: phone.isAB ?? true };
  return pixelOsFeedOffers(updates, feedPhone).map((u) => u.name);
}
