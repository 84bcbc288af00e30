/**
 * What `otapress add` checks before it hashes a byte, and how it says what is wrong: in terms of
 * the zip (its name, its metadata), the command line and content/site.yaml, never of the manifest
 * it has not written. Pure: the flow (add-build.ts) hands in what it read.
 */
import { API_LEVELS } from '../catalog/api-levels.js';
import { nameFitsDevice, PLAIN_FILENAME } from '../catalog/filename.js';
import { NAME_PARTS } from '../catalog/filename-checks.js';
import { TIMESTAMP_RANGE } from '../catalog/field-values.js';
import { DEVICE_NAME } from '../catalog/plan.js';
import { ContentError, nearest, type Problem } from '../catalog/problems.js';
import { SITE_FILE, type Site } from '../catalog/site.js';
import { readYamlSource } from '../catalog/yaml-source.js';
import type { DerivedFacts } from './metadata.js';

/**
 * One thing wrong with what `add` was given, said of where its value came from: the zip, an option
 * (`--lists`) or a line of a file (`content/site.yaml:9:1`); which field; what to do.
 */
export interface AddProblem {
  where: string;
  field: string;
  message: string;
}

/**
 * The zip or the command line cannot make a valid manifest: every problem found, located as the
 * build locates its own (`content/site.yaml:9:1  lists  ...`, `--lists  lists  ...`); nothing is
 * written, and the CLI exits 1 as for invalid content.
 */
export class AddRefusal extends ContentError {
  constructor(problems: readonly AddProblem[]) {
    super(problems.map(located));
    this.name = 'AddRefusal';
  }
}

/** What the checks need besides the facts. */
export interface CheckInput {
  derived: DerivedFacts;
  /** The zip as named on the command line, for messages. */
  zip: string;
  site: Site;
  /** The text of content/site.yaml, to point at the line to edit. */
  siteText: string | Uint8Array;
  lists?: string[];
  /** `--filename-differs`: the parts in which the published name may differ. */
  filenameDiffers: string[];
  placeholder: boolean;
}

/**
 * Everything about the zip's facts that can be checked without its digests: the name to publish,
 * the device, the build time, the channel against the site, the lists, the name against the
 * metadata and the options. Every problem at once.
 */
export function checkFacts(input: CheckInput): AddProblem[] {
  const { derived, zip } = input;
  const facts = derived.facts;
  const problems: AddProblem[] = [];
  const from = (field: string) => derived.origins.find((o) => o.field === field)?.from ?? 'the zip';
  const at = (field: string) => (from(field).startsWith('--') ? from(field) : zip);
  const push = (field: string, message: string) => problems.push({ where: at(field), field, message });

  if (!DEVICE_NAME.test(facts.device!)) {
    push(
      'device',
      `${said(from('device'), facts.device!)}, which is not a device code name phones ask with (letters, digits, \`_\`, \`.\` and \`-\`); pass --device with the code name`,
    );
  }
  const time = timestampProblem(facts.timestamp!);
  if (time)
    push(
      'timestamp',
      `${said(from('timestamp'), facts.timestamp!)}: ${time}${from('timestamp') === '--timestamp' ? '' : '; pass --timestamp with the exact build time (ro.build.date.utc of the build)'}`,
    );
  if (
    facts.api_level === undefined &&
    !input.placeholder &&
    API_LEVELS[facts.android_version!] === undefined &&
    /^\d{1,3}$/.test(facts.android_version!)
  ) {
    push(
      'android_version',
      `otapress knows no API level for Android ${facts.android_version} (${from('android_version')}), and the zip's metadata has no post-sdk-level; pass --api-level NN`,
    );
  }

  problems.push(...nameProblems(input, from, at));
  problems.push(...siteProblems(input, from));
  return problems;
}

/**
 * The timestamp's problem, or `undefined` when it is plausible Unix seconds (the manifest's own
 * rule, {@link TIMESTAMP_RANGE}), checked on the text so that 400 digits are not read as Infinity.
 */
function timestampProblem(text: string): string | undefined {
  if (!/^\d+$/.test(text)) return 'expected Unix seconds as a whole number, e.g. 1731067200';
  if (text.length > 13)
    return `a number of ${text.length} digits is no build time; expected Unix seconds between 2009 and 2100, e.g. 1731067200`;
  const value = Number(text);
  if (value >= 1e11 && value / 1000 >= TIMESTAMP_RANGE[0] && value / 1000 < TIMESTAMP_RANGE[1])
    return `${value} looks like milliseconds; phones compare seconds: ${Math.floor(value / 1000)}`;
  if (value < TIMESTAMP_RANGE[0] || value >= TIMESTAMP_RANGE[1])
    return `${value} is not a plausible build time; expected Unix seconds between 2009 and 2100, e.g. 1731067200`;
  return undefined;
}

/** `the metadata's post-timestamp is 1e400`, `the file name says nightly`, `--channel is dev`. */
export function said(origin: string, value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 20)}…(${value.length} characters)` : value;
  if (origin.startsWith('metadata ')) return `the zip's metadata says ${origin.slice('metadata '.length)}=${shown}`;
  if (origin === 'the file name' || origin === 'the zip') return `the zip's name says \`${shown}\``;
  return `${origin} is \`${shown}\``;
}

/**
 * The name the package is published under (the zip's, or --filename), when phones cannot save a
 * download under it: checked first, since a name that is not plain also tells none of the facts.
 */
export function filenameProblem(derived: DerivedFacts, zip: string): AddProblem | undefined {
  const name = derived.facts.filename!;
  if (PLAIN_FILENAME.test(name)) return undefined;
  const origin = derived.origins.find((o) => o.field === 'filename')!.from;
  return { where: origin === '--filename' ? origin : zip, field: 'filename', message: filenameMessage(name, origin) };
}

/** What to write after each missing option in the hint: the form of the value, not one ROM's value. */
export function example(option: string, site: Site): string {
  const examples: Record<string, string> = {
    '--device': 'CODENAME',
    '--version': 'X.Y',
    '--channel': site.channels.length === 1 ? site.channels[0] : `<${site.channels.join('|')}>`,
    '--timestamp': '1731067200',
    '--android-version': '14',
    '--incremental': 'eng.root.20241108.123456',
  };
  return examples[option];
}

// --- internal ---

/** An {@link AddProblem} as a problem of the content: at the line its `where` names, or at none. */
function located({ where, field, message }: AddProblem): Problem {
  const at = /^(.*):(\d+):(\d+)$/.exec(where);
  if (!at) return { file: where, line: 0, col: 0, field, message };
  return { file: at[1], line: Number(at[2]), col: Number(at[3]), field, message };
}

function filenameMessage(name: string, origin: string): string {
  const odd = [...new Set([...name].filter((ch) => !/[A-Za-z0-9._~-]/.test(ch)))].map((ch) =>
    ch === ' ' ? 'a space' : `\`${ch}\``,
  );
  const why =
    'phones save the download under this name and it ends the download address, so it takes letters, digits, `-`, `.`, `_` and `~` only';
  const what =
    name.length > 255
      ? `is ${name.length} characters long, over the 255 a phone's file system holds`
      : odd.length > 0
        ? `holds ${odd.join(', ')}`
        : `starts with \`${name[0]}\`, not a letter, a digit or \`_\``;
  // `x (1).zip` is a browser's second download of x.zip.
  const copy = /^(.*?) ?\(\d+\)(\.zip)$/.exec(name);
  const fix =
    copy && PLAIN_FILENAME.test(copy[1] + copy[2])
      ? `it looks like a second download of ${copy[1]}${copy[2]}: rename it so, or pass --filename ${copy[1]}${copy[2]}`
      : 'rename it as it is on the download server, or pass --filename with that name';
  return origin === '--filename' ? `--filename ${what}; ${why}` : `the zip's name ${what}; ${why}: ${fix}`;
}

/** The file name against the metadata's device and the options; `--filename-differs` lets a published name through. */
function nameProblems(input: CheckInput, from: (f: string) => string, at: (f: string) => string): AddProblem[] {
  const { derived, filenameDiffers } = input;
  const problems: AddProblem[] = [];
  filenameDiffers.forEach((part) => {
    if (!(NAME_PARTS as readonly string[]).includes(part))
      problems.push({
        where: '--filename-differs',
        field: 'filename_differs',
        message: `\`${part}\` is not a part of a file name; expected ${NAME_PARTS.join(', ')}`,
      });
  });
  const name = derived.name;
  if (!name || input.placeholder) return problems;
  const facts = derived.facts;
  const differs: { part: string; message: string }[] = [];
  // A device that is no code name at all has its own message.
  if (DEVICE_NAME.test(facts.device!) && !nameFitsDevice(name.device, facts.device!)) {
    const installs =
      from('device') === 'metadata pre-device'
        ? ` (the package installs only on ${derived.preDevices.join(', ')}: pre-device is checked when it is installed)`
        : '';
    differs.push({
      part: 'device',
      message: `${said(from('device'), facts.device!)} but the file name is for device \`${name.device}\`${installs}`,
    });
  }
  if (name.version !== facts.version)
    differs.push({
      part: 'version',
      message: `${said(from('version'), facts.version!)} but the file name says version ${name.version}`,
    });
  if (name.channel !== facts.channel)
    differs.push({
      part: 'channel',
      message: `${said(from('channel'), facts.channel!)} but the file name says \`${name.channel}\` (the release type phones of this build ask for)`,
    });
  if (name.androidVersion !== undefined && name.androidVersion !== facts.android_version) {
    const part =
      name.platform !== undefined ? `platform part \`${name.platform}\`` : `LineageOS version ${name.version}`;
    differs.push({
      part: 'android_version',
      message: `${said(from('android_version'), facts.android_version!)} but the file name's ${part} means Android ${name.androidVersion}`,
    });
  }
  const open = differs.filter((d) => !filenameDiffers.includes(d.part));
  const all = differs.map((d) => d.part).join(',');
  for (const d of open) {
    problems.push({
      where: at(d.part === 'device' ? 'device' : d.part),
      field: d.part,
      message: `${d.message}; if the zip is already published under this name, pass --filename-differs ${all} (the manifest then says so); otherwise rename the zip${from(d.part).startsWith('--') ? ` or leave out ${from(d.part)}` : ''}`,
    });
  }
  filenameDiffers.forEach((part) => {
    if ((NAME_PARTS as readonly string[]).includes(part) && !differs.some((d) => d.part === part)) {
      problems.push({
        where: '--filename-differs',
        field: 'filename_differs',
        message: `the file name agrees on ${part}; leave \`${part}\` out of --filename-differs`,
      });
    }
  });
  return problems;
}

/** The channel against content/site.yaml, and --lists: what to edit there, in one message. */
function siteProblems(input: CheckInput, from: (f: string) => string): AddProblem[] {
  const { site, derived, zip } = input;
  const channel = derived.facts.channel!;
  const problems: AddProblem[] = [];
  const names = site.lists.map((l) => l.name);
  input.lists?.forEach((list, i) => {
    if (!names.includes(list)) {
      const hint = nearest(list, names);
      problems.push({
        where: '--lists',
        field: 'lists',
        message: `\`${list}\` is not a request list of this site${hint ? `; did you mean \`${hint}\`?` : ''} (lists: ${names.join(', ')}, set in ${SITE_FILE})`,
      });
    } else if (input.lists!.indexOf(list) !== i)
      problems.push({ where: '--lists', field: 'lists', message: `\`${list}\` is named twice; name it once` });
  });
  const known = site.channels.includes(channel);
  const collected = input.lists !== undefined || site.lists.some((l) => l.channels.includes(channel));
  if (known && collected) return problems;
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(channel)) {
    problems.push({
      where: from('channel').startsWith('--') ? from('channel') : zip,
      field: 'channel',
      message: `${said(from('channel'), channel)}, which cannot be a channel (it is a URL path segment: lowercase letters, digits, \`-\` and \`_\`); pass --channel with one of ${site.channels.join(', ')}`,
    });
    return problems;
  }
  const source = readYamlSource(input.siteText, SITE_FILE);
  const value = (source.value ?? {}) as Record<string, unknown>;
  const line = (key: string) => source.locate([key], { key: true }).line;
  const where = (key: string) => (value[key] === undefined ? `${SITE_FILE}:1:1` : `${SITE_FILE}:${line(key)}:1`);
  const listEdit = `the list \`${channel}: [${channel}]\` under \`lists:\` (line ${line('lists')})`;
  const origin =
    from('channel') === 'the file name'
      ? `${zip} is a build of release type \`${channel}\` (its file name)`
      : `${from('channel')} names channel \`${channel}\``;
  const phones = `phones of that release type ask for the list \`${channel}\` (/api/v1/${DEVICE_NAME.test(derived.facts.device!) ? derived.facts.device : '<device>'}/${channel}/) and offer only records whose romtype is \`${channel}\``;
  if (!known) {
    // Without `lists:`, the lists follow the channels: a new channel gets a list of its own name.
    const channels =
      value.channels !== undefined
        ? `add \`${channel}\` to \`channels\` (line ${line('channels')})`
        : `add the line \`channels: [${[...site.channels, channel].join(', ')}]\``;
    // --lists names the lists already; written lists need one for the channel only without it.
    const edit = value.lists !== undefined && input.lists === undefined ? `${channels} and ${listEdit}` : channels;
    problems.push({
      where: where('channels'),
      field: 'channels',
      message: `${origin}, which this site has no channel for; ${phones}. The one edit: ${edit}; then run the same add again`,
    });
  } else {
    problems.push({
      where: where('lists'),
      field: 'lists',
      message: `${origin}, and no request list of this site collects that channel, so no phone would see the build; ${phones}. Add ${listEdit} or \`${channel}\` to the channels of a list, or pass --lists with the lists to show it in`,
    });
  }
  return problems;
}
