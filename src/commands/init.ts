/** `otapress init`: turn a folder into a catalog repository, never overwriting a file (the texts are in init-files.ts). */
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEVICE_SCHEMA_FILE, renderDeviceJsonSchema } from '../catalog/device.js';
import { renderJsonSchema, SCHEMA_FILE } from '../catalog/json-schema.js';
import { readContent } from '../catalog/read.js';
import { parseSite, SITE_FILE } from '../catalog/site.js';
import { DIALECT_SETTINGS } from '../catalog/dialects.js';
import { FORMAT_FAMILIES, type FormatFamily } from '../catalog/formats.js';
import { linkedFolder, writeFileReplacing } from '../catalog/write-manifest.js';
import { NETLIFY_TOML, NETLIFY_TOML_HEADER, oldNetlifyTomlNotice } from '../hosts/netlify.js';
import { defineCommand, EXIT, HELP_OPTION, type Io, otapressVersion, SEE_USAGE, UsageError } from '../io.js';
import { dependencyPlan, installedFromRegistry, packTarball, vendoredTarball } from './init-package.js';
import {
  exampleDeviceFile,
  exampleManifest,
  GITIGNORE,
  maintainerReadme,
  packageJson,
  pagesWorkflow,
  romSetting,
  SCAFFOLD_SCRIPTS,
  siteYaml,
  workflows,
  type ScaffoldFile,
} from './init-files.js';
import { rawBranchNameProblem, rawBranchWorkflow } from './init-raw-branch.js';
import { servedByGitHubPages } from '../render/urls.js';

/** What {@link initCatalog} did: each file it wrote, and each it found and left as it was. */
export interface InitResult {
  written: string[];
  /** Paths (or package.json entries) that were already there, with why they were left. */
  kept: string[];
  /** Lines the maintainer should read: what was not done, and what to do next. */
  notes: string[];
  /** The otapress dependency was added or changed: `npm install` records it in package-lock.json. */
  dependencyChanged: boolean;
  /** What each `--updater`'s ROM builds set to ask the site, once site.yaml has its format: one line each. */
  romSettings: string[];
}

/**
 * Scaffolds a catalog repository in `root` (created if missing): content/site.yaml, the manifest
 * schema, package.json scripts and the otapress dependency, netlify.toml, GitHub workflows,
 * .gitignore and a README; with `example`, one sample device; with `githubPages`, or for a site
 * published on GitHub Pages, the workflow that deploys it there. A file that exists is kept as it is
 * (files are created with O_EXCL, so not even one that appears meanwhile is replaced); package.json
 * only gets what it lacks.
 */
export function initCatalog(
  root: string,
  {
    example = false,
    version,
    channels,
    vendorFrom,
    githubPages = false,
    updaters = [],
    rawBranch,
  }: {
    example?: boolean;
    version: string;
    channels?: string[];
    vendorFrom?: string;
    githubPages?: boolean;
    updaters?: FormatFamily[];
    /** The branch shipped phones fetch from raw.githubusercontent.com (init-raw-branch.ts), already checked. */
    rawBranch?: string;
  },
): InitResult {
  const result: InitResult = { written: [], kept: [], notes: [], dependencyChanged: false, romSettings: [] };
  mkdirSync(root, { recursive: true });
  const create = ({ file, text }: ScaffoldFile) =>
    (createFile(root, file, text, result.notes) ? result.written : result.kept).push(file);

  if (createFile(root, SITE_FILE, siteYaml(channels, updaters), result.notes)) {
    result.written.push(SITE_FILE);
    result.romSettings = updaters.map((family) => {
      const { paths, file } = DIALECT_SETTINGS[family];
      return `${family} phones: ${romSetting(family, file === 'channel' ? paths.lists : paths.oneList)}`;
    });
  } else {
    result.kept.push(SITE_FILE);
    if (channels)
      result.notes.push(
        `--channels was not applied: ${SITE_FILE} was already there; add ${channels.join(', ')} to its \`channels\` (and \`lists\`) by hand`,
      );
    if (updaters.length > 0)
      result.notes.push(
        `--updater was not applied: ${SITE_FILE} was already there; add ${updaters.join(', ')} under its \`formats\` by hand (README, "Updaters and formats")`,
      );
  }
  create({ file: SCHEMA_FILE, text: renderJsonSchema() });
  create({ file: DEVICE_SCHEMA_FILE, text: renderDeviceJsonSchema() });
  if (example) create(exampleManifest());
  if (example) create(exampleDeviceFile());
  updatePackageJson(root, version, vendorFrom, result);
  // The same for every catalog (the build writes the routes into dist/), so it never needs rewriting.
  const content = readContent(root);
  const { site } = content.site ? parseSite(content.site) : {};
  if (!site || site.hosts.includes('netlify')) {
    create({ file: 'netlify.toml', text: NETLIFY_TOML });
    const kept = readableText(path.join(root, 'netlify.toml'));
    const old = kept === undefined ? undefined : oldNetlifyTomlNotice(kept);
    if (old) result.notes.push(`netlify.toml:${old.line}: ${old.message}`);
    else if (!kept?.startsWith(NETLIFY_TOML_HEADER)) {
      result.notes.push(
        'netlify.toml is yours and stays as it is: no otapress command changes it. For Netlify to answer the listings, its build must run `npm run build` (where Netlify runs it, otapress writes dist/_redirects and dist/_headers for Netlify) and publish dist',
      );
    }
  } else if (existsSync(path.join(root, 'netlify.toml'))) result.kept.push('netlify.toml');
  else result.notes.push(`netlify.toml was not written: the hosts in ${SITE_FILE} do not include netlify`);
  for (const workflow of workflows()) create(workflow);
  // Only for a site on Pages: on any other, a deploy that fails on every push until Pages is set up.
  if (githubPages || (site && servedByGitHubPages(site))) create(pagesWorkflow());
  if (rawBranch !== undefined) create(rawBranchWorkflow(rawBranch));
  create({ file: '.gitignore', text: GITIGNORE });
  create({ file: 'README.md', text: maintainerReadme(path.basename(root)) });
  return result;
}

export const command = defineCommand({
  summary: 'turn this folder (or the one named) into a catalog repository, keeping every file it has',
  synopsis:
    'otapress init [folder] [--channels a,b] [--updater dialect,…] [--example] [--github-pages] [--raw-branch BRANCH]',
  about: `Writes what a catalog repository needs, in the current folder or the one named (created if
missing): content/site.yaml (set download_base_url there), content/manifest.schema.json and
content/device.schema.json (the editor schemas),
netlify.toml, .github/workflows/check.yml (pull requests: problems as annotations) and build.yml
(main), .gitignore and a README.md on adding builds, deploying and the phones' updater URI; and
adds the scripts build, check and serve and the otapress dependency to package.json (created when
missing). With --github-pages (or a site.yaml whose site_url is at github.io), also
.github/workflows/pages.yml, which builds for GitHub Pages and deploys there on every push to main.
With --raw-branch BRANCH, also .github/workflows/raw-branch.yml, which copies the updater files into
BRANCH (otapress raw-branch) on every push to main, for the phones that fetch them from raw GitHub.
A file that already exists is never overwritten: init lists what it kept.`,
  options: {
    channels: {
      type: 'string',
      value: 'a,b',
      description: `the channels of your builds, each with a request list of its name: the release type in
        your zips' names, lower-cased (LineageOS: nightly, or unofficial for -UNOFFICIAL- builds). Default:
        the /e/OS channels stable, official, dev, community`,
    },
    example: {
      type: 'boolean',
      description: `add one sample device (content/FP4/: a build and its device.yaml), to see a listing at
        once`,
    },
    updater: {
      type: 'string',
      value: 'dialect,…',
      description: `also publish the answers other updaters read, each at the path its phones ask, and say
        what the ROM build sets to reach it: ${FORMAT_FAMILIES.join(', ')} (README, "Updaters and formats")`,
    },
    'github-pages': {
      type: 'boolean',
      description: `add .github/workflows/pages.yml, which builds the site for GitHub Pages and deploys it on
        every push to main`,
    },
    'raw-branch': {
      type: 'string',
      value: 'BRANCH',
      description: `add .github/workflows/raw-branch.yml, which copies the updater files into BRANCH (the one
        shipped phones fetch from raw.githubusercontent.com) on every push to main, and pushes it when they changed`,
    },
    ...HELP_OPTION,
  },
  async run({ values, positionals }, io) {
    if (positionals.length > 1) throw new UsageError(`init takes one folder, not ${positionals.length}`, SEE_USAGE);
    const rawBranch = values['raw-branch'];
    const branchProblem = rawBranch === undefined ? undefined : rawBranchNameProblem(rawBranch);
    if (branchProblem) throw new UsageError(branchProblem, SEE_USAGE);
    const root = path.resolve(positionals[0] ?? '.');
    const channels = values.channels === undefined ? undefined : channelsOption(values.channels);
    if (channels && values.example && !channels.includes('official'))
      throw new UsageError(
        '--example adds a build of channel official, which --channels leaves out: pass one of them',
        SEE_USAGE,
      );
    // The package this command runs from: kept inside the catalog unless a registry installed it.
    const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
    const vendorFrom = installedFromRegistry(packageRoot) ? undefined : packageRoot;
    const result = initCatalog(root, {
      example: values.example === true,
      version: otapressVersion(),
      channels,
      vendorFrom,
      githubPages: values['github-pages'] === true,
      updaters: values.updater === undefined ? [] : updaterOption(values.updater),
      rawBranch,
    });
    report(result, root, io);
    return EXIT.ok;
  },
});

// --- internal ---

const PAGES_WORKFLOW = pagesWorkflow().file;
const RAW_BRANCH_WORKFLOW = rawBranchWorkflow('main').file;

/** `--channels nightly,unofficial`: names phones ask with (a URL path segment, lower-case), each once. */
function channelsOption(text: string): string[] {
  const channels = text.split(',').map((c) => c.trim());
  for (const channel of channels) {
    if (channel !== channel.toLowerCase() && /^[a-z0-9][a-z0-9_-]*$/.test(channel.toLowerCase())) {
      throw new UsageError(
        `--channels: write \`${channel.toLowerCase()}\`, not \`${channel}\`: phones lower-case their release type when they ask`,
        SEE_USAGE,
      );
    }
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(channel))
      throw new UsageError(
        `--channels: \`${channel}\` is not a channel name (lowercase letters, digits, \`-\` and \`_\`; it is a URL path segment), e.g. --channels nightly`,
        SEE_USAGE,
      );
  }
  const twice = channels.find((c, i) => channels.indexOf(c) !== i);
  if (twice) throw new UsageError(`--channels names \`${twice}\` twice`, SEE_USAGE);
  return channels;
}

/** `--updater crdroid-java,aospa`: dialects otapress writes, each once. */
function updaterOption(text: string): FormatFamily[] {
  const names = text.split(',').map((n) => n.trim());
  for (const name of names)
    if (!(FORMAT_FAMILIES as string[]).includes(name))
      throw new UsageError(
        `--updater: \`${name}\` is not a dialect otapress writes; one of ${FORMAT_FAMILIES.join(', ')}`,
        SEE_USAGE,
      );
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UsageError(`--updater names \`${twice}\` twice`, SEE_USAGE);
  return names as FormatFamily[];
}

/**
 * The text of `file` when it is a regular file; undefined for anything else. Never opens a named
 * pipe or a device, whose read would wait for a writer forever.
 */
function readableText(file: string): string | undefined {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  return stat?.isFile() ? readFileSync(file, 'utf8') : undefined;
}

/**
 * Creates `file` with `text` unless something is already at that path, or a folder on the way is a
 * symbolic link (it can point outside the catalog: `notes` then says so); true when it wrote.
 */
function createFile(root: string, file: string, text: string | Buffer, notes?: string[]): boolean {
  const linked = linkedFolder(root, file);
  if (linked !== undefined) {
    notes?.push(
      `${file} was not written: ${linked}/ is a symbolic link (it can point outside the catalog), and init writes through none; make it a folder and run init again`,
    );
    return false;
  }
  const target = path.join(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  let fd: number;
  try {
    fd = openSync(target, 'wx'); // O_CREAT | O_EXCL: fails on any existing entry, links included.
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, typeof text === 'string' ? Buffer.from(text) : text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Adds the scripts and the otapress dependency to package.json. With `vendorFrom` (the running
 * package, not from a registry), a missing dependency or one that names a path outside the catalog
 * becomes the package kept inside the catalog (init-package.ts says why).
 */
function updatePackageJson(root: string, version: string, vendorFrom: string | undefined, result: InitResult): void {
  const file = path.join(root, 'package.json');
  let existing: Record<string, unknown> | undefined;
  let indent = '  ';
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (stat && !stat.isFile()) {
    // A named pipe would make the read wait forever; a link could lead out of the catalog.
    result.kept.push('package.json (not a regular file)');
    result.notes.push(
      'package.json is not a regular file (a link, a named pipe or a folder), so it was not read: make it a file, or add the scripts and the otapress dependency by hand',
    );
    return;
  }
  if (stat) {
    const text = readFileSync(file, 'utf8');
    try {
      existing = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      result.kept.push('package.json (not valid JSON)');
      result.notes.push(
        `package.json is not valid JSON (${(error as Error).message}): add the scripts ${Object.keys(SCAFFOLD_SCRIPTS).join(', ')} and the otapress dependency by hand`,
      );
      return;
    }
    if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) {
      result.kept.push('package.json (not a JSON object)');
      result.notes.push('package.json is not a JSON object: add the scripts and the otapress dependency by hand');
      return;
    }
    indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? indent;
  }
  const otapress = otapressDependency(root, version, existing, vendorFrom, result);
  const { text, added, kept } = packageJson(existing, path.basename(root), otapress.spec, {
    indent,
    replace: otapress.replace,
  });
  result.kept.push(...kept.map((entry) => `package.json ${entry}`));
  result.dependencyChanged = added.some((entry) => /^(dev)?[dD]ependencies\.otapress /.test(entry));
  if (text === undefined) return;
  if (existing === undefined) {
    if (!createFile(root, 'package.json', text)) result.kept.push('package.json (appeared while init ran)');
    else result.written.push(`package.json (${added.join(', ')})`);
    return;
  }
  // Changed in place, through a temporary file, so an interrupted init never leaves half a file.
  writeFileReplacing(root, 'package.json', text);
  result.written.push(`package.json: added ${added.join(', ')}`);
}

/** The otapress dependency to write: a registry range, or the package kept in the catalog (written here). */
function otapressDependency(
  root: string,
  version: string,
  existing: Record<string, unknown> | undefined,
  vendorFrom: string | undefined,
  result: InitResult,
): { spec: string | undefined; replace: boolean } {
  const field = ['dependencies', 'devDependencies'].find((f) =>
    Object.hasOwn((existing?.[f] ?? {}) as object, 'otapress'),
  );
  const current = field === undefined ? undefined : String((existing![field] as Record<string, unknown>).otapress);
  const range = { spec: `^${version}`, replace: false };
  const plan = dependencyPlan(current, root, vendorFrom === undefined);
  if (plan.action !== 'vendor') return range;
  const tarball = vendorFrom === undefined ? undefined : packTarball(vendorFrom);
  if (tarball === undefined) {
    result.notes.push(
      `otapress could not be kept inside the catalog (${plan.why}): run init from the installed package (npx otapress init), not from the sources`,
    );
    return range;
  }
  const file = vendoredTarball(version);
  const linked = linkedFolder(root, file);
  if (linked !== undefined) {
    result.notes.push(
      `${file} was not written and package.json's otapress dependency was left as it was: ${linked}/ is a symbolic link (it can point outside the catalog); make it a folder and run init again`,
    );
    return { spec: undefined, replace: false };
  }
  if (createFile(root, file, tarball))
    result.written.push(`${file} (otapress ${version}, kept inside the catalog: ${plan.why})`);
  else if (!readFileSync(path.join(root, file)).equals(tarball)) {
    // A package this otapress did not make, with install scripts of its own: never installed on init's word.
    result.kept.push(`${file} (differs from this otapress ${version})`);
    result.notes.push(
      `${file} is not the package of this otapress ${version}, so package.json's otapress dependency was left as it was; see where that file came from, remove it, and run init again to keep this otapress there`,
    );
    return { spec: undefined, replace: false };
  } else result.kept.push(file);
  return { spec: `file:${file}`, replace: current !== undefined };
}

function report(result: InitResult, root: string, io: Io): void {
  const where = path.relative(process.cwd(), root) || '.';
  for (const file of result.written) io.out(`wrote ${file}`);
  for (const file of result.kept) io.out(`kept  ${file}: already there, left as it is`);
  for (const note of result.notes) io.err(note);
  const next = [
    ...(where === '.' ? [] : [`cd ${where}`]),
    ...(existsSync(path.join(root, 'node_modules', 'otapress')) && !result.dependencyChanged ? [] : ['npm install']),
    `edit download_base_url in ${SITE_FILE}`,
    'npx otapress add path/to/ota.zip',
    ...result.romSettings,
    'npm run check (npm run serve previews the site at http://127.0.0.1:8788/)',
    // Netlify and Cloudflare Pages run the build on every push, and Netlify's rules are files the
    // build writes into dist/: nothing built here needs a commit.
    'commit everything, package-lock.json included (the workflows install from it), and push: Netlify and Cloudflare Pages build the site themselves; for a server of your own, npm run build and upload dist/',

    // The Pages workflow deploys only once the repository publishes Pages from Actions.
    ...(result.written.includes(PAGES_WORKFLOW)
      ? [
          'GitHub Pages: set site_url in content/site.yaml to https://<owner>.github.io/<repository>/ and, once,' +
            ' Settings → Pages → Source to "GitHub Actions"; npx otapress hosting github-pages prints what ROM builds set',
        ]
      : []),
    ...(result.written.includes(RAW_BRANCH_WORKFLOW)
      ? [
          "raw branch: the workflow pushes to it, so it must exist; set each format's path in content/site.yaml" +
            ' to the path shipped phones ask there (README, "Deploy")',
        ]
      : []),
  ];
  io.out(`\nnext:\n${next.map((line) => `  ${line}`).join('\n')}`);
}
