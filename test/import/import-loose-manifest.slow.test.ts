import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-process.js';
import { tempProject } from '../helpers/helpers.js';

// What an imported listing leaves in a manifest and phones accept: an id that is
// another download key than the zip's SHA-256, and no md5sum. The build publishes them, with one
// notice per kind and device, and never calls the key a SHA-256.

const SITE =
  'download_base_url: https://dl.example.org/builds\nsite_url: https://updates.example.org\nchannels: [unofficial]\nlists:\n  unofficial: [unofficial]\n';
const manifest = (name: string, id: string, timestamp: number) => `filename: ${name}
version: "21.0"
channel: unofficial
timestamp: ${timestamp}
android_version: "14"
incremental: ""
id: ${id}
size: 1234
`;

function project(): string {
  const root = tempProject();
  mkdirSync(path.join(root, 'content/beyond1lte'), { recursive: true });
  writeFileSync(path.join(root, 'content/site.yaml'), SITE);
  writeFileSync(
    path.join(root, 'content/beyond1lte/new.yaml'),
    manifest('lineage-21.0-20240626-UNOFFICIAL-beyond1lte.zip', '5eb63bbbe01eeed093cb22bb8f5acdc3', 1719422942),
  );
  writeFileSync(
    path.join(root, 'content/beyond1lte/old.yaml'),
    manifest('lineage-21.0-20240501-UNOFFICIAL-beyond1lte.zip', 'c21ay6mf6uz6ruhkryd8udtii10bvvo5', 1714521600),
  );
  return root;
}

describe('a manifest with another download key and no md5sum', () => {
  it('builds, with one notice per kind for the device, at its newest build', async () => {
    const root = project();
    const { code, err } = await runMain(['build', '--root', root]);
    expect(code).toBe(0);
    expect(err).toEqual([
      'content/beyond1lte/new.yaml:1:1  md5sum  no md5sum (and 1 older build of beyond1lte): published as "" (LineageOS phones never read it; the /e/ updater shows it); `md5sum FILE` gives it, `otapress add` writes it',
      "content/beyond1lte/new.yaml:7:5  id  id is 32 hex characters (an MD5?), not a SHA-256, with no `sha256` beside it (and 1 older build of beyond1lte): phones use id only as the download key, so v1 `id` and v2 `sha256` publish it as written; pages and feeds do not show it as a SHA-256, but the LineageOS download portal shows v2 `sha256` as one, and its Compare reports a mismatch even for the right file: write the zip's SHA-256 in `sha256` (`otapress add --force ZIP` keeps the id and writes it)",
      '2 notices (not errors: the site builds; each says what phones will do, and what to change).',
    ]);
  });

  it('publishes the key as written in v1 and v2 (the download key phones already hold) and md5sum ""', async () => {
    const root = project();
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const v1 = JSON.parse(
      readFileSync(path.join(root, 'dist/api/v1/beyond1lte/unofficial/index.json'), 'utf8'),
    ).response;
    expect(v1.map((r: Record<string, unknown>) => [r.id, r.md5sum, r.datetime, r.size])).toEqual([
      ['5eb63bbbe01eeed093cb22bb8f5acdc3', '', 1719422942, 1234],
      ['c21ay6mf6uz6ruhkryd8udtii10bvvo5', '', 1714521600, 1234],
    ]);
    const v2 = JSON.parse(readFileSync(path.join(root, 'dist/api/v2/devices/beyond1lte/builds.json'), 'utf8'));
    expect(v2.map((b: { files: { sha256: string }[] }) => b.files[0].sha256)).toEqual([
      '5eb63bbbe01eeed093cb22bb8f5acdc3',
      'c21ay6mf6uz6ruhkryd8udtii10bvvo5',
    ]);
  });

  it('shows the key as a download id on the page and in the feed, never as a SHA-256', async () => {
    const root = project();
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const page = readFileSync(path.join(root, 'dist/devices/beyond1lte/index.html'), 'utf8');
    expect(page).not.toContain('<dt>SHA-256</dt>');
    // What the download portal, which reads the same key from v2 `sha256`, will do with it.
    expect(page).toContain(
      '<dt>Download id</dt><dd><code>5eb63bbbe01eeed093cb22bb8f5acdc3</code> <span class="meta">not a SHA-256: the LineageOS download portal shows it as the SHA256, and its Compare reports a mismatch even for the right file</span></dd>',
    );
    // Titled by the file name, which names the ROM, not by the display version derived from it.
    expect(page).toContain('<h3>lineage-21.0-20240626-UNOFFICIAL-beyond1lte</h3>');
    expect(page).toContain('id="unofficial-c21ay6mf6uz6ruhkryd8udtii10bvvo5"');
    const feed = readFileSync(path.join(root, 'dist/devices/beyond1lte/unofficial.xml'), 'utf8');
    expect(feed).not.toContain('sha-256');
    expect(feed).not.toContain('SHA-256');
    const ids = [...feed.matchAll(/<id>(urn:uuid:[^<]+)<\/id>/g)].map((m) => m[1]);
    expect(ids).toHaveLength(3); // the feed's own id and one per build
    expect(
      ids.every((id) => /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });
});
