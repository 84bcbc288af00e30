/** `otapress add`: the manifest of an OTA zip (the flow itself is ota/add-build.ts). */
import { oneLine } from '../catalog/problems.js';
import { type Command, COMMON_OPTIONS, count, EXIT, UsageError } from '../io.js';

export const command: Command = {
  summary: 'write the manifest of an OTA zip: facts from its metadata and name, hashes from one read',
  usage: `otapress add <path/to/ota.zip> [options]

Reads META-INF/com/android/metadata from the zip's central directory (post-timestamp, post-build,
post-sdk-level, pre-device, ota-type, ota-property-files, post-security-patch-level), falls back
to the file name, hashes the file once (MD5, SHA-1 and SHA-256 on two cores), validates the manifest as
the build does and writes content/<device>/<file name minus .zip>.yaml. Prints where each value
came from. A progress bar shows on a terminal only; Ctrl-C leaves nothing behind.

  --channel NAME          channel (download folder); default: from the file name
  --lists a,b             request lists this build appears in, overriding the site's rules
  --url URL               download address, for builds hosted elsewhere (e.g. a release page)
  --file PATH             another file of the build (recovery.img, boot.img, firmware), hashed
                          in one read like the zip and listed under files: (repeat for each);
                          its address is derived like the zip's: upload it beside the zip
  --placeholder           announce the build without a package (no filename, id, size, url)
  --test-build            publish a build signed with, or trusting, a public AOSP test key
                          (refused otherwise: such a build installs updates signed by anyone)
  --force                 replace an existing manifest, keeping what a zip cannot tell (lists,
                          changelog, url, files, texts) and an id that is not a SHA-256
                          (phones know the build by it: the zip's SHA-256 goes in sha256)
  --dry-run               print the manifest instead of writing it
  --root DIR              project folder holding content/ (default: this folder, or the
                          nearest one above it with content/site.yaml)

For zips whose metadata and name do not tell everything:
  --device CODE  --version X.Y  --timestamp UNIX_SECONDS  --android-version N  --api-level NN
  --incremental TEXT  --filename NAME (the name to publish the package under)
  --without-metadata      publish a zip that has no META-INF/com/android/metadata (it then
                          needs --timestamp with the exact build time, ro.build.date.utc)
  --filename-differs PARTS  the name is already published and differs from the metadata or
                          options in these parts (device,version,channel,android_version)`,
  options: {
    ...COMMON_OPTIONS,
    channel: { type: 'string' },
    lists: { type: 'string' },
    url: { type: 'string' },
    file: { type: 'string', multiple: true },
    placeholder: { type: 'boolean' },
    force: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    device: { type: 'string' },
    version: { type: 'string' },
    timestamp: { type: 'string' },
    'android-version': { type: 'string' },
    'api-level': { type: 'string' },
    incremental: { type: 'string' },
    filename: { type: 'string' },
    'without-metadata': { type: 'boolean' },
    'filename-differs': { type: 'string' },
    'test-build': { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name the OTA zip to add' : `add takes one zip, not ${positionals.length}`);
    // Hashing starts first, on two worker threads, so that loading the rest overlaps it.
    const { existsSync, statSync } = await import('node:fs');
    const { startHashing } = await import('../ota/hash.js');
    const { progressBar } = await import('../ota/progress.js');
    const bar = progressBar(process.stderr, 'hashing');
    // Whatever quotes the zip (its name, its metadata) reaches the terminal with control characters
    // escaped: usage messages are escaped line by line where they are made (AddUsageError), the
    // --dry-run text, of several lines, here.
    const out = (text: string) => io.out(text.split('\n').map(oneLine).join('\n'));
    // With a handler, Ctrl-C lands between two steps, never inside the final write-and-rename.
    const interrupted = () => {
      bar.end();
      io.err('interrupted; no manifest was written');
      process.exit(130);
    };
    process.once('SIGINT', interrupted);
    const zip = positionals[0];
    const hashing = existsSync(zip) && statSync(zip).isFile() ? startHashing(zip, (done, total) => bar.update(done, total)) : undefined;
    const path = await import('node:path');
    const { addBuild, AddRefusal, AddUsageError } = await import('../ota/add-build.js');
    const str = (key: string) => (values[key] === undefined ? undefined : String(values[key]));
    try {
      const result = await addBuild({
        zip: positionals[0],
        root: path.resolve(String(values.root)),
        channel: str('channel'),
        lists: str('lists')?.split(',').map((l) => l.trim()).filter(Boolean),
        url: str('url'),
        placeholder: values.placeholder === true,
        force: values.force === true,
        dryRun: values['dry-run'] === true,
        device: str('device'),
        version: str('version'),
        timestamp: str('timestamp'),
        android_version: str('android-version'),
        api_level: str('api-level'),
        incremental: str('incremental'),
        filename: str('filename'),
        withoutMetadata: values['without-metadata'] === true,
        filenameDiffers: str('filename-differs')?.split(',').map((p) => p.trim()).filter(Boolean),
        files: values.file as string[] | undefined,
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
    } catch (error) {
      bar.end();
      if (error instanceof AddUsageError) {
        io.err(error.message);
        return EXIT.usage;
      }
      if (error instanceof AddRefusal) {
        for (const p of error.problems) io.err(oneLine(`${p.where}  ${p.field}  ${p.message}`));
        io.err(`${count(error.problems.length, 'problem')} found; nothing was written.`);
        return EXIT.invalid;
      }
      throw error;
    } finally {
      process.off('SIGINT', interrupted);
    }
  },
};
