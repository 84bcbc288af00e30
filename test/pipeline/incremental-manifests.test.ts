// Manifests of incremental packages, validated like full ones and against the device's full
// packages: every problem with its file:line:col, the field and what to do.
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { compileDevice } from '../../src/pipeline/compile-device.js';

const { site } = parseSite('download_base_url: https://dl.example.org/builds\nchannels: [nightly]\n');

const full = (date: string, timestamp: number) => `filename: lineage-22.1-${date}-nightly-akita-signed.zip
version: "22.1"
channel: nightly
timestamp: ${timestamp}
android_version: "15"
incremental: "eng.build.${date}"
id: "${date.repeat(8)}"
size: 3000000
`;
const FULL = {
  'lineage-22.1-20250110-nightly-akita-signed.yaml': full('20250110', 1736500000),
  'lineage-22.1-20250117-nightly-akita-signed.yaml': full('20250117', 1737100000),
};
const NAME = 'lineage-22.1-20250117-nightly-akita-signed-incremental-20250110';
const incremental = (changes: Record<string, string | null> = {}) => {
  const fields: Record<string, string> = {
    filename: `${NAME}.zip`,
    version: '"22.1"',
    channel: 'nightly',
    timestamp: '1737100000',
    android_version: '"15"',
    incremental: '"eng.build.20250117"',
    source_incremental: '"eng.build.20250110"',
    source_build: 'google/akita/akita:15/BP1A.250105.002/eng.build.20250110:user/release-keys',
    id: 'ab'.repeat(32),
    size: '70000000',
  };
  for (const [key, value] of Object.entries(changes))
    if (value === null) delete fields[key];
    else fields[key] = value;
  return (
    Object.entries(fields)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n') + '\n'
  );
};

function problemsOf(manifests: Record<string, string>): string[] {
  const files = Object.entries(manifests).map(([name, text]) => ({
    file: `content/akita/${name}`,
    device: 'akita',
    bytes: Buffer.from(text),
  }));
  return compileDevice('akita', files, site!).problems.map(formatProblem);
}

describe('an incremental package manifest', () => {
  it('is valid beside the full package of the build it installs', () => {
    expect(problemsOf({ ...FULL, [`${NAME}.yaml`]: incremental() })).toEqual([]);
  });

  it.each([
    {
      what: 'installs a build the device publishes no full package of',
      manifests: {
        'lineage-22.1-20250110-nightly-akita-signed.yaml': FULL['lineage-22.1-20250110-nightly-akita-signed.yaml'],
        [`${NAME}.yaml`]: incremental(),
      },
      expected: [
        `content/akita/${NAME}.yaml:6:14  incremental  no full package of akita has incremental eng.build.20250117, the build this incremental package installs: phones are offered it in place of that build's full package; add the full package's manifest first (otapress add <its zip>)`,
      ],
    },
    {
      what: 'was built at another time than the full package of that name',
      manifests: { ...FULL, [`${NAME}.yaml`]: incremental({ timestamp: '1737100001' }) },
      expected: [
        `content/akita/${NAME}.yaml:6:14  incremental  the full package of akita with incremental eng.build.20250117 (content/akita/lineage-22.1-20250117-nightly-akita-signed.yaml) was built at 1737100000, this package at 1737100001: it was made for another build of the same name; check post-timestamp in both zips`,
      ],
    },
    {
      what: 'applies on the build it makes',
      manifests: { ...FULL, [`${NAME}.yaml`]: incremental({ source_incremental: '"eng.build.20250117"' }) },
      expected: [
        `content/akita/${NAME}.yaml:7:21  source_incremental  the package would apply on the build it makes (both are eng.build.20250117); \`incremental\` is the build it installs (post-build-incremental), \`source_incremental\` the one it applies on (pre-build-incremental)`,
      ],
    },
    {
      what: 'names a source that cannot be its answer file',
      manifests: { ...FULL, [`${NAME}.yaml`]: incremental({ source_incremental: 'index' }) },
      expected: [
        `content/akita/${NAME}.yaml:7:21  source_incremental  expected letters, digits, \`.\`, \`-\` and \`_\` only (at most 128, not \`index\`), as pre-build-incremental of the package metadata, e.g. eng.build.20250110`,
      ],
    },
    {
      what: 'has a source fingerprint but no source incremental',
      manifests: { ...FULL, [`${NAME}.yaml`]: incremental({ source_incremental: null }) },
      expected: [
        `content/akita/${NAME}.yaml:7:1  source_build  only an incremental package names the build it applies on; add \`source_incremental\` (pre-build-incremental of its metadata), or remove \`source_build\``,
      ],
    },
    {
      what: 'is a second package from the same source to the same target',
      manifests: {
        ...FULL,
        [`${NAME}.yaml`]: incremental(),
        [`${NAME}-again.yaml`]: incremental({ filename: `${NAME}-again.zip`, id: 'cd'.repeat(32) }),
      },
      expected: [
        `content/akita/${NAME}.yaml:7:21  source_incremental  content/akita/${NAME}-again.yaml is already the incremental package from eng.build.20250110 to lineage-22.1-20250117-nightly-akita-signed.zip; phones on that build can be offered one: remove one of the two manifests`,
      ],
    },
    {
      what: 'has ota_property_files past its size',
      manifests: {
        ...FULL,
        [`${NAME}.yaml`]: incremental({ size: '1000', ota_property_files: 'payload.bin:679:2048' }),
      },
      expected: [expect.stringMatching(new RegExp(`^content/akita/${NAME}\\.yaml:11:\\d+  ota_property_files  `))],
    },
  ])('is refused when it $what', ({ manifests, expected }) => {
    expect(problemsOf(manifests)).toEqual(expected);
  });
});

describe("a manifest's signer", () => {
  const TESTKEY = 'a40da80a59d170caa950cf15c18c454d47a39b26989d8b640ecd745ba71bf5dc';
  const PLATFORM = 'c8a2e9bccf597c2fb6dc66bee293fc13f2fc47ec77bc6b2b0d52c11f51192ab8';
  const withSigning = (lines: string) => ({
    ...FULL,
    'lineage-22.1-20250110-nightly-akita-signed.yaml': `${FULL['lineage-22.1-20250110-nightly-akita-signed.yaml']}${lines}`,
  });

  it('is refused when it is a public AOSP test key, or the build trusts one, unless the manifest says test_build: true', () => {
    expect(problemsOf(withSigning(`signer: ${TESTKEY}\notacert: [${'ab'.repeat(32)}, ${PLATFORM}]\n`))).toEqual([
      'content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml:9:9  signer  the build is signed with the public AOSP test key `testkey` (build/make/target/product/security/testkey.x509.pem), whose private key anyone has; sign it with your release keys, or add `test_build: true` if it is a test build',
      'content/akita/lineage-22.1-20250110-nightly-akita-signed.yaml:10:77  otacert.1  the build trusts the public AOSP test key `platform` (build/make/target/product/security/platform.x509.pem) for its next update, so it installs updates signed by anyone; build it with your release keys, or add `test_build: true` if it is a test build',
    ]);
    expect(problemsOf(withSigning(`signer: ${TESTKEY}\notacert: [${PLATFORM}]\ntest_build: true\n`))).toEqual([]);
  });
});
