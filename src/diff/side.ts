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

/** Compiles `content` as `check` does, keeping the devices: pure. */
export function compileSide(content: Content): CompiledSide {
  const { site, problems } = compileSettings(content);
  if (!site) return { devices: [], problems, notices: [] };
  const devices = groupByDevice(content).map(({ device, manifests }) => compileDevice(device, manifests, site));
  const assembled = assembleSite(content, site, devices, hostOf(site, 'all'), problems);
  return {
    site,
    devices,
    problems: assembled.problems,
    notices: assembled.problems.length > 0 ? [] : assembled.notices,
  };
}
