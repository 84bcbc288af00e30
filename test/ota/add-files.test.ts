import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHashing } from '../../src/ota/hash.js';
import { runMain } from '../helpers/cli-process.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';

// `add` writes the zip's SHA-1 beside MD5 and SHA-256 from the same read, and
// `--file` hashes a build's other files (images, firmware) the same way into `files:`.

const NAME = 'e-2.7-a14-20241108446999-official-FP4';
const digest = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

describe('hashing: SHA-1 in the same read as MD5 and SHA-256', () => {
  it.each([0, 1, 4 * 1024 * 1024, 9 * 1024 * 1024 + 7])(
    '%i bytes: all three digests and the size agree with node:crypto',
    async (size) => {
      const file = path.join(tempProject(), 'f.bin');
      const bytes = randomBytes(size);
      writeFileSync(file, bytes);
      expect(await startHashing(file).digests).toEqual({
        size,
        md5: digest('md5', bytes),
        sha1: digest('sha1', bytes),
        sha256: digest('sha256', bytes),
      });
    },
  );
});

describe('otapress add --file', () => {
  it(
    'hashes each file once and lists it under files:, then builds it into the v2 answer after the zip',
    { timeout: 60_000 },
    async () => {
      const root = tempProject({ withContent: true });
      const zip = path.join(root, `${NAME}.zip`);
      await writeOtaZip(zip, { metadata: FP4_METADATA });
      const images = { 'recovery.img': randomBytes(5 * 1024 * 1024 + 3), 'boot.img': randomBytes(1000) };
      for (const [name, bytes] of Object.entries(images)) writeFileSync(path.join(root, name), bytes);
      const result = await runMain([
        'add',
        zip,
        '--root',
        root,
        '--file',
        path.join(root, 'recovery.img'),
        '--file',
        path.join(root, 'boot.img'),
      ]);
      expect(result.code).toBe(0);
      const manifest = readFileSync(path.join(root, `content/FP4/${NAME}.yaml`), 'utf8');
      const zipBytes = readFileSync(zip);
      expect(manifest).toContain(
        `md5sum: ${digest('md5', zipBytes)}\nsha1: ${digest('sha1', zipBytes)}\nid: ${digest('sha256', zipBytes)}\n`,
      );
      const entry = (name: keyof typeof images) =>
        `  - filename: ${name}\n    size: ${images[name].length}\n    sha256: ${digest('sha256', images[name])}\n    sha1: ${digest('sha1', images[name])}\n`;
      expect(manifest.endsWith(`files:\n${entry('recovery.img')}${entry('boot.img')}`)).toBe(true);
      expect(result.err).toContain(
        `  files               --file                                                        boot.img 1000 bytes, SHA-256 ${digest('sha256', images['boot.img'])}, SHA-1 ${digest('sha1', images['boot.img'])}`,
      );

      expect((await runMain(['build', '--root', root])).code).toBe(0);
      const v2 = JSON.parse(readFileSync(path.join(root, 'dist/api/v2/devices/FP4/builds.json'), 'utf8'));
      const built = v2.find((b: { files: { filename: string }[] }) => b.files[0].filename === `${NAME}.zip`);
      expect(built.files.map((f: { filename: string; sha1: string }) => `${f.filename} ${f.sha1}`)).toEqual([
        `${NAME}.zip ${digest('sha1', zipBytes)}`,
        `boot.img ${digest('sha1', images['boot.img'])}`,
        `recovery.img ${digest('sha1', images['recovery.img'])}`,
      ]);
    },
  );

  it('refuses a missing file and a file named like the zip, and writes nothing', { timeout: 60_000 }, async () => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    await writeOtaZip(zip, { metadata: FP4_METADATA });
    expect(await runMain(['add', zip, '--root', root, '--file', 'nope.img'])).toEqual({
      code: 2,
      out: [],
      err: ['no such file: nope.img; --file takes the path of an image or other file of the build'],
    });
    const twice = await runMain(['add', zip, '--root', root, '--file', zip]);
    expect(twice.code).toBe(1);
    // Said of the option that named it, not of a manifest that was never written.
    expect(twice.err[0]).toBe(
      `--file  files  --file ${NAME}.zip: \`${NAME}.zip\` is the build's zip; list only its other files (images, firmware) here`,
    );
    expect(existsSync(path.join(root, `content/FP4/${NAME}.yaml`))).toBe(false);
  });
});
