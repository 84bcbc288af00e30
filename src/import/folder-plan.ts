/**
 * Plans `otapress import <folder>`: an OTA repository's files in (read by import-folder.ts), the
 * catalog's files to write out. Each file is classified (folder-classify.ts); each dialect's
 * listings get one list and one `formats` entry with the path the repository uses; site.yaml gets
 * what it lacks (folder-site.ts); every listing then goes through the one-file import's planning
 * (planImport), the manifests of earlier files of the device merged into; changelogs go to the
 * newest build they sit beside. Pure.
 */
import { namesList, readFormats } from '../catalog/formats.js';
import { compareStrings, sortProblems, type Problem } from '../catalog/problems.js';
import type { ManifestFile } from '../catalog/read.js';
import type { Site } from '../catalog/site.js';
import {
  classifyFile,
  isVariantFolder,
  type ChangelogFile,
  type ListingFile,
  type RepositoryFile,
} from './folder-classify.js';
import { attachChangelog, type ChangelogOutcome } from './folder-changelog.js';
import { editSite, type FormatEntry } from './folder-site.js';
import { deviceFileOf, type DeviceField } from './device-file.js';
import { summarizeNotes } from './note-summary.js';
import { planImport, type ManifestWrite } from './plan-import.js';

/** A repository's files and the catalog it is imported into. */
export interface FolderInput {
  /** How messages name the repository folder (as given on the command line). */
  folder: string;
  /** Every file of the folder, path (forward slashes, relative) and bytes, sorted by path. */
  files: { path: string; bytes: Uint8Array }[];
  site: Site;
  siteText: string;
  /** The catalog's manifests. */
  existing: ManifestFile[];
  /** Devices whose content/<device>/device.yaml exists. */
  deviceFiles: ReadonlySet<string>;
}

/** One dialect of the repository as the catalog publishes it. */
export interface DialectPlan {
  entry: FormatEntry;
  files: number;
  /** The lists site.yaml gains for it. */
  newLists: string[];
}

/** What the import will do, or why it cannot. */
export interface FolderPlan {
  devices: string[];
  dialects: DialectPlan[];
  /** Files to write (manifests, device.yaml, then content/site.yaml), none when there are problems. */
  writes: ManifestWrite[];
  /** Every note, and one per kind (what is shown without --verbose). */
  notes: Problem[];
  summary: Problem[];
  problems: Problem[];
  /** Files named once and left alone, by reason. */
  leftAlone: { why: string; paths: string[] }[];
  /** What the import leaves out of the catalog, and why: one line each. */
  leftOut: string[];
}

/** Plans the import of a repository: see the file's comment. */
export function planFolder(input: FolderInput): FolderPlan {
  const classified = input.files.map((f) => classify(f.path, f.bytes));
  const listings = classified.filter((f): f is ListingFile => f.kind === 'listing');
  const changelogs = classified.filter((f): f is ChangelogFile => f.kind === 'changelog');
  const leftOut: string[] = [];
  const problems: Problem[] = [];
  const changelogTemplates: string[] = [];
  const dialects = planDialects(listings, classified, changelogs, input.site, leftOut, changelogTemplates);
  const imported = withoutCaseTwins(
    dialects.flatMap((d) => d.listings),
    leftOut,
  );
  const newLists = [...new Set(dialects.flatMap((d) => d.plan.newLists))];
  const edited = editSite(
    input.siteText,
    input.site,
    newLists,
    dialects.map((d) => d.plan.entry),
  );
  const deviceLists = dialects.flatMap((d) => d.plan.entry.deviceInfo ?? []);
  const leftAlone = groupLeftAlone(classified, imported, changelogs, changelogTemplates, deviceLists);
  const result = (writes: ManifestWrite[], notes: Problem[], summary: Problem[]): FolderPlan => ({
    devices: [...new Set(imported.map((l) => l.file.device))].sort(compareStrings),
    dialects: dialects.map((d) => d.plan),
    writes: problems.length > 0 ? [] : writes,
    notes,
    summary,
    problems: sortProblems(problems),
    leftAlone,
    leftOut,
  });
  if ('problem' in edited) {
    problems.push({ file: 'content/site.yaml', line: 1, col: 1, field: 'formats', message: edited.problem });
    return result([], [], []);
  }
  const written = importListings(imported, input, edited.site, problems);
  const devices = new Set(imported.map((l) => l.file.device));
  if (written.deviceLeftOut.size > 0) {
    const fields = [...written.deviceLeftOut].map(([field, n]) => `${field} in ${n} file${n === 1 ? '' : 's'}`);
    leftOut.push(`device fields of the records: ${fields.join('; ')}`);
  }
  addDeviceLists(classified, devices, written, leftOut);
  const outcomes = changelogs
    .filter((c) => devices.has(c.device) && changelogTemplates.includes(c.template))
    .map((c) => attachChangelog(c, textOf(input.files, c.path), written.writes, edited.site));
  reportChangelogs(outcomes, leftOut, written.notes, input.folder);
  const writes = [...written.writes.values()].sort((a, b) => compareStrings(a.file, b.file));
  if (edited.text !== input.siteText)
    writes.push({
      file: 'content/site.yaml',
      text: edited.text,
      action: siteAction(newLists, dialects.length, input.site.v1Withdrawn !== edited.site.v1Withdrawn),
    });
  return result(writes, sortProblems(written.notes), summarizeAcross(written.summaries, changelogNotes(written.notes)));
}

// --- internal ---

/** A listing the import takes, with the list it goes into. */
interface Taken {
  file: ListingFile;
  list: string;
}

function classify(path: string, bytes: Uint8Array): RepositoryFile {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return classifyFile(path, text, json);
}

function textOf(files: FolderInput['files'], path: string): Uint8Array {
  return files.find((f) => f.path === path)!.bytes;
}

/**
 * For each dialect: the path most of its files lie at (the others are left out: a dialect has one
 * path), the list each goes into and the `formats` entry that writes them back there.
 */
function planDialects(
  listings: ListingFile[],
  classified: RepositoryFile[],
  changelogs: ChangelogFile[],
  site: Site,
  leftOut: string[],
  changelogTemplates: string[],
): { plan: DialectPlan; listings: Taken[] }[] {
  keepCapitalsLists(listings);
  // A file that is not strict JSON goes with the files that lie beside it, whose reader reports its problem.
  for (const guessed of listings.filter((l) => l.guessed)) {
    const beside = listings.filter((l) => !l.guessed && l.template === guessed.template).map((l) => l.dialect);
    if (beside.length > 0) guessed.dialect = mostCommon(beside) as ListingFile['dialect'];
  }
  const byDialect = new Map<string, ListingFile[]>();
  for (const l of listings) byDialect.set(l.dialect, [...(byDialect.get(l.dialect) ?? []), l]);
  const planned: { plan: DialectPlan; listings: Taken[] }[] = [];
  const siteLists = site.lists.map((l) => l.name);
  // The dialect of the newest build first: two dialects at one path (PixelOS's fifteen branch keeps
  // the PixelExperience objects of devices no longer updated beside the PixelOS 15 files) cannot
  // both be written there, and the devices still updated are the ones phones ask about.
  const pathsTaken = new Map<string, string>();
  const newest = (files: ListingFile[]) => Math.max(...files.map((f) => f.newest));
  const order = [...byDialect].sort(([a, x], [b, y]) => newest(y) - newest(x) || compareStrings(a, b));
  for (const [dialect, files] of order) {
    const folders = dialect === 'aospa' ? undefined : listFolderPaths(files);
    if (folders !== undefined) {
      const plan = perListPlan(dialect, files, folders, pathsTaken, siteLists, leftOut);
      if (plan !== undefined) {
        const changelog = changelogOf([...folders.keys()][0], files, changelogs);
        addChangelog(plan.plan.entry, changelog, siteLists, leftOut, changelogTemplates);
        planned.push(plan);
      }
      continue;
    }
    const template = mostCommon(files.map((f) => f.template));
    // One line per other path (a second list folder at the root: gapps/ beside vanilla/).
    const elsewhere = new Map<string, string[]>();
    for (const f of files.filter((f) => f.template !== template))
      elsewhere.set(f.template, [...(elsewhere.get(f.template) ?? []), f.path]);
    for (const [other, paths] of elsewhere)
      leftOut.push(
        `${paths.length} ${dialect} file${paths.length === 1 ? '' : 's'} at ${other} (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', ...' : ''}): not imported, the other ${dialect} files lie at ${template} and a dialect is written at one path`,
      );
    const kept = files.filter((f) => f.template === template);
    const other = pathsTaken.get(template);
    if (other !== undefined) {
      leftOut.push(
        `${kept.length} ${dialect} file${kept.length === 1 ? '' : 's'} (${kept
          .map((f) => f.path)
          .slice(0, 3)
          .join(
            ', ',
          )}${kept.length > 3 ? ', ...' : ''}): not imported: at ${template}, beside the ${other} files, and one path is written in one dialect; convert to ${other}, or import into another catalog`,
      );
      continue;
    }
    pathsTaken.set(template, dialect);
    const { entry, taken } = listsOf(dialect, template, kept, siteLists[0], leftOut);
    addChangelog(entry, changelogOf(template, kept, changelogs), siteLists, leftOut, changelogTemplates);
    const deviceList = classified.find((f) => f.kind === 'device-list');
    if (dialect === 'lineage-v1' && deviceList !== undefined) {
      entry.deviceInfo = `/${deviceList.path}`;
      // A device list the build cannot write (AxionOS's `dinfo.json` at the root, for its website)
      // is left alone: the listings phones read are imported all the same.
      const listProblem =
        formatProblem(entry, [...siteLists, ...entry.lists], 'device_info') ?? websiteKeys(deviceList.devices);
      if (listProblem !== undefined) {
        deviceList.unwritable = listProblem;
        delete entry.deviceInfo;
      }
    }
    const pathProblem = formatProblem(entry, [...siteLists, ...entry.lists], 'path');
    if (pathProblem !== undefined) {
      leftOut.push(
        `${kept.length} ${dialect} file${kept.length === 1 ? '' : 's'} at ${template}: not imported, the build cannot write them there (${pathProblem})`,
      );
      continue;
    }
    const newLists = entry.lists.filter((l) => !siteLists.includes(l));
    planned.push({ plan: { entry, files: kept.length, newLists }, listings: taken });
  }
  return planned;
}

/**
 * `entry`'s changelog path (`''`: none), when the build can write the changelogs back there; their
 * text goes into the newest build's changelog either way (`changelogTemplates`).
 */
function addChangelog(
  entry: FormatEntry,
  changelog: string,
  siteLists: string[],
  leftOut: string[],
  changelogTemplates: string[],
): void {
  if (changelog === '') return;
  changelogTemplates.push(changelog);
  const problem = formatProblem({ ...entry, changelog }, [...siteLists, ...entry.lists], 'changelog');
  if (problem === undefined) entry.changelog = changelog;
  else
    leftOut.push(
      `changelog files at ${changelog}: their text goes into the newest build's changelog, but the build cannot write them back there (${problem})`,
    );
}

/**
 * The list of each path a dialect's files lie at, when those paths differ by a variant folder
 * (catalog/formats.ts: a path per list): Project Infinity-X's `gapps/` and `vanilla/`, SuperiorOS's
 * `gapps/` or Matrixx's `vanila/` beside the files at the root. The folder's name is the list's;
 * the files beside such a folder are the other variant's (`gapps`, or `vanilla` beside `gapps/`).
 * `undefined` when the files lie at one path, or at paths that differ otherwise.
 */
function listFolderPaths(files: ListingFile[]): Map<string, string> | undefined {
  const templates = [...new Set(files.map((f) => f.template))].sort(compareStrings);
  if (templates.length < 2) return undefined;
  const split = templates.map((template) => {
    const segments = template.slice(1).split('/');
    const at = segments.findIndex((s, i) => i < segments.length - 1 && isVariantFolder(s));
    const base = at === -1 ? template : `/${segments.filter((_, i) => i !== at).join('/')}`;
    return { template, base, folder: at === -1 ? undefined : segments[at] };
  });
  const bare = split.filter((t) => t.folder === undefined);
  if (new Set(split.map((t) => t.base)).size !== 1 || bare.length > 1) return undefined;
  const named = split.flatMap((t) => (t.folder === undefined ? [] : [listName(t.folder)]));
  const lists = split.map((t) =>
    t.folder === undefined ? (named.includes('gapps') ? 'vanilla' : 'gapps') : listName(t.folder),
  );
  if (new Set(lists).size !== lists.length) return undefined;
  return new Map(split.map((t, i) => [t.template, lists[i]]));
}

/**
 * A dialect's plan with a path per list ({@link listFolderPaths}): each path's files in its list,
 * the entry `path: { list: path }`; `undefined` (said in `leftOut`) when one of the paths is
 * another dialect's, or the build cannot write them.
 */
function perListPlan(
  dialect: string,
  files: ListingFile[],
  folders: Map<string, string>,
  pathsTaken: Map<string, string>,
  siteLists: string[],
  leftOut: string[],
): { plan: DialectPlan; listings: Taken[] } | undefined {
  const count = `${files.length} ${dialect} file${files.length === 1 ? '' : 's'}`;
  const other = [...folders.keys()].find((t) => pathsTaken.has(t));
  if (other !== undefined) {
    leftOut.push(
      `${count}: not imported: at ${other}, beside the ${pathsTaken.get(other)} files, and one path is written in one dialect; convert to ${pathsTaken.get(other)}, or import into another catalog`,
    );
    return undefined;
  }
  const lists = [...new Set(folders.values())];
  const entry: FormatEntry = {
    family: dialect as FormatEntry['family'],
    lists,
    path: Object.fromEntries([...folders].map(([template, list]) => [list, template])),
  };
  // The release type the records state, where it is not the lists' own names (as listsOf keeps it).
  const stated = [...new Set(files.map((f) => f.releaseTypes[0]))];
  if ((dialect === 'crdroid-java' || dialect === 'lineage-v1') && stated.length === 1 && stated[0] !== undefined)
    if (!lists.every((l) => l === stated[0].toLowerCase())) entry.buildtype = stated[0];
  const pathProblem = formatProblem(entry, [...siteLists, ...lists], 'path');
  if (pathProblem !== undefined) {
    leftOut.push(
      `${count} at ${[...folders.keys()].join(' and ')}: not imported, the build cannot write them there (${pathProblem})`,
    );
    return undefined;
  }
  for (const template of folders.keys()) pathsTaken.set(template, dialect);
  const taken = files.map((file) => ({ file, list: folders.get(file.template)! }));
  const newLists = lists.filter((l) => !siteLists.includes(l));
  return { plan: { entry, files: files.length, newLists }, listings: taken };
}

/**
 * A folder in capitals that is no known variant name (`OTA/device/EXTRA/`) is a list only beside
 * another such folder holding the same dialect's file of one of its devices, as RisingOS's
 * `GAPPS/`, `VANILLA/`, `CORE/` and `MICROG/` hold each device's variants; else (`OTA/API/`) it
 * is a fixed folder of the path, as written.
 */
function keepCapitalsLists(listings: ListingFile[]): void {
  // dialect and template → folder → the devices with a file there
  const folders = new Map<string, Map<string, Set<string>>>();
  const at = (l: ListingFile) => `${l.dialect} ${l.template}`;
  for (const l of listings) {
    if (l.listFolder === undefined || !l.template.includes('{LIST}')) continue;
    const byFolder = folders.get(at(l)) ?? new Map<string, Set<string>>();
    folders.set(at(l), byFolder.set(l.listFolder, (byFolder.get(l.listFolder) ?? new Set()).add(l.device)));
  }
  for (const l of listings.filter((f) => f.capitalsOnly)) {
    const byFolder = folders.get(at(l))!;
    const mine = byFolder.get(l.listFolder!)!;
    const beside = [...byFolder].some(
      ([folder, devices]) => folder !== l.listFolder && [...mine].some((d) => devices.has(d)),
    );
    if (beside) continue;
    l.template = l.template.replace('{LIST}', l.listFolder!);
    delete l.listFolder;
    delete l.capitalsOnly;
  }
}

/**
 * The list each of a dialect's files goes into and the dialect's `formats` entry: a list folder's
 * name, or for a flat repository one list, the release type most of its records state (else the
 * site's first list); files stating another one are said in `leftOut`.
 */
function listsOf(
  dialect: string,
  template: string,
  kept: ListingFile[],
  firstList: string,
  leftOut: string[],
): { entry: FormatEntry; taken: Taken[] } {
  if (dialect === 'aospa') return aospaLists(template, kept, firstList);
  const flat = !namesList(template);
  const type = mostCommon(kept.flatMap((f) => (f.listFolder !== undefined && !flat ? [] : f.releaseTypes.slice(0, 1))));
  const flatList = type !== '' ? listName(type) : firstList;
  const taken = kept.map((file) => ({
    file,
    list: flat && file.listFolder === undefined ? flatList : listName(file.listFolder ?? flatList),
  }));
  if (flat) {
    taken.forEach((t) => (t.list = taken[0].list));
    const others = kept.filter((f) => f.releaseTypes[0] !== undefined && f.releaseTypes[0] !== type);
    if (others.length > 0)
      leftOut.push(
        `the build type of ${others.length} ${dialect} file${others.length === 1 ? '' : 's'} (${[...new Set(others.map((f) => f.releaseTypes[0]))].join(', ')}): one path serves one list, so their builds go into the list ${taken[0].list}${dialect === 'crdroid-java' ? ` and show the build type ${type}` : ''}`,
      );
  }
  const entry: FormatEntry = {
    family: dialect as FormatEntry['family'],
    lists: [...new Set(taken.map((t) => t.list))],
    path: template,
  };
  // AlphaDroid-style readers compare `buildtype`: the records' own spelling is kept (catalog/formats.ts `buildtype`).
  if (dialect === 'crdroid-java' && type !== '' && type !== entry.lists[0] && flat) entry.buildtype = type;
  // Files in list folders that all state one build type (RisingOS's `STABLE` in every variant's) keep it too.
  const stated = [...new Set(kept.map((f) => f.releaseTypes[0]))];
  if (dialect === 'crdroid-java' && !flat && stated.length === 1 && stated[0] !== undefined)
    if (!entry.lists.every((l) => l === stated[0])) entry.buildtype = stated[0];
  // LineageOS phones compare `romtype` with their release type, ignoring case: AxionOS's `OFFICIAL`
  // in OTA/GMS/ and OTA/VANILLA/ alike stays `OFFICIAL`, not the list folder's name.
  if (dialect === 'lineage-v1' && !flat && stated.length === 1 && stated[0] !== undefined)
    if (!entry.lists.every((l) => l === stated[0].toLowerCase())) entry.buildtype = stated[0];
  return { entry, taken };
}

/**
 * AOSPA's files hold every list of a device in one: a list per `build_type` (in the order the files
 * first name them, Stable first in AOSPA's own), each named by it in lower case, the format's
 * `buildtype:` keeping the spelling the Compose Hub compares (`Beta`). Each record goes to its
 * list on import (plan-import.ts); the file's own list is the first.
 */
function aospaLists(template: string, kept: ListingFile[], firstList: string): { entry: FormatEntry; taken: Taken[] } {
  const types = [...new Set(kept.flatMap((f) => f.releaseTypes))];
  const byList = new Map<string, string>();
  for (const type of types) if (!byList.has(listName(type))) byList.set(listName(type), type);
  const lists = byList.size > 0 ? [...byList.keys()] : [firstList];
  const renamed = [...byList].filter(([list, type]) => list !== type);
  const entry: FormatEntry = {
    family: 'aospa',
    lists,
    path: template,
    ...(renamed.length > 0 && { buildtypes: Object.fromEntries(renamed) }),
  };
  return { entry, taken: kept.map((file) => ({ file, list: lists[0] })) };
}

/**
 * The path template of the changelogs of a dialect's devices, `''` for none: of two changelog
 * folders (PixelOS keeps API/changelogs/ and API/updater/changelogs/), the one beside the listings.
 */
function changelogOf(template: string, kept: ListingFile[], changelogs: ChangelogFile[]): string {
  const devices = new Set(kept.map((f) => f.device));
  const folderOf = (t: string) => t.slice(0, t.lastIndexOf('/') + 1);
  const ours = changelogs.filter((c) => devices.has(c.device));
  const beside = ours.filter((c) => folderOf(c.template).startsWith(folderOf(template)));
  return mostCommon((beside.length > 0 ? beside : ours).map((c) => c.template));
}

/** Why a format entry cannot be written (its `key`'s problem), by the rules the build reads it with. */
function formatProblem(entry: FormatEntry, lists: string[], key: string): string | undefined {
  const { family, deviceInfo, buildtypes, ...settings } = entry;
  const value = {
    ...settings,
    ...(deviceInfo !== undefined && { device_info: deviceInfo }),
    ...(buildtypes !== undefined && { buildtype: buildtypes }),
  };
  const problems = readFormats({ [family]: value }, lists).problems;
  return problems.find((p) => p.path[1] === key || (key === 'path' && p.path[1] !== 'changelog'))?.message;
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || compareStrings(a, b))[0]?.[0] ?? '';
}

/** A release type or folder as a list name: lowercase, URL-segment characters. */
function listName(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '');
  return name === '' ? 'stable' : name.slice(0, 100);
}

interface Written {
  writes: Map<string, ManifestWrite>;
  notes: Problem[];
  summaries: Problem[][];
  /** Devices whose device.yaml exists or is written. */
  deviceFiles: Set<string>;
  /** The records' device fields device.yaml has no place for (`gapps (no place in device.yaml)`), and in how many files. */
  deviceLeftOut: Map<string, number>;
}

/** Every listing through planImport, in path order, each device's earlier writes as its existing manifests. */
function importListings(taken: Taken[], input: FolderInput, site: Site, problems: Problem[]): Written {
  const writes = new Map<string, ManifestWrite>();
  const notes: Problem[] = [];
  const summaries: Problem[][] = [];
  const deviceFiles = new Set(input.deviceFiles);
  const deviceLeftOut = new Map<string, number>();
  for (const { file, list } of [...taken].sort((a, b) => compareStrings(a.file.path, b.file.path))) {
    const device = file.device;
    const existing = input.existing.filter((m) => m.device === device && !writes.has(m.file));
    for (const w of writes.values())
      if (w.file.startsWith(`content/${device}/`) && w.file.endsWith('.yaml') && !w.file.endsWith('/device.yaml'))
        existing.push({ file: w.file, device, bytes: Buffer.from(w.text) });
    const plan = planImport({
      text: input.files.find((f) => f.path === file.path)!.bytes,
      sourceName: `${input.folder}/${file.path}`,
      device,
      list,
      site,
      existing,
      deviceFileExists: deviceFiles.has(device),
    });
    problems.push(...plan.problems);
    if (plan.unshown > 0)
      problems.push({
        file: `${input.folder}/${file.path}`,
        line: 1,
        col: 1,
        field: '(file)',
        message: `${plan.unshown} more problems not shown`,
      });
    notes.push(...plan.notes);
    summaries.push(summarizeNotes(plan.notes, plan.filled));
    for (const w of plan.writes) {
      const earlier = writes.get(w.file);
      writes.set(w.file, earlier?.action === 'created' ? { ...w, action: 'created' } : w);
    }
    if (plan.device?.written) deviceFiles.add(device);
    for (const field of plan.device?.leftOut ?? []) deviceLeftOut.set(field, (deviceLeftOut.get(field) ?? 0) + 1);
  }
  return { writes, notes, summaries, deviceFiles, deviceLeftOut };
}

/**
 * DerpFest's device list (`info/device-info.json`): each imported device without a device.yaml
 * gets one from its entry (device_name, oem, maintainer, support_group), as planImport makes one
 * from a crDroid record.
 */
function addDeviceLists(
  classified: RepositoryFile[],
  devices: ReadonlySet<string>,
  written: Written,
  leftOut: string[],
): void {
  for (const list of classified) {
    if (list.kind !== 'device-list') continue;
    for (const entry of list.devices) {
      const device = entry.codename as string;
      if (!devices.has(device) || written.deviceFiles.has(device)) continue;
      const fields = new Map<string, DeviceField>();
      const put = (key: string, value: unknown) =>
        value !== undefined && value !== null && fields.set(key, { value, record: 0 });
      put('device', entry.device_name);
      put('oem', entry.oem);
      put('maintainer', entry.maintainer);
      put('telegram', entry.support_group);
      const made = deviceFileOf(fields, list.path.replace(/^.*\//, ''));
      if (made.text !== undefined) {
        written.writes.set(`content/${device}/device.yaml`, {
          file: `content/${device}/device.yaml`,
          text: made.text,
          action: 'created',
        });
        written.deviceFiles.add(device);
      }
      const named = made.leftOut.map((f) =>
        f.replace(/^telegram /, 'support_group ').replace(/^device /, 'device_name '),
      );
      if (named.length > 0) leftOut.push(`${list.path} ${device}: ${named.join(', ')}`);
    }
  }
}

/** What became of each changelog: a note when it was shortened, a line of leftOut when it was not kept. */
function reportChangelogs(outcomes: ChangelogOutcome[], leftOut: string[], notes: Problem[], folder: string): void {
  for (const o of outcomes) {
    if (o.leftOut !== undefined) leftOut.push(`${o.path}: ${o.leftOut}`);
    if (o.note !== undefined)
      notes.push({ file: `${folder}/${o.path}`, line: 1, col: 1, field: 'changelog', message: o.note });
  }
}

function changelogNotes(notes: Problem[]): Problem[] {
  return notes.filter((n) => n.field === 'changelog');
}

/**
 * One line per kind of note across the repository: each file's notes summarised (note-summary.ts),
 * then the same kind in several files said once, with how many files.
 */
function summarizeAcross(perFile: Problem[][], extra: Problem[]): Problem[] {
  const kinds = new Map<string, { first: Problem; files: number }>();
  for (const note of [...perFile.flat(), ...extra]) {
    const key = `${note.field.replace(/\.\d+(?=\.|$)/g, '.*')}\u0000${note.message
      .replace(/^record \d+: /, '')
      .replace(/\d+/g, '#')
      .replace(/\([^)]*\)/g, '')}`;
    const kind = kinds.get(key);
    if (kind) kind.files++;
    else kinds.set(key, { first: note, files: 1 });
  }
  return [...kinds.values()].map(({ first, files }) =>
    files === 1
      ? first
      : { ...first, message: `${first.message} (in ${files} files, the first here; --verbose shows each)` },
  );
}

/** The files left alone, grouped by reason; changelogs of devices not imported among them. */
function groupLeftAlone(
  classified: RepositoryFile[],
  imported: Taken[],
  changelogs: ChangelogFile[],
  templates: string[],
  deviceLists: string[],
): FolderPlan['leftAlone'] {
  const devices = new Set(imported.map((t) => t.file.device));
  const groups = new Map<string, string[]>();
  const add = (why: string, path: string) => groups.set(why, [...(groups.get(why) ?? []), path]);
  // Listings not taken are said in leftOut, with the reason.
  for (const f of classified) {
    if (f.kind === 'other') add(f.why, f.path);
    else if (f.kind === 'device-list' && f.unwritable !== undefined)
      add(
        `a device list the build cannot write back there (${f.unwritable}); its entries fill the devices' device.yaml`,
        f.path,
      );
    else if (f.kind === 'device-list' && !deviceLists.includes(`/${f.path}`))
      add("a device list: only the lineage-v1 format writes one (DerpFest's device_info)", f.path);
  }
  for (const c of changelogs) {
    if (!devices.has(c.device)) add('a changelog of a device with no listing imported', c.path);
    else if (!templates.includes(c.template))
      add(`another changelog of the device: those at ${templates.join(', ')} are imported`, c.path);
  }
  return [...groups].map(([why, paths]) => ({ why, paths }));
}

/** The keys of DerpFest's device list (DerpFest-AOSP/Updater-Stuff info/device-info.json, which its updater reads). */
const DEVICE_LIST_KEYS = new Set(['codename', 'device_name', 'maintainer', 'oem', 'status', 'support_group']);

/**
 * Why a device list serves more than DerpFest's updater: entries with keys it does not read (a
 * website's `github_username`, `image_url`), which the build, writing DerpFest's shape, would drop.
 */
function websiteKeys(devices: Record<string, unknown>[]): string | undefined {
  const extra = [...new Set(devices.flatMap((d) => Object.keys(d)).filter((k) => !DEVICE_LIST_KEYS.has(k)))];
  if (extra.length === 0) return undefined;
  const shown =
    extra
      .slice(0, 5)
      .map((k) => JSON.stringify(k))
      .join(', ') + (extra.length > 5 ? ', ...' : '');
  return `its entries carry keys DerpFest's updater does not read (${shown}), for a website: the build writes DerpFest's shape and would drop them`;
}

/**
 * Two devices whose names differ only by case (crDroid 11.0 keeps LeEco's `x2.json` beside Realme's
 * `X2.json`): phones ask with the exact name, but a catalog has one folder per device whatever the
 * case, for the disks that ignore it (README, Output paths). The device with the newest build is
 * imported; each other is left out, said once, and the rest of the repository imports.
 */
function withoutCaseTwins<T extends { file: ListingFile }>(imported: T[], leftOut: string[]): T[] {
  const byName = new Map<string, ListingFile[]>();
  for (const { file } of imported) {
    const key = file.device.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), file]);
  }
  const dropped = new Set<string>();
  for (const files of byName.values()) {
    const devices = [...new Set(files.map((f) => f.device))];
    if (devices.length < 2) continue;
    const newest = (device: string) => Math.max(...files.filter((f) => f.device === device).map((f) => f.newest));
    const kept = devices.reduce((a, b) => (newest(b) > newest(a) ? b : a));
    for (const device of devices.filter((d) => d !== kept)) {
      dropped.add(device);
      const paths = files.filter((f) => f.device === device).map((f) => f.path);
      leftOut.push(
        `${paths.join(', ')}: the device ${device} differs from ${kept} only by case, and a catalog has one folder per device whatever the case (disks that ignore it would merge their answers); ${kept}, with the newer build, is imported: publish ${device} from a catalog of its own`,
      );
    }
  }
  return dropped.size === 0 ? imported : imported.filter(({ file }) => !dropped.has(file.device));
}

function siteAction(newLists: string[], formats: number, withdrawnFlips: boolean): string {
  const parts = [];
  if (newLists.length > 0) parts.push(`list${newLists.length === 1 ? '' : 's'} ${newLists.join(', ')} added`);
  if (formats > 0) parts.push(`${formats} format${formats === 1 ? '' : 's'} added`);
  // README, Site settings: v1_withdrawn defaults to omit once a channel is not one of /e/'s.
  if (withdrawnFlips)
    parts.push(
      "and v1_withdrawn is now omit (its default once a channel is not /e/'s: withdrawn and size-0 builds leave the v1 lists; set v1_withdrawn: list to keep them)",
    );
  return parts.join(', ') || 'unchanged';
}
