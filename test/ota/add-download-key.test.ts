// A build imported with the download key its phones already know (here the zip's MD5, as many
// listings have it), then given the zip's SHA-256: `add --force` keeps the key and writes `sha256`,
// and every answer that shows a SHA-256 carries the real one, read by the transcriptions of the
// clients (the LineageOS v2 updater, crDroid's updater, the download portal's Compare), while v1
// keeps the key as written.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { v2DecodeAnswer } from '../helpers/clients.js';
import { runMain } from '../helpers/cli-process.js';
import { decodeCrDroid } from '../helpers/format-clients.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { portalCompare } from '../helpers/portal.js';

const NAME = 'e-2.7-a14-20241108446999-official-FP4';
const MANIFEST = `content/FP4/${NAME}.yaml`;
const SITE =
  'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\nchannels: [official]\nlists:\n  stable: [official]\nformats:\n  crdroid: {}\n';

/** A catalog whose one build was imported with the zip's MD5 as its id, and the zip itself. */
async function importedProject(extra = '') {
  const root = tempProject();
  mkdirSync(path.join(root, 'content/FP4'), { recursive: true });
  writeFileSync(path.join(root, 'content/site.yaml'), SITE);
  const zip = path.join(root, `${NAME}.zip`);
  await writeOtaZip(zip, { metadata: FP4_METADATA });
  const bytes = readFileSync(zip);
  const digest = (algorithm: string) => createHash(algorithm).update(bytes).digest('hex');
  const zipFacts = { md5: digest('md5'), sha1: digest('sha1'), sha256: digest('sha256'), size: bytes.length, bytes };
  writeFileSync(
    path.join(root, MANIFEST),
    `filename: ${NAME}.zip
version: "2.7"
channel: official
timestamp: 1731067200
android_version: "14"
incremental: "eng.root.20241108.123456"
md5sum: ${zipFacts.md5}
id: ${zipFacts.md5}
size: ${zipFacts.size}
display_version: 2.7-as-imported
${extra}`,
  );
  return { root, zip, ...zipFacts };
}

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

/** What the build published for the one build: v1, v2 and crDroid as their clients decode them, the page and the feed. */
async function published(root: string) {
  const { code, err } = await runMain(['build', '--root', root]);
  expect(code, err.join('\n')).toBe(0);
  const v1 = JSON.parse(read(root, 'dist/api/v1/FP4/stable/index.json')).response;
  const v2 = v2DecodeAnswer(read(root, 'dist/api/v2/devices/FP4/builds.json'));
  const crDroid = decodeCrDroid(read(root, 'dist/api/crdroid/FP4.json'));
  expect(v2, 'the v2 updater reads the answer').toBeDefined();
  expect(crDroid, "crDroid's updater reads the answer").toBeDefined();
  const feed = read(root, 'dist/devices/FP4/stable.xml');
  return {
    err,
    v1,
    v2: v2!,
    crDroid: crDroid!,
    page: read(root, 'dist/devices/FP4/index.html'),
    feed,
    entryIds: [...feed.matchAll(/<entry>\n {4}<id>([^<]+)<\/id>/g)].map((m) => m[1]),
    sums: existsSync(path.join(root, 'dist/devices/FP4/SHA256SUMS'))
      ? read(root, 'dist/devices/FP4/SHA256SUMS')
      : undefined,
  };
}

describe("a download key that is not a SHA-256, and the zip's SHA-256 beside it", { timeout: 60_000 }, () => {
  it("without sha256: v2 carries the key, the portal's Compare reports a mismatch for the right file, and the notice and page say so", async () => {
    const { root, md5, bytes } = await importedProject();
    const out = await published(root);
    expect(out.err).toContain(
      `${MANIFEST}:8:5  id  id is 32 hex characters (an MD5?), not a SHA-256, with no \`sha256\` beside it: phones use id only as the download key, so v1 \`id\` and v2 \`sha256\` publish it as written; pages and feeds do not show it as a SHA-256, but the LineageOS download portal shows v2 \`sha256\` as one, and its Compare reports a mismatch even for the right file: write the zip's SHA-256 in \`sha256\` (\`otapress add --force ZIP\` keeps the id and writes it)`,
    );
    expect(out.err).toContain(
      `${MANIFEST}:1:1  (build)  left out of /api/crdroid/FP4.json (the crDroid-family answer): its \`id\` is not a SHA-256 and it has no \`sha256\`, and crDroid's updater reads the download's \`sha256\`; write the SHA-256 of the zip (sha256sum FILE) in \`sha256\` (\`otapress add --force ZIP\` keeps the id and writes it)`,
    );
    expect(out.v1.map((r: { id: string }) => r.id)).toEqual([md5]);
    expect(out.v2.map((b) => b.files[0].sha256)).toEqual([md5]);
    expect(portalCompare(out.v2[0].files[0], bytes)?.title).toBe('SHA256 Mismatch');
    expect(out.crDroid.updates).toEqual([]);
    expect(out.page).not.toContain('<dt>SHA-256</dt>');
    expect(out.page).toContain(
      `<dt>Download id</dt><dd><code>${md5}</code> <span class="meta">not a SHA-256: the LineageOS download portal shows it as the SHA256, and its Compare reports a mismatch even for the right file</span></dd>`,
    );
    expect(out.sums).toBeUndefined();
  });

  it("add --force keeps the id phones know, writes the zip's SHA-256 beside it, and keeps what the zip cannot tell", async () => {
    const { root, zip, md5, sha1, sha256, size } = await importedProject('lists: [stable]\n');
    const refused = await runMain(['add', zip, '--root', root]);
    expect(refused).toMatchObject({
      code: 2,
      err: [
        `${MANIFEST} exists already; pass --force to write it again from the zip (what a zip cannot tell, such as lists, changelog, url and files, is kept from it, and so is an id that is not a SHA-256), or --dry-run to see the new manifest`,
      ],
    });
    const { code, err } = await runMain(['add', zip, '--root', root, '--force']);
    expect(code, err.join('\n')).toBe(0);
    const manifest = read(root, MANIFEST);
    expect(manifest).toContain(
      `md5sum: ${md5}\nsha1: ${sha1}\nid: ${md5}\nsha256: ${sha256}\nsize: ${size}\ndisplay_version: 2.7-as-imported\n`,
    );
    expect(manifest).toContain('lists: [stable]\n');
    expect(err).toContainEqual(
      expect.stringMatching(
        new RegExp(`^  id +kept from ${MANIFEST} \\(the download key phones know; not a SHA-256\\) +${md5}$`),
      ),
    );
    expect(err).toContainEqual(expect.stringMatching(new RegExp(`^  sha256 +SHA-256 of the zip +${sha256}$`)));
    // Run again, the manifest now states the zip's SHA-256, which the zip still has.
    expect((await runMain(['add', zip, '--root', root, '--force'])).code).toBe(0);
    expect(read(root, MANIFEST)).toBe(manifest);
  });

  it('then v2, the portal, the crDroid family, the page, the feed and SHA256SUMS carry the real SHA-256, and v1 the key as written', async () => {
    const { root, zip, md5, sha256, size, bytes } = await importedProject();
    const before = await published(root);
    expect((await runMain(['add', zip, '--root', root, '--force'])).code).toBe(0);
    const after = await published(root);
    expect(after.err.filter((line) => line.includes('  id  ') || line.includes('crDroid'))).toEqual([]);
    // v1 (the /e/ interface and LineageOS up to 23.1): the key phones already hold, unchanged.
    expect(after.v1).toEqual(before.v1);
    expect(after.v2.map((b) => b.files[0].sha256)).toEqual([sha256]);
    expect(portalCompare(after.v2[0].files[0], bytes)).toEqual({ title: 'SHA256', message: 'Matches' });
    expect(portalCompare(after.v2[0].files[0], Buffer.concat([bytes, Buffer.from([0])]))?.title).toBe(
      'SHA256 Mismatch',
    );
    expect(after.crDroid.updates).toMatchObject([
      { downloadId: sha256, name: `${NAME}.zip`, fileSize: size, timestamp: 1731067200 },
    ]);
    expect(after.page).toContain(`<dt>SHA-256</dt>`);
    expect(after.page).toContain(sha256);
    expect(after.page).toContain(
      `<dt>Download id</dt><dd><code>${md5}</code> <span class="meta">not a SHA-256: the download key of the v1 listing, which phones already know</span></dd>`,
    );
    expect(after.feed).toContain(`; SHA-256 ${sha256}; download id ${md5}; MD5 ${md5}.</summary>`);
    // Links and feed readers keep the build: its anchor and entry id are the key's, as before.
    expect(after.entryIds).toEqual(before.entryIds);
    expect(after.page).toContain(`id="stable-${md5}"`);
    expect(after.sums).toBe(`${sha256}  ${NAME}.zip\n`);
    const downloads = path.join(root, 'downloads');
    mkdirSync(downloads);
    copyFileSync(zip, path.join(downloads, `${NAME}.zip`));
    writeFileSync(path.join(downloads, 'SHA256SUMS'), after.sums!);
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: downloads, encoding: 'utf8' })).toBe(
      `${NAME}.zip: OK\n`,
    );
  });

  it.each([
    ['md5sum', (m: string) => m.replace(/^md5sum: .*$/m, `md5sum: ${'f'.repeat(32)}`), 'f'.repeat(32)],
    ['size', (m: string) => m.replace(/^size: .*$/m, 'size: 12345'), '12345'],
    ['sha256', (m: string) => `${m}sha256: ${'a'.repeat(64)}\n`, 'a'.repeat(64)],
  ])(
    'refuses, and writes nothing, a zip whose %s differs from what the manifest keeping the key states',
    async (field, change, stated) => {
      const { root, zip, md5, sha256, size } = await importedProject();
      writeFileSync(path.join(root, MANIFEST), change(read(root, MANIFEST)));
      const before = read(root, MANIFEST);
      const actual = { md5sum: md5, size: String(size), sha256 }[field];
      const { code, err } = await runMain(['add', zip, '--root', root, '--force']);
      expect({ code, err }).toEqual({
        code: 1,
        err: [
          `${zip}  ${field}  ${MANIFEST} keeps the download key ${md5}, which phones already know, and says the zip's ${field} is ${stated}; this zip's is ${actual}, so it is another package than the one phones know by that key: check that this is the right file; to publish it in that one's place under a new download key (its SHA-256), remove \`id\` from ${MANIFEST}, then run the same add again`,
          '1 problem found; nothing was written.',
        ],
      });
      expect(read(root, MANIFEST)).toBe(before);
    },
  );

  it('gives the build a new key, its SHA-256, once the maintainer removes the id that zip does not match', async () => {
    const { root, zip, sha256 } = await importedProject();
    writeFileSync(path.join(root, MANIFEST), read(root, MANIFEST).replace(/^id: .*\n/m, ''));
    expect((await runMain(['add', zip, '--root', root, '--force'])).code).toBe(0);
    const manifest = read(root, MANIFEST);
    expect(manifest).toContain(`id: ${sha256}\n`);
    expect(manifest).not.toContain('sha256:');
  });
});

describe('the same zip twice on a device', () => {
  it('refuses a sha256 that another build has as its id: v2 phones would merge the two downloads', async () => {
    const { root, sha256 } = await importedProject(`sha256: ${'c'.repeat(64)}\n`);
    const manifest = read(root, MANIFEST);
    writeFileSync(path.join(root, MANIFEST), manifest.replace(`sha256: ${'c'.repeat(64)}`, `sha256: ${sha256}`));
    const other = manifest
      .replace(/446999/g, '447000')
      .replace(/^id: .*$/m, `id: ${sha256}`)
      .replace(/^sha256: .*\n/m, '');
    writeFileSync(path.join(root, 'content/FP4/e-2.7-a14-20241108447000-official-FP4.yaml'), other);
    const { code, err } = await runMain(['build', '--root', root]);
    expect(code).toBe(1);
    expect(err).toContain(
      `${MANIFEST}:11:9  sha256  content/FP4/e-2.7-a14-20241108447000-official-FP4.yaml publishes the same zip (its \`id\` is this SHA-256); v2 phones key downloads by it and would merge the two builds into one download: remove the duplicate manifest, or correct the value (sha256sum FILE)`,
    );
  });
});
