import { assembleSite, cacheDirOf, compileDevice, compileSettings, groupByDevice, type DeviceOutput } from './build.js';
import { compileDevices } from './compile-devices.js';
import { DEVICE_NAME } from './plan.js';
import { compareStrings } from './problems.js';
import { readContent, type Content } from './read.js';
import { servedTree } from './respond.js';
import type { Rebuild, RebuildResult } from './serve.js';
import type { Site } from './site.js';

/**
 * The preview's rebuild: after a change inside device folders, re-reads and re-renders those
 * devices only, and reuses every other device's rendered listings, so a change in a catalog of
 * 100,000 manifests is served in milliseconds. Anything else (the first build, `site.yaml`, a file
 * directly in `content/`) compiles everything. The tree is always the one {@link compileSite}
 * would render from the same files.
 */
export function incrementalRebuild(root: string): Rebuild {
  let content: Content | undefined;
  let outputs = new Map<string, DeviceOutput>();

  const assemble = (site: Site, problems: RebuildResult['problems']): RebuildResult => {
    const devices = content!.devices.flatMap((d) => outputs.get(d) ?? []);
    const assembled = assembleSite(content!, site, devices, 'all', problems);
    if (assembled.problems.length > 0) return { problems: assembled.problems };
    return { tree: servedTree(site, assembled.files), problems: [] };
  };

  const full = (): RebuildResult => {
    content = readContent(root);
    const { site, problems } = compileSettings(content);
    if (!site) {
      content = undefined; // Nothing to build on: the next change compiles everything again.
      return { problems };
    }
    const compiled = compileDevices(groupByDevice(content), content.site!, site, { cacheDir: cacheDirOf(root) });
    outputs = new Map(compiled.map((o) => [o.device, o]));
    return assemble(site, problems);
  };

  return (changed) => {
    const devices = content ? changedDevices(changed) : undefined;
    if (!content || !devices) return full();
    const partial = readContent(root, { devices });
    const mine = (file: string) => devices.some((d) => file === `content/${d}` || file.startsWith(`content/${d}/`));
    content = {
      site: content.site,
      manifests: [...content.manifests.filter((m) => !devices.includes(m.device)), ...partial.manifests].sort((a, b) => compareStrings(a.file, b.file)),
      devices: [...content.devices.filter((d) => !devices.includes(d)), ...partial.devices].sort(compareStrings),
      problems: [...content.problems.filter((p) => !mine(p.file)), ...partial.problems],
    };
    const { site, problems } = compileSettings(content);
    for (const device of devices) outputs.delete(device);
    for (const { device, manifests } of groupByDevice(partial)) {
      const { problems: found, files, counts } = compileDevice(device, manifests, site!);
      outputs.set(device, { device, problems: found, files, counts });
    }
    return assemble(site!, problems);
  };
}

// --- internal ---

/** The device folders that `changed` touches, or `undefined` when the change reaches beyond them. */
function changedDevices(changed: readonly string[]): string[] | undefined {
  if (changed.length === 0) return undefined;
  const devices = new Set<string>();
  for (const file of changed) {
    const parts = file.split('/');
    // content/<device> itself (a folder created, renamed or removed) or a file inside it.
    if (parts[0] !== 'content' || parts.length < 2 || parts[1] === 'site.yaml' || !DEVICE_NAME.test(parts[1])) return undefined;
    if (parts.length === 2 && /\.ya?ml$/i.test(parts[1])) return undefined; // A stray manifest beside site.yaml.
    devices.add(parts[1]);
  }
  return [...devices].sort(compareStrings);
}
