import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { FEED_ENTRIES } from '../../src/render/feeds.js';
import { catalogFiles } from '../helpers/catalog.js';
import { builtTree, exampleFiles } from '../helpers/memory-catalog.js';

const ATOM = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** An element as the parser reported it: namespace, local name, attributes, children, text. */
interface El {
  uri: string;
  local: string;
  attributes: Record<string, string>;
  children: El[];
  text: string;
}

/**
 * Parses with saxes, a conformant XML 1.0 parser with namespaces: any well-formedness error
 * (a bare `&`, a forbidden character, `]]>` in text, a stray tag) throws. Returns the root element.
 */
function parseXml(text: string): El {
  const parser = new SaxesParser({ xmlns: true });
  const stack: El[] = [];
  let root: El | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const [name, attribute] of Object.entries(tag.attributes))
      attributes[name] = typeof attribute === 'string' ? attribute : attribute.value;
    const el: El = { uri: tag.uri ?? '', local: tag.local ?? tag.name, attributes, children: [], text: '' };
    if (stack.length > 0) stack.at(-1)!.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('text', (t) => {
    if (stack.length > 0) stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => stack.pop());
  parser.write(text).close();
  return root!;
}

const children = (el: El, name: string) => el.children.filter((c) => c.uri === ATOM && c.local === name);
const one = (el: El, name: string) => {
  const found = children(el, name);
  expect(found, `exactly one <${name}> in <${el.local}>`).toHaveLength(1);
  return found[0];
};

/** The checks of RFC 4287 that matter to readers: required elements, their formats, unique ids. */
function checkAtom(text: string) {
  const feed = parseXml(text);
  expect(feed.uri).toBe(ATOM);
  expect(feed.local).toBe('feed');
  expect(one(feed, 'id').text).toMatch(
    /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  expect(one(feed, 'title').text).not.toBe('');
  expect(one(feed, 'updated').text).toMatch(RFC3339);
  // RFC 4287 allows several authors (a device's maintainers); each has a name.
  expect(children(feed, 'author').length).toBeGreaterThanOrEqual(1);
  for (const author of children(feed, 'author')) expect(one(author, 'name').text).not.toBe('');
  expect(children(feed, 'link').filter((l) => l.attributes.rel === 'self')).toHaveLength(1);
  const entries = children(feed, 'entry').map((entry) => {
    const links = children(entry, 'link');
    expect(links.filter((l) => l.attributes.rel === 'alternate')).toHaveLength(1);
    const enclosures = links.filter((l) => l.attributes.rel === 'enclosure');
    expect(enclosures.length).toBeLessThanOrEqual(1);
    const enclosure = enclosures[0] as El | undefined;
    expect(one(entry, 'updated').text).toMatch(RFC3339);
    return {
      id: one(entry, 'id').text!,
      title: one(entry, 'title').text!,
      updated: one(entry, 'updated').text!,
      href: enclosure?.attributes.href,
      length: enclosure?.attributes.length,
    };
  });
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  return { feed, updated: one(feed, 'updated').text, entries };
}

/** The hex SHA-256 inside a `ni:///sha-256;` entry id. */
const idOf = (ni: string) => Buffer.from(ni.replace('ni:///sha-256;', ''), 'base64url').toString('hex');

describe('Atom feeds of the example catalog', () => {
  const { read } = builtTree(exampleFiles());
  const feeds = Object.fromEntries(
    ['FP3', 'FP4', 'starlte'].flatMap((d) =>
      ['stable', 'official', 'dev', 'community'].map((l) => [`${d}/${l}`, read(`devices/${d}/${l}.xml`)]),
    ),
  );
  const stableV1 = JSON.parse(read('api/v1/FP4/stable/index.json')).response as {
    id: string;
    filename: string;
    url?: string;
    size: number | '';
  }[];
  const starlteTimes = ['stable', 'official', 'dev', 'community'].flatMap((l) =>
    JSON.parse(read(`api/v1/starlte/${l}/index.json`)).response.map((r: { datetime: number }) => r.datetime),
  );

  it.each(Object.keys(feeds))('%s is well-formed, valid Atom', (key) => {
    checkAtom(feeds[key]);
  });

  it('names the device from its device.yaml: display name, maintainers as authors, the info page as a related link', () => {
    const { feed } = checkAtom(feeds['FP4/stable']);
    expect(one(feed, 'title').text).toBe('Fairphone 4 (FP4) stable builds');
    expect(children(feed, 'author').map((a) => [one(a, 'name').text, children(a, 'uri').map((u) => u.text)])).toEqual([
      ['Jane Doe', ['https://github.com/janedoe']],
      ['Ravi Kumar', []],
    ]);
    expect(
      children(feed, 'link')
        .filter((l) => l.attributes.rel === 'related')
        .map((l) => l.attributes.href),
    ).toEqual(['https://wiki.example.org/devices/FP4']);
    // FP3 has no device.yaml: as before.
    const fp3 = checkAtom(feeds['FP3/stable']).feed;
    expect(one(fp3, 'title').text).toBe('FP3 stable builds');
    expect(children(fp3, 'author').map((a) => one(a, 'name').text)).toEqual(['images.example.org']);
  });

  it('FP4 stable carries the downloadable builds of the listing, newest first, ids from the build ids; a withdrawn one without its download', () => {
    const { updated, entries } = checkAtom(feeds['FP4/stable']);
    expect(entries.map((e) => `${e.updated} ${e.title}`)).toEqual([
      '2024-12-20T11:00:00Z 2.6.3-a14-20241220455571-official-FP4',
      '2024-12-20T10:00:00Z 2.6.3-a15-20241220455570-official-FP4',
      '2024-11-08T12:00:00Z 2.5-a14-20241108446322-official-FP4',
      '2024-10-01T10:00:00Z e-2.4-a14-20241001430000-official-FP4 (withdrawn)',
      '2023-11-15T10:00:00Z 1.17-t-20231115350000-stable-FP4',
    ]);
    expect(updated).toBe('2024-12-20T11:00:00Z');
    const downloadable = stableV1.filter((r) => r.url);
    expect(entries.map((e) => idOf(e.id)).sort()).toEqual(downloadable.map((r) => r.id).sort());
    for (const e of entries) {
      const record = downloadable.find((r) => r.id === idOf(e.id))!;
      // Feed readers and podcast clients fetch enclosures by themselves: a withdrawn file has none.
      if (record.filename.endsWith('.disabled.zip')) expect([e.href, e.length]).toEqual([undefined, undefined]);
      else expect([e.href, e.length]).toEqual([record.url, String(record.size)]);
    }
    expect(entries.filter((e) => e.href === undefined).map((e) => e.title)).toEqual([
      'e-2.4-a14-20241001430000-official-FP4 (withdrawn)',
    ]);
  });

  it('gives a build the same entry id in every list that carries it', () => {
    const stable = checkAtom(feeds['FP4/stable']).entries.find((e) => e.title.startsWith('2.5-'))!;
    const official = checkAtom(feeds['FP4/official']).entries.find((e) => e.title.startsWith('2.5-'))!;
    expect(official.id).toBe(stable.id);
    expect(idOf(stable.id)).toBe('13853cffb4381efecf5ece95af491e554f9195c0e56f71d4ec7eb2a1a12a8f8b');
  });

  it('dates an empty list by the device’s newest build, never by the clock', () => {
    const { updated, entries } = checkAtom(feeds['starlte/dev']);
    expect(entries).toEqual([]);
    expect(Date.parse(updated) / 1000).toBe(Math.max(...starlteTimes));
  });
});

describe('feeds with many builds and hostile values', () => {
  it(`keep the ${FEED_ENTRIES} newest builds`, () => {
    const tree = builtTree(catalogFiles(Array.from({ length: FEED_ENTRIES + 5 }, () => ({}))));
    const { entries } = checkAtom(tree.read('devices/FP4/official.xml'));
    expect(entries).toHaveLength(FEED_ENTRIES);
    expect(entries[0].updated).toBe(
      new Date((1731067200 + (FEED_ENTRIES + 4) * 3600) * 1000).toISOString().replace('.000Z', 'Z'),
    );
  });

  it('stay well-formed whatever a manifest holds: markup is text (control characters never get this far: textProblem refuses them)', () => {
    const hostile = `<b>&amp;]]>"'</b>  ok`;
    // Quotes and <> must be percent-encoded in a url (the build refuses them raw); & and ' need escaping here.
    const files = catalogFiles([
      { extra: [`display_version: ${JSON.stringify(hostile)}`, `url: "https://dl.example.org/a?b=1&c='x'"`] },
    ]);
    const { entries } = checkAtom(builtTree(files).read('devices/FP4/official.xml'));
    expect(entries[0].title).toBe(`<b>&amp;]]>"'</b>  ok`);
    expect(entries[0].href).toBe("https://dl.example.org/a?b=1&c='x'");
  });

  it.each([
    '<feed><title>a & b</title></feed>',
    '<feed><title>\u0001</title></feed>',
    '<feed><title>]]></title></feed>',
    '<feed><a></feed>',
  ])('the parser used here rejects the malformed %j', (text) => {
    expect(() => parseXml(text)).toThrow();
  });
});
