// `otapress add` with the zips of the wider world: LineageOS-family zips on a
// fresh catalog, names published under another convention, and metadata that lies or attacks.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBuild, AddRefusal } from '../../src/ota/add-build.js';
import type { Hashing } from '../../src/ota/hash.js';
import { initCatalog } from '../../src/commands/init.js';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NIGHTLY = 'lineage-22.1-20250110-nightly-FP4-signed.zip';
/** The metadata of a LineageOS 22.1 (Android 15) build for the FP4. */
const LINEAGE_METADATA = FP4_METADATA.replace('FP4:14/', 'FP4:15/').replace('post-sdk-level=34', 'post-sdk-level=35');

/** A fresh `otapress init` catalog (with `channels`, as `init --channels` writes it) holding one zip. */
async function freshCatalog(name: string, metadata: string | undefined, channels?: string[]) {
  const root = path.join(tempProject(), 'my-ota');
  initCatalog(root, { version: VERSION, channels });
  const zip = path.join(root, name);
  await writeOtaZip(zip, metadata === undefined ? {} : { metadata });
  return { root, zip };
}

const manifestsOf = (root: string, device: string) =>
  existsSync(path.join(root, 'content', device)) ? readdirSync(path.join(root, 'content', device)) : [];

describe('a LineageOS zip on a fresh catalog', { timeout: 60_000 }, () => {
  it('publishes at once on a catalog made with init --channels nightly', async () => {
    const { root, zip } = await freshCatalog(NIGHTLY, LINEAGE_METADATA, ['nightly']);
    const added = await runMain(['add', zip, '--root', root]);
    expect(added.code).toBe(0);
    expect(added.out).toEqual(['wrote content/FP4/lineage-22.1-20250110-nightly-FP4-signed.yaml']);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(
      JSON.parse(readFileSync(path.join(root, 'dist/api/v1/FP4/nightly/index.json'), 'utf8')).response[0],
    ).toMatchObject({
      filename: NIGHTLY,
      romtype: 'nightly',
      channel: 'nightly',
      android_version: '15',
      api_level: '35',
    });
  });

  it('says in one message the one edit of site.yaml on a catalog of the default channels, and that edit is enough', async () => {
    const { root, zip } = await freshCatalog(NIGHTLY, LINEAGE_METADATA);
    const first = await runMain(['add', zip, '--root', root]);
    expect(first.code).toBe(1);
    expect(first.err).toEqual([
      `content/site.yaml:9:1  channels  ${zip} is a build of release type \`nightly\` (its file name), which this site has no channel for; phones of that release type ask for the list \`nightly\` (/api/v1/FP4/nightly/) and offer only records whose romtype is \`nightly\`. The one edit: add \`nightly\` to \`channels\` (line 9) and the list \`nightly: [nightly]\` under \`lists:\` (line 14); then run the same add again`,
      '1 problem found; nothing was written.',
    ]);
    expect(manifestsOf(root, 'FP4')).toEqual([]);
    // Another channel on the command line is no way out: the name says what phones of this build ask for.
    const dev = await runMain(['add', zip, '--root', root, '--channel', 'dev']);
    expect(dev.err[0]).toBe(
      '--channel  channel  --channel is `dev` but the file name says `nightly` (the release type phones of this build ask for); if the zip is already published under this name, pass --filename-differs channel (the manifest then says so); otherwise rename the zip or leave out --channel',
    );
    // The edit, done as said: line 9 gets the channel, a list line goes under line 14.
    const site = readFileSync(path.join(root, 'content/site.yaml'), 'utf8').split('\n');
    expect(site[8]).toBe('channels: [stable, official, dev, community]');
    expect(site[13]).toBe('lists:');
    site[8] = 'channels: [stable, official, dev, community, nightly]';
    site.splice(14, 0, '  nightly: [nightly]');
    writeFileSync(path.join(root, 'content/site.yaml'), site.join('\n'));
    const second = await runMain(['add', zip, '--root', root]);
    expect(second.code).toBe(0);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(
      JSON.parse(readFileSync(path.join(root, 'dist/api/v1/FP4/nightly/index.json'), 'utf8')).response.map(
        (r: { filename: string }) => r.filename,
      ),
    ).toEqual([NIGHTLY]);
  });

  it('names the list to add when the channel exists but no list collects it', async () => {
    const { root, zip } = await freshCatalog(NIGHTLY, LINEAGE_METADATA);
    writeFileSync(
      path.join(root, 'content/site.yaml'),
      'download_base_url: https://dl.example.org\nchannels: [stable, nightly]\nlists:\n  stable: [stable]\n',
    );
    const { code, err } = await runMain(['add', zip, '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      `content/site.yaml:3:1  lists  ${zip} is a build of release type \`nightly\` (its file name), and no request list of this site collects that channel, so no phone would see the build; phones of that release type ask for the list \`nightly\` (/api/v1/FP4/nightly/) and offer only records whose romtype is \`nightly\`. Add the list \`nightly: [nightly]\` under \`lists:\` (line 3) or \`nightly\` to the channels of a list, or pass --lists with the lists to show it in`,
    );
    expect((await runMain(['add', zip, '--root', root, '--lists', 'stable'])).code).toBe(0);
  });

  it('takes the Android version from a LineageOS name without metadata, and says when the metadata disagrees with the name (point 3)', async () => {
    const { root, zip } = await freshCatalog('lineage-21.0-20240626-nightly-FP4-signed.zip', undefined, ['nightly']);
    const { text } = await addBuild({
      zip,
      root,
      dryRun: true,
      withoutMetadata: true,
      timestamp: '1719422942',
      incremental: 'eng.x',
    });
    expect(text).toContain('\nandroid_version: "14"\n');
    const { root: other, zip: android15 } = await freshCatalog(
      'lineage-21.0-20240626-nightly-FP4-signed.zip',
      LINEAGE_METADATA,
      ['nightly'],
    );
    const { code, err } = await runMain(['add', android15, '--root', other]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      `${android15}  android_version  the zip's metadata says post-build=15 but the file name's LineageOS version 21.0 means Android 14; if the zip is already published under this name, pass --filename-differs android_version (the manifest then says so); otherwise rename the zip`,
    );
  });
});

describe('names published under another convention', { timeout: 60_000 }, () => {
  const beyond = FP4_METADATA.replace('pre-device=FP4', 'pre-device=beyond1lte');

  it('adds a name with a maintainer prefix before the device to the device its metadata names', async () => {
    const name = 'lineage-21.0-20240626-UNOFFICIAL-Linux4-beyond1lte.zip';
    const { root, zip } = await freshCatalog(name, beyond, ['unofficial']);
    const added = await runMain(['add', zip, '--root', root]);
    expect(added.code).toBe(0);
    expect(manifestsOf(root, 'beyond1lte')).toEqual(['lineage-21.0-20240626-UNOFFICIAL-Linux4-beyond1lte.yaml']);
    expect(
      readFileSync(path.join(root, 'content/beyond1lte', manifestsOf(root, 'beyond1lte')[0]), 'utf8'),
    ).not.toContain('filename_differs');
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(runOtapress(['check', '--root', root]).code).toBe(0);
    expect(
      JSON.parse(readFileSync(path.join(root, 'dist/api/v1/beyond1lte/unofficial/index.json'), 'utf8')).response[0],
    ).toMatchObject({
      filename: name,
      url: `https://downloads.example.org/builds/unofficial/beyond1lte/${name}`,
    });
  });

  it('refuses a name whose device is not the one pre-device names, and writes filename_differs when told it is published so', async () => {
    const name = 'lineage-21.0-20240626-UNOFFICIAL-beyondx.zip';
    const { root, zip } = await freshCatalog(name, beyond, ['unofficial']);
    const refused = await runMain(['add', zip, '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([
      `${zip}  device  the zip's metadata says pre-device=beyond1lte but the file name is for device \`beyondx\` (the package installs only on beyond1lte: pre-device is checked when it is installed); if the zip is already published under this name, pass --filename-differs device (the manifest then says so); otherwise rename the zip`,
      '1 problem found; nothing was written.',
    ]);
    const published = await runMain(['add', zip, '--root', root, '--filename-differs', 'device']);
    expect(published.code).toBe(0);
    const manifest = readFileSync(
      path.join(root, 'content/beyond1lte/lineage-21.0-20240626-UNOFFICIAL-beyondx.yaml'),
      'utf8',
    );
    expect(manifest).toContain(`filename: ${name}\nfilename_differs: [device]\nversion: "21.0"\n`);
    expect(published.err).toContain(
      '  filename_differs    --filename-differs                                            device',
    );
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    // Naming a part that agrees is refused: the field says exactly where the name differs.
    const { root: other, zip: again } = await freshCatalog(name, beyond, ['unofficial']);
    expect((await runMain(['add', again, '--root', other, '--filename-differs', 'device,channel'])).err[0]).toBe(
      '--filename-differs  filename_differs  the file name agrees on channel; leave `channel` out of --filename-differs',
    );
  });
});

describe('what add prints of a hostile zip', { timeout: 60_000 }, () => {
  const NAME = 'e-2.7-a14-20241108446999-official-FP4';

  async function hostile(metadata: string, name = `${NAME}.zip`) {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, name);
    await writeOtaZip(zip, { metadata });
    return { root, zip };
  }

  it('shows control characters of the metadata escaped, never raw (real CLI process)', async () => {
    // OSC 52 would set the clipboard of the terminal that shows it.
    const { root, zip } = await hostile(
      FP4_METADATA.replace('pre-device=FP4', 'pre-device=\u001b]52;c;aGk=\u0007\u009b31m'),
    );
    const { code, stderr, stdout } = runOtapress(['add', zip, '--root', root], { cwd: root });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(stderr.split('\n')[0]).toBe(
      `${zip}  device  the zip's metadata says pre-device=\\u001b]52;c;aGk=\\u0007\\u009b31m, which is not a device code name phones ask with (letters, digits, \`_\`, \`.\` and \`-\`); pass --device with the code name`,
    );
    // A zip whose own name carries a line break and an escape sequence: one line per message still.
    const { root: named, zip: evil } = await hostile(FP4_METADATA, 'x\n\u001b]0;pwned\u0007.zip');
    const refused = await runMain(['add', evil, '--root', named]);
    expect(refused.code).toBe(1);
    expect(refused.err).toHaveLength(2);
    expect(refused.err.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(refused.err[0]).toContain("x\\n\\u001b]0;pwned\\u0007.zip  filename  the zip's name holds");
    // Given the device, the zip adds; its report quotes the metadata's other values escaped as well.
    const { root: other, zip: odd } = await hostile(
      FP4_METADATA.replace('post-security-patch-level=2024-11-05', 'post-security-patch-level=\u001b[2J'),
    );
    const report = runOtapress(['add', odd, '--root', other, '--dry-run'], { cwd: other });
    expect(report.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(report.stderr).toContain(
      "the zip's metadata says post-security-patch-level=\\u001b[2J: expected the security patch date as yyyy-mm-dd",
    );
  });

  it('escapes control characters in GitHub annotations too, as in the text format (the one place problems are formatted)', async () => {
    const root = tempProject({ withContent: true });
    const manifest = path.join(
      root,
      'content/FP4',
      readdirSync(path.join(root, 'content/FP4')).filter((f) => f.endsWith('.yaml') && f !== 'device.yaml')[0],
    );
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}"\\e]52;c;aGk=\\a": 1\n`);
    const { code, out } = await runMain(['check', '--root', root, '--format', 'github']);
    expect(code).toBe(1);
    expect(out.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out[0]).toMatch(/,title=\\u001b]52;c;aGk=\\u0007::unknown field; see the manifest reference in the README$/);
  });

  it('blames an implausible build time on the metadata, not on --timestamp', async () => {
    const { root, zip } = await hostile(
      FP4_METADATA.replace('post-timestamp=1731067200', `post-timestamp=${'9'.repeat(400)}`),
    );
    const { code, err } = await runMain(['add', zip, '--root', root]);
    expect(code).toBe(1);
    expect(err).toEqual([
      `${zip}  timestamp  the zip's metadata says post-timestamp=99999999999999999999…(400 characters): a number of 400 digits is no build time; expected Unix seconds between 2009 and 2100, e.g. 1731067200; pass --timestamp with the exact build time (ro.build.date.utc of the build)`,
      '1 problem found; nothing was written.',
    ]);
    // --timestamp then wins over the metadata.
    expect((await runMain(['add', zip, '--root', root, '--timestamp', '1731067200'])).code).toBe(0);
  });

  it('says an incremental problem of the metadata, not of a manifest never written', async () => {
    const { root, zip } = await hostile(
      FP4_METADATA.replace('post-build-incremental=eng.root.20241108.123456', 'post-build-incremental=eng root'),
    );
    const { code, err } = await runMain(['add', zip, '--root', root]);
    expect(code).toBe(1);
    expect(err).toEqual([
      `${zip}  incremental  the zip's metadata says post-build-incremental=eng root: expected letters, digits, \`.\`, \`-\` and \`_\` only, e.g. eng.root.20241108.123456; pass --incremental with the right value`,
      '1 problem found; nothing was written.',
    ]);
    expect(err.join('\n')).not.toContain('content/');
  });

  it('refuses a name phones cannot save before hashing a byte', async () => {
    const { root, zip } = await hostile(FP4_METADATA, `${NAME} (1).zip`);
    // Digests that never come: add must decide without them.
    let aborted = false;
    const hashing: Hashing = { digests: new Promise(() => {}), abort: async () => void (aborted = true) };
    const refusal = await addBuild({ zip, root, hashing }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AddRefusal);
    expect((refusal as AddRefusal).problems).toEqual([
      {
        file: zip,
        line: 0,
        col: 0,
        field: 'filename',
        message: `the zip's name holds a space, \`(\`, \`)\`; phones save the download under this name and it ends the download address, so it takes letters, digits, \`-\`, \`.\`, \`_\` and \`~\` only: it looks like a second download of ${NAME}.zip: rename it so, or pass --filename ${NAME}.zip`,
      },
    ]);
    expect(aborted).toBe(true);
    // Every other check as well: an unknown channel and a timestamp nobody could have built at.
    const { root: other, zip: bad } = await hostile(
      FP4_METADATA.replace('post-timestamp=1731067200', 'post-timestamp=17'),
    );
    const refused = await addBuild({
      zip: bad,
      root: other,
      hashing: { digests: new Promise(() => {}), abort: async () => {} },
      lists: ['nightly'],
    }).catch((error: unknown) => error);
    expect((refused as AddRefusal).problems.map((p) => p.field)).toEqual(['timestamp', 'lists']);
    // With the name it is published under, the same zip adds.
    expect((await runMain(['add', zip, '--root', root, '--filename', `${NAME}.zip`])).code).toBe(0);
  });
});
