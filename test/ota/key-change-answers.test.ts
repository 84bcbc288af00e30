// The builds of a list before a key change each get an answer of their own, the newest hundred:
// each answer is a file and, on Cloudflare and Netlify, a rule, and holds the builds between its
// build and the key change; the older ones are named in one notice.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initCatalog } from '../../src/commands/init.js';
import { readContent } from '../../src/catalog/read.js';
import { compileSite } from '../../src/pipeline/build.js';
import { ROOT } from '../helpers/helpers.js';

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OLD_KEY = 'a'.repeat(64);
const NEW_KEY = 'b'.repeat(64);

/** The manifest of the nightly build of day `day` (from 2024-01-01), signed with `key` and trusting it. */
function manifest(day: number, key: string): [string, string] {
  const date = new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10).replace(/-/g, '');
  const name = `lineage-22.1-${date}-nightly-akita-signed`;
  const timestamp = 1704067200 + day * 86400;
  const id = `f${(day + 1).toString(16).padStart(63, '0')}`;
  return [
    `${name}.yaml`,
    `filename: ${name}.zip\nversion: "22.1"\nchannel: nightly\ntimestamp: ${timestamp}\nincremental: "eng.build.${date}"\nid: ${id}\nsize: 1000\nsigner: ${key}\notacert: [${key}]\n`,
  ];
}

describe('answers before a key change', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'otapress-key-answers-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('answers the hundred newest builds before a key change, and names the older ones in a notice', () => {
    const root = path.join(base, 'my-ota');
    initCatalog(root, { version: VERSION, channels: ['nightly'] });
    mkdirSync(path.join(root, 'content', 'akita'));
    // 103 builds of the old key, then one of the new.
    for (let day = 0; day < 104; day++) {
      const [file, text] = manifest(day, day < 103 ? OLD_KEY : NEW_KEY);
      writeFileSync(path.join(root, 'content', 'akita', file), text);
    }
    const compiled = compileSite(readContent(root));
    expect(compiled.problems).toEqual([]);
    const answers = compiled.files
      .filter((f) => /^api\/v1\/akita\/nightly\/eng\.build\.\d{8}\.json$/.test(f.path))
      .map((f) => f.path);
    expect(answers).toHaveLength(100);
    // The newest build of the old key has an answer without the new key's build (nothing newer it can install); the oldest three have none.
    expect(
      JSON.parse(
        String(compiled.files.find((f) => f.path === 'api/v1/akita/nightly/eng.build.20240412.json')!.contents),
      ),
    ).toMatchObject({ response: [] });
    for (const date of ['20240101', '20240102', '20240103'])
      expect(answers).not.toContain(`api/v1/akita/nightly/eng.build.${date}.json`);
    const answer = JSON.parse(
      String(compiled.files.find((f) => f.path === 'api/v1/akita/nightly/eng.build.20240104.json')!.contents),
    ) as { response: { filename: string }[] };
    expect(answer.response).toHaveLength(99);
    expect(answer.response.map((r) => r.filename)).not.toContain('lineage-22.1-20240413-nightly-akita-signed.zip');
    expect(compiled.notices.map((n) => `${n.file}  ${n.field}  ${n.message}`)).toContain(
      'content/akita/lineage-22.1-20240103-nightly-akita-signed.yaml  otacert  3 builds of list nightly of akita (lineage-22.1-20240103-nightly-akita-signed.zip the newest) come before a key change and have no answer of their own: the 100 newer ones have, since each answer is a file and, on Cloudflare and Netlify, a rule; phones on these get the listing, with builds they cannot install; remove the manifests of builds no phone still runs',
    );
  });
});
