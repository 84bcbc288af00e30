import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { escapeMarkup } from '../../src/render/markup.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';

/** Text fields reach the HTML pages and Atom feeds; markup in them must arrive as text, never as markup. */
const HOSTILE = {
  display_version: '<img src=x onerror=alert(1)>]]></title><script>alert(2)</script>',
  changes: '</script><script>alert(3)</script>&amp; <!-- \u2028 ${x} {{x}}',
  pre_version: '"\'><svg onload=alert(4)>',
};

const manifest = `${VALID_MANIFEST}${Object.entries(HOSTILE)
  .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
  .join('\n')}
`;

describe('markup in manifest text', () => {
  const compiled = compileSite({
    site: Buffer.from('download_base_url: https://dl.example.org/builds\n'),
    manifests: [{ file: 'content/FP4/a.yaml', device: 'FP4', bytes: Buffer.from(manifest) }],
    devices: ['FP4'],
    problems: [],
  });
  const markup = compiled.files.filter((f) => /\.(html|xml)$/.test(f.path));

  it('is accepted as text', () => {
    expect(compiled.problems.map(formatProblem)).toEqual([]);
    expect(markup.map((f) => f.path)).toContain('devices/FP4/index.html');
  });

  it('appears escaped in every page and feed, and never as a tag', () => {
    for (const file of markup) {
      const text = String(file.contents);
      for (const tag of ['<script>alert', '<img src=x', '<svg onload', '</title><script'])
        expect(text, file.path).not.toContain(tag);
    }
    const page = String(markup.find((f) => f.path === 'devices/FP4/index.html')!.contents);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  // Each alone, the build's other values plain: the one markup-bearing value is what makes the build
  // escaped (as-is.ts), so a value that test missed would reach the pages raw.
  it.each(Object.entries(HOSTILE))(
    '%s alone appears escaped in every page and feed, and never as a tag',
    (key, value) => {
      const { files, problems } = compileSite({
        site: Buffer.from('download_base_url: https://dl.example.org/builds\n'),
        manifests: [
          {
            file: 'content/FP4/a.yaml',
            device: 'FP4',
            bytes: Buffer.from(`${VALID_MANIFEST}${key}: ${JSON.stringify(value)}\n`),
          },
        ],
        devices: ['FP4'],
        problems: [],
      });
      expect(problems.map(formatProblem)).toEqual([]);
      const written = files.filter((f) => /\.(html|xml)$/.test(f.path)).map((f) => [f.path, String(f.contents)]);
      expect(written.length).toBeGreaterThan(2);
      for (const [path, text] of written) {
        for (const tag of ['<script>alert', '<img src=x', '<svg onload', '</title><script', '"\'>'])
          expect(text, path).not.toContain(tag);
      }
      // The page shows the display version (the one of the three it shows), escaped.
      if (key === 'display_version')
        expect(Object.fromEntries(written)['devices/FP4/index.html']).toContain(`<h3>${escapeMarkup(value)}</h3>`);
    },
  );

  it('keeps an address with a query (`&`, which RFC 3986 allows) one attribute value: `&amp;` in the page and the feed', () => {
    const url = 'https://dl.example.org/get.php?file=e-2.5-a14-20241108446322-official-FP4.zip&mirror=1&lang=en';
    const { files } = compileSite({
      site: Buffer.from('download_base_url: https://dl.example.org/builds\n'),
      manifests: [{ file: 'content/FP4/a.yaml', device: 'FP4', bytes: Buffer.from(`${VALID_MANIFEST}url: ${url}\n`) }],
      devices: ['FP4'],
      problems: [],
    });
    const escaped = url.replaceAll('&', '&amp;');
    for (const path of ['devices/FP4/index.html', 'devices/FP4/official.xml']) {
      const text = String(files.find((f) => f.path === path)!.contents);
      expect(text, path).toContain(`href="${escaped}"`);
      expect(text, path).not.toContain('&mirror');
    }
  });

  it('is published unchanged in the JSON listings, which phones read as data', () => {
    const listing = JSON.parse(
      String(compiled.files.find((f) => f.path === 'api/v1/FP4/official/index.json')!.contents),
    );
    expect(listing.response[0]).toMatchObject(HOSTILE);
  });
});
