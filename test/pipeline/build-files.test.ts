import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { parseManifest } from '../../src/catalog/manifest.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { VALID_MANIFEST } from '../helpers/arbitraries.js';
import { catalogProject, hex } from '../helpers/catalog.js';

// A build's sha1 and its other files, in the manifest and the v2 answer.

const { site } = parseSite('download_base_url: https://dl.example.org/builds\n');
const FILE = 'content/FP4/build.yaml';
const messages = (text: string) => parseManifest(text, FILE, 'FP4', site!).problems.map(formatProblem);
const SHA1 = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';

const file = (name: string, i: number, extra: string[] = []) => [
  `  - filename: ${name}`,
  `    size: ${4096 * (i + 1)}`,
  `    sha256: ${hex(i, 64)}`,
  `    sha1: ${hex(i, 40)}`,
  ...extra.map((l) => `    ${l}`),
];

describe('manifest: sha1 and files', () => {
  it("keeps sha1 and the files, each file with its url derived like the zip's and its filepath", () => {
    const text = `${VALID_MANIFEST}sha1: ${SHA1}\nfiles:\n${[...file('recovery.img', 0), ...file('fw.bin', 1, ['url: https://fw.example.org/a/fw.bin?x=1'])].join('\n')}\n`;
    const { build: b, problems } = parseManifest(text, FILE, 'FP4', site!);
    expect(problems).toEqual([]);
    expect(b!.sha1).toBe(SHA1);
    expect(b!.filepath).toBe('/official/FP4/e-2.5-a14-20241108446322-official-FP4.zip');
    expect(b!.files).toEqual([
      {
        filename: 'recovery.img',
        size: 4096,
        sha256: hex(0, 64),
        sha1: hex(0, 40),
        url: 'https://dl.example.org/builds/official/FP4/recovery.img',
        filepath: '/official/FP4/recovery.img',
      },
      {
        filename: 'fw.bin',
        size: 8192,
        sha256: hex(1, 64),
        sha1: hex(1, 40),
        url: 'https://fw.example.org/a/fw.bin?x=1',
        filepath: '/a/fw.bin',
      },
    ]);
  });

  it('accepts a manifest without sha1 (hand-written): the build has none', () => {
    const { build: b } = parseManifest(VALID_MANIFEST, FILE, 'FP4', site!);
    expect(b!.sha1).toBeUndefined();
    expect(b!.files).toBeUndefined();
  });

  it('reports every wrong file field at its line, with what to write', () => {
    const text = `${VALID_MANIFEST}sha1: ${SHA1.toUpperCase()}\nfiles:\n${[
      ...file('recovery.img', 0),
      '  - filename: recovery.img',
      '    size: 0',
      `    sha256: ${hex(2, 63)}`,
      `    sha1: ${hex(2, 40)}`,
      '    colour: red',
      ...file('e-2.5-a14-20241108446322-official-FP4.zip', 3),
      ...file('../boot.img', 4),
    ].join('\n')}\n`;
    const base = VALID_MANIFEST.split('\n').length;
    expect(messages(text)).toEqual([
      `${FILE}:${base}:7  sha1  write the 40 hex characters in lowercase: ${SHA1}`,
      `${FILE}:${base + 7}:11  files.1.size  expected the file size in bytes (stat -c %s FILE); an empty file is not offered`,
      `${FILE}:${base + 8}:13  files.1.sha256  expected the SHA-256 of the file (sha256sum FILE): 64 lowercase hex characters, got 63 characters`,
      `${FILE}:${base + 10}:5  files.1.colour  unknown field; see the manifest reference in the README`,
      `${FILE}:${base + 15}:15  files.3.filename  expected a plain file name of letters, digits, \`-\`, \`.\`, \`_\` and \`~\`, e.g. recovery.img; it ends the download address`,
    ]);
  });

  it('refuses a file named like the zip or listed twice', () => {
    const text = `${VALID_MANIFEST}files:\n${[...file('recovery.img', 0), ...file('recovery.img', 1), ...file('e-2.5-a14-20241108446322-official-FP4.zip', 2)].join('\n')}\n`;
    const base = VALID_MANIFEST.split('\n').length;
    expect(messages(text)).toEqual([
      `${FILE}:${base + 5}:15  files.1.filename  \`recovery.img\` is listed twice; remove one`,
      `${FILE}:${base + 9}:15  files.2.filename  \`e-2.5-a14-20241108446322-official-FP4.zip\` is the build's zip; list only its other files (images, firmware) here`,
    ]);
  });

  it('refuses sha1 and files on a placeholder', () => {
    const text = `placeholder: true\nversion: "2.5"\nchannel: official\ntimestamp: 1731067200\nandroid_version: "14"\ndisplay_version: x\nsha1: ${SHA1}\nfiles:\n${file('boot.img', 0).join('\n')}\n`;
    expect(messages(text)).toEqual([
      `${FILE}:7:1  sha1  a placeholder has no package, so it must not have \`sha1\` (a phone would offer it for download); remove it, or remove \`placeholder: true\``,
      `${FILE}:8:1  files  a placeholder has no package, so it has no other files either; remove \`files\`, or remove \`placeholder: true\``,
    ]);
  });
});

describe("v2 entry: the official server's fields and file order", () => {
  const root = catalogProject([
    {
      extra: [
        `sha1: ${SHA1}`,
        'os_patch_level: "2024-11-05"',
        'files:',
        ...file('vendor_boot.img', 0),
        ...file('boot.img', 1),
        ...file('radio.bin', 2),
        ...file('a-firmware.zip', 3, ['url: https://fw.example.org/FP4/a-firmware.zip']),
      ],
    },
  ]);
  build({ root });
  const body = readFileSync(path.join(root, 'dist/api/v2/devices/FP4/builds.json'), 'utf8');
  const v1 = JSON.parse(readFileSync(path.join(root, 'dist/api/v1/FP4/official/index.json'), 'utf8'));

  it('writes the sample shape: build keys and file keys sorted as Flask does, the build zip first, then .zip, .img, the rest', () => {
    // Written from lineageos-infra/updater api_v2.py and api_common.py (ad91889), for the first build of catalogProject.
    const zip = 'e-2.5-a14-20241108100000-official-FP4.zip';
    const other = (name: string, i: number, url = `https://dl.example.org/builds/official/FP4/${name}`) => ({
      filename: name,
      filepath: url.replace(/^https:\/\/[^/]+(\/builds)?/, ''),
      sha1: hex(i, 40),
      sha256: hex(i, 64),
      size: 4096 * (i + 1),
      url,
    });
    const entry = (type: string) => ({
      date: '2024-11-08',
      datetime: 1731067200,
      files: [
        {
          date: '2024-11-08',
          datetime: 1731067200,
          filename: zip,
          filepath: `/official/FP4/${zip}`,
          os_patch_level: '2024-11-05',
          os_sdk_level: 34,
          sha1: SHA1,
          sha256: hex(0, 64),
          size: 1000000,
          type,
          url: `https://dl.example.org/builds/official/FP4/${zip}`,
        },
        other('a-firmware.zip', 3, 'https://fw.example.org/FP4/a-firmware.zip'),
        other('boot.img', 1),
        other('vendor_boot.img', 0),
        other('radio.bin', 2),
      ],
      type,
      version: '2.5',
    });
    expect(body).toBe(JSON.stringify([entry('stable'), entry('official')]));
  });

  it('leaves v1 one record per build, without the extra files', () => {
    expect(v1.response).toHaveLength(1);
    expect(Object.keys(v1.response[0])).not.toContain('sha1');
  });
});
