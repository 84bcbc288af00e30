/** `otapress add`: the manifest of an OTA zip (the flow itself is ota/add-build.ts). */
import { oneLine } from '../catalog/problems.js';
import { COMMON_OPTIONS, defineCommand, EXIT, SEE_USAGE, UsageError } from '../io.js';

/** The heading of the options for what a zip's metadata and name do not tell. */
const TOLD = 'For zips whose metadata and name do not tell everything:';

export const command = defineCommand({
  summary: 'write the manifest of an OTA zip: facts from its metadata and name, hashes from one read',
  synopsis: 'otapress add <path/to/ota.zip> [options]',
  about: `Reads META-INF/com/android/metadata from the zip's central directory (post-timestamp, post-build,
post-sdk-level, pre-device, ota-type, ota-property-files, post-security-patch-level), falls back
to the file name, hashes the file once (MD5, SHA-1 and SHA-256 on two cores), validates the manifest as
the build does and writes content/<device>/<file name minus .zip>.yaml. Prints where each value
came from. A progress bar shows on a terminal only; Ctrl-C leaves nothing behind.`,
  options: {
    channel: { type: 'string', value: 'NAME', description: 'channel (download folder); default: from the file name' },
    lists: {
      type: 'string',
      value: 'a,b',
      description: "request lists this build appears in, overriding the site's rules",
    },
    url: {
      type: 'string',
      value: 'URL',
      description: 'download address, for builds hosted elsewhere (e.g. a release page)',
    },
    file: {
      type: 'string',
      value: 'PATH',
      multiple: true,
      description: `another file of the build (recovery.img, boot.img, firmware), hashed in one read like the
        zip and listed under files: (repeat for each); its address is derived like the zip's: upload it beside
        the zip`,
    },
    placeholder: { type: 'boolean', description: 'announce the build without a package (no filename, id, size, url)' },
    'test-build': {
      type: 'boolean',
      description: `publish a build signed with, or trusting, a public AOSP test key (refused otherwise: such
        a build installs updates signed by anyone)`,
    },
    force: {
      type: 'boolean',
      description: `replace an existing manifest, keeping what a zip cannot tell (lists, changelog, url,
        files, texts) and an id that is not a SHA-256 (phones know the build by it: the zip's SHA-256 goes in
        sha256)`,
    },
    'dry-run': { type: 'boolean', description: 'print the manifest instead of writing it' },
    ...COMMON_OPTIONS,
    device: { type: 'string', value: 'CODE', group: TOLD, description: 'the device code name phones ask with' },
    version: { type: 'string', value: 'X.Y', group: TOLD, description: 'the release number' },
    timestamp: {
      type: 'string',
      value: 'UNIX_SECONDS',
      group: TOLD,
      description: 'the exact build time (ro.build.date.utc of the build)',
    },
    'android-version': { type: 'string', value: 'N', group: TOLD, description: 'the Android major version' },
    'api-level': {
      type: 'string',
      value: 'NN',
      group: TOLD,
      description: 'the API level, where otapress knows none for the Android version',
    },
    incremental: {
      type: 'string',
      value: 'TEXT',
      group: TOLD,
      description: 'the build identifier (ro.build.version.incremental)',
    },
    filename: { type: 'string', value: 'NAME', group: TOLD, description: 'the name to publish the package under' },
    'without-metadata': {
      type: 'boolean',
      group: TOLD,
      description: `publish a zip that has no META-INF/com/android/metadata (it then needs --timestamp with
        the exact build time, ro.build.date.utc)`,
    },
    'filename-differs': {
      type: 'string',
      value: 'PARTS',
      group: TOLD,
      description: `the name is already published and differs from the metadata or options in these parts
        (device,version,channel,android_version)`,
    },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1)
      throw new UsageError(
        positionals.length === 0 ? 'name the OTA zip to add' : `add takes one zip, not ${positionals.length}`,
        SEE_USAGE,
      );
    // Hashing starts first, on two worker threads, so that loading the rest overlaps it.
    const { existsSync, statSync } = await import('node:fs');
    const { startHashing } = await import('../ota/hash.js');
    const { progressBar } = await import('../ota/progress.js');
    const bar = progressBar(process.stderr, 'hashing');
    // Whatever quotes the zip (its name, its metadata) reaches the terminal with control characters
    // escaped: refusals and usage messages by the CLI, line by line, the --dry-run text here.
    const out = (text: string) => io.out(text.split('\n').map(oneLine).join('\n'));
    // With a handler, Ctrl-C lands between two steps, never inside the final write-and-rename.
    const interrupted = () => {
      bar.end();
      io.err('interrupted; no manifest was written');
      process.exit(130);
    };
    process.once('SIGINT', interrupted);
    const zip = positionals[0];
    const hashing =
      existsSync(zip) && statSync(zip).isFile()
        ? startHashing(zip, (done, total) => bar.update(done, total))
        : undefined;
    const path = await import('node:path');
    const { addBuild } = await import('../ota/add-build.js');
    try {
      const result = await addBuild({
        zip: positionals[0],
        root: path.resolve(values.root),
        channel: values.channel,
        lists: listOption(values.lists),
        url: values.url,
        placeholder: values.placeholder === true,
        force: values.force === true,
        dryRun: values['dry-run'] === true,
        device: values.device,
        version: values.version,
        timestamp: values.timestamp,
        android_version: values['android-version'],
        api_level: values['api-level'],
        incremental: values.incremental,
        filename: values.filename,
        withoutMetadata: values['without-metadata'] === true,
        filenameDiffers: listOption(values['filename-differs']),
        files: values.file,
        testBuild: values['test-build'] === true,
        hashing,
      });
      bar.end();
      io.err(oneLine(`${result.file}:`));
      for (const line of result.report) io.err(oneLine(line));
      for (const notice of result.notices) io.err(oneLine(notice));
      if (result.written) io.out(oneLine(`wrote ${result.file}`));
      else out(result.text.trimEnd());
      return EXIT.ok;
    } finally {
      // A refusal is reported by the CLI, on a line of its own: the bar is gone by then.
      bar.end();
      process.off('SIGINT', interrupted);
    }
  },
});

// --- internal ---

/** `--lists a, b`: the names, without spaces and empty ones. */
function listOption(text: string | undefined): string[] | undefined {
  return text
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}
