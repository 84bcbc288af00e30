// A build's links (gapps, firmware, modem, bootloader, recovery), as the crDroid Java updaters and
// their forks read and show them: UpdatesActivity.java (crdroidandroid/android_packages_apps_Updater
// 14.0 at 86c1d231b28b9ba16a2f6ed21b58dda97f35a116; the same on 11.0 to 13.0) opens each with
// `Uri.parse` and hides its button when the text is empty. parseJsonUpdate keeps them in static
// fields every record overwrites, so the header shows one record's: the crdroid-java answer gives
// every record the newest build's links (`""` when it has none; a missing key would drop the record).
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/catalog/formats.js';
import { decodeJavaResponse, javaResponseHeader, javaResponseReaders } from '../helpers/dialects/index.js';
import { compileFiles, exampleFiles, type CatalogFiles } from '../helpers/memory-catalog.js';

const NEWEST = 'content/FP4/e-2.6.3-a14-20241220455571-official-FP4.yaml';
const OLDER = 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml';
const LINKS = {
  gapps: 'https://nikgapps.example.org/crdroid-official',
  firmware: 'https://firmware.example.org/FP4/FP4-firmware-20241101.zip',
  modem: 'https://firmware.example.org/FP4/modem-20241101.zip',
  bootloader: 'https://firmware.example.org/FP4/bootloader-20241101.img',
  recovery: 'https://dl.example.org/FP4/recovery/',
};
/** The readers that show each link. */
const SHOWN_BY = {
  gapps: ['crdroid', 'alphadroid', 'cherishos'],
  firmware: ['crdroid', 'evolutionxUdc', 'evolutionxVic', 'alphadroid', 'cherishos'],
  modem: ['crdroid', 'alphadroid', 'cherishos'],
  bootloader: ['crdroid', 'alphadroid', 'cherishos'],
  recovery: ['crdroid', 'alphadroid', 'cherishos'],
};

/** The official crdroid-java answer of the example with `line` added to the manifest `file`. */
function answer(file: string, line: string): string {
  const files: CatalogFiles = exampleFiles();
  files['content/site.yaml'] += 'formats:\n  crdroid-java: { lists: [official] }\n';
  files[file] += line;
  const compiled = compileFiles(files);
  expect(compiled.problems).toEqual([]);
  const at = formatPath(compiled.site!.formats[0], 'FP4', 'official');
  return String(compiled.files.find((f) => `/${f.path}` === at)?.contents);
}

describe.each(Object.entries(LINKS))('a build with a `%s` link', (key, address) => {
  const readers = Object.entries(javaResponseReaders).filter(([, r]) =>
    (r.shownKeys as readonly string[]).includes(key),
  );

  it('the newest: every reader of the crdroid-java answer that reads it shows it in the header', () => {
    expect(readers.map(([name]) => name)).toEqual(SHOWN_BY[key as keyof typeof SHOWN_BY]);
    const text = answer(NEWEST, `${key}: ${address}\n`);
    for (const [name, reader] of readers) {
      expect(javaResponseHeader(text, reader)![key], name).toBe(address);
      const updates = decodeJavaResponse(text, reader)!;
      expect(updates.length, name).toBeGreaterThan(1);
      for (const update of updates) expect(update.shown[key], `${name} ${update.name}`).toBe(address);
    }
  });

  it('an older one: the header shows the newest build’s, which has none, and keeps every record', () => {
    const text = answer(OLDER, `${key}: ${address}\n`);
    for (const [name, reader] of readers) {
      expect(javaResponseHeader(text, reader)![key], name).toBe('');
      expect(
        decodeJavaResponse(text, reader)!.map((u) => u.name),
        name,
      ).toContain('e-2.5-a14-20241108446322-official-FP4.zip');
    }
  });

  it('is refused, with the address rule, when it is no absolute http(s) address', () => {
    const bad = exampleFiles();
    bad[OLDER] += `${key}: ftp://firmware.example.org/FP4.zip\n`;
    const problems = compileFiles(bad).problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.field} ${p.message}`);
    expect(problems).toContain(
      `${OLDER}:${bad[OLDER].split('\n').length - 1}:${key.length + 3} ${key} expected an absolute http(s) download address without spaces`,
    );
  });
});
