// add --file through the CLI: one download address is never claimed with two contents (the check
// itself is tested in memory: download-addresses.test.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-process.js';
import { tempProject } from '../helpers/helpers.js';
import { FP4_METADATA, writeOtaZip } from '../helpers/ota-zip.js';
import { existsSync, writeFileSync } from 'node:fs';

describe('add --file: one address, one file', { timeout: 60_000 }, () => {
  it("refuses a second build's recovery.img with other contents, after hashing, and writes nothing", async () => {
    const root = tempProject({ withContent: true });
    const dir = tempProject();
    const recovery = path.join(dir, 'recovery.img');
    writeFileSync(recovery, 'the recovery of 2.7');
    const first = path.join(dir, 'e-2.7-a14-20241108446999-official-FP4.zip');
    await writeOtaZip(first, { metadata: FP4_METADATA });
    expect((await runMain(['add', first, '--root', root, '--file', recovery])).code).toBe(0);
    writeFileSync(recovery, 'the recovery of 2.8');
    const second = path.join(dir, 'e-2.8-a14-20241208446999-official-FP4.zip');
    await writeOtaZip(second, {
      metadata: FP4_METADATA.replace('post-timestamp=1731067200', 'post-timestamp=1733659200'),
    });
    const { code, err } = await runMain(['add', second, '--root', root, '--file', recovery]);
    expect(code).toBe(1);
    expect(existsSync(path.join(root, 'content/FP4/e-2.8-a14-20241208446999-official-FP4.yaml'))).toBe(false);
    expect(err[0]).toMatch(
      /^--file  files  https:\/\/images\.example\.org\/builds\/full\/official\/FP4\/recovery\.img is also the address of the file recovery\.img of content\/FP4\/e-2\.7-a14-20241108446999-official-FP4\.yaml, with another SHA-256 or size; /,
    );
  });
});
