/**
 * The public AOSP test keys, and the manifest's rule against them: a build signed with one, or
 * trusting one, installs updates signed by anyone. Pure.
 */

/**
 * The certificates AOSP publishes with their private keys, for test builds: a build signed with
 * one, or trusting one, installs updates signed by anyone. SHA-256 of each certificate's DER, from
 * aosp-mirror/platform_build at 045a3d6a3e359633a14853a5a5e1e4f2a11cbdae,
 * `target/product/security/<name>.x509.pem` (`openssl x509 -outform DER | sha256sum`).
 */
export const AOSP_TEST_KEYS: Readonly<Record<string, string>> = {
  a40da80a59d170caa950cf15c18c454d47a39b26989d8b640ecd745ba71bf5dc: 'testkey',
  c8a2e9bccf597c2fb6dc66bee293fc13f2fc47ec77bc6b2b0d52c11f51192ab8: 'platform',
  '28bbfe4a7b97e74681dc55c2fbb6ccb8d6c74963733f6af6ae74d8c3a6e879fd': 'shared',
  '465983f7791f2abeb43ea2cbdc7f21a8260b72bc08a55c839fc1a43bc741a81e': 'media',
  e1dbadce60dc080d15b58a014b0dcf9400e24de23fa00b287a5a982bfebda2ee: 'networkstack',
  a6ccc500ff0e7421200eb66a7fe174ef1b00e52ca91727070cbedf061ff76c35: 'bluetooth',
  fae9122a8721d6e2a196d2224dffcf773c9127e2bb956cbddb40b009192ffdfd: 'nfc',
  abf21f9e2af1d881cc673fddcefa6ed9c269a437bd64b279cf45844cfd589126: 'sdk_sandbox',
  ce7b2b47ae2b7552c8f92cc29124279883041fb623a5f194a82c9bf15d492aa0: 'cts_uicc_2021',
};

/** The AOSP test key a fingerprint is, as `build/make/target/product/security/testkey`, or undefined. */
export function testKeyName(fingerprint: string): string | undefined {
  const name = Object.hasOwn(AOSP_TEST_KEYS, fingerprint) ? AOSP_TEST_KEYS[fingerprint] : undefined;
  return name && `the public AOSP test key \`${name}\` (build/make/target/product/security/${name}.x509.pem)`;
}

/** `ab:cd:...` in capitals, as `keytool` and `apksigner` print a certificate's SHA-256. */
export function colonFingerprint(fingerprint: string): string {
  return fingerprint.toUpperCase().replace(/(..)(?!$)/g, '$1:');
}

/** Problems of a manifest that records a test key, unless it says `test_build: true`. */
export function testKeyProblems(fields: { signer?: string; otacert?: string[]; test_build?: boolean }): { field: string; message: string }[] {
  if (fields.test_build === true) return [];
  const problems: { field: string; message: string }[] = [];
  const signerKey = fields.signer === undefined ? undefined : testKeyName(fields.signer);
  if (signerKey) problems.push({ field: 'signer', message: `the build is signed with ${signerKey}, whose private key anyone has; sign it with your release keys, or add \`test_build: true\` if it is a test build` });
  (fields.otacert ?? []).forEach((fingerprint, i) => {
    const key = testKeyName(fingerprint);
    if (key) problems.push({ field: `otacert.${i}`, message: `the build trusts ${key} for its next update, so it installs updates signed by anyone; build it with your release keys, or add \`test_build: true\` if it is a test build` });
  });
  return problems;
}
