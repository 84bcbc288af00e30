/** `otapress raw-branch`: copy the site's updater files into a checkout of the branch phones fetch from raw GitHub. */
import { COMMON_OPTIONS, count, defineCommand, EXIT, SEE_USAGE, UsageError } from '../io.js';

export const command = defineCommand({
  summary: 'copy the built updater files into the branch that shipped phones fetch from raw.githubusercontent.com',
  synopsis: 'otapress raw-branch <folder> [--root DIR] [--dist DIR]',
  about: `ROM builds already shipped ask raw.githubusercontent.com/<owner>/<repo>/<branch>/<path>, an
address compiled into each build. Set each updater format's path in content/site.yaml to the path
its phones ask (crDroid: /{device}.json, PixelOS: /API/updater/{device}.json) and build; then this
copies, from dist/, every format's file and every request_paths file into <folder>, a checkout of
that branch, at the same paths, byte for byte: commit and push it there, and those phones keep
updating while new ROM builds ask the site.

It writes only files it wrote before, named in <folder>/.otapress-raw: a file at one of its paths
that is not named there is left as it is, and nothing is copied (remove it from the branch once,
with git rm, for otapress to write it). A file it wrote that the site no longer has is removed.`,
  options: {
    dist: { type: 'string', value: 'DIR', description: 'the built site (default: dist/ of --root)' },
    ...COMMON_OPTIONS,
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) {
      const not = positionals.length > 1 ? `, not ${positionals.join(' ')}` : '';
      throw new UsageError(`name the checkout of the raw branch, one folder${not}`, SEE_USAGE);
    }
    const path = await import('node:path');
    const { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const root = path.resolve(values.root);
    const dist = path.resolve(root, values.dist ?? 'dist');
    const target = path.resolve(positionals[0]);
    const { OUTPUT_MARKER } = await import('../pipeline/out-dir.js');
    if (!existsSync(path.join(dist, OUTPUT_MARKER))) {
      throw new UsageError(`${dist} is not a built site (no ${OUTPUT_MARKER}): run otapress build first`, SEE_USAGE);
    }
    if (!lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`${target} is not a folder: check out the raw branch there first`, SEE_USAGE);
    }
    const { readContent } = await import('../catalog/read.js');
    const { parseSite, SITE_FILE } = await import('../catalog/site.js');
    const { ContentError } = await import('../catalog/problems.js');
    const content = readContent(root);
    const siteProblems = content.problems.filter((p) => p.file === SITE_FILE);
    const { site, problems } = content.site ? parseSite(content.site) : { site: undefined, problems: siteProblems };
    if (!site) throw new ContentError(problems);
    const { RAW_LEDGER, rawBranchFiles, readRawLedger, renderRawLedger } = await import('../hosts/raw-branch.js');
    const { linkedFolder } = await import('../catalog/write-manifest.js');
    const ledgerFile = path.join(target, RAW_LEDGER);
    const written = existsSync(ledgerFile) ? readRawLedger(readFileSync(ledgerFile, 'utf8')) : new Set<string>();
    // A list with nothing to offer has no file in some formats (PixelExperience's): nothing to copy.
    const files = rawBranchFiles(site, content.devices).filter((file) => existsSync(path.join(dist, file.from)));
    const refused = files.flatMap(({ path: file }) => {
      const linked = linkedFolder(target, file);
      if (linked !== undefined) {
        return [`${file}: ${linked}/ is a symbolic link (it can lead out of the branch): not written through`];
      }
      if (written.has(file) || !lstatSync(path.join(target, file), { throwIfNoEntry: false })) return [];
      return [
        `${file}: not written by otapress (not in ${RAW_LEDGER}), so it is left as it is;` +
          ' remove it from the branch (git rm) for otapress to write it',
      ];
    });
    if (refused.length > 0) {
      for (const line of refused) io.err(`${path.relative(process.cwd(), target) || '.'}/${line}`);
      io.err(`nothing was copied: ${count(refused.length, 'file is', 'files are')} in the way`);
      return EXIT.invalid;
    }
    for (const file of files) {
      mkdirSync(path.dirname(path.join(target, file.path)), { recursive: true });
      writeFileSync(path.join(target, file.path), readFileSync(path.join(dist, file.from)));
    }
    const kept = new Set(files.map((f) => f.path));
    const ours = (file: string) => linkedFolder(target, file) === undefined && existsSync(path.join(target, file));
    const removed = [...written].filter((file) => !kept.has(file) && ours(file));
    for (const file of removed) rmSync(path.join(target, file));
    writeFileSync(ledgerFile, renderRawLedger(kept));
    const gone = removed.length > 0 ? `, removed ${count(removed.length, 'file')} the site no longer has` : '';
    io.out(`copied ${count(files.length, 'file')} into ${target}${gone}`);
    // raw serves files only: the zips GrapheneOS's updater asks beside its channel file need a file each.
    const { DIALECT_SETTINGS } = await import('../catalog/dialects.js');
    for (const format of site.formats.filter((f) => DIALECT_SETTINGS[f.family].file === 'channel'))
      io.err(
        `${format.path}: raw.githubusercontent.com cannot redirect, so GrapheneOS phones find <device>-ota_update-<incremental>.zip` +
          ' (and <device>-incremental-<from>-<to>.zip) there only if the zip is committed under that name beside the channel file',
      );
    return EXIT.ok;
  },
});
