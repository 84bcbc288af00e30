import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBuild } from '../../src/ota/add-build.js';
import { runMain, runOtapress } from '../helpers/cli-process.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip, writeSparseOtaZip } from '../helpers/ota-zip.js';

/** `add` and `import` on broken and hostile input: a clear message, nothing written, no crash. */
const NAME = 'e-2.7-a14-20241108446999-official-FP4';

/** The device folder holds exactly what it held before: no manifest, no temporary file. */
function expectNothingWritten(root: string): void {
  expect(
    readdirSync(path.join(root, 'content', 'FP4')).filter(
      (f) => f.includes('2.7') || f.includes('2.9') || f.startsWith('.'),
    ),
  ).toEqual([]);
}

describe('otapress add refuses a broken package and writes no manifest', { timeout: 60_000 }, () => {
  const damage = (zip: string, mutate: (bytes: Buffer) => Buffer) => writeFileSync(zip, mutate(readFileSync(zip)));
  it.each<[string, (zip: string) => Promise<void> | void, number, (zip: string) => string[]]>([
    [
      'a zip cut in half',
      (zip) => truncateSync(zip, Math.floor(readFileSync(zip).length / 2)),
      2,
      (zip) => [
        `${zip} is not a readable zip (End of central directory record signature not found. Either not a zip file, or file is truncated.); pass the OTA package itself`,
      ],
    ],
    [
      'a zip missing its last 10 bytes',
      (zip) => truncateSync(zip, readFileSync(zip).length - 10),
      2,
      (zip) => [
        `${zip} is not a readable zip (End of central directory record signature not found. Either not a zip file, or file is truncated.); pass the OTA package itself`,
      ],
    ],
    [
      'an empty file',
      (zip) => writeFileSync(zip, ''),
      2,
      (zip) => [
        `${zip} is not a readable zip (End of central directory record signature not found. Either not a zip file, or file is truncated.); pass the OTA package itself`,
      ],
    ],
    [
      'a file that is not a zip',
      (zip) => writeFileSync(zip, '<html>404 Not Found</html>\n'),
      2,
      (zip) => [
        `${zip} is not a readable zip (End of central directory record signature not found. Either not a zip file, or file is truncated.); pass the OTA package itself`,
      ],
    ],
    [
      'a zip whose central directory is damaged',
      (zip) =>
        damage(zip, (b) => {
          const last = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
          return Buffer.concat([b.subarray(0, last + 10), Buffer.alloc(30, 0xff), b.subarray(last + 40)]);
        }),
      2,
      (zip) => [`${zip} is a damaged zip (unexpected EOF); download or copy it again`],
    ],
    [
      'a zip whose entry reaches past its end',
      (zip) =>
        damage(zip, (b) => {
          // The directory of the last entry claims it holds far more bytes than the file has.
          const last = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
          b.writeUInt32LE(0x7fffffff, last + 20);
          return b;
        }),
      2,
      (zip) => [
        `${zip} is a damaged or truncated zip (care_map.pb reaches past the end of the file); download it again`,
      ],
    ],
    [
      'a zip without metadata',
      async (zip) => writeOtaZip(zip, {}),
      2,
      (zip) => [
        `${zip} has no META-INF/com/android/metadata, which every OTA package made by ota_from_target_files has: it may be no OTA package at all, and nothing in it tells the exact build time phones compare with their ro.build.date.utc (a build a second older or newer is offered to the wrong phones).`,
        `if it is the package phones should install, say so and give what it cannot: otapress add ${zip} --without-metadata --timestamp <ro.build.date.utc of the build> --incremental <ro.build.version.incremental>`,
      ],
    ],
    [
      'a zip whose metadata is binary garbage',
      async (zip) => writeOtaZip(zip, { metadata: '\u0000\u00ff\u0001'.repeat(200) }),
      2,
      (zip) => [
        `cannot tell --timestamp, --incremental of ${NAME}.zip: the metadata has no post-timestamp (a file name carries only the day, not the build time phones compare).`,
        `pass them as options, e.g. otapress add ${zip} --timestamp 1731067200 --incremental eng.root.20241108.123456`,
      ],
    ],
  ])('%s', async (_, make, code, err) => {
    const root = tempProject({ withContent: true });
    const zip = path.join(root, `${NAME}.zip`);
    await writeOtaZip(zip, { metadata: FP4_METADATA });
    await make(zip);
    const result = await runMain(['add', zip, '--root', root]);
    expect({ code: result.code, err: result.err }).toEqual({ code, err: err(zip) });
    expectNothingWritten(root);
  });

  it.each([
    [
      'grows (a download still running)',
      (zip: string) => appendFileSync(zip, Buffer.alloc(4096)),
      (size: number) => `its size went from ${size} to ${size + 4096} bytes`,
    ],
    [
      'is rewritten in place',
      (zip: string) => writeFileSync(zip, Buffer.from('PK'), { flag: 'r+' }),
      () => 'it was modified',
    ],
  ])(
    'refuses a package that changes while it is hashed: one that %s',
    async (_, change, what) => {
      const root = tempProject({ withContent: true });
      const zip = path.join(root, `${NAME}.zip`);
      // 256 MiB, sparse: hashing takes long enough that the change lands in the middle of it.
      writeSparseOtaZip(zip, FP4_METADATA, 256 * 1024 * 1024);
      const size = statSync(zip).size;
      let changed = false;
      const adding = addBuild({
        zip,
        root,
        onProgress: (done) => {
          if (changed || done === 0) return;
          changed = true;
          change(zip);
        },
      });
      await expect(adding).rejects.toThrow(
        `${path.resolve(zip)} changed while it was read (${what(size)}); wait until it is complete, then run add again; nothing was written`,
      );
      expect(changed).toBe(true);
      expectNothingWritten(root);
    },
    60_000,
  );
});

describe('otapress import of hostile JSON', { timeout: 60_000 }, () => {
  const record = (fields = '') =>
    `{"incremental":"","api_level":"34","url":"https://images.example.org/builds/full/official/FP4/e-2.9-a14-20241108446999-official-FP4.zip","timestamp":1731067200,"md5sum":"0123456789abcdef0123456789abcdef","changes":"","channel":"official","filename":"e-2.9-a14-20241108446999-official-FP4.zip","romtype":"official","datetime":1731067200,"version":"2.9","pre_version":"","display_version":"2.9-a14-20241108446999-official-FP4","android_version":"14","id":"${'c'.repeat(64)}","size":1000,"is_upgrade_supported":false${fields}}`;
  const listing = (records: string) => `{"id":null,"response":[${records}],"error":null}`;

  it.each<[string, string, number, string[]]>([
    [
      'nested 100,000 arrays deep',
      '['.repeat(100_000) + ']'.repeat(100_000),
      1,
      [
        '<listing>:1:2  0  record 0: expected a record (a JSON object), found an array',
        '1 problem found; nothing was written.',
      ],
    ],
    [
      'a `__proto__` key in place of the envelope',
      '{"__proto__":{"response":[]},"id":null}',
      1,
      [
        '<listing>:1:1  (file)  expected a v1 listing ({"id": null, "response": [records...], "error": null}), an array of records, a LineageOS v2 answer ([{"datetime": ..., "files": [...], "type": ..., "version": ...}]), a crDroid-family device file ({"response": [...]}), a PixelExperience-family answer ({"error": false, "filename": ..., "url": ..., ...}) or an AOSPA file ({"updates": [...]})',
        '1 problem found; nothing was written.',
      ],
    ],
    [
      'a size of 1e400 (Infinity)',
      listing(record().replace('"size":1000', '"size":1e400')),
      1,
      [
        '<listing>:1:551  response.0.size  record 0: expected the size in bytes as a whole number, found the number Infinity',
        '1 problem found; nothing was written.',
      ],
    ],
    [
      'a size past 2^53',
      listing(record().replace('"size":1000', '"size":123456789012345678901234567890')),
      1,
      [
        '<listing>:1:551  response.0.size  record 0: expected the size in bytes as a whole number, found the number 1.2345678901234568e+29',
        '1 problem found; nothing was written.',
      ],
    ],
    [
      'a timestamp of 1e28',
      listing(record().replaceAll('1731067200', '17310672000000000000000000000')),
      1,
      [
        '<listing>:1:173  response.0.timestamp  record 0: expected Unix seconds as a JSON number, e.g. 1731067200, found the number 1.7310672e+28',
        '<listing>:1:368  response.0.datetime  record 0: expected Unix seconds as a JSON number, e.g. 1731067200, found the number 1.7310672e+28',
        '2 problems found; nothing was written.',
      ],
    ],
  ])('refuses %s with a located message', async (_, text, code, err) => {
    const root = tempProject({ withContent: true });
    const file = path.join(root, 'listing.json');
    writeFileSync(file, text);
    const result = await runMain(['import', file, '--device', 'FP4', '--list', 'official', '--root', root]);
    expect({ code: result.code, err: result.err.map((l) => l.replaceAll(file, '<listing>')) }).toEqual({ code, err });
    expectNothingWritten(root);
  });

  it.each([
    ['`__proto__`', '"__proto__":{"url":"https://evil.example/x.zip","polluted":true}'],
    ['`constructor`', '"constructor":{"prototype":{"polluted":true}}'],
    ['a value nested 50,000 deep', `"deep":${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ])('leaves out a record key %s, imports the record as published, and pollutes no object', async (name, extra) => {
    const root = tempProject({ withContent: true });
    const file = path.join(root, 'listing.json');
    writeFileSync(file, listing(record(`,${extra}`)));
    const result = await runMain(['import', file, '--device', 'FP4', '--list', 'official', '--root', root]);
    expect(result.code).toBe(0);
    expect(result.err[0]).toMatch(
      /^.*listing\.json:1:\d+  response\.0\.\S+  record 0: `\S+` is not a field of the v1 interface; it is left out$/,
    );
    const manifest = readFileSync(
      path.join(root, 'content', 'FP4', 'e-2.9-a14-20241108446999-official-FP4.yaml'),
      'utf8',
    );
    expect(manifest).not.toMatch(/proto|constructor|polluted|evil|deep/);
    expect(manifest).toContain(`id: ${'c'.repeat(64)}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    void name;
  });

  it('refuses a 100 MB file by its size, without reading it', async () => {
    const root = tempProject({ withContent: true });
    const file = path.join(root, 'listing.json');
    writeFileSync(file, listing(record()));
    truncateSync(file, 100 * 1024 * 1024);
    const result = await runMain(['import', file, '--device', 'FP4', '--list', 'official', '--root', root]);
    expect(result).toEqual({
      code: 2,
      out: [],
      err: [
        `${file} is 104857600 bytes, over the 4194304-byte limit: a v1 listing of even a thousand builds is under 1 MB, so this is not one; pass the listing saved from the server`,
      ],
    });
    expectNothingWritten(root);
  });

  it('refuses standard input past the limit, reading no more than the limit (real CLI process)', () => {
    const root = tempProject({ withContent: true });
    const result = runOtapress(['import', '-', '--device', 'FP4', '--list', 'official', '--root', root], {
      input: ' '.repeat(5 * 1024 * 1024) + listing(record()),
    });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        '<stdin> holds more than the 4194304-byte limit: a v1 listing of even a thousand builds is under 1 MB, so this is not one; pass the listing saved from the server\n',
    });
    expect(existsSync(path.join(root, 'content', 'FP4', 'e-2.9-a14-20241108446999-official-FP4.yaml'))).toBe(false);
  }, 60_000);
});

describe('import: cases the round-trip property found', { timeout: 60_000 }, () => {
  const site = 'download_base_url: https://dl.example.org\nchannels: [stable, dev]\nlists:\n  stable: [stable]\n';
  const placeholder = (display: string) =>
    `{"incremental":"","api_level":"","timestamp":1751364000,"md5sum":"","changes":"","channel":"stable","filename":"","romtype":"stable","datetime":1751364000,"version":"3.1","pre_version":"","display_version":${JSON.stringify(display)},"android_version":"16","id":"","size":"","is_upgrade_supported":false}`;

  it('a build of a channel no list collects, listed by its own `lists`, imports and builds the same listing', async () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content', 'FP4'), { recursive: true });
    writeFileSync(path.join(root, 'content', 'site.yaml'), site);
    const record = `{"incremental":"","api_level":"34","url":"https://dl.example.org/dev/FP4/e-2.9-a14-20241108446999-dev-FP4.zip","timestamp":1731067200,"md5sum":"${'a'.repeat(32)}","changes":"","channel":"dev","filename":"e-2.9-a14-20241108446999-dev-FP4.zip","romtype":"stable","datetime":1731067200,"version":"2.9","pre_version":"","display_version":"2.9-a14-20241108446999-dev-FP4","android_version":"14","id":"${'b'.repeat(64)}","size":1000,"is_upgrade_supported":false}`;
    const text = `{"id":null,"response":[${record}],"error":null}`;
    writeFileSync(path.join(root, 'listing.json'), text);
    const result = await runMain([
      'import',
      path.join(root, 'listing.json'),
      '--device',
      'FP4',
      '--list',
      'stable',
      '--root',
      root,
    ]);
    expect(result.code, result.err.join('\n')).toBe(0);
    expect(readFileSync(path.join(root, 'content/FP4/e-2.9-a14-20241108446999-dev-FP4.yaml'), 'utf8')).toContain(
      'lists: [stable]',
    );
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    expect(readFileSync(path.join(root, 'dist/api/v1/FP4/stable/index.json'), 'utf8')).toBe(text);
  });

  it('placeholders whose display_versions differ only in characters a file name cannot hold get numbered files', async () => {
    const root = tempProject();
    mkdirSync(path.join(root, 'content', 'FP4'), { recursive: true });
    writeFileSync(path.join(root, 'content', 'site.yaml'), site);
    const text = `{"id":null,"response":[${placeholder('3.1 #1')},${placeholder('3.1 %1')}],"error":null}`;
    writeFileSync(path.join(root, 'listing.json'), text);
    const result = await runMain([
      'import',
      path.join(root, 'listing.json'),
      '--device',
      'FP4',
      '--list',
      'stable',
      '--root',
      root,
    ]);
    expect(result.out.slice(0, 2).sort()).toEqual([
      'created content/FP4/placeholder-3.1_1-2.yaml',
      'created content/FP4/placeholder-3.1_1.yaml',
    ]);
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    // Same build time and no file name: the build orders them by manifest name, so compare as sets.
    const records = (json: string) =>
      (JSON.parse(json).response as { display_version: string }[]).sort((a, b) =>
        a.display_version < b.display_version ? -1 : 1,
      );
    expect(records(readFileSync(path.join(root, 'dist/api/v1/FP4/stable/index.json'), 'utf8'))).toEqual(records(text));
  });
});
