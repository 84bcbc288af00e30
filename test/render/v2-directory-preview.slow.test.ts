// device.yaml in the preview, which reads content/ again after each change (the build's part is
// tested in memory: v2-directory.test.ts).
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { fullRebuild, changedDevicesRebuild, type RebuildResult } from '../../src/pipeline/rebuild.js';
import { tempProject } from '../helpers/helpers.js';

describe('device.yaml in the preview', () => {
  it('is picked up by the preview when it is added, changed or removed, as a full rebuild would', () => {
    const root = tempProject({ withContent: true });
    const rebuild = changedDevicesRebuild(root);
    const served = (result: RebuildResult) => {
      expect(result.problems.map(formatProblem)).toEqual([]);
      return Object.fromEntries(
        [...result.tree!.files].map(([p, contents]) => [p, Buffer.from(contents).toString('utf8')]),
      );
    };
    rebuild([]);
    const fp3 = path.join(root, 'content', 'FP3', 'device.yaml');
    writeFileSync(fp3, 'name: Fairphone 3\noem: Fairphone\n');
    const added = served(rebuild(['content/FP3/device.yaml']));
    expect(added).toEqual(served(fullRebuild(root)([])));
    expect(JSON.parse(added['/api/v2/oems.json'])[0]).toEqual({
      name: 'Fairphone',
      devices: [
        { model: 'FP3', name: 'Fairphone 3' },
        { model: 'FP4', name: 'Fairphone 4' },
      ],
    });
    rmSync(fp3);
    const removed = served(rebuild(['content/FP3/device.yaml']));
    expect(removed).toEqual(served(fullRebuild(root)([])));
    expect(JSON.parse(removed['/api/v2/devices/FP3/index.json']).oem).toBe('Unknown vendor');
  });
});
