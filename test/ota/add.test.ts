import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBuild } from '../../src/ota/add-build.js';
import { formatBytes, formatDuration, formatProgress } from '../../src/ota/progress.js';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { escapeRegExp, ROOT, tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip, writeSparseOtaZip } from '../helpers/ota-zip.js';

const NAME = 'e-2.7-a14-20241108446999-official-FP4';
const SCHEMA_LINE = '# yaml-language-server: $schema=../manifest.schema.json';

/** A temp project with the example catalog, and an OTA zip in it; returns the zip's path and digests. */
async function project(name = `${NAME}.zip`, options: Parameters<typeof writeOtaZip>[1] = { metadata: FP4_METADATA }) {
  const root = tempProject({ withContent: true });
  const zip = path.join(root, name);
  await writeOtaZip(zip, options);
  const bytes = readFileSync(zip);
  return {
    root,
    zip,
    md5: createHash('md5').update(bytes).digest('hex'),
    sha1: createHash('sha1').update(bytes).digest('hex'),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
  };
}

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

describe('otapress add', { timeout: 60_000 }, () => {
  it(
    'writes the manifest from the metadata, the file name and one read of the zip (real CLI process)',
    { timeout: 60_000 },
    async () => {
      const { root, zip, md5, sha1, sha256, size } = await project();
      const result = runOtapress(['add', zip, '--root', root], { cwd: root });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`wrote content/FP4/${NAME}.yaml\n`);
      const manifest = read(root, `content/FP4/${NAME}.yaml`);
      expect(manifest).toBe(`${SCHEMA_LINE}
filename: ${NAME}.zip
version: "2.7"
channel: official
timestamp: 1731067200
android_version: "14"
incremental: "eng.root.20241108.123456"
md5sum: ${md5}
sha1: ${sha1}
id: ${sha256}
size: ${size}
os_patch_level: "2024-11-05"
ota_type: AB
ota_property_files: "payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880"
`);
      // Not a terminal: no progress bar, only the list of values and their origins.
      expect(result.stderr.split('\n')).toEqual([
        `content/FP4/${NAME}.yaml:`,
        '  device              metadata pre-device                                           FP4',
        `  filename            the zip                                                       ${NAME}.zip`,
        '  version             the file name                                                 2.7',
        '  channel             the file name                                                 official',
        '  timestamp           metadata post-timestamp                                       1731067200',
        '  android_version     metadata post-build                                           14',
        '  api_level           metadata post-sdk-level (implied by Android 14, not written)  34',
        '  incremental         metadata post-build-incremental                               eng.root.20241108.123456',
        `  md5sum              MD5 of the zip                                                ${md5}`,
        `  sha1                SHA-1 of the zip                                              ${sha1}`,
        `  id                  SHA-256 of the zip                                            ${sha256}`,
        `  size                size of the zip                                               ${size}`,
        '  os_patch_level      metadata post-security-patch-level                            2024-11-05',
        '  ota_type            metadata ota-type                                             AB',
        '  ota_property_files  metadata ota-property-files                                   payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880',
        // The zips of these tests carry no whole-file signature: published, but phones would refuse them.
        `notice: ${zip} has no whole-file signature (signapk -w): recovery and update_engine refuse to install an unsigned package; sign it, then run add again`,
        '',
      ]);
      expect(runOtapress(['check', '--root', root]).stdout).toBe('21 manifests are valid\n');
    },
  );

  it('reads a Zip64 archive whose metadata entry is deflated and comes last', async () => {
    const { root, zip, md5, sha1, sha256 } = await project(`${NAME}.zip`, {
      metadata: FP4_METADATA,
      zip64: true,
      metadataLast: true,
    });
    const result = await addBuild({ zip, root });
    expect(result.text).toContain(`md5sum: ${md5}\nsha1: ${sha1}\nid: ${sha256}\n`);
    expect(result.text).toContain('timestamp: 1731067200\n');
    expect(result.text).toContain('ota_type: AB\n');
  });

  it.each([
    [
      'metadata with another API level and a fingerprint only',
      'post-build=google/x/FP4:15/AP3A/1731067200:user/release-keys\npost-sdk-level=35\npost-timestamp=1731067300\npre-device=FP4\nota-type=BLOCK\n',
      { android_version: '"15"', incremental: '"1731067200"', timestamp: '1731067300', ota_type: 'BLOCK' },
      'e-2.7-a15-20241108446999-official-FP4',
    ],
    [
      'a legacy Android 7.1.2 fingerprint and a written api level that differs from the usual one',
      'post-build=x/y/FP4:7.1.2/N2G48C/eng.root.20170101.000000:user/release-keys\npost-sdk-level=24\npost-timestamp=1483228800\npre-device=FP4\n',
      { android_version: '"7"', api_level: '"24"', incremental: '"eng.root.20170101.000000"', timestamp: '1483228800' },
      'e-0.7-n-2017010154321-stable-FP4',
    ],
  ])('derives the values of %s', async (_, metadata, expected, name) => {
    const { root, zip } = await project(`${name}.zip`, { metadata });
    const { text } = await addBuild({ zip, root, dryRun: true });
    for (const [key, value] of Object.entries(expected)) expect(text).toContain(`\n${key}: ${value}\n`);
  });

  it('refuses a zip without OTA metadata unless told to publish it, and then asks for the exact build time', async () => {
    const { root, zip } = await project(`${NAME}.zip`, {});
    const refused = await runMain(['add', zip, '--root', root, '--timestamp', '1731067201', '--incremental', '']);
    expect(refused.code).toBe(2);
    expect(refused.err).toEqual([
      `${zip} has no META-INF/com/android/metadata, which every OTA package made by ota_from_target_files has: it may be no OTA package at all, and nothing in it tells the exact build time phones compare with their ro.build.date.utc (a build a second older or newer is offered to the wrong phones).`,
      `if it is the package phones should install, say so and give what it cannot: otapress add ${zip} --without-metadata --timestamp <ro.build.date.utc of the build> --incremental <ro.build.version.incremental>`,
    ]);
    expect(existsSync(path.join(root, `content/FP4/${NAME}.yaml`))).toBe(false);
    const missing = await runMain(['add', zip, '--root', root, '--without-metadata']);
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual([
      `cannot tell --timestamp, --incremental of ${NAME}.zip: the zip has no META-INF/com/android/metadata.`,
      `pass them as options, e.g. otapress add ${zip} --timestamp 1731067200 --incremental eng.root.20241108.123456`,
    ]);
    const given = await runMain([
      'add',
      zip,
      '--root',
      root,
      '--without-metadata',
      '--timestamp',
      '1731067201',
      '--incremental',
      '',
    ]);
    expect(given.code).toBe(0);
    const manifest = read(root, `content/FP4/${NAME}.yaml`);
    expect(manifest).toContain(
      'version: "2.7"\nchannel: official\ntimestamp: 1731067201\nandroid_version: "14"\nincremental: ""\n',
    );
    expect(given.err.filter((l) => /^  (device|android_version|timestamp) /.test(l))).toEqual([
      '  device           the file name       FP4',
      '  timestamp        --timestamp         1731067201',
      '  android_version  the file name       14',
    ]);
    // A zip that has metadata is never "without" it.
    const { root: other, zip: withMetadata } = await project();
    expect(await runMain(['add', withMetadata, '--root', other, '--without-metadata'])).toMatchObject({
      code: 2,
      err: [`--without-metadata: ${withMetadata} has META-INF/com/android/metadata; leave the option out`],
    });
  });

  it('lists every value a name that fits no form leaves open', async () => {
    const { root, zip } = await project('update-signed.zip', {});
    const { code, err } = await runMain(['add', zip, '--root', root, '--without-metadata']);
    expect(code).toBe(2);
    expect(err[0]).toBe(
      'cannot tell --device, --version, --channel, --timestamp, --incremental of update-signed.zip: `update-signed.zip` is in none of the name forms otapress reads, so it tells nothing (e-<version>-<platform letter or a+level>-<yyyymmdd><build number>-<channel>-<device>.zip (or .disabled.zip), or lineage-<version>-<yyyymmdd>-<type>-<device>[-signed].zip; or as lineage-21.0-20240409_164757-UNOFFICIAL-m20lte.zip, crDroidAndroid-14.0-20240315-akita-v10.3.zip, EvolutionX-14.0-20240315-akita-9.0-Official.zip, PixelOS_akita-14.0-20240315-0820.zip, ProjectElixir_4.1_alioth-14.0-20240226-2058-OFFICIAL.zip, RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip); the zip has no META-INF/com/android/metadata.',
    );
    const named = await addBuild({
      zip,
      root,
      dryRun: true,
      withoutMetadata: true,
      filename: 'lineage-21.0-20241108-official-FP4-signed.zip',
      timestamp: '1731067200',
      incremental: 'eng.root.20241108.123456',
      android_version: '14',
    });
    expect(named.file).toBe('content/FP4/lineage-21.0-20241108-official-FP4-signed.yaml');
    expect(named.text).toContain(
      'filename: lineage-21.0-20241108-official-FP4-signed.zip\nversion: "21.0"\nchannel: official\n',
    );
  });

  it('writes a placeholder, a foreign url and explicit lists', async () => {
    const { root, zip, md5 } = await project();
    const placeholder = await addBuild({ zip, root, placeholder: true, dryRun: true });
    expect(placeholder.report.map((l) => l.trim().split(/\s+/)[0])).toEqual([
      'device',
      'version',
      'channel',
      'timestamp',
      'android_version',
      'api_level',
      'incremental',
      'md5sum',
      'display_version',
      'os_patch_level',
      'ota_type',
      'ota_property_files',
    ]);
    expect(placeholder.text).toBe(`${SCHEMA_LINE}
placeholder: true
version: "2.7"
channel: official
timestamp: 1731067200
android_version: "14"
api_level: "34"
incremental: "eng.root.20241108.123456"
md5sum: ${md5}
display_version: 2.7-a14-20241108446999-official-FP4
os_patch_level: "2024-11-05"
ota_type: AB
ota_property_files: "payload.bin:1577:3145728,payload_properties.txt:3147359:154,metadata:69:520,metadata.pb:647:880"
`);
    const { text } = await addBuild({
      zip,
      root,
      url: 'https://github.com/x/y/releases/download/v2.7/e.zip',
      lists: ['official', 'dev'],
      dryRun: true,
    });
    expect(text).toContain('\nurl: https://github.com/x/y/releases/download/v2.7/e.zip\nlists: [official, dev]\n');
  });

  it.each([
    [
      'an unknown channel against the name',
      ['--channel', 'beta'],
      1,
      [
        '--channel  channel  --channel is `beta` but the file name says `official` (the release type phones of this build ask for); if the zip is already published under this name, pass --filename-differs channel (the manifest then says so); otherwise rename the zip or leave out --channel',
        'content/site.yaml:6:1  channels  --channel names channel `beta`, which this site has no channel for; phones of that release type ask for the list `beta` (/api/v1/FP4/beta/) and offer only records whose romtype is `beta`. The one edit: add `beta` to `channels` (line 6) and the list `beta: [beta]` under `lists:` (line 10); then run the same add again',
        '2 problems found; nothing was written.',
      ],
    ],
    [
      'an unknown list',
      ['--lists', 'offcial'],
      1,
      [
        '--lists  lists  `offcial` is not a request list of this site; did you mean `official`? (lists: stable, official, dev, community, set in content/site.yaml)',
        '1 problem found; nothing was written.',
      ],
    ],
    [
      'a placeholder with a url',
      ['--placeholder', '--url', 'https://example.org/x.zip'],
      2,
      ['--placeholder announces a build without a package, and --url names its package: pass one of them'],
    ],
    [
      'a timestamp that is not a number',
      ['--timestamp', 'yesterday'],
      1,
      [
        '--timestamp  timestamp  --timestamp is `yesterday`: expected Unix seconds as a whole number, e.g. 1731067200',
        '1 problem found; nothing was written.',
      ],
    ],
    [
      'an incremental phones cannot carry',
      ['--incremental', 'a b'],
      1,
      [
        '--incremental  incremental  --incremental a b: expected letters, digits, `.`, `-` and `_` only, e.g. eng.root.20241108.123456',
        '1 problem found; nothing was written.',
      ],
    ],
  ])('refuses %s and writes nothing', async (_, args, code, err) => {
    const { root, zip } = await project();
    const result = await runMain(['add', zip, '--root', root, ...args]);
    expect({ code: result.code, err: result.err }).toEqual({ code, err });
    expect(existsSync(path.join(root, `content/FP4/${NAME}.yaml`))).toBe(false);
    expect(readdirSync(path.join(root, 'content/FP4')).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('refuses to overwrite without --force, prints with --dry-run, replaces with --force', async () => {
    const { root, zip } = await project();
    const target = path.join(root, `content/FP4/${NAME}.yaml`);
    expect((await runMain(['add', zip, '--root', root])).code).toBe(0);
    writeFileSync(target, '# edited by hand\n');
    const refused = await runMain(['add', zip, '--root', root]);
    expect(refused).toMatchObject({
      code: 2,
      err: [
        `content/FP4/${NAME}.yaml exists already; pass --force to write it again from the zip (what a zip cannot tell, such as lists, changelog, url and files, is kept from it, and so is an id that is not a SHA-256), or --dry-run to see the new manifest`,
      ],
    });
    expect(read(root, `content/FP4/${NAME}.yaml`)).toBe('# edited by hand\n');
    const dry = await runMain(['add', zip, '--root', root, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out[0]).toBe(SCHEMA_LINE);
    expect(dry.out[1]).toBe(`filename: ${NAME}.zip`);
    expect(read(root, `content/FP4/${NAME}.yaml`)).toBe('# edited by hand\n');
    expect((await runMain(['add', zip, '--root', root, '--force'])).code).toBe(0);
    expect(read(root, `content/FP4/${NAME}.yaml`)).toBe(dry.out.join('\n') + '\n');
  });

  it('refuses the same package under a second name (same id on the device)', async () => {
    const { root, zip } = await project();
    expect((await runMain(['add', zip, '--root', root])).code).toBe(0);
    const copy = path.join(root, 'e-2.7-a14-20241108447000-official-FP4.zip');
    copyFileSync(zip, copy);
    const { code, err } = await runMain(['add', copy, '--root', root]);
    expect(code).toBe(1);
    expect(err).toEqual([
      `${copy}  id  the zip is the package content/FP4/${NAME}.yaml already publishes (the same SHA-256) under the name ${NAME}.zip; phones would merge the two into one download, so a package is added once per device: keep that manifest, or remove it first if this name replaces it`,
      '1 problem found; nothing was written.',
    ]);
  });

  it.each([
    [
      'a file that is not a zip',
      'not a zip at all',
      /^.*e-2\.7-a14-20241108446999-official-FP4\.zip is not a readable zip \(End of central directory record signature not found\. Either not a zip file, or file is truncated\.\); pass the OTA package itself$/,
    ],
  ])('refuses %s', async (_, bytes, message) => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    writeFileSync(zip, bytes);
    const { code, err } = await runMain(['add', zip, '--root', root]);
    expect(code).toBe(2);
    expect(err[0]).toMatch(message);
  });

  it('refuses a missing file and a missing argument', async () => {
    const root = tempProject({ withContent: true });
    expect(await runMain(['add', 'nope.zip', '--root', root])).toEqual({
      code: 2,
      out: [],
      err: ['no such file: nope.zip; pass the path of the OTA zip'],
    });
    // A folder and a named pipe (whose reading would wait for a writer) are said to be what they are.
    const folder = path.join(root, 'builds');
    mkdirSync(folder);
    expect(await runMain(['add', folder, '--root', root])).toEqual({
      code: 2,
      out: [],
      err: [`${folder} is a folder, not a file; pass the path of the OTA zip`],
    });
    const fifo = path.join(root, 'pipe.zip');
    execFileSync('mkfifo', [fifo]);
    expect(await runMain(['add', fifo, '--root', root])).toEqual({
      code: 2,
      out: [],
      err: [`${fifo} is not a regular file (a device, pipe or socket); pass the path of the OTA zip`],
    });
    const none = await runMain(['add', '--root', root]);
    expect(none.code).toBe(2);
    expect(none.err[0]).toBe('name the OTA zip to add');
  });

  it('quotes a path holding a line break within one line of its message, escaped', async () => {
    const { root } = await project();
    // A path that does not exist.
    const missing = path.join(root, 'a\nb.zip');
    expect(await runMain(['add', missing, '--root', root])).toEqual({
      code: 2,
      out: [],
      err: [`no such file: ${root}/a\\nb.zip; pass the path of the OTA zip`],
    });
    // A real zip, with metadata, in a folder whose name holds a line break and a carriage return
    // (the zip's own name would be refused before: phones save the download under it): the message
    // quoting its path is one line, and so is each line of a message of two.
    const folder = path.join(root, 'in\n\r');
    mkdirSync(folder);
    const zip = path.join(folder, `${NAME}.zip`);
    await writeOtaZip(zip, { metadata: FP4_METADATA });
    const shown = `${root}/in\\n\\r/${NAME}.zip`;
    expect(await runMain(['add', zip, '--root', root, '--without-metadata'])).toEqual({
      code: 2,
      out: [],
      err: [`--without-metadata: ${shown} has META-INF/com/android/metadata; leave the option out`],
    });
    await writeOtaZip(zip, {});
    const twoLines = await runMain(['add', zip, '--root', root]);
    expect(twoLines.code).toBe(2);
    expect(twoLines.err).toHaveLength(2);
    expect(twoLines.err[0]).toMatch(new RegExp(`^${escapeRegExp(shown)} has no META-INF/com/android/metadata`));
    expect(twoLines.err[1]).toContain(`otapress add ${shown} --without-metadata`);
    expect(readdirSync(path.join(root, 'content', 'FP4')).some((n) => n.startsWith(NAME))).toBe(false);
  });

  it('writes into a new device folder, and the build publishes it', async () => {
    const { root, zip } = await project('lineage-21.0-20241108-official-FP5-signed.zip', {
      metadata: FP4_METADATA.replace('pre-device=FP4', 'pre-device=FP5'),
    });
    expect((await runMain(['add', zip, '--root', root])).code).toBe(0);
    expect(existsSync(path.join(root, 'content/FP5/lineage-21.0-20241108-official-FP5-signed.yaml'))).toBe(true);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const listing = JSON.parse(read(root, 'dist/api/v1/FP5/official/index.json'));
    expect(listing.response[0]).toMatchObject({
      filename: 'lineage-21.0-20241108-official-FP5-signed.zip',
      url: 'https://images.example.org/builds/full/official/FP5/lineage-21.0-20241108-official-FP5-signed.zip',
      display_version: '21.0-20241108-official-FP5-signed',
      api_level: '34',
      datetime: 1731067200,
    });
  });

  it('publishes an unofficial LineageOS zip, whose name spells the type in capitals', async () => {
    const name = 'lineage-19.1-20250312-UNOFFICIAL-Atom_L_EEA-signed.zip';
    // A real 19.1 build: Android 12 (SDK 32) in its fingerprint, as the version says.
    const metadata = FP4_METADATA.replace('pre-device=FP4', 'pre-device=Atom_L_EEA')
      .replace('FP4:14/', 'FP4:12/')
      .replace('post-sdk-level=34', 'post-sdk-level=32');
    const { root, zip } = await project(name, { metadata });
    writeFileSync(
      path.join(root, 'content/site.yaml'),
      'download_base_url: https://dl.example.org\nchannels: [unofficial]\nlists:\n  unofficial: [unofficial]\n',
    );
    const added = await runMain(['add', zip, '--root', root, '--dry-run']);
    expect(added.err.filter((l) => /^  (device|version|channel) /.test(l)).map((l) => l.trim().split(/ {2,}/))).toEqual(
      [
        ['device', 'metadata pre-device', 'Atom_L_EEA'],
        ['version', 'the file name', '19.1'],
        ['channel', 'the file name', 'unofficial'],
      ],
    );
    expect((await runMain(['add', zip, '--root', root])).code).toBe(0);
    rmSync(path.join(root, 'content/FP3'), { recursive: true });
    rmSync(path.join(root, 'content/FP4'), { recursive: true });
    rmSync(path.join(root, 'content/starlte'), { recursive: true });
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(JSON.parse(read(root, 'dist/api/v1/Atom_L_EEA/unofficial/index.json')).response[0]).toMatchObject({
      filename: name,
      url: `https://dl.example.org/unofficial/Atom_L_EEA/${name}`,
      channel: 'unofficial',
      romtype: 'unofficial',
      version: '19.1',
      display_version: '19.1-20250312-UNOFFICIAL-Atom_L_EEA-signed',
    });
  });

  it('publishes a crDroid zip under its own name: its name tells device, version and Android version; the rest from options', async () => {
    const name = 'crDroidAndroid-14.0-20250101-FP4-v10.10.zip';
    const { root, zip } = await project(name, {});
    const asked = await runMain(['add', zip, '--root', root, '--without-metadata']);
    expect(asked.code).toBe(2);
    expect(asked.err[1]).toBe(
      `pass them as options, e.g. otapress add ${zip} --timestamp 1731067200 --incremental eng.root.20241108.123456`,
    );
    const options = [
      '--without-metadata',
      '--device',
      'FP4',
      '--version',
      '10.10',
      '--channel',
      'community',
      '--timestamp',
      '1735732800',
      '--android-version',
      '14',
      '--incremental',
      'eng.crdroid.20250101',
    ];
    expect((await runMain(['add', zip, '--root', root, ...options])).code).toBe(0);
    expect(read(root, 'content/FP4/crDroidAndroid-14.0-20250101-FP4-v10.10.yaml')).toContain(
      `filename: ${name}\nversion: "10.10"\nchannel: community\n`,
    );
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const records = JSON.parse(read(root, 'dist/api/v1/FP4/community/index.json')).response as { filename: string }[];
    expect(records.find((r) => r.filename === name)).toMatchObject({
      filename: name,
      url: `https://images.example.org/builds/full/community/FP4/${name}`,
      version: '10.10',
      android_version: '14',
      api_level: '34',
      display_version: 'crDroidAndroid-14.0-20250101-FP4-v10.10',
      datetime: 1735732800,
    });
  });

  it('asks a LineageOS zip only for what its name does not tell, never for a version', async () => {
    const { root, zip } = await project('lineage-21.0-20250101-nightly-FP4-signed.zip', {});
    writeFileSync(
      path.join(root, 'content/site.yaml'),
      'download_base_url: https://dl.example.org\nchannels: [nightly]\nlists:\n  nightly: [nightly]\n',
    );
    const { code, err } = await runMain(['add', zip, '--root', root, '--without-metadata']);
    expect(code).toBe(2);
    expect(err).toEqual([
      // 21.0 is Android 14: the version tells it, so it is not asked for.
      'cannot tell --timestamp, --incremental of lineage-21.0-20250101-nightly-FP4-signed.zip: the zip has no META-INF/com/android/metadata.',
      `pass them as options, e.g. otapress add ${zip} --timestamp 1731067200 --incremental eng.root.20241108.123456`,
    ]);
  });

  it('takes the Android version from post-sdk-level when the fingerprint lacks it', async () => {
    const { root, zip } = await project(`${NAME}.zip`, { metadata: FP4_METADATA.replace(/^post-build=.*$/m, '') });
    const { text } = await addBuild({ zip, root, dryRun: true });
    expect(text).toContain('\nandroid_version: "14"\n');
  });

  it(
    'draws a progress bar on a terminal, and Ctrl-C there leaves no manifest (real CLI process in a pty)',
    { timeout: 60_000 },
    async () => {
      const root = tempProject({ withContent: true });
      const zip = path.join(root, `${NAME}.zip`);
      writeSparseOtaZip(zip, FP4_METADATA, 1024 ** 3);
      // script(1) runs the command on a pseudo-terminal; ^C typed into it is a real Ctrl-C.
      const command = [process.execPath, path.join(ROOT, 'src/bin.mjs'), 'add', zip, '--root', root]
        .map((a) => `'${a}'`)
        .join(' ');
      const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: root });
      let screen = '';
      child.stdout.on('data', (data: Buffer) => {
        const first = !screen.includes('hashing [');
        screen += data.toString();
        if (first && screen.includes('hashing [')) child.stdin.write('\x03');
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(screen).toMatch(
        /^\rhashing \[[#-]{24}\] [\d.]+ (B|KiB|MiB|GiB) \/ 1\.0 GiB  [\d.]+ (B|KiB|MiB|GiB)\/s  (\d+:\d\d|--:--) left\x1b\[K/,
      );
      expect(screen).toContain('interrupted; no manifest was written');
      expect(code).toBe(130);
      expect(readdirSync(path.join(root, 'content/FP4')).filter((f) => f.includes('2.7'))).toEqual([]);
    },
  );

  it('shows --help', async () => {
    const { code, out } = await runMain(['add', '--help']);
    expect(code).toBe(0);
    expect(out[0]).toBe('otapress add <path/to/ota.zip> [options]');
  });
});

describe('the progress line', () => {
  it.each([
    [0, 1024 ** 3, 0, '[------------------------] 0 B / 1.0 GiB  0 B/s  --:-- left'],
    [256 * 1024 ** 2, 1024 ** 3, 500, '[######------------------] 256.0 MiB / 1.0 GiB  512.0 MiB/s  0:02 left'],
    [1024 ** 3, 1024 ** 3, 2000, '[########################] 1.0 GiB / 1.0 GiB  512.0 MiB/s  0:00 left'],
  ])('shows %d of %d bytes after %d ms', (done, total, ms, line) => {
    expect(formatProgress(done, total, ms)).toBe(line);
  });

  it('formats sizes and durations', () => {
    expect([formatBytes(1536), formatBytes(1023), formatDuration(61.2), formatDuration(3600)]).toEqual([
      '1.5 KiB',
      '1023 B',
      '1:02',
      '60:00',
    ]);
  });
});
