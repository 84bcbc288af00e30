import type * as Z from 'zod';
import { API_LEVELS } from './api-levels.js';
import { buildFiles, checkExtras, filepathOf, type BuildFile } from './build-extras.js';
import { changelogAnchor, changelogUrl, type ChangelogBlock } from './changelog.js';
import { positionsOf, type FieldPositions, type Position } from './field-positions.js';
import { filenameProblems } from './filename-checks.js';
import { displayVersionOf } from './filename.js';
import { deriveAndroidVersion } from './name-families.js';
import { SHA256_WITHOUT_ID, sha256Problem } from './download-key.js';
import { suggestKey } from './foreign-keys.js';
import { testKeyProblems } from './test-keys.js';
import { EMPTY_IN_PLACEHOLDER, MANIFEST_KEYS, PACKAGE_ONLY, REQUIRED, REQUIRED_PLACEHOLDER } from './fields.js';
import { manifestSchema, plainFields, type ManifestFields } from './manifest-schema.js';
import { nearest, sortProblems, type Problem } from './problems.js';
import { propertyFilesProblem } from './property-files.js';
import type { Site } from './site.js';
import { readDocument, type DocumentKind } from './read-document.js';
import type { YamlSource } from './yaml-source.js';

/** One build, validated and with every derived value filled in: what the listings are made of. */
export interface Build {
  /** Manifest path relative to the project root, e.g. `content/FP4/e-2.5-....yaml`. */
  source: string;
  /** Device code name: the manifest's folder. */
  device: string;
  /** No downloadable package: rendered with empty filename, id and size and no url. */
  placeholder: boolean;
  filename: string;
  version: string;
  channel: string;
  timestamp: number;
  android_version: string;
  api_level: string;
  incremental: string;
  md5sum: string;
  /** The download key: the zip's SHA-256, or another key an earlier listing gave its phones (download-key.ts). */
  id: string;
  /** The zip's SHA-256 written beside an `id` that is another download key; see download-key.ts `sha256Of` for the build's SHA-256 either way. */
  sha256?: string;
  size: number | '';
  url?: string;
  /** `url`'s path under `download_base_url` (v2 `filepath`). */
  filepath?: string;
  display_version: string;
  changes: string;
  pre_version: string;
  is_upgrade_supported: boolean;
  /** The request lists this build appears in, in site order. */
  lists: readonly string[];
  /** Security patch level (`yyyy-mm-dd`), for the v2 listing. */
  os_patch_level?: string;
  /** `ota-property-files` of the zip's metadata, for streaming A/B updates (v2 listing). */
  ota_property_files?: string;
  /** `AB` or `BLOCK`, from the zip's metadata. */
  ota_type?: 'AB' | 'BLOCK';
  /** SHA-1 of the zip, when the manifest has it (`add` writes it); the other files of the build; its changelog (build-extras.ts). */
  sha1?: string;
  /** The links the crDroid Java updaters show for this build (fields.ts `shownLink`). */
  gapps?: string;
  firmware?: string;
  modem?: string;
  bootloader?: string;
  recovery?: string;
  files?: BuildFile[];
  changelog?: ChangelogBlock[];
  /** Its anchor on the device's pages, where the one of its id (or version and time) is another build's too: set when the device is compiled (changelog.ts, uniqueChangelogAnchors). */
  anchor?: string;
  /** Where fields stand in the manifest (`url` and `ota_property_files` when written), for messages about the whole catalog. */
  at: FieldPositions;
  /** SHA-256 of the signer's public key, and of each key the build trusts for its next update (signing.ts). */
  signer?: string;
  otacert?: string[];
  /** Signed with a key the build before it does not trust (signing.ts `keyChanges`): phones need a clean install. */
  cleanInstall?: boolean;
  /** An incremental package: the build it applies on (incremental.ts); a full package has none. */
  appliesOn?: IncrementalSource;
  /** Of a full package: the incremental packages published to install it, for its page (set when the device is compiled). */
  incrementals?: Build[];
}

/** The build an incremental package applies on, as its manifest says (`source_incremental`, `source_build`). */
export interface IncrementalSource {
  incremental: string;
  fingerprint?: string;
  /** Where `source_incremental` stands, for messages about the package among the device's builds. */
  at: Position;
  /** Where `incremental` (the build it installs) stands. */
  installsAt: Position;
}

/** The result of reading one manifest: a build, or the problems that keep it out. */
export interface ParsedManifest {
  build?: Build;
  problems: Problem[];
}

/**
 * Reads one manifest from its text: checks types and formats with the zod schema, then the rules
 * that tie fields together, and derives `api_level`, `url`, `display_version` and the lists.
 * Pure: the device comes from the caller (the manifest's folder). Never throws.
 */
export function parseManifest(input: string | Uint8Array, file: string, device: string, site: Site): ParsedManifest {
  const document = readDocument(input, file, MANIFEST);
  const { raw, bad, problems, source } = document;
  if (raw === undefined) return { problems };
  const report: RuleContext['report'] = (field, message, at) => document.report([field], message, at);
  const fields: ManifestFields = document.data ?? {};
  const placeholder = fields.placeholder === true;

  const context: RuleContext = { fields, raw, bad, device, site, placeholder, report };
  for (const rule of RULES) rule(context);
  const changelog = checkExtras({
    fields,
    bad,
    report: (field, message, { key, at } = {}) =>
      at ? problems.push({ file, ...at, field, message }) : report(field, message, { key }),
    changelogAt: () => changelogStart(source),
  });
  if (problems.length > 0) return { problems: sortProblems(problems) };
  return {
    build: buildOf(fields as Required<ManifestFields>, { file, device, site, placeholder, changelog, source }),
    problems,
  };
}

/** The lists that collect a channel by the site's membership rules. */
export function defaultLists(site: Site, channel: string): readonly string[] {
  // Once per channel of a site, not per build: every build of the channel shares the (frozen) list.
  let byChannel = DEFAULT_LISTS.get(site);
  if (byChannel === undefined) DEFAULT_LISTS.set(site, (byChannel = new Map()));
  let lists = byChannel.get(channel);
  if (lists === undefined)
    byChannel.set(
      channel,
      (lists = Object.freeze(site.lists.filter((list) => list.channels.includes(channel)).map((list) => list.name))),
    );
  return lists;
}

/** {@link defaultLists} by site and channel. */
const DEFAULT_LISTS = new WeakMap<Site, Map<string, readonly string[]>>();

// --- internal ---

interface RuleContext {
  fields: ManifestFields;
  raw: Record<string, unknown>;
  /** Fields that already failed their own check: rules skip them to avoid a second message. */
  bad: ReadonlySet<string>;
  device: string;
  site: Site;
  placeholder: boolean;
  /** `within`: the part of the value at `index` the message is about (for its column). */
  report(field: string, message: string, options?: { key?: boolean; within?: { value: string; index: number } }): void;
}

/** A check that ties fields together (or to the site); reports through the context. */
type Rule = (c: RuleContext) => void;

const requiredFields: Rule = ({ raw, bad, placeholder, report }) => {
  // With an unreadable `placeholder:` we cannot tell which fields are required; its own message says enough.
  if (bad.has('placeholder')) return;
  const missing = (placeholder ? REQUIRED_PLACEHOLDER : REQUIRED).filter((key) => raw[key] === undefined);
  if (missing.length === 0) return;
  // A misspelt key already says "did you mean `md5sum`?"; "missing `md5sum`" would say it twice.
  const unknown = Object.keys(raw).filter((key) => !MANIFEST_KEYS.includes(key));
  const misspelt = new Set(unknown.map((key) => suggestKey(key, MANIFEST_KEYS)?.key));
  for (const key of missing) {
    if (key === 'id' && raw.sha256 !== undefined) report('sha256', SHA256_WITHOUT_ID, { key: true });
    else if (!misspelt.has(key)) {
      report(
        '',
        `missing \`${key}\`${placeholder ? ' (a placeholder needs version, channel, timestamp and display_version)' : ''}; add it${key === 'filename' ? ' or mark the build `placeholder: true`' : ''}`,
      );
    }
  }
};

const placeholderHasNoPackage: Rule = ({ raw, placeholder, report }) => {
  if (!placeholder) return;
  for (const key of PACKAGE_ONLY) {
    if (raw[key] !== undefined) {
      report(
        key,
        `a placeholder has no package, so it must not have \`${key}\` (a phone would offer it for download); remove it, or remove \`placeholder: true\``,
        { key: true },
      );
    }
  }
};

const channelKnown: Rule = ({ fields, site, report }) => {
  if (fields.channel === undefined || site.channels.includes(fields.channel)) return;
  const hint = nearest(fields.channel, site.channels);
  report(
    'channel',
    `\`${fields.channel}\` is not a channel of this site${hint ? `; did you mean \`${hint}\`?` : ''} (channels: ${site.channels.join(', ')}, set in content/site.yaml)`,
  );
};

const listsKnown: Rule = ({ fields, site, report }) => {
  if (fields.lists === undefined) return;
  const names = site.lists.map((l) => l.name);
  fields.lists.forEach((name, i) => {
    if (!names.includes(name)) {
      const hint = nearest(name, names);
      report(
        `lists.${i}`,
        `\`${name}\` is not a request list of this site${hint ? `; did you mean \`${hint}\`?` : ''} (lists: ${names.join(', ')})`,
      );
    } else if (fields.lists!.indexOf(name) !== i) {
      report(`lists.${i}`, `\`${name}\` is listed twice; remove one`);
    }
  });
};

const reachesAList: Rule = ({ fields, bad, site, report }) => {
  if (
    fields.lists !== undefined ||
    fields.channel === undefined ||
    bad.has('channel') ||
    !site.channels.includes(fields.channel)
  )
    return;
  if (!site.lists.some((list) => list.channels.includes(fields.channel!))) {
    report(
      'channel',
      `no request list collects channel \`${fields.channel}\`, so no phone would see this build; add \`lists: [...]\` here or the channel to a list in content/site.yaml`,
    );
  }
};

const filenameAgrees: Rule = ({ fields, bad, device, placeholder, report }) => {
  for (const p of filenameProblems(fields, bad, device, placeholder)) report(p.field, p.message, { key: p.key });
};

const apiLevelKnown: Rule = ({ fields, bad, placeholder, report }) => {
  if (
    placeholder ||
    fields.api_level !== undefined ||
    fields.android_version === undefined ||
    bad.has('android_version') ||
    bad.has('api_level')
  )
    return;
  if (API_LEVELS[fields.android_version] === undefined) {
    report('android_version', `no known API level for Android ${fields.android_version}; add \`api_level: "NN"\``);
  }
};

const datetimeIsTimestamp: Rule = ({ fields, bad, report }) => {
  if (fields.datetime === undefined || fields.timestamp === undefined || bad.has('datetime') || bad.has('timestamp'))
    return;
  if (fields.datetime !== fields.timestamp) {
    report(
      'datetime',
      `datetime must equal timestamp (${fields.timestamp}): phones compare it with their own build time; remove \`datetime\``,
    );
  }
};

const propertyFilesReadable: Rule = ({ fields, bad, placeholder, report }) => {
  if (fields.ota_property_files === undefined || bad.has('ota_property_files')) return;
  const size = placeholder || bad.has('size') ? undefined : fields.size;
  const problem = propertyFilesProblem(fields.ota_property_files, size);
  if (problem)
    report('ota_property_files', problem.message, {
      within: { value: fields.ota_property_files.trim(), index: problem.index ?? 0 },
    });
};

const incrementalPackage: Rule = ({ fields, raw, bad, placeholder, report }) => {
  if (fields.source_incremental === undefined) {
    if (raw.source_build !== undefined && raw.source_incremental === undefined && !bad.has('source_build'))
      report(
        'source_build',
        'only an incremental package names the build it applies on; add `source_incremental` (pre-build-incremental of its metadata), or remove `source_build`',
        { key: true },
      );
    return;
  }
  if (placeholder) {
    report(
      'source_incremental',
      'a placeholder has no package, so it applies on no build; remove `source_incremental`, or remove `placeholder: true`',
      { key: true },
    );
  } else if (fields.incremental !== undefined && fields.incremental === fields.source_incremental) {
    report(
      'source_incremental',
      `the package would apply on the build it makes (both are ${fields.incremental}); \`incremental\` is the build it installs (post-build-incremental), \`source_incremental\` the one it applies on (pre-build-incremental)`,
    );
  }
};

/** A `sha256` that cannot stand beside the manifest's `id` (download-key.ts). */
const oneSha256: Rule = ({ fields, bad, placeholder, report }) => {
  if (placeholder || fields.sha256 === undefined || fields.id === undefined || bad.has('sha256') || bad.has('id'))
    return;
  const problem = sha256Problem(fields.id, fields.sha256);
  if (problem) report('sha256', problem);
};

const noTestKey: Rule = ({ fields, bad, report }) => {
  if (bad.has('signer') || bad.has('otacert') || bad.has('test_build')) return;
  for (const p of testKeyProblems(fields)) report(p.field, p.message);
};

const RULES: Rule[] = [
  requiredFields,
  incrementalPackage,
  noTestKey,
  placeholderHasNoPackage,
  channelKnown,
  listsKnown,
  reachesAList,
  filenameAgrees,
  apiLevelKnown,
  datetimeIsTimestamp,
  propertyFilesReadable,
  oneSha256,
];

/** How a manifest is read (read-document.ts): its messages, and "" as "left out" in a placeholder. */
const MANIFEST: DocumentKind<ManifestFields> = {
  notAMapping: (found) =>
    found === 'nothing'
      ? 'the file is empty; a manifest is a mapping of fields (filename, version, channel, ...), see the README'
      : `expected a mapping of fields (filename: ..., version: ...), found ${found}`,
  prepare(raw) {
    // "" stands for "left out" in the fields a placeholder leaves empty (this is how listings show
    // them): taken out of a copy, so that the source keeps what the file says. Any other manifest is
    // read as it is, without a copy.
    if (raw.placeholder !== true) return raw;
    const copy = { ...raw };
    for (const key of EMPTY_IN_PLACEHOLDER) if (copy[key] === '') delete copy[key];
    return copy;
  },
  plain: plainFields,
  schema: manifestSchema,
  unknownKey(key) {
    const hint = suggestKey(key, MANIFEST_KEYS);
    return hint
      ? `unknown field; did you mean \`${hint.key}\`?${hint.why ? ` (${hint.why})` : ''}`
      : 'unknown field; see the manifest reference in the README';
  },
  issue: (issue, { source, raw }) => ({
    message: typeTrapMessage(source, issue.path, valueAt(raw, issue.path), issue.message) ?? issue.message,
  }),
  firstIssueOnly: true,
  dotted: true,
};

/** What a build is derived from besides its fields: where it was read and what the checks found. */
interface BuildSource {
  file: string;
  device: string;
  site: Site;
  placeholder: boolean;
  changelog: ChangelogBlock[] | undefined;
  source: YamlSource;
}

/** The build of a manifest whose fields passed every check, with every derived value filled in. */
function buildOf(
  f: Required<ManifestFields>,
  { file, device, site, placeholder, changelog, source }: BuildSource,
): Build {
  const url = placeholder ? undefined : (f.url ?? `${site.downloadBaseUrl}/${f.channel}/${device}/${f.filename}`);
  // Made field by field in the order below, not as one literal with conditional spreads: each
  // spread, and every field after the first, went through V8's generic (runtime) object building.
  // No phone needs it to offer a build: derived from the file name or the API level when the
  // manifest does not state it, else "" (render/v1-notices.ts says how the answers show that).
  const androidVersion = f.android_version ?? deriveAndroidVersion(f.filename, f.api_level) ?? '';
  const build = {
    source: file,
    device,
    placeholder,
    filename: placeholder ? '' : f.filename,
    version: f.version,
    channel: f.channel,
    timestamp: f.timestamp,
    android_version: androidVersion,
    api_level: f.api_level ?? (placeholder ? '' : (API_LEVELS[androidVersion] ?? '')),
    incremental: f.incremental ?? '',
    md5sum: f.md5sum ?? '',
    id: placeholder ? '' : f.id,
    size: placeholder ? '' : f.size,
    url,
  } as Build;
  if (url !== undefined) build.filepath = filepathOf(url, site.downloadBaseUrl);
  build.display_version = f.display_version ?? displayVersionOf(f.filename);
  // Opt-in (site.yaml `v1_changes`): the interface shows `changes` always empty.
  build.changes =
    f.changes ??
    (site.v1Changes === 'changelog_url' && changelog?.length
      ? changelogUrl(
          site.siteUrl,
          device,
          changelogAnchor({ placeholder, version: f.version, timestamp: f.timestamp, id: f.id ?? '' }),
        )
      : '');
  build.pre_version = f.pre_version ?? '';
  build.is_upgrade_supported = f.is_upgrade_supported ?? false;
  build.lists = f.lists
    ? site.lists.map((l) => l.name).filter((name) => f.lists.includes(name))
    : defaultLists(site, f.channel);
  if (f.os_patch_level !== undefined) build.os_patch_level = f.os_patch_level;
  if (f.ota_property_files !== undefined) build.ota_property_files = f.ota_property_files.trim();
  if (f.ota_type !== undefined) build.ota_type = f.ota_type;
  if (f.sha1 !== undefined) build.sha1 = f.sha1;
  if (f.gapps !== undefined) build.gapps = f.gapps;
  if (f.firmware !== undefined) build.firmware = f.firmware;
  if (f.modem !== undefined) build.modem = f.modem;
  if (f.bootloader !== undefined) build.bootloader = f.bootloader;
  if (f.recovery !== undefined) build.recovery = f.recovery;
  // The same as a SHA-256 id (allowed, never needed) adds nothing: the id already is the build's SHA-256.
  if (f.sha256 !== undefined && f.sha256 !== f.id) build.sha256 = f.sha256;
  if (f.files !== undefined)
    build.files = buildFiles(f.files, `${site.downloadBaseUrl}/${f.channel}/${device}`, site.downloadBaseUrl);
  if (changelog !== undefined) build.changelog = changelog;
  build.at = positionsOf(
    source,
    f.url !== undefined,
    f.ota_property_files !== undefined,
    f.files,
    build.sha256 !== undefined,
  );
  if (f.signer !== undefined) build.signer = f.signer;
  if (f.otacert !== undefined) build.otacert = f.otacert;
  if (f.source_incremental !== undefined) {
    // Positions found when a message asks for them: locating reads the YAML syntax tree, which a
    // flat manifest never needs otherwise (a tenth of a cold build's time, with yaml loaded for it).
    build.appliesOn = {
      incremental: f.source_incremental,
      get at() {
        return source.locate(['source_incremental']);
      },
      get installsAt() {
        return source.locate(['incremental']);
      },
    };
    if (f.source_build !== undefined) build.appliesOn.fingerprint = f.source_build;
  }
  return build;
}

/** Where a changelog's text starts; a block scalar's (`|`) on the line after its indicator, at its indentation. */
function changelogStart(source: YamlSource): { line: number; col: number; block: boolean } {
  const at = source.locate(['changelog']);
  const text = source.sourceText(['changelog']) ?? '';
  if (!/^[|>]/.test(text)) return { ...at, block: false };
  const first =
    text
      .split('\n')
      .slice(1)
      .find((l) => l.trim() !== '') ?? '';
  return { line: at.line + 1, col: first.length - first.trimStart().length + 1, block: true };
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    value,
  );
}

/** Explains the YAML typing traps: `version: 2.10` is the number 2.1, `md5sum: 1e5...` a number, `timestamp: 2024-11-08` text. */
function typeTrapMessage(source: YamlSource, path: PropertyKey[], input: unknown, message: string): string | undefined {
  const field = String(path[path.length - 1]);
  const text = source.sourceText(path);
  if (text === undefined) return undefined;
  const numberFields = ['timestamp', 'datetime', 'size'];
  const booleanFields = ['is_upgrade_supported', 'placeholder'];
  if (input === null && (text === '' || text === '~' || text === 'null')) {
    return text === '' ? `\`${field}:\` has no value; ${message}` : `YAML reads ${text} as nothing (null); ${message}`;
  }
  const schema = path.length === 1 ? (manifestSchema().shape as Record<string, Z.ZodType>)[field] : undefined;
  if (schema && field !== 'filename' && (typeof input === 'number' || typeof input === 'boolean')) {
    // Quoting helps only when the text as written is right; otherwise say what is wrong with the text.
    const asText = schema.safeParse(text);
    if (asText.success)
      return `YAML reads ${text} as ${typeof input === 'number' ? 'the number' : 'the boolean'} ${String(input)}, not text; quote it: ${field}: "${text}"`;
    if (!numberFields.includes(field) && !booleanFields.includes(field)) return asText.error.issues[0]?.message;
  }
  if (numberFields.includes(field) && typeof input === 'string') {
    const trimmed = input.trim();
    if (/^\d+$/.test(trimmed)) return `the number is written as text; remove the quotes: ${field}: ${trimmed}`;
    if (field !== 'size' && /^\d{4}-\d{2}-\d{2}([Tt ][\d:.]+)?([Zz]|[+-]\d{2}:?\d{2})?$/.test(trimmed)) {
      const ms = Date.parse(
        /[Tt ]/.test(trimmed) && !/([Zz]|[+-]\d{2}:?\d{2})$/.test(trimmed) ? `${trimmed}Z` : trimmed,
      );
      if (Number.isFinite(ms)) {
        return `${trimmed} is a date; write Unix seconds instead: ${field}: ${Math.floor(ms / 1000)} (date -u -d '${trimmed}' +%s, or post-timestamp in the zip's metadata)`;
      }
    }
  }
  if (
    booleanFields.includes(field) &&
    typeof input === 'string' &&
    /^(yes|no|on|off|y|n|true|false)$/i.test(input.trim())
  ) {
    return `YAML reads ${text} as text, not a boolean; write ${/^(yes|on|y|true)$/i.test(input.trim()) ? 'true' : 'false'}`;
  }
  return undefined;
}
