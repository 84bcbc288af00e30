import { describe, expect, it } from 'vitest';
import type { Build } from '../../src/catalog/manifest.js';
import { checkCatalog, planListings } from '../../src/catalog/plan.js';
import { formatProblem } from '../../src/catalog/problems.js';
import fc from 'fast-check';
import { renderEnvelope, renderListings, renderRecord } from '../../src/render/v1.js';
import { SEED } from '../helpers/arbitraries.js';
import { parseSite } from '../../src/catalog/site.js';
import { v1CanInstall, v1Lists, type V1Record } from '../helpers/clients.js';

const { site } = parseSite('download_base_url: https://dl.example.org\n');

/** A minimal valid build; tests override what they are about. */
function build(over: Partial<Build>): Build {
  const filename = over.filename ?? `e-2.5-a14-2024110800${over.timestamp ?? 1}-official-FP4.zip`;
  return {
    source: `content/${over.device ?? 'FP4'}/${filename}.yaml`,
    device: 'FP4',
    placeholder: false,
    filename,
    version: '2.5',
    channel: 'official',
    timestamp: 1731067200,
    android_version: '14',
    api_level: '34',
    incremental: 'eng.root.20241108.123456',
    md5sum: '0'.repeat(32),
    id: filename.padEnd(64, '0'),
    size: 1,
    url: `https://dl.example.org/official/FP4/${filename}`,
    display_version: '2.5',
    changes: '',
    pre_version: '',
    is_upgrade_supported: false,
    lists: ['stable', 'official'],
    at: {
      id: { line: 8, col: 5 },
      filename: { line: 1, col: 11 },
      version: { line: 2, col: 10 },
      size: { line: 9, col: 7 },
      file: { line: 1, col: 1 },
    },
    ...over,
  };
}

const names = (builds: Build[]) => builds.map((b) => b.filename);

describe('planListings: membership', () => {
  const builds = [
    build({ filename: 'a-official', channel: 'official', lists: ['stable', 'official'] }),
    build({ filename: 'b-stable', channel: 'stable', lists: ['stable'] }),
    build({ filename: 'c-community', channel: 'community', lists: ['dev', 'community'] }),
    build({ filename: 'd-dev', channel: 'dev', lists: ['dev'] }),
    build({ filename: 'e-hidden', channel: 'official', lists: [] }),
  ];
  const listings = planListings(builds, ['FP4'], site!);

  it.each([
    ['stable', ['a-official', 'b-stable']],
    ['official', ['a-official']],
    ['dev', ['c-community', 'd-dev']],
    ['community', ['c-community']],
  ])('the %s list collects %j', (list, expected) => {
    expect(names(listings.find((l) => l.list === list)!.builds)).toEqual(expected);
  });

  it('keeps withdrawn builds by default, and leaves them out of every list with v1_withdrawn: omit', () => {
    const withWithdrawn = [
      ...builds,
      build({ filename: 'f-official.disabled.zip', channel: 'official', lists: ['stable', 'official'] }),
    ];
    expect(names(planListings(withWithdrawn, ['FP4'], site!).find((l) => l.list === 'official')!.builds)).toEqual([
      'a-official',
      'f-official.disabled.zip',
    ]);
    const { site: omitting } = parseSite('download_base_url: https://dl.example.org\nv1_withdrawn: omit\n');
    expect(omitting!.v1Withdrawn).toBe('omit');
    expect(planListings(withWithdrawn, ['FP4'], omitting!).map((l) => names(l.builds))).toEqual(
      listings.map((l) => names(l.builds)),
    );
  });

  it('leaves withdrawn and size-0 builds out of v1 by default beside other channels than the /e/ ones, so no LineageOS phone is offered them', () => {
    const { site: lineage } = parseSite('download_base_url: https://dl.example.org\nchannels: [nightly]\n');
    expect(lineage!.v1Withdrawn).toBe('omit');
    expect(parseSite('download_base_url: https://dl.example.org\nchannels: [stable, dev]\n').site!.v1Withdrawn).toBe(
      'list',
    );
    expect(
      parseSite('download_base_url: https://dl.example.org\nchannels: [nightly]\nv1_withdrawn: list\n').site!
        .v1Withdrawn,
    ).toBe('list');
    const nightly = (over: Partial<Build>) =>
      build({
        channel: 'nightly',
        lists: ['nightly'],
        version: '21.0',
        url: `https://dl.example.org/${over.filename}`,
        ...over,
      });
    const all = [
      nightly({ filename: 'lineage-21.0-20240301-nightly-FP4-signed.zip', timestamp: 1709251200, id: 'a'.repeat(64) }),
      nightly({
        filename: 'lineage-21.0-20240308-nightly-FP4-signed.disabled.zip',
        timestamp: 1709856000,
        id: 'b'.repeat(64),
      }),
      nightly({
        filename: 'lineage-21.0-20240315-nightly-FP4-signed.zip',
        timestamp: 1710460800,
        id: 'c'.repeat(64),
        size: 0,
      }),
    ];
    const [listing] = planListings(all, ['FP4'], lineage!);
    expect(names(listing.builds)).toEqual(['lineage-21.0-20240301-nightly-FP4-signed.zip']);
    // The phone's own reading of the answer (test/helpers/clients.ts): on 21.0, built before all three.
    const phone = { releaseType: 'nightly', buildDate: 1709251199, version: '21.0', allowMajorUpgrades: false };
    const records = JSON.parse(
      renderEnvelope(
        listing.builds.map((b) => renderRecord(b, 'nightly')),
        null,
      ),
    ).response as (V1Record & { filename: string })[];
    expect(records.filter((r) => v1Lists(r, phone) && v1CanInstall(r, phone)).map((r) => r.filename)).toEqual([
      'lineage-21.0-20240301-nightly-FP4-signed.zip',
    ]);
    // The same builds under list: the phone would be offered the withdrawn one and the empty one too.
    const [listed] = planListings(all, ['FP4'], { ...lineage!, v1Withdrawn: 'list' });
    const offered = JSON.parse(
      renderEnvelope(
        listed.builds.map((b) => renderRecord(b, 'nightly')),
        null,
      ),
    ).response as (V1Record & { filename: string })[];
    expect(offered.filter((r) => v1Lists(r, phone) && v1CanInstall(r, phone))).toHaveLength(3);
  });

  it('gives every device every list of the site, empty ones included, devices sorted', () => {
    const all = planListings([build({ device: 'starlte', lists: ['official'] })], ['starlte', 'FP4'], site!);
    expect(all.map((l) => `${l.device}/${l.list}:${l.builds.length}`)).toEqual([
      'FP4/stable:0',
      'FP4/official:0',
      'FP4/dev:0',
      'FP4/community:0',
      'starlte/stable:0',
      'starlte/official:1',
      'starlte/dev:0',
      'starlte/community:0',
    ]);
  });
});

describe('planListings: order', () => {
  it.each([
    [
      'higher Android versions first, even when older',
      [
        build({ filename: 'a13-new', android_version: '13', timestamp: 1800000000 }),
        build({ filename: 'a14-old', android_version: '14', timestamp: 1700000000 }),
      ],
      ['a14-old', 'a13-new'],
    ],
    [
      'Android versions compared as numbers, not text',
      [build({ filename: 'nine', android_version: '9' }), build({ filename: 'ten', android_version: '10' })],
      ['ten', 'nine'],
    ],
    [
      'newest first within one Android version',
      [build({ filename: 'old', timestamp: 1700000000 }), build({ filename: 'new', timestamp: 1800000000 })],
      ['new', 'old'],
    ],
    ['file name breaks a tie of time', [build({ filename: 'b' }), build({ filename: 'a' })], ['a', 'b']],
  ])('%s', (_, builds, expected) => {
    expect(names(planListings(builds, ['FP4'], site!)[1].builds)).toEqual(expected);
  });
});

describe('checkCatalog', () => {
  it('reports the same id or file name twice on a device, at the later file', () => {
    const a = build({ filename: 'same.zip', id: 'a'.repeat(64), source: 'content/FP4/a.yaml' });
    const b = build({ filename: 'same.zip', id: 'a'.repeat(64), source: 'content/FP4/b.yaml' });
    expect(checkCatalog([b, a], ['FP4']).map(formatProblem)).toEqual([
      'content/FP4/b.yaml:8:5  id  content/FP4/a.yaml has the same id (phones would merge the two builds into one download); each build of a device needs its own SHA-256 id: remove the duplicate manifest or correct the value',
      'content/FP4/b.yaml:1:11  filename  content/FP4/a.yaml has the same filename; each build of a device needs its own file name: remove the duplicate manifest or correct the value',
    ]);
  });

  it('allows the same id on two devices and several placeholders', () => {
    const p = { placeholder: true, filename: '', id: '', size: '' as const };
    expect(
      checkCatalog(
        [
          build({ device: 'FP4' }),
          build({ device: 'FP5', source: 'content/FP5/x.yaml' }),
          build({ ...p, source: 'content/FP4/p1.yaml' }),
          build({ ...p, source: 'content/FP4/p2.yaml' }),
        ],
        ['FP4', 'FP5'],
      ),
    ).toEqual([]);
  });

  it('reports device folders that differ only by case', () => {
    expect(checkCatalog([], ['fp4', 'FP4']).map(formatProblem)).toEqual([
      'content/fp4:1:1  (folder)  device folders `FP4` and `fp4` differ only by case; phones ask with the exact name, keep one folder',
    ]);
  });
});

describe('render', () => {
  it('renders a record with the keys in the /e/ server order and romtype = the list', () => {
    const record = renderRecord(build({ filename: 'e.zip', channel: 'official' }), 'stable');
    expect(Object.keys(record)).toEqual([
      'incremental',
      'api_level',
      'url',
      'timestamp',
      'md5sum',
      'changes',
      'channel',
      'filename',
      'romtype',
      'datetime',
      'version',
      'pre_version',
      'display_version',
      'android_version',
      'id',
      'size',
      'is_upgrade_supported',
    ]);
    expect(record).toMatchObject({ channel: 'official', romtype: 'stable', datetime: record.timestamp });
  });

  it('renders a placeholder without url and with empty filename, id and size', () => {
    const record = renderRecord(
      build({
        placeholder: true,
        filename: '',
        id: '',
        size: '',
        url: undefined,
        md5sum: '',
        incremental: '',
        api_level: '',
      }),
      'official',
    );
    expect('url' in record).toBe(false);
    expect(record).toMatchObject({ filename: '', id: '', size: '', md5sum: '', incremental: '', api_level: '' });
  });

  it('renders the envelope compactly, as Django REST framework does', () => {
    expect(renderEnvelope([], null)).toBe('{"id":null,"response":[],"error":null}');
    const [body] = renderListings([
      { device: 'FP4', list: 'dev', builds: [build({ filename: 'e.zip', size: 0, changes: 'ünïcode "quoted"' })] },
    ]);
    expect(body).toBe(
      `{"id":null,"response":[{"incremental":"eng.root.20241108.123456","api_level":"34","url":"https://dl.example.org/official/FP4/e.zip","timestamp":1731067200,"md5sum":"00000000000000000000000000000000","changes":"ünïcode \\"quoted\\"","channel":"official","filename":"e.zip","romtype":"dev","datetime":1731067200,"version":"2.5","pre_version":"","display_version":"2.5","android_version":"14","id":"${'e.zip'.padEnd(64, '0')}","size":0,"is_upgrade_supported":false}],"error":null}`,
    );
  });

  it.each([
    // Strings that JSON escapes, and ones that look like the record's own keys: the record is cut at `romtype`.
    [
      'with strings that JSON escapes',
      ['a', '"', '\\', ',', ':', 'romtype', '"romtype":""', '\n', '\u0001', '\ud800', '\u{1f600}', 'é'],
    ],
    // None that it escapes: the records written out (plainRecordParts), key by key.
    [
      'with strings that JSON writes as they are',
      ['a', '1', '.', ',', ':', '{', '}', '[', ']', 'romtype', 'é', '\u2028', '\u007f', ' '],
    ],
    // Some that markup escapes and JSON does not: the build is not written as it is everywhere (as-is.ts), its record is.
    [
      'with strings that markup escapes and JSON writes as they are',
      ['a', '&', "'", '<', '>', '\ufffe', '\uffff', 'romtype', ':'],
    ],
  ])(
    "renders a device's listings, each build's record made once, exactly as its records stringified whole (%s)",
    (_, units) => {
      const text = fc.string({ unit: fc.constantFrom(...units), maxLength: 12 });
      const fields = fc.record({
        placeholder: fc.boolean(),
        filename: text,
        version: text,
        channel: text,
        incremental: text,
        api_level: text,
        md5sum: text,
        changes: text,
        display_version: text,
        pre_version: text,
        android_version: text,
        id: text,
        // A placeholder's record has no url, whether or not its build has one; a build without one has none either.
        url: fc.option(text, { nil: undefined, freq: 8 }),
        // Numbers JSON writes otherwise than as themselves too (NaN, -0, 1e21), though a manifest's are whole seconds.
        timestamp: fc.oneof({ arbitrary: fc.nat(), weight: 8 }, { arbitrary: fc.double(), weight: 1 }),
        size: fc.oneof(fc.nat(), fc.double(), fc.constant('' as const)),
        is_upgrade_supported: fc.boolean(),
      });
      fc.assert(
        fc.property(
          fc.array(fields, { maxLength: 8 }),
          fc.array(fc.tuple(text, fc.array(fc.nat(), { maxLength: 8 })), { maxLength: 4 }),
          (all, lists) => {
            const builds = all.map((over) => build(over));
            const listings = lists.map(([list, picks]) => ({
              device: 'FP4',
              list,
              builds: builds.length === 0 ? [] : picks.map((n) => builds[n % builds.length]),
            }));
            // What the records give stringified whole, in the envelope: the way a listing was written before.
            expect(renderListings(listings)).toEqual(
              listings.map((l) =>
                renderEnvelope(
                  l.builds.map((b) => renderRecord(b, l.list)),
                  null,
                ),
              ),
            );
          },
        ),
        { seed: SEED, numRuns: 2000 },
      );
    },
  );
});
