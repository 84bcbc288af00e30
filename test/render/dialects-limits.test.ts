// PixelOS's strict feed reads at most 1 MiB and loses the whole answer past it: a list too long
// for that keeps its newest builds, the file stays within the limit and decodes, and one notice
// names the older builds left out.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { NO_DEVICE_INFO } from '../../src/catalog/device.js';
import { renderFormats } from '../../src/render/formats.js';
import { decodePixelOsFeed, PIXELOS_FEED, PIXELOS_FEED_MAX_BYTES } from '../helpers/dialects/index.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const compiled = compileWith(readContent(EXAMPLE), 'formats:\n  pixelos-feed: { lists: [dev] }\n');

describe('the PixelOS feed past 1 MiB', () => {
  it('keeps the newest builds that fit, and says which it left out', () => {
    const listing = compiled.listings.find((l) => l.device === 'FP4' && l.list === 'dev')!;
    const [model] = listing.builds.filter((b) => !b.placeholder);
    expect(model.os_patch_level).toBeDefined();
    const builds = Array.from({ length: 4000 }, (_, i) => ({
      ...model,
      filename: `e-3.0-a16-${i}-dev-FP4.zip`,
      id: i.toString(16).padStart(64, '0'),
      timestamp: model.timestamp - i,
    }));
    const listings = [{ device: 'FP4', list: 'dev', builds }];
    const { files, notices } = renderFormats('FP4', listings, compiled.site!, NO_DEVICE_INFO);
    const text = String(files[0].contents);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PIXELOS_FEED_MAX_BYTES);
    const decoded = decodePixelOsFeed(text, PIXELOS_FEED)!;
    expect(decoded.length).toBeGreaterThan(1000);
    expect(decoded.length).toBeLessThan(builds.length);
    expect(decoded.map((u) => u.name)).toEqual(builds.slice(0, decoded.length).map((b) => b.filename));
    // One more would not have fitted.
    const kept = JSON.parse(text) as unknown[];
    expect(Buffer.byteLength(JSON.stringify([...kept, kept[0]]))).toBeGreaterThan(PIXELOS_FEED_MAX_BYTES);
    const older = builds.length - decoded.length - 1;
    expect(notices.map((n) => n.message)).toEqual([
      `left out of /api/pixelos-feed/FP4.json (the PixelOS feed answer), with ${older} older builds of the list: ` +
        `it is older than the newest builds that fit in ${PIXELOS_FEED_MAX_BYTES} bytes, all this updater reads`,
    ]);
  });
});
