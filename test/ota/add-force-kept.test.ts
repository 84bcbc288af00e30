// `add --force` writes a manifest again from the zip and keeps what neither the zip's name nor its
// metadata tells: the channel of a name that states no release type (else the build would move to
// the site's first channel: another download address, another list's phones) and an Android
// version given to the first add.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const AKITA_METADATA = FP4_METADATA.replace('Fairphone/FP4/FP4:14/', 'google/akita/akita:14/').replace(
  'pre-device=FP4',
  'pre-device=akita',
);

async function catalogWith(name: string, metadata: string, channels: string[]) {
  const root = path.join(tempProject(), 'my-ota');
  initCatalog(root, { version: VERSION, channels });
  const zip = path.join(root, name);
  await writeOtaZip(zip, { metadata });
  writeFileSync(path.join(root, 'recovery.img'), 'recovery image');
  return { root, zip, manifest: path.join(root, 'content/akita', name.replace(/\.zip$/, '.yaml')) };
}

describe('add --force keeps what the zip cannot tell', { timeout: 60_000 }, () => {
  it('keeps the channel a name without a release type was published on', async () => {
    const { root, zip, manifest } = await catalogWith('crDroidAndroid-14.0-20240315-akita-v10.3.zip', AKITA_METADATA, [
      'nightly',
      'experimental',
    ]);
    expect((await runMain(['add', zip, '--root', root, '--channel', 'experimental'])).code).toBe(0);
    expect(readFileSync(manifest, 'utf8')).toContain('\nchannel: experimental\n');
    const forced = await runMain(['add', zip, '--root', root, '--force', '--file', path.join(root, 'recovery.img')]);
    expect(forced.code, forced.err.join('\n')).toBe(0);
    const text = readFileSync(manifest, 'utf8');
    expect(text).toContain('\nchannel: experimental\n');
    expect(text).toContain('recovery.img');
    expect(forced.err.find((l) => l.startsWith('  channel '))).toMatch(
      /^  channel +content\/akita\/crDroidAndroid-14\.0-20240315-akita-v10\.3\.yaml \(kept\) +experimental$/,
    );
  });

  it('keeps an Android version given to the first add', async () => {
    // Neither the metadata (no post-build, no post-sdk-level) nor a RisingOS name tells it.
    const metadata = AKITA_METADATA.split('\n')
      .filter((l) => !l.startsWith('post-build=') && !l.startsWith('post-sdk-level='))
      .join('\n');
    const { root, zip, manifest } = await catalogWith(
      'RisingOS_Revived-8.1.1-251201-0524-GAPPS-OFFICIAL-akita-ota.zip',
      metadata,
      ['official'],
    );
    expect((await runMain(['add', zip, '--root', root, '--android-version', '15'])).code).toBe(0);
    expect(readFileSync(manifest, 'utf8')).toContain('\nandroid_version: "15"\n');
    const forced = await runMain(['add', zip, '--root', root, '--force']);
    expect(forced.code, forced.err.join('\n')).toBe(0);
    expect(readFileSync(manifest, 'utf8')).toContain('\nandroid_version: "15"\n');
  });
});
