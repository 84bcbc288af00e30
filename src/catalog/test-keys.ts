/**
 * The public AOSP test keys, and the manifest's rule against them: a build signed with one, or
 * trusting one, installs updates signed by anyone. Pure.
 */

/**
 * The public keys AOSP publishes with their private keys, for test builds: SHA-256 of each
 * certificate's SubjectPublicKeyInfo (DER), what `add` records as `signer` and `otacert`. Recovery
 * and update_engine trust a key, whatever certificate is made around it, so a new certificate of
 * one of these keys is recognised all the same. From aosp-mirror/platform_build,
 * `target/product/security/<name>.x509.pem` (`openssl x509 -pubkey -noout | openssl pkey -pubin
 * -outform DER | sha256sum`), each certificate checked against {@link AOSP_TEST_CERTIFICATES}.
 */
const AOSP_TEST_KEYS: Readonly<Record<string, string>> = {
  ef57b690165cb561b5026922c00d2d6574e8b184fa7d161e076f06e06e6d35db: 'testkey',
  '7bfcc5541e9f18e3738b1d5fa0b8524d44bac99424cfdcc6594d9386d4daaf15': 'networkstack',
  de5b1ddc59331bbdeee26d6467dd4f9fc09719098ba7dcb6a973045781a0e36c: 'bluetooth',
  '9318ca97d2c148ca94639603b68d0928068158113d23a1cfca30acc4df2cac37': 'nfc',
  d2e67bf7c0aaa67f3a4f7dc35dd2d45aa111a91e06a2cc517eaf9c249de31454: 'sdk_sandbox',
  '4d850245247af73aaf72fe598c7c7ef73f618391d771763299d5f5139ca43f2c': 'cts_uicc_2021',
};

/**
 * The same files' certificates, SHA-256 of each one's DER, from aosp-mirror/platform_build at
 * 045a3d6a3e359633a14853a5a5e1e4f2a11cbdae (`openssl x509 -outform DER | sha256sum`): `add` looks
 * a zip's certificates up here too (`platform`, `shared` and `media` are known by certificate
 * only), and manifests written when `signer` and `otacert` were certificate fingerprints still
 * name their test keys.
 */
const AOSP_TEST_CERTIFICATES: Readonly<Record<string, string>> = {
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

/**
 * The AOSP test key a fingerprint is (of its public key, or of one of its certificates), as
 * `build/make/target/product/security/testkey`, or undefined.
 */
export function testKeyName(fingerprint: string): string | undefined {
  const name = Object.hasOwn(AOSP_TEST_KEYS, fingerprint)
    ? AOSP_TEST_KEYS[fingerprint]
    : Object.hasOwn(AOSP_TEST_CERTIFICATES, fingerprint)
      ? AOSP_TEST_CERTIFICATES[fingerprint]
      : undefined;
  return name && `the public AOSP test key \`${name}\` (build/make/target/product/security/${name}.x509.pem)`;
}

/** `ab:cd:...` in capitals, as `keytool` and `apksigner` print a certificate's SHA-256. */
export function colonFingerprint(fingerprint: string): string {
  return fingerprint.toUpperCase().replace(/(..)(?!$)/g, '$1:');
}

/** Problems of a manifest that records a test key, unless it says `test_build: true`. */
export function testKeyProblems(fields: {
  signer?: string;
  otacert?: string[];
  test_build?: boolean;
}): { field: string; message: string }[] {
  if (fields.test_build === true) return [];
  const problems: { field: string; message: string }[] = [];
  const signerKey = fields.signer === undefined ? undefined : testKeyName(fields.signer);
  if (signerKey)
    problems.push({
      field: 'signer',
      message: `the build is signed with ${signerKey}, whose private key anyone has; sign it with your release keys, or add \`test_build: true\` if it is a test build`,
    });
  (fields.otacert ?? []).forEach((fingerprint, i) => {
    const key = testKeyName(fingerprint);
    if (key)
      problems.push({
        field: `otacert.${i}`,
        message: `the build trusts ${key} for its next update, so it installs updates signed by anyone; build it with your release keys, or add \`test_build: true\` if it is a test build`,
      });
  });
  return problems;
}
