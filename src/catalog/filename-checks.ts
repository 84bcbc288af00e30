/**
 * The cross-checks of a manifest's file name (a rule of manifest.ts): a plain name phones can save,
 * and for names of a known form, their device, version, channel and Android version against the
 * folder and the fields, unless `filename_differs` says the published name differs there.
 */
import { FILENAME_FORMS, nameFitsDevice, parseBuildFilename, PLAIN_FILENAME, type FilenameFacts } from './filename.js';

/** The parts of a file name of a known form that are cross-checked, as `filename_differs` names them. */
export const NAME_PARTS = ['device', 'version', 'channel', 'android_version'] as const;

/** The manifest fields the file name is compared with (as manifest.ts read them). */
export interface NameFields {
  filename?: string;
  filename_differs?: readonly (typeof NAME_PARTS)[number][];
  version?: string;
  channel?: string;
  android_version?: string;
}

/** A problem of the file name, at a field of the manifest (`key`: at the key, not its value). */
export interface NameProblem {
  field: string;
  message: string;
  key: boolean;
}

/** Every problem of the manifest's file name. Pure. */
export function filenameProblems(
  fields: NameFields,
  bad: ReadonlySet<string>,
  device: string,
  placeholder: boolean,
): NameProblem[] {
  const problems: NameProblem[] = [];
  const report = (field: string, message: string, { key = false } = {}) => problems.push({ field, message, key });
  const name = fields.filename;
  if (placeholder && fields.filename_differs !== undefined) {
    report('filename_differs', 'a placeholder has no file name to compare; remove filename_differs', { key: true });
  }
  if (placeholder || name === undefined || bad.has('filename')) return problems;
  if (name.includes('/') || name.includes('\\') || name.includes('..') || name.trim() !== name || name === '') {
    report(
      'filename',
      'expected a plain file name without folders, `..` or surrounding spaces; the phone saves the download under this name',
    );
    return problems;
  }
  if (!PLAIN_FILENAME.test(name)) {
    const odd = [...new Set([...name].filter((ch) => !/[A-Za-z0-9._~-]/.test(ch)))]
      .map((ch) => (ch === ' ' ? 'a space' : JSON.stringify(ch)))
      .join(', ');
    report(
      'filename',
      name.length > 255
        ? `the file name is ${name.length} characters long; a phone saves the download under it, and its file system holds at most 255`
        : odd
          ? `\`${name}\` holds ${odd}; a package name uses letters, digits, \`-\`, \`.\`, \`_\` and \`~\` only (it ends the download address and names the file on the phone): rename the package`
          : `\`${name}\` starts with \`${name[0]}\`; start the package name with a letter, a digit or \`_\``,
    );
    return problems;
  }
  // Other ROMs' names carry no facts we read: the manifest's own fields are all there is to check.
  const facts = parseBuildFilename(name);
  const accepted = bad.has('filename_differs') ? [] : (fields.filename_differs ?? []);
  if (!facts) {
    if (fields.filename_differs !== undefined) {
      report(
        'filename_differs',
        `\`${name}\` is in neither form whose parts are compared (${FILENAME_FORMS}), so nothing differs; remove filename_differs`,
        { key: true },
      );
    }
    return problems;
  }
  const differs = nameDisagreements(facts, fields, bad, device);
  // One line that accepts every disagreement at once, offered first: renaming a file phones
  // already download, or moving it to a folder phones do not ask, is rarely possible.
  const line = differs.length > 0 ? `filename_differs: [${differs.map((d) => d.part).join(', ')}]` : '';
  for (const d of differs) {
    if (!accepted.includes(d.part))
      report(
        d.field,
        `${d.what}; if the zip is already published under this name, write \`${line}\`; otherwise ${d.fix}`,
      );
  }
  accepted.forEach((part, i) => {
    if (accepted.indexOf(part) !== i) report(`filename_differs.${i}`, `\`${part}\` is listed twice; remove one`);
    else if (!differs.some((d) => d.part === part))
      report(
        `filename_differs.${i}`,
        `the file name agrees with the ${part === 'device' ? 'folder' : `\`${part}\` field`}; remove \`${part}\` from filename_differs`,
      );
  });
  return problems;
}

/** Where a file name of a known form disagrees with the fields and the folder: what, and the fix when the name is not yet published. */
function nameDisagreements(facts: FilenameFacts, fields: NameFields, bad: ReadonlySet<string>, device: string) {
  const differs: { part: (typeof NAME_PARTS)[number]; field: string; what: string; fix: string }[] = [];
  if (!nameFitsDevice(facts.device, device)) {
    differs.push({
      part: 'device',
      field: 'filename',
      what: `the file name is for device \`${facts.device}\` but the manifest is in the folder of \`${device}\``,
      fix: `move the manifest to content/${facts.device}/ or fix the name`,
    });
  }
  if (fields.version !== undefined && !bad.has('version') && facts.version !== fields.version) {
    differs.push({
      part: 'version',
      field: 'version',
      what: `version is "${fields.version}" but the file name says "${facts.version}"`,
      fix: 'make them agree',
    });
  }
  if (fields.channel !== undefined && !bad.has('channel') && facts.channel !== fields.channel) {
    differs.push({
      part: 'channel',
      field: 'channel',
      what: `channel is \`${fields.channel}\` but the file name says \`${facts.channel}\``,
      fix: 'make them agree',
    });
  }
  if (
    facts.androidVersion !== undefined &&
    fields.android_version !== undefined &&
    !bad.has('android_version') &&
    facts.androidVersion !== fields.android_version
  ) {
    const part =
      facts.platform !== undefined ? `platform part \`${facts.platform}\`` : `LineageOS version ${facts.version}`;
    differs.push({
      part: 'android_version',
      field: 'android_version',
      what: `android_version is "${fields.android_version}" but the file name's ${part} means Android ${facts.androidVersion}`,
      fix: 'make them agree',
    });
  }
  return differs;
}
