// A build card's title on the device page: the name its users know it by, with the ROM's name.
import { describe, expect, it } from 'vitest';
import { displayVersionOf } from '../../src/catalog/filename.js';
import { buildTitle } from '../../src/render/pages.js';

const titled = (filename: string, display_version = displayVersionOf(filename), placeholder = false) =>
  buildTitle({ filename, display_version, placeholder });

describe('a build card title', () => {
  it.each([
    ['lineage-21.0-20240315-nightly-akita-signed.zip', 'lineage-21.0-20240315-nightly-akita-signed'],
    ['e-2.5-a14-20241108446322-official-FP4.zip', 'e-2.5-a14-20241108446322-official-FP4'],
    ['e-2.4-a14-20241001430000-official-FP4.disabled.zip', 'e-2.4-a14-20241001430000-official-FP4'],
    ['crDroidAndroid-14.0-20240626-akita-v10.6.zip', 'crDroidAndroid-14.0-20240626-akita-v10.6'],
  ])('%s is titled %s', (filename, title) => {
    expect(titled(filename)).toBe(title);
  });

  it("keeps a display_version the manifest writes itself, and a placeholder's", () => {
    expect(titled('lineage-21.0-20240315-nightly-akita-signed.zip', 'LineageOS 21 (March)')).toBe(
      'LineageOS 21 (March)',
    );
    expect(titled('', '3.1-a16-official-FP4', true)).toBe('3.1-a16-official-FP4');
  });
});
