// A device page, and the device's row on the home page, list each answer the site publishes for
// that device in other updaters' dialects, by updater and list, with its address: the one a
// maintainer points the ROM build's updater at.
import { describe, expect, it } from 'vitest';
import { readContent } from '../../src/catalog/read.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith } from '../helpers/host-table.js';

const content = readContent(EXAMPLE);
const YAML = `
formats:
  crdroid-java:
    lists: [stable]
    path: /{device}.json
  pixelexperience: {}
  aospa:
    lists: [stable]
`;

const pageOf = (yaml: string, device: string) => {
  const compiled = compileWith(content, yaml);
  expect(compiled.problems).toEqual([]);
  const page = compiled.files.find((f) => f.path === `devices/${device}/index.html`);
  return { compiled, page: String(page!.contents) };
};

/** The lines of the page's list of other updaters' answers. */
const answersOf = (page: string) => /<ul class="answers">([\s\S]*?)<\/ul>/.exec(page)?.[1].split('\n') ?? [];

describe('other updaters on a device page', () => {
  it('lists each list of a path per list at its own path', () => {
    const yaml =
      '\nformats:\n  crdroid-java:\n    path:\n      stable: /{device}.json\n      dev: /vanilla/{device}.json\n';
    expect(answersOf(pageOf(yaml, 'FP4').page).filter((l) => l.startsWith('<li>'))).toEqual([
      '<li>crDroid Java, list stable: <a href="/FP4.json"><code>/FP4.json</code></a></li>',
      '<li>crDroid Java, list dev: <a href="/vanilla/FP4.json"><code>/vanilla/FP4.json</code></a></li>',
    ]);
  });

  it('lists every file written for the device, by updater and list, and no file that is not', () => {
    const { compiled, page } = pageOf(YAML, 'FP4');
    const lines = answersOf(page);
    const paths = lines.map((l) => /href="([^"]+)"/.exec(l)![1]);
    for (const path of paths)
      expect(
        compiled.files.some((f) => `/${f.path}` === path),
        path,
      ).toBe(true);
    const written = compiled.files
      .map((f) => `/${f.path}`)
      .filter((p) => /^\/(FP4\.json|api\/pixelexperience\/.*\/FP4\.json|aospa\/updates\/FP4)$/.test(p));
    expect([...paths].sort()).toEqual([...written].sort());
    expect(lines[0]).toBe('<li>crDroid Java, list stable: <a href="/FP4.json"><code>/FP4.json</code></a></li>');
    expect(lines.at(-1)).toBe(
      '<li>AOSPA hub, list stable: <a href="/aospa/updates/FP4"><code>/aospa/updates/FP4</code></a></li>',
    );
    expect(lines.some((l) => l.startsWith('<li>PixelExperience-family, list '))).toBe(true);
  });

  it('says nothing of other updaters on a site that publishes none', () => {
    const { compiled, page } = pageOf('', 'FP4');
    expect(page).not.toContain('Other updaters');
    expect(String(compiled.files.find((f) => f.path === 'index.html')!.contents)).not.toContain('other updaters');
  });

  it('lists them on the home page too, in the device’s row', () => {
    const { compiled } = pageOf(YAML, 'FP4');
    const home = String(compiled.files.find((f) => f.path === 'index.html')!.contents);
    const row = /<li><a href="\/devices\/FP4\/">[\s\S]*?<\/li>/.exec(home)![0];
    const line = row.split('\n').find((l) => l.includes('other updaters'))!;
    expect(line.startsWith('<span class="meta">other updaters: <a href="/FP4.json">crDroid Java (stable)</a> · ')).toBe(
      true,
    );
    expect(line.endsWith(' · <a href="/aospa/updates/FP4">AOSPA hub (stable)</a></span></li>')).toBe(true);
    const page = pageOf(YAML, 'FP4').page;
    const hrefs = (text: string) => [...text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs(line)).toEqual(hrefs(answersOf(page).join('\n')));
  });
});
