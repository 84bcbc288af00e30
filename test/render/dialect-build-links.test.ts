// A build's links (gapps, firmware, modem, bootloader, recovery), as the crDroid Java updaters and
// their forks read and show them: UpdatesActivity.java (crdroidandroid/android_packages_apps_Updater
// 14.0 at 86c1d231b28b9ba16a2f6ed21b58dda97f35a116; the same on 11.0 to 13.0) opens each with
// `Uri.parse` and hides its button when the text is empty. The `crdroid-java` answer carries the
// manifest's address, and `""` for a build without one, which those readers still keep (they read
// every key with getString).
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/catalog/formats.js';
import { decodeJavaResponse, javaResponseReaders } from '../helpers/dialects/index.js';
import { compileFiles, exampleFiles } from '../helpers/memory-catalog.js';

const WITH = 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml';
const LINKS = {
  gapps: 'https://nikgapps.example.org/crdroid-official',
  firmware: 'https://firmware.example.org/FP4/FP4-firmware-20241101.zip',
  modem: 'https://firmware.example.org/FP4/modem-20241101.zip',
  bootloader: 'https://firmware.example.org/FP4/bootloader-20241101.img',
  recovery: 'https://dl.example.org/FP4/recovery/',
};
/** The readers that show each link: the ones among them these ROMs' phones run. */
const SHOWN_BY = {
  gapps: ['crdroid', 'alphadroid', 'cherishos'],
  firmware: ['crdroid', 'evolutionxUdc', 'evolutionxVic', 'alphadroid', 'cherishos'],
  modem: ['crdroid', 'alphadroid', 'cherishos'],
  bootloader: ['crdroid', 'alphadroid', 'cherishos'],
  recovery: ['crdroid', 'alphadroid', 'cherishos'],
};

describe.each(Object.entries(LINKS))('a build with a `%s` link', (key, address) => {
  const files = exampleFiles();
  files['content/site.yaml'] += 'formats:\n  crdroid-java: { lists: [official] }\n';
  files[WITH] += `${key}: ${address}\n`;
  const compiled = compileFiles(files);
  const text = String(
    compiled.files.find((f) => `/${f.path}` === formatPath(compiled.site!.formats[0], 'FP4', 'official'))?.contents,
  );

  it('is published in the crdroid-java answer, and every reader of that dialect that reads it shows it', () => {
    const readers = Object.entries(javaResponseReaders).filter(([, r]) =>
      (r.shownKeys as readonly string[]).includes(key),
    );
    expect(readers.map(([name]) => name)).toEqual(SHOWN_BY[key as keyof typeof SHOWN_BY]);
    for (const [name, reader] of readers) {
      const updates = decodeJavaResponse(text, reader)!;
      const shown = Object.fromEntries(updates.map((u) => [u.name, u.shown[key]]));
      expect(shown['e-2.5-a14-20241108446322-official-FP4.zip'], name).toBe(address);
      expect(shown['e-2.6.3-a14-20241220455571-official-FP4.zip'], name).toBe('');
    }
  });

  it('is refused, with the address rule, when it is no absolute http(s) address', () => {
    const bad = exampleFiles();
    bad[WITH] += `${key}: ftp://firmware.example.org/FP4.zip\n`;
    const problems = compileFiles(bad).problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.field} ${p.message}`);
    expect(problems).toContain(
      `${WITH}:${bad[WITH].split('\n').length - 1}:${key.length + 3} ${key} expected an absolute http(s) download address without spaces`,
    );
  });
});
