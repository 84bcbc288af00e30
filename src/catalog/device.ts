/**
 * `content/<device>/device.yaml`: what a catalog knows about a device besides its builds (display
 * name, vendor, model names, maintainers, links, the repositories of its sources). Optional: a
 * device without it is shown by its code name under {@link UNKNOWN_OEM}. Read from its text like a
 * manifest (located problems for every field at once, unknown keys with suggestions). Pure.
 */
import type * as Z from 'zod';
import { nearest, sortProblems, type Problem } from './problems.js';
import { lazily, zod } from './libraries.js';
import { refuseUnpublishableText } from './published-text.js';
import { readDocument, type DocumentKind } from './read-document.js';

/** The device file's name inside a device folder; the catalog never reads it as a build manifest. */
export const DEVICE_FILE = 'device.yaml';

/** Where editors find the device file's schema (`# yaml-language-server: $schema=../device.schema.json`). */
export const DEVICE_SCHEMA_FILE = 'content/device.schema.json';

/** The first line `otapress init` writes in a device file, pointing editors at the schema. */
export const DEVICE_SCHEMA_COMMENT = '# yaml-language-server: $schema=../device.schema.json';

/**
 * The vendor of a device whose device.yaml names none (or that has no device.yaml): a visible,
 * explicit name, so the v2 directory still lists the device and nobody mistakes it for a real one.
 */
export const UNKNOWN_OEM = 'Unknown vendor';

/**
 * The file name of the manifest of a package (or placeholder) named `stem` (`e-2.5-...-FP4` for
 * `e-2.5-...-FP4.zip`): `<stem>.yaml`, except where that is the name of the device file, in any case
 * (a case-insensitive disk takes `Device.yaml` for it): a package `device.zip` gets `device.build.yaml`.
 */
export function manifestFileName(stem: string): string {
  return `${stem}.yaml`.toLowerCase() === DEVICE_FILE ? `${stem}.build.yaml` : `${stem}.yaml`;
}

/** Is this content path (`content/FP4/device.yaml`) a device file rather than a build manifest? */
export function isDeviceFile(file: string): boolean {
  return file.slice(file.lastIndexOf('/') + 1) === DEVICE_FILE;
}

/** A device as device.yaml describes it, with every key optional; empty lists when left out. */
export interface DeviceInfo {
  /** Display name (`Fairphone 4`); pages and v2 fall back to the code name. */
  name?: string;
  /** Vendor (`Fairphone`); v2 and the home page fall back to {@link UNKNOWN_OEM}. */
  oem?: string;
  /** Model or marketing names (`FP4`, `FP4 5G`). */
  models: string[];
  maintainers: { name: string; url?: string }[];
  links: Partial<Record<LinkKind, string>>;
  /** Repository names of the device's sources (v2 `dependencies`, which the portal matches changes with). */
  dependencies: string[];
}

/** The links a device may have, in the order pages show them. */
export const LINK_KINDS = ['info', 'news', 'forum', 'support', 'donate', 'source'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** How pages name each link. */
export const LINK_LABELS: Record<LinkKind, string> = {
  info: 'Info and guides',
  news: 'News',
  forum: 'Forum',
  support: 'Support chat',
  donate: 'Donate',
  source: 'Device sources',
};

/** The information of a device without device.yaml. */
export const NO_DEVICE_INFO: DeviceInfo = { models: [], maintainers: [], links: {}, dependencies: [] };

const oneLine = (what: string, example: string) =>
  zod()
    .string({ error: `expected ${what}, e.g. ${example}` })
    .trim()
    .min(1, { error: `expected ${what}, e.g. ${example}; leave the key out instead of leaving it empty` })
    .max(100, { error: `expected ${what} of at most 100 characters` })
    // Pages, feeds, listings and terminals show it on one line: no tabs or line breaks of any kind.
    .regex(/^[^\t\n\v\f\r\u0085\u2028\u2029]*$/, { error: `expected ${what} on one line, without tabs or line breaks` })
    // And, as every text a manifest publishes, no other control, direction control, noncharacter or lone surrogate.
    .superRefine(refuseUnpublishableText);

const httpsUrlSchema = () =>
  zod()
    .string({ error: 'expected an https:// address, e.g. https://wiki.example.org/devices/FP4' })
    .regex(/^https:\/\/[^\s/?#]+(?:[/?#]\S*)?$/, {
      error: 'expected an absolute https:// address without spaces (pages and apps open it from another site)',
    })
    .regex(/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/, {
      error:
        'the address holds characters that must be percent-encoded (quotes, <, >, \\, control or non-ASCII characters); write them as %XX',
    })
    .max(2000, { error: 'expected an address of at most 2000 characters' });

/** The zod schema of device.yaml (every key optional; see the README, "Device files"), built when a device.yaml is read. */
export const deviceSchema = lazily(() => {
  const z = zod();
  const httpsUrl = httpsUrlSchema();
  return z
    .strictObject({
      name: oneLine('the display name', 'Fairphone 4'),
      oem: oneLine('the vendor name', 'Fairphone'),
      models: z
        .array(oneLine('a model name', 'FP4'), { error: 'expected a list of model names, e.g. [FP4, FP4 5G]' })
        .max(50, { error: 'at most 50 model names' }),
      maintainers: z
        .array(
          z.strictObject(
            { name: oneLine("the maintainer's name", 'Jane Doe'), url: httpsUrl.optional() },
            { error: 'expected a maintainer as `name:` and an optional `url:`, e.g. - name: Jane Doe' },
          ),
          { error: 'expected a list of maintainers, e.g. - name: Jane Doe' },
        )
        .max(50, { error: 'at most 50 maintainers' }),
      links: z
        .strictObject(
          Object.fromEntries(LINK_KINDS.map((kind) => [kind, httpsUrl])) as Record<LinkKind, typeof httpsUrl>,
          {
            error: `expected a mapping of links (${LINK_KINDS.join(', ')}), e.g. info: https://wiki.example.org/devices/FP4`,
          },
        )
        .partial(),
      dependencies: z
        .array(
          z
            .string({ error: 'expected a repository name, e.g. android_device_fairphone_FP4' })
            .regex(/^[A-Za-z0-9._-]{1,100}$/, {
              error:
                'expected a repository name: letters, digits, `.`, `-` and `_` (the name, not its URL), e.g. android_device_fairphone_FP4',
            }),
          { error: 'expected a list of repository names, e.g. [android_device_fairphone_FP4]' },
        )
        .max(200, { error: 'at most 200 repositories' }),
    })
    .partial();
});

/** Keys of device.yaml, and of the mappings inside it, for "did you mean" hints; `''` holds {@link deviceSchema}'s own. */
export const DEVICE_KEYS: Record<string, readonly string[]> = {
  '': ['name', 'oem', 'models', 'maintainers', 'links', 'dependencies'],
  links: LINK_KINDS,
  maintainers: ['name', 'url'],
};

/** Reads one device.yaml from its text; the information, or every problem found. Never throws. */
export function parseDeviceFile(input: string | Uint8Array, file: string): { info?: DeviceInfo; problems: Problem[] } {
  const { raw, data, problems, report } = readDocument(input, file, DEVICE);
  // An empty file (or one with only comments) says nothing: the device keeps its defaults.
  if (raw === undefined) return problems.length > 0 ? { problems } : { info: NO_DEVICE_INFO, problems };
  if (data === undefined) return { problems: sortProblems(problems) };
  const links: DeviceInfo['links'] = {};
  for (const kind of LINK_KINDS) if (data.links?.[kind] !== undefined) links[kind] = data.links[kind];
  data.models?.forEach((model, i) => {
    if (data.models!.indexOf(model) !== i) report(['models', i], `\`${model}\` is listed twice`);
  });
  data.dependencies?.forEach((repository, i) => {
    if (data.dependencies!.indexOf(repository) !== i) report(['dependencies', i], `\`${repository}\` is listed twice`);
  });
  if (problems.length > 0) return { problems };
  return {
    info: {
      ...(data.name !== undefined && { name: data.name }),
      ...(data.oem !== undefined && { oem: data.oem }),
      models: data.models ?? [],
      maintainers: (data.maintainers ?? []).map((m) => ({ name: m.name, ...(m.url !== undefined && { url: m.url }) })),
      links,
      dependencies: data.dependencies ?? [],
    },
    problems,
  };
}

/** The JSON Schema of device.yaml for editors, generated from {@link deviceSchema}. */
export function deviceJsonSchema(): Record<string, unknown> {
  const generated = zod().toJSONSchema(deviceSchema(), { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const properties = { ...(generated.properties as Record<string, Record<string, unknown>>) };
  for (const [key, description] of Object.entries(DESCRIPTIONS)) properties[key] = { description, ...properties[key] };
  return {
    $schema: generated.$schema,
    title: 'otapress device file',
    description:
      'What a catalog knows about one device: content/<device>/device.yaml. Every key is optional. See the README, "Device files".',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

/** The device schema file's text, as `otapress schema` and `init` write it. */
export function renderDeviceJsonSchema(): string {
  return `${JSON.stringify(deviceJsonSchema(), null, 2)}\n`;
}

// --- internal ---

/** The settings of device.yaml as {@link deviceSchema} reads them. */
type DeviceSettings = Z.infer<ReturnType<typeof deviceSchema>>;

/** How a device file is read (read-document.ts): its messages, and the keys each of its mappings knows. */
const DEVICE: DocumentKind<DeviceSettings> = {
  notAMapping: (found) =>
    found === 'nothing'
      ? undefined
      : `expected a mapping of keys (name: ..., oem: ...), found ${found}; see the README, "Device files"`,
  schema: deviceSchema,
  unknownKey(key, path) {
    const known = DEVICE_KEYS[path.filter((p) => typeof p === 'string').join('.')] ?? [];
    const hint = nearest(key, known);
    return `unknown key${hint ? `; did you mean \`${hint}\`?` : `; known keys here: ${known.join(', ')}`}`;
  },
  firstIssueOnly: true,
};

const DESCRIPTIONS: Record<string, string> = {
  name: 'Display name, e.g. Fairphone 4 (pages, v2 `name`); default: the code name.',
  oem: `Vendor, e.g. Fairphone (home page groups, v2 \`oem\`); default: ${UNKNOWN_OEM}.`,
  models: 'Model or marketing names shown on the pages, e.g. [FP4, FP4 5G].',
  maintainers: 'People who maintain the device: name, and an optional https url.',
  links: 'https links: info (v2 `info_url`), news, forum, support (chat), donate, source (device tree).',
  dependencies: 'Repository names of the device sources (v2 `dependencies`), e.g. [android_device_fairphone_FP4].',
};
