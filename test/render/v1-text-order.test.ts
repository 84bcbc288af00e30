import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Build } from '../../src/catalog/manifest.js';
import type { Listing } from '../../src/catalog/plan.js';
import { compareStrings } from '../../src/catalog/problems.js';
import { releaseKey, v1Notices } from '../../src/render/v1-notices.js';
import { SEED } from '../helpers/arbitraries.js';

/**
 * The text-order notice written the plain way (src/render/v1.ts at 717ccef): versions placed once
 * per list, compared as BigInt parts, every pair collected, then sorted by both releases. The
 * notice of v1Notices, which places each version once per device, orders releases by a key and
 * finds the pairs per phone version in release order, must say the same, word for word. Kept here
 * whole, so that the oracle does not depend on the code it checks.
 */
function oracle(device: string, listing: Listing): string | undefined {
  const releaseParts = (version: string) => version.split('.').map((p) => BigInt(/^\d+$/.test(p) ? p : '0'));
  const compareParts = (pa: bigint[], pb: bigint[]) => {
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const d = (pa[i] ?? 0n) - (pb[i] ?? 0n);
      if (d !== 0n) return d < 0n ? -1 : 1;
    }
    return 0;
  };
  const few = (items: string[], more: string, separator = ', ') =>
    items.length <= 4
      ? items.join(separator)
      : `${items.slice(0, 4).join(separator)}${separator}${items.length - 4} ${more}`;
  const oldest = new Map<string, number>();
  const newest = new Map<string, Build>();
  for (const build of listing.builds) {
    oldest.set(build.version, Math.min(oldest.get(build.version) ?? Infinity, build.timestamp));
    const seen = newest.get(build.version);
    if (!build.placeholder && (seen === undefined || build.timestamp > seen.timestamp))
      newest.set(build.version, build);
  }
  const partsOf = new Map([...oldest.keys()].map((version) => [version, releaseParts(version)]));
  const inOrder = [...partsOf].sort(([, a], [, b]) => compareParts(a, b));
  const place = new Map<string, number>();
  inOrder.forEach(([version, parts], i) =>
    place.set(version, i > 0 && compareParts(inOrder[i - 1][1], parts) === 0 ? place.get(inOrder[i - 1][0])! : i),
  );
  const textPlace = new Map([...partsOf.keys()].sort().map((version, i) => [version, i]));
  const installs = [...oldest].map(([version, since]) => ({
    version,
    since,
    release: place.get(version)!,
    text: textPlace.get(version)!,
  }));
  const offers = [...newest].map(([version, build]) => ({
    version,
    build,
    release: place.get(version)!,
    text: textPlace.get(version)!,
  }));
  const missed: number[] = [];
  const older: number[] = [];
  installs.forEach(({ version, since, release, text }, i) =>
    offers.forEach((offer, j) => {
      if (offer.build.timestamp <= since || offer.version === version) return;
      if (offer.release >= release && offer.text < text) missed.push(i * offers.length + j);
      else if (offer.release < release && offer.text > text) older.push(i * offers.length + j);
    }),
  );
  if (missed.length === 0 && older.length === 0) return undefined;
  const install = (pair: number) => installs[Math.floor(pair / offers.length)];
  const offer = (pair: number) => offers[pair % offers.length];
  const byRelease = (a: number, b: number) =>
    install(a).release - install(b).release || offer(a).release - offer(b).release;
  let first = missed.length > 0 ? missed[0] : older[0];
  for (const pair of [missed, older].flat()) if (byRelease(pair, first) < 0) first = pair;
  const [low, high] = [install(first).version, offer(first).version].sort();
  let at: Build | undefined;
  for (const pair of missed.length > 0 ? missed : older) {
    const build = offer(pair).build;
    if (
      at === undefined ||
      build.timestamp > at.timestamp ||
      (build.timestamp === at.timestamp && compareStrings(build.filename, at.filename) < 0)
    )
      at = build;
  }
  const say = (pairs: number[], verb: string) => {
    const groups = new Map<string, string[]>();
    for (const pair of pairs.sort(byRelease)) {
      const offered = groups.get(install(pair).version);
      if (offered) offered.push(offer(pair).version);
      else groups.set(install(pair).version, [offer(pair).version]);
    }
    return few(
      [...groups].map(([installed, offered]) => `phones on ${installed} ${verb} ${few(offered, 'more', ' or ')}`),
      'more versions',
      '; ',
    );
  };
  const parts = [
    missed.length > 0 && say(missed, 'are never offered'),
    older.length > 0 && say(older, 'list the older release'),
  ].filter(Boolean);
  return `${at!.source}:${at!.at.version.line} list \`${listing.list}\` of ${device}: LineageOS v1 updaters compare \`version\` as text, where "${low}" comes before "${high}", so ${parts.join('; and ')}${older.length > 0 ? ' (as an update they cannot install)' : ''}; v2 updaters compare the numbers; release numbers that sort the same as text (1.9 → 2.0, not 1.10) keep v1 phones updating`;
}

/** Versions that trip text order: numbers past 9, leading zeros, equal releases written apart (2.10, 2.10.0, 02.10), parts that are not numbers, numbers past 2^53. */
const version = fc.oneof(
  fc.constantFrom(
    '1.9',
    '1.10',
    '1.10.0',
    '01.10',
    '2',
    '2.0',
    '2.1',
    '2.10',
    '10',
    '9',
    '0.7',
    '0.17',
    '1.2.3',
    '1.2.10',
    'a',
    '1.x',
    '1..2',
    '12345678901234567890.1',
    '12345678901234567891',
    '1.-1',
  ),
  fc.tuple(fc.nat(12), fc.nat(12)).map(([a, b]) => `${a}.${b}`),
);

/** Builds of one device in one list: timestamps from a small range (ties), file names from a few (ties on both), placeholders. */
const listingBuilds = fc
  .array(
    fc.record({
      version,
      timestamp: fc.integer({ min: 1, max: 40 }),
      placeholder: fc.boolean(),
      name: fc.constantFrom('a.zip', 'b.zip', 'c.zip'),
    }),
    { maxLength: 40 },
  )
  .map((records) =>
    records.map(({ version, timestamp, placeholder, name }, i) => {
      const line = i + 2;
      return {
        source: `content/dev/m${i}.yaml`,
        device: 'dev',
        placeholder,
        filename: placeholder ? '' : name,
        version,
        timestamp,
        url: placeholder ? undefined : `https://example.org/${name}`,
        at: {
          version: { line, col: 10 },
          filename: { line: 1, col: 11 },
          id: { line: 1, col: 1 },
          size: { line: 1, col: 1 },
          file: { line: 1, col: 1 },
        },
      } as unknown as Build;
    }),
  );

describe('the v1 text-order notice', () => {
  it('says, word for word and at the same build, what sorting every pair in release order said (the plain way)', () => {
    let noticed = 0;
    fc.assert(
      fc.property(fc.array(listingBuilds, { minLength: 1, maxLength: 3 }), (lists) => {
        const listings = lists.map((builds, i) => ({ device: 'dev', list: `l${i}`, builds }) as unknown as Listing);
        const got = v1Notices('dev', listings)
          .filter((n) => n.field === 'version')
          .map((n) => `${n.file}:${n.line} ${n.message}`);
        const expected = listings.map((l) => oracle('dev', l)).filter((m) => m !== undefined);
        noticed += expected.length;
        expect(got).toEqual(expected);
      }),
      { seed: SEED, numRuns: 2000 },
    );
    // The property says something only if notices were made, with several versions and groups in them.
    expect(noticed).toBeGreaterThan(1000);
  });

  it('orders release numbers by their keys as BigInt parts do, at any length, with leading zeros, empty and non-number parts', () => {
    const bigParts = (version: string) => version.split('.').map((p) => BigInt(/^\d+$/.test(p) ? p : '0'));
    const oracleCompare = (a: string, b: string) => {
      const [pa, pb] = [bigParts(a), bigParts(b)];
      for (let i = 0; i < Math.max(pa.length, pb.length); i++)
        if ((pa[i] ?? 0n) !== (pb[i] ?? 0n)) return (pa[i] ?? 0n) < (pb[i] ?? 0n) ? -1 : 1;
      return 0;
    };
    const part = fc.oneof(
      fc.stringMatching(/^0{0,3}[0-9]{0,25}$/),
      fc.constantFrom('', 'x', '1a', '-1', '٣', '+2', ' 1'),
    );
    const version = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));
    fc.assert(
      fc.property(version, version, (a, b) => {
        // The notice sorts versions by these keys as text, and takes equal keys for equal releases.
        expect(compareStrings(releaseKey(a), releaseKey(b))).toBe(oracleCompare(a, b));
        expect(compareStrings(releaseKey(b), releaseKey(a))).toBe(oracleCompare(b, a));
      }),
      { seed: SEED, numRuns: 20000 },
    );
  });
});
