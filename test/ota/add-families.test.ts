// `otapress add` with the zips of the crDroid, Evolution X and PixelOS families on a fresh catalog:
// the version and list come from the name and the metadata, so the first add publishes them, in the
// format their phones read when the site has it.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { decodeCrDroid, decodePixelExperience } from '../helpers/format-clients.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The metadata of an Android 14 build for the Pixel 8a (akita). */
const AKITA_METADATA = FP4_METADATA.replace('Fairphone/FP4/FP4:14/', 'google/akita/akita:14/').replace(
  'pre-device=FP4',
  'pre-device=akita',
);

async function freshCatalog(name: string, channels?: string[], extra = '') {
  const root = path.join(tempProject(), 'my-ota');
  initCatalog(root, { version: VERSION, channels });
  appendFileSync(path.join(root, 'content/site.yaml'), extra);
  const zip = path.join(root, name);
  await writeOtaZip(zip, { metadata: AKITA_METADATA });
  return { root, zip };
}

describe('add: the name families of other ROMs, on the first run', { timeout: 60_000 }, () => {
  it.each([
    ['crDroidAndroid-14.0-20240315-akita-v10.3.zip', '10.3', 'stable', undefined],
    ['EvolutionX-14.0-20240315-akita-9.0-Official.zip', '9.0', 'official', undefined],
    ['PixelOS_akita-14.0-20240315-0820.zip', 'fourteen', 'weekly', ['weekly']],
  ])('%s publishes as version %s on channel %s', async (name, version, channel, channels) => {
    const { root, zip } = await freshCatalog(name, channels);
    const added = await runMain(['add', zip, '--root', root]);
    expect(added.code).toBe(0);
    // Where each fact came from: the version from the name, the list's channel from the name or the site.
    expect(added.err.find((l) => l.startsWith('  version '))).toMatch(
      new RegExp(`^  version +the file name +${version.replace('.', '\\.')}$`),
    );
    expect(added.err.find((l) => l.startsWith('  channel '))).toMatch(new RegExp(` ${channel}$`));
    const manifest = readFileSync(path.join(root, 'content/akita', name.replace(/\.zip$/, '.yaml')), 'utf8');
    expect(manifest).toContain(`version: "${version}"\nchannel: ${channel}\n`);
    expect(manifest).toContain('android_version: "14"');
    expect((await runMain(['build', '--root', root])).code).toBe(0);
  });

  it('publishes a crDroid zip in the crDroid format and a PixelOS zip in the PixelExperience one', async () => {
    const formats = 'formats:\n  crdroid:\n    lists: [stable]\n  pixelexperience:\n    lists: [stable]\n';
    const crdroid = await freshCatalog('crDroidAndroid-14.0-20240315-akita-v10.3.zip', undefined, formats);
    expect((await runMain(['add', crdroid.zip, '--root', crdroid.root])).code).toBe(0);
    expect((await runMain(['build', '--root', crdroid.root])).code).toBe(0);
    const decoded = decodeCrDroid(readFileSync(path.join(crdroid.root, 'dist/api/crdroid/akita.json'), 'utf8'))!;
    expect(decoded.updates).toMatchObject([
      {
        name: 'crDroidAndroid-14.0-20240315-akita-v10.3.zip',
        version: '10.3',
        timestamp: 1731067200,
        osSdkLevel: 34,
        osPatchLevel: '2024-11-05',
      },
    ]);
    const pixel = await freshCatalog('PixelOS_akita-14.0-20240315-0820.zip', undefined, formats);
    expect((await runMain(['add', pixel.zip, '--root', pixel.root])).code).toBe(0);
    expect((await runMain(['build', '--root', pixel.root])).code).toBe(0);
    expect(
      decodePixelExperience(readFileSync(path.join(pixel.root, 'dist/api/pixelexperience/akita.json'), 'utf8')),
    ).toMatchObject({ version: 'fourteen', name: 'PixelOS_akita-14.0-20240315-0820.zip', timestamp: 1731067200 });
  });

  it('asks for the one option it cannot tell, in one message', async () => {
    const { root, zip } = await freshCatalog('RisingOS-weekly-akita.zip');
    const added = await runMain(['add', zip, '--root', root]);
    expect(added.code).toBe(2);
    expect(added.err[0]).toMatch(
      /^cannot tell --version, --channel of RisingOS-weekly-akita\.zip: `RisingOS-weekly-akita\.zip` is in none of the name forms otapress reads/,
    );
  });
});
