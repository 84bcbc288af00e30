/**
 * One side of a diff: a revision's content compiled in memory, device by device, as the build
 * compiles it (pipeline/build.ts), keeping each device's builds beside its files.
 */
import type { Content } from '../catalog/read.js';
import type { Problem } from '../catalog/problems.js';
import type { Site } from '../catalog/site.js';
import { assembleSite, hostOf } from '../pipeline/build.js';
import { compileDevice, compileSettings, groupByDevice, type CompiledDevice } from '../pipeline/compile-device.js';

/** A catalog compiled without a disk: its devices (those with problems have no files), and what check would say. */
export interface CompiledSide {
  site?: Site;
  devices: CompiledDevice[];
  /** Every problem `check` reports for this content, sorted. */
  problems: Problem[];
  /** Every notice the build prints (none when there are problems). */
  notices: Problem[];
}

/**
 * Compiles `content` as `check` does, keeping the devices: pure. With `other`, another content and
 * its compiled side, a device whose manifests are byte for byte those of `other`, under the same
 * site.yaml, is not compiled again but is `other`'s very object: a device's output depends on its
 * manifests and the site settings alone (pipeline/compile-device.ts), and a pull request changes a
 * few devices of many.
 */
export function compileSide(content: Content, other?: { content: Content; side: CompiledSide }): CompiledSide {
  const { site, problems } = compileSettings(content);
  if (!site) return { devices: [], problems, notices: [] };
  const same = other ? unchangedDevices(content, other) : new Map<string, CompiledDevice>();
  const devices = groupByDevice(content).map(
    ({ device, manifests }) => same.get(device) ?? compileDevice(device, manifests, site),
  );
  const assembled = assembleSite(content, site, devices, hostOf(site, 'all'), problems);
  return {
    site,
    devices,
    problems: assembled.problems,
    notices: assembled.problems.length > 0 ? [] : assembled.notices,
  };
}

// --- internal ---

/** The devices of `other` whose manifests `content` has unchanged, under the same site.yaml. */
function unchangedDevices(
  content: Content,
  other: { content: Content; side: CompiledSide },
): Map<string, CompiledDevice> {
  const same = new Map<string, CompiledDevice>();
  if (!equalBytes(content.site, other.content.site)) return same;
  const theirs = new Map(groupByDevice(other.content).map((g) => [g.device, g.manifests]));
  const compiledDevices = new Map(other.side.devices.map((d) => [d.device, d]));
  for (const { device, manifests } of groupByDevice(content)) {
    const them = theirs.get(device);
    const compiled = compiledDevices.get(device);
    if (
      compiled !== undefined &&
      them !== undefined &&
      them.length === manifests.length &&
      them.every((m, i) => m.file === manifests[i].file && equalBytes(m.bytes, manifests[i].bytes))
    )
      same.set(device, compiled);
  }
  return same;
}

function equalBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a !== undefined && b !== undefined && Buffer.compare(a, b) === 0;
}
