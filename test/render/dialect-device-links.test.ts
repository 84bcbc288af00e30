// What the PixelExperience-family answer shows of the device, from device.yaml: the news link
// (`news_url`; Utils.parseJsonUpdate reads it with getString unless null, and ExtrasFragment.java
// opens it as the News card: PixelExperience/packages_apps_Updates thirteen at
// 50c6109df4a3af5ecba94a1382a2d5d2460422fa, twelve at 196ae87e274353cf2e2090f9e620bd7f8cc15bfb) and
// every maintainer, each a card of its own (ExtrasFragment loops over `getMaintainers()`).
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/catalog/formats.js';
import {
  decodePixelExperienceUpdate,
  pixelExperienceMaintainerCards,
  type PixelExperienceBranch,
} from '../helpers/dialects/index.js';
import { compileFiles, exampleFiles } from '../helpers/memory-catalog.js';

const DEVICE = 'content/FP4/device.yaml';
const NEWS = 'https://blog.example.org/fp4';

function answer(device: string): string | undefined {
  const files = exampleFiles();
  files['content/site.yaml'] += 'formats:\n  pixelexperience: { lists: [official] }\n';
  files[DEVICE] = device;
  const compiled = compileFiles(files);
  expect(compiled.problems).toEqual([]);
  const at = formatPath(compiled.site!.formats[0], 'FP4', 'official');
  const file = compiled.files.find((f) => `/${f.path}` === at);
  return file && String(file.contents);
}

describe('device.yaml in the PixelExperience answer', () => {
  it('links.news is the News card, on both branches', () => {
    const text = answer(`name: Fairphone 4\nlinks:\n  info: https://wiki.example.org/FP4\n  news: ${NEWS}\n`)!;
    for (const branch of ['twelve', 'thirteen'] as const) {
      const update = decodePixelExperienceUpdate(text, branch)!;
      expect(update.newsUrl, branch).toBe(NEWS);
      expect(update.websiteUrl, branch).toBe('https://wiki.example.org/FP4');
    }
    expect(decodePixelExperienceUpdate(answer('name: Fairphone 4\n')!)!.newsUrl).toBe('');
  });

  it('every maintainer is a card naming them, opening the page of their GitHub user name on every branch', () => {
    const text = answer(
      'maintainers:\n  - name: Aryan\n    url: https://github.com/basamaryan\n  - name: Jane Doe\n  - name: Ravi\n    url: https://github.com/ravi-k\n',
    )!;
    expect(decodePixelExperienceUpdate(text, 'twelve')!.maintainers).toEqual([
      { name: 'Aryan', username: 'basamaryan' },
      { name: 'Jane Doe', username: null },
      { name: 'Ravi', username: 'ravi-k' },
    ]);
    // PixelExperience twelve reads `github_username`, thirteen `ci_username`, PixelOS thirteen
    // `github_username` again (test/helpers/dialects/pixelexperience.ts); a maintainer without a
    // GitHub address has no user name, which Java formats as "null".
    const cards = (branch: PixelExperienceBranch) =>
      pixelExperienceMaintainerCards(decodePixelExperienceUpdate(text, branch)!, branch);
    const team = 'https://download.pixelexperience.org/team/';
    expect(cards('twelve')).toEqual([
      { summary: 'Aryan', opens: `${team}basamaryan` },
      { summary: 'Jane Doe', opens: `${team}null` },
      { summary: 'Ravi', opens: `${team}ravi-k` },
    ]);
    expect(cards('thirteen')).toEqual(cards('twelve'));
    expect(cards('pixelos-thirteen')).toEqual([
      { summary: 'Aryan', opens: 'https://github.com/basamaryan' },
      { summary: 'Jane Doe', opens: 'https://github.com/null' },
      { summary: 'Ravi', opens: 'https://github.com/ravi-k' },
    ]);
  });

  it('a news link that is not https is refused where device.yaml has it', () => {
    const files = exampleFiles();
    files[DEVICE] = 'links:\n  news: http://blog.example.org/\n';
    const problems = compileFiles(files).problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.field} ${p.message}`);
    expect(problems).toContain(
      `${DEVICE}:2:9 links.news expected an absolute https:// address without spaces (pages and apps open it from another site)`,
    );
  });
});
