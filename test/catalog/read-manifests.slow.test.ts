// readManifests reads each file first and asks fstat only when the read is odd (src/catalog/read.ts):
// what a file turned into after the listing must still get the message it got when every file was
// checked first. Real files, a real named pipe.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listContent, readManifests } from '../../src/catalog/read.js';
import { MAX_SOURCE_BYTES } from '../../src/catalog/yaml-source.js';
import { tempProject } from '../helpers/helpers.js';

/** Files in content/FP4/ of a new project, as `name → contents` (`null`: a named pipe). */
function project(files: Record<string, string | null>): { root: string; listed: { file: string; device: string }[] } {
  const root = tempProject();
  mkdirSync(path.join(root, 'content', 'FP4'), { recursive: true });
  const listed = Object.entries(files).map(([name, contents]) => {
    const absolute = path.join(root, 'content', 'FP4', name);
    if (contents === null) execFileSync('mkfifo', [absolute]);
    else writeFileSync(absolute, contents);
    return { file: `content/FP4/${name}`, device: 'FP4' };
  });
  return { root, listed };
}

describe('listContent', () => {
  it('reads a device file named otherwise than device.yaml as neither a device file nor a manifest, and says so', () => {
    const { root } = project({
      'Device.yaml': 'name: Fairphone 4\n',
      'device.yml': 'name: Fairphone 4\n',
      'a.yaml': 'filename: a.zip\n',
    });
    writeFileSync(path.join(root, 'content', 'site.yaml'), 'download_base_url: https://dl.example.org/builds\n');
    const listing = listContent(root);
    expect(listing.files).toEqual([{ file: 'content/FP4/a.yaml', device: 'FP4' }]);
    const said =
      "read as neither the device file nor a manifest: the device file is named device.yaml exactly (lower case, .yaml); rename it so, or name a build's manifest after its zip";
    expect(listing.problems).toEqual([
      { file: 'content/FP4/Device.yaml', line: 1, col: 1, field: '(file)', message: said },
      { file: 'content/FP4/device.yml', line: 1, col: 1, field: '(file)', message: said },
    ]);
  });
});

describe('listContent, of a device file directly in content/', () => {
  it('says where a device file goes, not where a manifest goes', () => {
    const { root } = project({});
    writeFileSync(path.join(root, 'content', 'site.yaml'), 'download_base_url: https://dl.example.org/builds\n');
    writeFileSync(path.join(root, 'content', 'device.yaml'), 'name: Fairphone 4\n');
    writeFileSync(path.join(root, 'content', 'stray.yaml'), 'filename: a.zip\n');
    expect(listContent(root).problems).toEqual([
      {
        file: 'content/device.yaml',
        line: 1,
        col: 1,
        field: '(file)',
        message: 'a device file describes one device and goes in its folder: move it to content/<device>/device.yaml',
      },
      {
        file: 'content/stray.yaml',
        line: 1,
        col: 1,
        field: '(file)',
        message: 'manifests go in a device folder: move it to content/<device>/',
      },
    ]);
  });
});

describe('readManifests', () => {
  it('reads plain files whole, up to the limit, and an empty one as empty', () => {
    const full = `#${'x'.repeat(MAX_SOURCE_BYTES - 2)}\n`;
    const { root, listed } = project({ 'a.yaml': 'filename: a.zip\n', 'empty.yaml': '', 'full.yaml': full });
    const { manifests, problems } = readManifests(root, listed);
    expect(problems).toEqual([]);
    expect(manifests.map((m) => [m.file, Buffer.from(m.bytes).toString()])).toEqual([
      ['content/FP4/a.yaml', 'filename: a.zip\n'],
      ['content/FP4/empty.yaml', ''],
      ['content/FP4/full.yaml', full],
    ]);
    // Each manifest has bytes of its own: the next file read does not change them.
    expect(Buffer.from(manifests[0].bytes).toString()).toBe('filename: a.zip\n');
  });

  it('refuses a file over the limit by its size, and a named pipe (a file replaced after the listing) as no regular file, without waiting', () => {
    const { root, listed } = project({
      'big.yaml': 'x'.repeat(MAX_SOURCE_BYTES + 1),
      'pipe.yaml': null,
      'fine.yaml': 'a: 1\n',
    });
    const { manifests, problems } = readManifests(root, listed);
    expect(manifests.map((m) => m.file)).toEqual(['content/FP4/fine.yaml']);
    expect(problems).toEqual([
      {
        file: 'content/FP4/big.yaml',
        line: 1,
        col: 1,
        field: '(file)',
        message: `the file is ${MAX_SOURCE_BYTES + 1} bytes (0.1 MiB), over the ${MAX_SOURCE_BYTES}-byte limit for one file; a manifest describes one build in a few lines`,
      },
      {
        file: 'content/FP4/pipe.yaml',
        line: 1,
        col: 1,
        field: '(file)',
        message: 'not a regular file (a pipe, socket or device); replace it with a plain file',
      },
    ]);
  });

  it('says what a device file over the limit is for, in its own words', () => {
    const { root, listed } = project({ 'device.yaml': `#${'x'.repeat(MAX_SOURCE_BYTES)}\n` });
    expect(readManifests(root, listed).problems).toEqual([
      {
        file: 'content/FP4/device.yaml',
        line: 1,
        col: 1,
        field: '(file)',
        message: `the file is ${MAX_SOURCE_BYTES + 2} bytes (0.1 MiB), over the ${MAX_SOURCE_BYTES}-byte limit for one file; a device file describes one device in a few lines`,
      },
    ]);
  });

  it('says a file that disappeared after the listing is gone', () => {
    const { root } = project({});
    const { manifests, problems } = readManifests(root, [{ file: 'content/FP4/gone.yaml', device: 'FP4' }]);
    expect(manifests).toEqual([]);
    expect(problems).toEqual([
      {
        file: 'content/FP4/gone.yaml',
        line: 1,
        col: 1,
        field: '(file)',
        message: 'disappeared while the build was reading content/; run the build again',
      },
    ]);
  });
});
