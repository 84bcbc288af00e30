// What add and import must never do to a maintainer's files: write a manifest over device.yaml,
// write through a linked folder to outside the repository, start a second folder for a device
// whose folder differs by case, or drop on --force what a zip cannot tell.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { runMain } from '../helpers/cli-process.js';
import { snapshotTree, tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';

const NAME = 'e-2.7-a14-20241108446999-official-FP4';

async function project(name = `${NAME}.zip`) {
  const root = tempProject({ withContent: true });
  const zip = path.join(tempProject(), name);
  await writeOtaZip(zip, { metadata: FP4_METADATA });
  return { root, zip };
}

/** A v1 listing of one build of `device`, saved as a file. */
function listing(device: string): string {
  const file = path.join(tempProject(), 'listing.json');
  const record = {
    datetime: 1731067200,
    filename: `e-2.7-a14-20241108446999-official-${device}.zip`,
    id: 'a'.repeat(64),
    romtype: 'stable',
    size: 1000,
    url: `https://images.ecloud.global/official/${device}/e-2.7-a14-20241108446999-official-${device}.zip`,
    version: '2.7',
    android_version: '14',
  };
  writeFileSync(file, JSON.stringify({ id: null, response: [record], error: null }));
  return file;
}

describe('add and import never name a manifest device.yaml', { timeout: 60_000 }, () => {
  it('a package named device.zip gets device.build.yaml, and the device file stays as it was', async () => {
    const { root, zip } = await project('device.zip');
    const deviceFile = readFileSync(path.join(root, 'content/FP4/device.yaml'), 'utf8');
    const { code, out } = await runMain([
      'add',
      zip,
      '--root',
      root,
      '--version',
      '2.7',
      '--channel',
      'official',
      '--android-version',
      '14',
    ]);
    expect({ code, out }).toEqual({ code: 0, out: ['wrote content/FP4/device.build.yaml'] });
    expect(readFileSync(path.join(root, 'content/FP4/device.yaml'), 'utf8')).toBe(deviceFile);
    expect((await runMain(['check', '--root', root])).code).toBe(0);
  });
});

describe('import never names a manifest device.yaml either', { timeout: 60_000 }, () => {
  it('a record of device.zip becomes device.build.yaml beside the device file', async () => {
    const root = tempProject({ withContent: true });
    const deviceFile = readFileSync(path.join(root, 'content/FP4/device.yaml'), 'utf8');
    const file = listing('FP4');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll('e-2.7-a14-20241108446999-official-FP4.zip', 'device.zip'),
    );
    const { code, out, err } = await runMain(['import', file, '--device', 'FP4', '--list', 'stable', '--root', root]);
    expect({ code, err }).toMatchObject({ code: 0 });
    expect(out).toContain('created content/FP4/device.build.yaml');
    expect(readFileSync(path.join(root, 'content/FP4/device.yaml'), 'utf8')).toBe(deviceFile);
  });
});

describe('no command writes through a folder that is a symbolic link', { timeout: 60_000 }, () => {
  it('add refuses a linked device folder before hashing, and writes nothing outside', async () => {
    const { root, zip } = await project();
    const outside = path.join(tempProject(), 'FP4');
    renameSync(path.join(root, 'content/FP4'), outside);
    symlinkSync(outside, path.join(root, 'content/FP4'));
    const before = snapshotTree(outside);
    const { code, err } = await runMain(['add', zip, '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      'content/FP4:1:1  (folder)  symbolic links are refused (a link can point outside the repository); nothing was written through it; replace it with the folder itself',
    );
    expect(snapshotTree(outside)).toEqual(before);
  });

  it('import refuses a linked device folder, and writes nothing outside', async () => {
    const root = tempProject({ withContent: true });
    const outside = tempProject();
    symlinkSync(outside, path.join(root, 'content/FP9'));
    const { code, err } = await runMain([
      'import',
      listing('FP9'),
      '--device',
      'FP9',
      '--list',
      'stable',
      '--root',
      root,
    ]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      'content/FP9:1:1  (folder)  symbolic links are refused (a link can point outside the repository); nothing was written through it; replace it with the folder itself',
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('init writes nothing through a linked .github/ or vendor/, and says so', () => {
    const root = tempProject();
    const outside = tempProject();
    symlinkSync(outside, path.join(root, '.github'));
    const result = initCatalog(root, { version: '9.9.9' });
    expect(readdirSync(outside)).toEqual([]);
    expect(result.notes).toContain(
      '.github/workflows/check.yml was not written: .github/ is a symbolic link (it can point outside the catalog), and init writes through none; make it a folder and run init again',
    );
    expect(existsSync(path.join(root, 'content/site.yaml'))).toBe(true);
  });
});

describe('a device folder whose name differs only by case', { timeout: 60_000 }, () => {
  it('import --device fp4 beside content/FP4 is refused, and no second folder is made', async () => {
    const root = tempProject({ withContent: true });
    const { code, err } = await runMain([
      'import',
      listing('fp4'),
      '--device',
      'fp4',
      '--list',
      'stable',
      '--root',
      root,
    ]);
    expect(code).toBe(2);
    expect(err[0]).toBe(
      'content/FP4 is a device folder whose name differs from fp4 only by case; phones ask with the exact name, so a device has one folder: pass --device FP4 if that is this device, or rename the folder',
    );
    expect(existsSync(path.join(root, 'content/fp4'))).toBe(false);
  });

  it('add of a zip for fp4 beside content/FP4 is refused', async () => {
    const { root, zip } = await project(`${NAME.replace('FP4', 'fp4')}.zip`);
    const { code, err } = await runMain(['add', zip, '--root', root, '--device', 'fp4']);
    expect(code).toBe(2);
    expect(err[0]).toBe(
      'content/FP4 is a device folder whose name differs from fp4 only by case; phones ask with the exact name, so a device has one folder: pass --device FP4 if that is this device, or rename the folder',
    );
    expect(existsSync(path.join(root, 'content/fp4'))).toBe(false);
  });
});

describe('add --force keeps what a zip cannot tell', { timeout: 60_000 }, () => {
  it('lists, changelog and url written by hand stay, and the report names them', async () => {
    const { root, zip } = await project();
    expect((await runMain(['add', zip, '--root', root])).code).toBe(0);
    const file = path.join(root, `content/FP4/${NAME}.yaml`);
    const handWritten =
      'lists: [official]\nurl: https://mirror.example.org/e.zip\nchangelog: |\n  - Fixed the camera\n';
    writeFileSync(file, readFileSync(file, 'utf8') + handWritten);
    const { code, err } = await runMain(['add', zip, '--root', root, '--force']);
    expect(code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('\nlists: [official]\n');
    expect(text).toContain('\nurl: https://mirror.example.org/e.zip\n');
    expect(text).toMatch(/\nchangelog: .*Fixed the camera/s);
    expect(
      err.filter((l) => l.includes(`kept from content/FP4/${NAME}.yaml`)).map((l) => l.trim().split(/\s+/)[0]),
    ).toEqual(['url', 'lists', 'changelog']);
    // An option given replaces the kept value.
    expect((await runMain(['add', zip, '--root', root, '--force', '--lists', 'stable,official'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('\nlists: [stable, official]\n');
    expect(readFileSync(file, 'utf8')).toMatch(/Fixed the camera/);
  });
});

describe('add --force over what is not a manifest file', { timeout: 60_000 }, () => {
  it('a named pipe where the manifest goes is refused without opening it', async () => {
    const { root, zip } = await project();
    expect(spawnSync('mkfifo', [path.join(root, `content/FP4/${NAME}.yaml`)]).status).toBe(0);
    const { code, err } = await runMain(['add', zip, '--root', root, '--force']);
    expect(code).toBe(2);
    expect(err[0]).toBe(
      `content/FP4/${NAME}.yaml is not a regular file (a link, a named pipe or a folder); remove it, then add the zip again`,
    );
  });
});

describe('what build and check say of device files', { timeout: 60_000 }, () => {
  it('counts a device with only a device.yaml among the devices built', async () => {
    const root = tempProject({ withContent: true });
    mkdirSync(path.join(root, 'content/FP5'));
    writeFileSync(path.join(root, 'content/FP5/device.yaml'), 'name: Fairphone 5\noem: Fairphone\n');
    const { code, out } = await runMain(['build', '--root', root]);
    expect(code).toBe(0);
    expect(out.at(-1)).toMatch(/^built \d+ builds of 4 devices /);
  });

  it('says a device file too large is one, not a manifest', async () => {
    const root = tempProject({ withContent: true });
    writeFileSync(path.join(root, 'content/FP4/device.yaml'), `name: Fairphone 4\n${'# padding\n'.repeat(7000)}`);
    const { code, err } = await runMain(['check', '--root', root]);
    expect(code).toBe(1);
    expect(err[0]).toBe(
      'content/FP4/device.yaml:1:1  (file)  the file is 70018 bytes (0.1 MiB), over the 65536-byte limit for one file; a device file describes one device in a few lines',
    );
  });
});
