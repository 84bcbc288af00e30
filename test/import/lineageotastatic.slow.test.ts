import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { respond, servedTree } from '../../src/hosts/respond.js';
import { runMain } from '../helpers/cli-process.js';
import { ROOT, tempProject } from '../helpers/helpers.js';

// Real data: the four LineageOS v1 listings of the public repository ADeadTrousers/LineageOTAstatic
// (see test/fixtures/lineageotastatic/README.md), migrated with `otapress import` and built again.

const SOURCE = path.join(ROOT, 'test/fixtures/lineageotastatic/api/v1');
const DEVICES = ['Atom_L_EEA', 'Atom_L_TEE', 'Atom_XL_EEA', 'Atom_XL_TEE'];
const LIST = 'unofficial';
const SITE = `download_base_url: https://github.com/ADeadTrousers
channels: [${LIST}]
lists:
  ${LIST}: [${LIST}]
`;

/** The fields of the /e/ v1 record a LineageOS listing lacks: the only ones the round trip may add. */
const ADDED_BY_E = ['pre_version', 'display_version', 'android_version', 'is_upgrade_supported'];

/**
 * The request paths that must answer each device's listing. Phones of the field ask the legacy
 * `/api/v1/{device}_{type}` of LineageOTAstatic: add it here once site.yaml can declare it.
 */
const requestPaths = (device: string) => [
  `/api/v1/${device}/${LIST}/`,
  `/api/v1/${device}/${LIST}/eng.matthi.20241109.174643`,
  `/api/v1/${device}/${LIST}?format=api`,
];

const source = (device: string) => readFileSync(path.join(SOURCE, `${device}_${LIST}`), 'utf8');

/** A project with the site settings LineageOTAstatic needs, every listing imported into it. */
async function importAll() {
  const root = tempProject();
  mkdirSync(path.join(root, 'content'));
  writeFileSync(path.join(root, 'content/site.yaml'), SITE);
  const runs = [];
  for (const device of DEVICES)
    runs.push(
      await runMain([
        'import',
        path.join(SOURCE, `${device}_${LIST}`),
        '--device',
        device,
        '--list',
        LIST,
        '--root',
        root,
        '--verbose',
      ]),
    );
  return { root, runs };
}

describe('the LineageOTAstatic listings', () => {
  it('import with no hand edits, each filled-in field reported once per listing', async () => {
    const { runs } = await importAll();
    runs.forEach(({ code, out, err }, i) => {
      const file = path.join(SOURCE, `${DEVICES[i]}_${LIST}`);
      expect(code).toBe(0);
      expect(out.filter((l) => !l.startsWith(`created content/${DEVICES[i]}/lineage-`))).toEqual([
        `imported 30 of 30 records into ${DEVICES[i]}/${LIST}: 30 manifests written`,
      ]);
      expect(err).toEqual([
        `${file}:3:9  android_version  all 30 records lack \`android_version\`, which only the /e/ updater reads: derived from api_level by the pairing of the v1 interface (README, The v1 interface) (29 → 10, 30 → 11, 32 → 12)`,
        `${file}:3:9  display_version  all 30 records lack \`display_version\`, which only the /e/ updater reads: derived from the file name, as the build does`,
        `${file}:3:9  is_upgrade_supported  all 30 records lack \`is_upgrade_supported\`, which only the /e/ updater reads: published as false`,
        `${file}:3:9  pre_version  all 30 records lack \`pre_version\`, which only the /e/ updater reads: published as ""`,
        '4 notes above: the build publishes these values as they say',
      ]);
    });
  });

  it('build back into every source record, field for field, plus only the fields the /e/ interface adds', async () => {
    const { root } = await importAll();
    expect((await runMain(['build', '--root', root])).code).toBe(0);
    const compiled = compileSite(readContent(root));
    const tree = servedTree(compiled.site!, compiled.files);
    let records = 0;
    for (const device of DEVICES) {
      const expected = JSON.parse(source(device)).response as Record<string, unknown>[];
      const written = readFileSync(path.join(root, 'dist/api/v1', device, LIST, 'index.json'), 'utf8');
      for (const request of requestPaths(device)) {
        const answer = respond(tree, 'GET', request);
        expect({ request, status: answer.status, body: String(answer.body) }).toEqual({
          request,
          status: 200,
          body: written,
        });
      }
      const built = JSON.parse(written).response as Record<string, unknown>[];
      // Same builds in the same order (newest first, as the source has them).
      expect(built.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      built.forEach((record, i) => {
        const { pre_version, display_version, android_version, is_upgrade_supported, ...rest } = record;
        expect(rest).toStrictEqual(expected[i]);
        expect(Object.keys(record).filter((k) => !(k in expected[i]))).toEqual(ADDED_BY_E);
        expect({ pre_version, display_version, android_version, is_upgrade_supported }).toEqual({
          pre_version: '',
          display_version: String(expected[i].filename).replace(/^lineage-(.*)\.zip$/, '$1'),
          android_version: { '29': '10', '30': '11', '32': '12' }[String(expected[i].api_level)],
          is_upgrade_supported: false,
        });
        records++;
      });
    }
    expect(records).toBe(120);
  });

  it('import again unchanged: a second import of the same listings writes nothing', async () => {
    const { root } = await importAll();
    for (const device of DEVICES) {
      const { code, out } = await runMain([
        'import',
        path.join(SOURCE, `${device}_${LIST}`),
        '--device',
        device,
        '--list',
        LIST,
        '--root',
        root,
      ]);
      expect({ code, out }).toEqual({
        code: 0,
        out: [`imported 30 of 30 records into ${device}/${LIST}: 0 manifests written`],
      });
    }
  });
});
