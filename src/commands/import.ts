/** `otapress import`: a saved v1 listing into manifests (the flow is import/import-listing.ts). */
import path from 'node:path';
import { statSync } from 'node:fs';
import { importListing } from '../import/import-listing.js';
import { importFolder } from '../import/import-folder.js';
import { reportFolder } from '../import/folder-report.js';
import { MAX_PROBLEMS } from '../import/plan-import.js';
import { summarizeNotes } from '../import/note-summary.js';
import { ContentError, formatProblem } from '../catalog/problems.js';
import { COMMON_OPTIONS, defineCommand, EXIT, SEE_USAGE, UsageError } from '../io.js';

export const command = defineCommand({
  summary: 'migrate a saved v1 listing into manifests, merging builds seen in several lists',
  synopsis:
    'otapress import <listing.json|-> --device D --list L [--android-version N] [--skip-invalid] [--verbose] [--root DIR]\n       otapress import <folder> [--dry-run] [--verbose] [--root DIR]',
  about: `Reads a v1 listing saved from a running server ({"id":null,"response":[...],"error":null}, from
a file or from standard input with -; no network) that answers GET /api/v1/<D>/<L>/, and writes one
manifest per build into content/<D>/. A build already there (same id, or same display_version for a
placeholder) gets <L> added to its lists, so importing each list of a device in turn gives one
manifest per physical build; a manifest in <L> that the listing lacks leaves <L>. Building again
reproduces every record, except the normalisations the import reports one by one.

A record needs what a LineageOS phone reads (datetime, filename, id, size, url, version; romtype
is the list's when missing), as the phone reads it: datetime and size may be numbers written as
text, id any download key (a SHA-256, an MD5, ...), version any text. Fields only the /e/ updater
reads are filled in when missing (md5sum "", android_version from api_level, from the file name
(lineage-21.0 is Android 14, crDroidAndroid-14.0 is 14) or from --android-version, else left out;
display_version from the file name, the rest empty or false), each reported once for the listing.
A PixelExperience-family answer (one object: filename, datetime, size, url, filehash, id, version,
maintainers, ...) is read as one record; its maintainers and links go to device.yaml as below. A crDroid / Evolution X device file (download, timestamp, sha256, md5,
buildtype, ...) is read too: its build links (gapps, firmware, modem, bootloader, recovery) go into
the manifest, its device fields (device, oem, maintainer, github, forum, telegram, paypal, dt) into
content/<D>/device.yaml when there is none, and the command lists what it left out. An AOSPA
file ({"updates": [...]}, every value text) puts each build in the list its build_type names (the
aospa format's buildtype: mapping, else the name in lower case, else <L>).
The notes come one line per kind, with how many records it is about (--verbose: each one).
Problems past the first ${MAX_PROBLEMS} are counted, not shown. Every problem is reported at its record and field;
nothing is written unless all records are valid, or --skip-invalid is given (then the valid ones
are imported; the exit status is 1 when none is).

Given a folder (an OTA repository checkout: per-device JSON files in an updater's dialect, with
changelogs beside them), imports every device's listing in one command: the device from the file
name, the list from a GAPPS/VANILLA folder or the records' build type, the dialect from the keys
(AOSPA's extensionless updates/<device> files too, a list per build_type).
It writes the manifests, device.yaml files, each changelog into the newest build, the lists the
site lacks and a formats entry per dialect with the path the repository uses, so that build writes
every file back at its own path. Other files are named and left alone; nothing is written unless
every file is valid. --dry-run prints the plan and writes nothing.`,
  options: {
    device: {
      type: 'string',
      value: 'D',
      description: 'the device the listing is for (the code name phones ask with)',
    },
    list: { type: 'string', value: 'L', description: 'the request list the listing answers (GET /api/v1/<D>/<L>/)' },
    'android-version': {
      type: 'string',
      value: 'N',
      description: 'the Android version of records that neither api_level nor the file name tells it of',
    },
    'skip-invalid': { type: 'boolean', description: 'import the valid records, leaving out the invalid ones' },
    verbose: { type: 'boolean', description: 'show each note, not one line per kind' },
    'dry-run': { type: 'boolean', description: 'with a folder: print the plan, write nothing' },
    ...COMMON_OPTIONS,
  },
  async run({ values, positionals }, io) {
    if (
      positionals.length === 1 &&
      positionals[0] !== '-' &&
      statSync(positionals[0], { throwIfNoEntry: false })?.isDirectory()
    ) {
      if (values.device !== undefined || values.list !== undefined || values['skip-invalid'] !== undefined)
        throw new UsageError(
          'a folder is imported whole: its devices and lists come from its files; drop --device, --list and --skip-invalid',
          SEE_USAGE,
        );
      const dryRun = values['dry-run'] === true;
      const plan = importFolder({ folder: positionals[0], root: path.resolve(values.root), dryRun });
      reportFolder(plan, io, { dryRun, verbose: values.verbose === true });
      return EXIT.ok;
    }
    if (values['dry-run'] !== undefined)
      throw new UsageError(
        '--dry-run is for a folder (otapress import <folder> --dry-run); a listing is imported whole or not at all',
        SEE_USAGE,
      );
    if (positionals.length !== 1)
      throw new UsageError(
        positionals.length === 0
          ? 'name the saved listing to import, or - for standard input'
          : `import takes one listing, not ${positionals.length}`,
        SEE_USAGE,
      );
    if (values.device === undefined || values.list === undefined)
      throw new UsageError(
        `pass the device and the request list the listing is for, e.g. --device FP4 --list stable`,
        SEE_USAGE,
      );
    const plan = importListing({
      source: positionals[0],
      root: path.resolve(values.root),
      device: values.device,
      list: values.list,
      skipInvalid: values['skip-invalid'] === true,
      ...(values['android-version'] !== undefined && { androidVersion: values['android-version'] }),
    });
    const shown = values.verbose === true ? plan.notes : summarizeNotes(plan.notes, plan.filled);
    for (const note of shown) io.err(formatProblem(note));
    if (plan.notes.length > 0) {
      const more = shown.length < plan.notes.length ? ` (${plan.notes.length} in all; --verbose shows each)` : '';
      io.err(
        `${shown.length} note${shown.length === 1 ? '' : 's'} above${more}: the build publishes these values as they say`,
      );
    }
    if (plan.problems.length > 0 && !values['skip-invalid'] && plan.unshown === 0)
      throw new ContentError(plan.problems);
    for (const p of plan.problems) io.err(formatProblem(p));
    if (plan.unshown > 0) {
      const total = plan.problems.length + plan.unshown;
      io.err(
        `${total} problems found, the first ${MAX_PROBLEMS} above: ${plan.unshown} more not shown; fix these (or the tool that wrote the listing) and import again${values['skip-invalid'] ? '' : '; nothing was written.'}`,
      );
      if (!values['skip-invalid']) return EXIT.invalid;
    }
    for (const write of plan.writes)
      io.out(
        `${write.action === 'created' ? 'created' : 'updated'} ${write.file}${write.action === 'created' ? '' : `: ${write.action}`}`,
      );
    if (plan.device) {
      const { file, written, kept, leftOut } = plan.device;
      if (written) io.out(`device fields kept in ${file}: ${kept.join(', ')}`);
      else if (kept.length > 0)
        io.out(`device fields not written: ${file} exists and is left as it is (it would keep ${kept.join(', ')})`);
      if (leftOut.length > 0) io.out(`device fields left out: ${leftOut.join(', ')}`);
    }
    io.out(
      `imported ${plan.records - plan.skipped} of ${plan.records} records into ${values.device}/${values.list}: ${plan.writes.length} manifest${plan.writes.length === 1 ? '' : 's'} written${plan.skipped > 0 ? `, ${plan.skipped} invalid record${plan.skipped === 1 ? '' : 's'} skipped` : ''}`,
    );
    // --skip-invalid leaves out some records; when it leaves out every one, the migration failed.
    if (plan.records > 0 && plan.skipped === plan.records) {
      io.err(
        `no record of ${plan.records} could be imported (problems above); fix the listing, or the site settings it needs`,
      );
      return EXIT.invalid;
    }
    return EXIT.ok;
  },
});
