// Every dialect switched on over the example catalog, each written file decoded by the reading
// code of every updater that dialect serves (test/helpers/dialects/, transcribed from the updaters
// themselves): a phone on any build of the list is offered exactly the builds of the list newer than
// its own that the catalog can give that updater. Nothing wrongly offered, nothing wrongly dropped;
// a build the dialect cannot carry is named in a notice, and only for what its updater needs.
import { describe, expect, it } from 'vitest';
import { isWithdrawn } from '../../src/catalog/filename.js';
import type { Build } from '../../src/catalog/manifest.js';
import { readContent } from '../../src/catalog/read.js';
import { FORMAT_FAMILIES, formatPath } from '../../src/catalog/formats.js';
import { dialectOracles, type DialectPhone } from '../helpers/dialects/index.js';
import { DIALECT_CASES, expectedOffers, installable } from '../helpers/dialect-cases.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const content = readContent(EXAMPLE);

it('covers every dialect otapress writes', () => {
  expect(Object.keys(DIALECT_CASES).sort()).toEqual([...FORMAT_FAMILIES].sort());
});

describe.each(FORMAT_FAMILIES)('the %s dialect on the example', (dialect) => {
  const { readers, carries, newestOnly = false } = DIALECT_CASES[dialect];
  const compiled = compileWith(content, `formats:\n  ${dialect}: {}\n`);
  const lists = compiled.site!.lists.map((l) => l.name);
  const path = (device: string, list: string) => formatPath(compiled.site!.formats[0], device, list).slice(1);
  const rows = compiled.listings.map((l) => ({ device: l.device, list: l.list, builds: l.builds }));

  it('builds without problems', () => {
    expect(compiled.problems).toEqual([]);
    expect(lists.length).toBeGreaterThan(1);
  });

  const title = '$device, list $list: every reader offers each phone exactly what it can install';
  it.each(rows)(title, ({ device, list, builds }) => {
    const file = compiled.files.find((f) => f.path === path(device, list));
    const offerable = installable(DIALECT_CASES[dialect], builds);
    const dates = [0, ...builds.map((b) => b.timestamp)];
    for (const reader of readers) {
      for (const buildDate of dates) {
        const expected = expectedOffers(DIALECT_CASES[dialect], offerable, buildDate);
        if (file === undefined) {
          // Only a dialect of one object writes no file, and only with nothing to offer.
          expect(newestOnly && offerable.length === 0, `${reader}: no file`).toBe(true);
          continue;
        }
        // An AlphaDroid phone's `ro.alpha.build.package` names the list it follows (the records' `buildtype`).
        const version = offerable[0]?.version ?? '';
        const androidVersion = offerable[0]?.android_version ?? '13';
        const phone: DialectPhone = { buildDate, device, version, androidVersion, sdkLevel: 1, isAB: true };
        Object.assign(phone, { buildType: list, channel: list });
        const offered = dialectOracles[reader](String(file.contents), phone);
        expect(offered, `${reader}, phone built at ${buildDate}: the answer is read`).toBeDefined();
        expect([...offered!].sort(), `${reader}, phone built at ${buildDate}`).toEqual(expected);
      }
    }
  });

  it('names in a notice the builds of a list it leaves out, once per reason, and no build it carries', () => {
    for (const { device, list, builds } of rows) {
      const unsized = (b: Build) => typeof b.size !== 'number' || b.size <= 0;
      const left = builds
        .filter((b) => !b.placeholder && b.url !== undefined)
        .filter((b) => isWithdrawn(b) || unsized(b) || !carries(b));
      const notices = compiled.notices.filter((n) => n.message.startsWith(`left out of /${path(device, list)} `));
      if (newestOnly) continue;
      expect(notices.length > 0, `${device} ${list}: a notice when a build is left out`).toBe(left.length > 0);
      expect(notices.length, `${device} ${list}: one notice per reason`).toBeLessThanOrEqual(left.length);
      for (const notice of notices)
        expect(
          left.map((b) => b.source),
          notice.message,
        ).toContain(notice.file);
    }
  });
});
