/**
 * Who signed a build, and whom it trusts for the next one: the manifest's `signer` (SHA-256 of the
 * public key of the certificate in the zip's whole-file signature) and `otacert` (SHA-256 of the
 * public key of each certificate in `META-INF/com/android/otacert`), and the rules built on them. Pure.
 */
import type { Build } from './manifest.js';
import { compareStrings, type Problem } from './problems.js';
import { colonFingerprint } from './test-keys.js';

/** A build whose signer the build before it in one of its lists (by build time) does not trust: phones on that build cannot install it over the air. */
export interface KeyChange {
  build: Build;
  previous: Build;
}

/**
 * The key changes among a device's full packages, judged list by list, as phones move along their
 * own list: consecutive builds of a list by build time where the earlier one records its `otacert`
 * and the later one's `signer` is not among it. A dev build of another key between two stable
 * builds is no key change of the stable list, and a stable key change behind a dev build is one.
 * Builds that record neither are not compared (nothing tells). One change per build: the first
 * list (in the build's order) that shows it.
 */
export function keyChanges(builds: readonly Build[]): KeyChange[] {
  const signed = builds.filter(
    (b) => !b.placeholder && b.appliesOn === undefined && (b.signer !== undefined || b.otacert !== undefined),
  );
  const ordered = [...signed].sort((a, b) => a.timestamp - b.timestamp || compareStrings(a.source, b.source));
  const changes = new Map<Build, KeyChange>();
  const lists = [...new Set(ordered.flatMap((b) => b.lists))];
  for (const list of lists) {
    const inList = ordered.filter((b) => b.lists.includes(list));
    for (let i = 1; i < inList.length; i++) {
      const [previous, build] = [inList[i - 1], inList[i]];
      if (!changes.has(build) && previous.otacert && build.signer && !previous.otacert.includes(build.signer))
        changes.set(build, { build, previous });
    }
  }
  return ordered.flatMap((b) => changes.get(b) ?? []);
}

/** Whether phones on `installed` can install `offered` over the air: its signer is in `installed`'s otacert (or either does not say). */
export function installableOver(
  offered: Pick<Build, 'signer'>,
  installed: Pick<Build, 'otacert'> | undefined,
): boolean {
  return installed?.otacert === undefined || offered.signer === undefined || installed.otacert.includes(offered.signer);
}

/** The notices of a device's key changes: at the later build's `signer`. */
export function keyChangeNotices(changes: readonly KeyChange[]): Problem[] {
  return changes.map(({ build, previous }) => ({
    file: build.source,
    ...build.at.file,
    field: 'signer',
    message: `signed with another key (${colonFingerprint(build.signer!).slice(0, 23)}…) than ${previous.filename} trusts (its otacert): phones on that build cannot install ${build.filename} over the air; its page says a clean install is required`,
  }));
}
