// What people downloading by hand get: SHA256SUMS with a line for every file, even where two builds
// each have their own file of one name, and each build's incremental packages on its device page.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { readContent } from '../../src/catalog/read.js';
import { compileSite } from '../../src/pipeline/build.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT } from '../helpers/helpers.js';
import { writeOtaZip } from '../helpers/ota-zip.js';
import { akitaMetadata as metadata } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const OLD = { date: '20250110', timestamp: 1736500000 };
const NEW = { date: '20250117', timestamp: 1737100000 };
const FULL_OLD = `lineage-22.1-${OLD.date}-nightly-akita-signed.zip`;
const FULL_NEW = `lineage-22.1-${NEW.date}-nightly-akita-signed.zip`;
const INCREMENTAL = `lineage-22.1-${NEW.date}-nightly-akita-signed-incremental-${OLD.date}.zip`;

describe('downloads by hand', { timeout: 120_000 }, () => {
  let root: string;
  const file = (name: string) => path.join(root, 'upload', name);

  beforeAll(async () => {
    root = path.join(mkdtempSync(path.join(tmpdir(), 'otapress-by-hand-')), 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    mkdirSync(path.join(root, 'upload', OLD.date), { recursive: true });
    await writeOtaZip(file(FULL_OLD), { metadata: metadata(OLD.date, OLD.timestamp), payloadSize: 64 * 1024 });
    await writeOtaZip(file(FULL_NEW), { metadata: metadata(NEW.date, NEW.timestamp), payloadSize: 64 * 1024 + 512 });
    await writeOtaZip(file(INCREMENTAL), {
      metadata: metadata(NEW.date, NEW.timestamp, OLD.date),
      payloadSize: 8 * 1024,
    });
    // Each full build has its own recovery.img; the older one's is uploaded to a folder of its own.
    writeFileSync(file(`${OLD.date}/recovery.img`), 'recovery of the build of 20250110\n');
    writeFileSync(file('recovery.img'), 'recovery of the build of 20250117\n');
    const add = async (...args: string[]) => expect((await runMain(['add', ...args, '--root', root])).code).toBe(0);
    await add(file(FULL_OLD), '--file', file(`${OLD.date}/recovery.img`));
    const manifest = path.join(root, 'content/akita', FULL_OLD.replace(/\.zip$/, '.yaml'));
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace(
        /(  - filename: recovery\.img\n)/,
        `$1    url: https://downloads.example.org/builds/${OLD.date}/recovery.img\n`,
      ),
    );
    await add(file(FULL_NEW), '--file', file('recovery.img'));
    await add(file(INCREMENTAL));
  });
  afterAll(() => rmSync(path.dirname(root), { recursive: true, force: true }));

  it("writes a line for each of two files of one name, which sha256sum -c verifies in the downloads' folders", () => {
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    const sums = String(compiled.files.find((f) => f.path === 'devices/akita/SHA256SUMS')!.contents);
    expect(sums).toBe(
      [
        `${sha256(file(`${OLD.date}/recovery.img`))}  ${OLD.date}/recovery.img`,
        `${sha256(file(FULL_OLD))}  ${FULL_OLD}`,
        `${sha256(file(INCREMENTAL))}  ${INCREMENTAL}`,
        `${sha256(file(FULL_NEW))}  ${FULL_NEW}`,
        `${sha256(file('recovery.img'))}  nightly/akita/recovery.img`,
        '',
      ].join('\n'),
    );
    // The downloads saved as their addresses' paths (wget -x, or by hand): every line checks.
    const mirror = path.join(root, 'mirror');
    for (const [from, to] of [
      [`${OLD.date}/recovery.img`, `${OLD.date}/recovery.img`],
      ['recovery.img', 'nightly/akita/recovery.img'],
      [FULL_OLD, FULL_OLD],
      [FULL_NEW, FULL_NEW],
      [INCREMENTAL, INCREMENTAL],
    ]) {
      mkdirSync(path.dirname(path.join(mirror, to)), { recursive: true });
      writeFileSync(path.join(mirror, to), readFileSync(file(from)));
    }
    writeFileSync(path.join(mirror, 'SHA256SUMS'), sums);
    expect(
      execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: mirror, encoding: 'utf8' })
        .split('\n')
        .filter((l) => !l.endsWith(': OK')),
    ).toEqual(['']);
  });

  it("lists each build's incremental packages on its device page: source build, download, size and hashes", () => {
    const compiled = compileSite(readContent(root));
    const page = String(compiled.files.find((f) => f.path === 'devices/akita/index.html')!.contents);
    const size = statSync(file(INCREMENTAL)).size;
    const md5 = createHash('md5')
      .update(readFileSync(file(INCREMENTAL)))
      .digest('hex');
    const section = page.slice(
      page.indexOf('<section class="incrementals"'),
      page.indexOf('</section>', page.indexOf('<section class="incrementals"')),
    );
    expect(section).toContain(
      `From <code>eng.build.${OLD.date}</code>: <a href="https://downloads.example.org/builds/nightly/akita/${INCREMENTAL}">${INCREMENTAL}</a>`,
    );
    expect(section).toContain(`(${size} bytes)`);
    expect(section).toContain(`<code class="hash">${sha256(file(INCREMENTAL))}</code>`);
    expect(section).toContain(`<code class="hash">${md5}</code>`);
    // In the article of the build it installs, and only there.
    const article = page.slice(
      page.lastIndexOf('<article', page.indexOf('<section class="incrementals"')),
      page.indexOf('<section class="incrementals"'),
    );
    expect(article).toContain(`<code>${FULL_NEW}</code>`);
    expect(page.split('<section class="incrementals"').length - 1).toBe(
      page.split(`<code>${FULL_NEW}</code>`).length - 1,
    );
  });
});
