// A build's `firmware` link, as the crDroid Java updaters and their forks read and show it: the
// `crdroid-java` answer carries the manifest's address, and `""` for a build without one, which
// those readers still keep (they read the key with getString).
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/catalog/formats.js';
import { decodeJavaResponse, javaResponseReaders } from '../helpers/dialects/index.js';
import { compileFiles, exampleFiles } from '../helpers/memory-catalog.js';

const WITH = 'content/FP4/e-2.5-a14-20241108446322-official-FP4.yaml';
const FIRMWARE = 'https://firmware.example.org/FP4/FP4-firmware-20241101.zip';

describe('a build with a firmware link', () => {
  const files = exampleFiles();
  files['content/site.yaml'] += 'formats:\n  crdroid-java: { lists: [official] }\n';
  files[WITH] += `firmware: ${FIRMWARE}\n`;
  const compiled = compileFiles(files);
  const text = String(
    compiled.files.find((f) => `/${f.path}` === formatPath(compiled.site!.formats[0], 'FP4', 'official'))?.contents,
  );

  it('is published in the crdroid-java answer, and every reader of that dialect shows it', () => {
    const readers = Object.entries(javaResponseReaders).filter(([, r]) =>
      (r.shownKeys as readonly string[]).includes('firmware'),
    );
    expect(readers.map(([name]) => name)).toEqual(
      expect.arrayContaining(['crdroid', 'evolutionxUdc', 'evolutionxVic']),
    );
    for (const [name, reader] of readers) {
      const updates = decodeJavaResponse(text, reader)!;
      const shown = Object.fromEntries(updates.map((u) => [u.name, u.shown.firmware]));
      expect(shown['e-2.5-a14-20241108446322-official-FP4.zip'], name).toBe(FIRMWARE);
      expect(shown['e-2.6.3-a14-20241220455571-official-FP4.zip'], name).toBe('');
    }
  });

  it('is refused, with the address rule, when it is no absolute http(s) address', () => {
    const bad = exampleFiles();
    bad[WITH] += 'firmware: ftp://firmware.example.org/FP4.zip\n';
    const problems = compileFiles(bad).problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.field} ${p.message}`);
    expect(problems).toContain(
      `${WITH}:${bad[WITH].split('\n').length - 1}:11 firmware expected an absolute http(s) download address without spaces`,
    );
  });
});
