/**
 * What `otapress init` scaffolds: the text of every file of a new catalog repository, and the
 * entries it adds to a package.json. Pure: init.ts decides what to write and never overwrites.
 */
import { DEVICE_FILE, DEVICE_SCHEMA_COMMENT } from '../catalog/device.js';
import { DIALECT_SETTINGS } from '../catalog/dialects.js';
import type { FormatFamily } from '../catalog/formats.js';
import { renderManifestText } from '../catalog/manifest-text.js';
import {
  DEFAULT_CACHE_CONTROL,
  DEFAULT_CHANNELS,
  DEFAULT_LISTS,
  defaultV1Withdrawn,
  HOSTS,
  parseSite,
} from '../catalog/site.js';

/** One file to scaffold, at its path relative to the catalog repository. */
export interface ScaffoldFile {
  file: string;
  text: string;
}

/** The npm scripts of a catalog repository: the commands the hosts and the maintainer run. */
export const SCAFFOLD_SCRIPTS: Record<string, string> = {
  build: 'otapress build',
  check: 'otapress check',
  serve: 'otapress serve',
};

/**
 * `content/site.yaml`, commented, with the channels and lists written out to edit: the interface's
 * by default, or the given channels (`init --channels nightly`) each with the list the site would
 * give it by default (a list of its own name; see parseSite).
 */
export function siteYaml(channels?: readonly string[], updaters: readonly FormatFamily[] = []): string {
  const listsOf =
    channels === undefined
      ? DEFAULT_LISTS
      : Object.fromEntries(
          parseSite(`download_base_url: https://x.invalid\nchannels: [${channels.join(', ')}]\n`).site!.lists.map(
            (l) => [l.name, l.channels],
          ),
        );
  const lists = Object.entries(listsOf).map(([list, members]) => `  ${list}: [${members.join(', ')}]`);
  const why =
    channels === undefined
      ? '(ro.lineage.releasetype): that is why the stable list also collects official builds.'
      : "(ro.lineage.releasetype, the type in a LineageOS zip's name, lower-cased).";
  return `# otapress site settings: see "Site settings" in node_modules/otapress/README.md.

# Where phones download the OTA zips from: a build's address is
#   {download_base_url}/{channel}/{device}/{filename}
# unless its manifest gives a url. Replace this with the address of your file host.
download_base_url: https://downloads.example.org/builds

# Channel values a build may carry (its download folder).
channels: [${(channels ?? DEFAULT_CHANNELS).join(', ')}]

# Request lists (GET /api/v1/<device>/<list>/) and the channels each one collects. Every record in
# a list carries romtype: <list>, which a phone compares with its release type
# ${why}
lists:
${lists.join('\n')}

# The hosts the site deploys to: only their rule files are written (dist/_redirects and
# dist/_headers: Cloudflare's, or Netlify's with build --host netlify, as netlify.toml asks).
# hosts: [${HOSTS.join(', ')}]

# Cache-Control of every listing.
# cache_control: "${DEFAULT_CACHE_CONTROL}"

# Cloudflare Pages only: answer OPTIONS under /api/ with 204 through a generated _worker.js. Every
# request under /api/ then runs the worker and counts as a (billed) Functions request; the updater
# apps only send GET.
# options_handler: false

${
  channels === undefined || defaultV1Withdrawn(channels) === 'list'
    ? `# LineageOS updaters cannot tell a withdrawn (.disabled.zip) build from any other and offer it for
# install, and offer a build of size 0: omit leaves both out of the listings (README, Site settings).
# v1_withdrawn: list`
    : `# LineageOS updaters cannot tell a withdrawn (.disabled.zip) build from any other and offer it for
# install, and offer a build of size 0: omit (the default for these channels) leaves both out of the
# listings; list keeps them, as the /e/ interface does (README, Site settings).
v1_withdrawn: omit`
}

# Your own Apache on shared hosting, where only .htaccess is allowed: write dist/.htaccess with the
# rules of \`otapress hosting apache\` (README, "Your own server: nginx, Caddy, Apache").
# apache_htaccess: false

# Extra request paths that answer a listing, for phones built to ask another server's paths
# ({device}, {list}, {incremental} are the placeholders; README, Site settings).
# request_paths:
#   - /api/v1/{device}_{list}
${updaters.length > 0 ? formatsYaml(updaters, Object.keys(listsOf)[0]) : ''}`;
}

/**
 * What a ROM build sets for each dialect's phones to ask this site (README "Updaters and formats"),
 * `{address}` being the file's address with the updater's own placeholders, `{base}` its folder.
 * The crDroid family and PixelOS read the `updater_server_url` resource (crdroidandroid/android_packages_apps_Updater
 * `Utils.java`), PixelExperience formats its `Constants.OTA_URL`, GrapheneOS's updater reads the
 * `url` resource and AOSPA's hub `system_update_server_url`, each a base the updater appends to.
 */
const ROM_SETTINGS: Record<FormatFamily, string> = {
  crdroid: '<string name="updater_server_url">{address}</string> (an overlay of the Updater app)',
  'crdroid-java': '<string name="updater_server_url">{address}</string> (an overlay of the Updater app)',
  'md5-six': '<string name="updater_server_url">{address}</string> (an overlay of the Updater app)',
  'lineage-v1':
    'DerpFest: <string name="updater_server_url">{address}</string>; LineageOS builds: lineage.updater.uri={address}',
  pixelos15: '<string name="updater_server_url">{address}</string> (an overlay of the Updater app)',
  'pixelos-feed': '<string name="updater_server_url">{address}</string> (an overlay of the Updater app)',
  pixelexperience: 'Constants.OTA_URL = "{address}" in the Updates app (a constant, not a resource: patch it)',
  grapheneos: '<string name="url">{base}</string> (config.xml overlay of the Updater app)',
  aospa: '<string name="system_update_server_url">{base}</string> (an overlay of the hub)',
};

/**
 * The formats of `init --updater`: each dialect at its default path for one list (`list`, the
 * site's first) where the updater's address names no list (all but GrapheneOS's channel file).
 */
function formatsYaml(updaters: readonly FormatFamily[], list: string): string {
  const entries = updaters.map((family) => {
    const { paths, file } = DIALECT_SETTINGS[family];
    return file === 'channel'
      ? `  ${family}:\n    path: ${paths.lists}`
      : `  ${family}:\n    lists: [${list}]\n    path: ${paths.oneList}`;
  });
  return `
# Other updaters' answers, each where its phones ask (README, "Updaters and formats"). A ROM build
# points its updater at one list: change \`lists\` to the one its phones follow.
formats:
${entries.join('\n')}
`;
}

/** The one line a ROM build sets for `family`'s phones to ask the file at `path` (a format's path) of a site at `site`. */
export function romSetting(family: FormatFamily, path: string, site = 'https://<site>'): string {
  // The updaters' own placeholders: {device} for the codename; PixelExperience formats `%s`.
  const address = `${site}${family === 'pixelexperience' ? path.replace('{device}', '%s') : path}`;
  const base = `${site}${path.replace(/(updates\/)?\{device\}.*$/, '')}`;
  return ROM_SETTINGS[family].replaceAll('{address}', address).replaceAll('{base}', base);
}

/** The sample device of `--example`: one build of the README's FP4, to see a listing at once. */
export function exampleManifest(): ScaffoldFile {
  const filename = 'e-2.5-a14-20241108446322-official-FP4.zip';
  return {
    file: `content/FP4/${filename.replace(/\.zip$/, '.yaml')}`,
    text: renderManifestText(
      {
        filename,
        version: '2.5',
        channel: 'official',
        timestamp: 1731067200,
        android_version: '14',
        incremental: 'eng.root.20241108.123456',
        md5sum: '75d230308d36383a21994e175cb1d0b7',
        id: '13853cffb4381efecf5ece95af491e554f9195c0e56f71d4ec7eb2a1a12a8f8b',
        size: 1387003904,
      },
      ['A sample build written by `otapress init --example`: remove it before you publish your own.'],
    ),
  };
}

/** The sample device's device.yaml of `--example`: what the pages and the v2 directory show of it. */
export function exampleDeviceFile(): ScaffoldFile {
  return {
    file: `content/FP4/${DEVICE_FILE}`,
    text: `${DEVICE_SCHEMA_COMMENT}
# A sample device file written by \`otapress init --example\`: every key is optional (README, "Device files").
name: Fairphone 4
oem: Fairphone
models: [FP4]
maintainers:
  - name: Your Name
    url: https://github.com/your-account
links:
  info: https://wiki.lineageos.org/devices/FP4
  forum: https://forum.fairphone.com/
dependencies: [android_device_fairphone_FP4]
`,
  };
}

/**
 * The steps every workflow starts with: check out, Node 20, the locked packages. `history`: the
 * whole history, which `otapress diff` needs to read the pull request's base (a checkout has the
 * one commit it builds by default).
 */
const workflowSetup = (history = false) => `    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4${history ? '\n        with:\n          fetch-depth: 0' : ''}
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci`;

/**
 * The GitHub Actions workflows: annotations on pull requests and what phones will be offered once
 * one is merged, the build of main. Nothing of the catalog goes into them: the pull request's base
 * reaches the diff through the environment, never through the YAML or the shell's text.
 */
export function workflows(): ScaffoldFile[] {
  const setup = workflowSetup();
  return [
    {
      file: '.github/workflows/check.yml',
      text: `# Pull requests: validate every manifest and show each problem on its line of the diff, then
# what phones will be offered once it is merged, answer by answer (the job's summary page).
# Make this check required for main (Settings → Branches) so that no invalid manifest is merged.
name: check
on:
  pull_request:
permissions:
  contents: read
jobs:
  check:
${workflowSetup(true)}
      - name: Validate the manifests (annotations on the changed lines)
        run: npx otapress check --format github
      # A pull request's checkout is the merge of it into its base: diff shows what merging changes.
      - name: What phones will be offered after the merge (the job summary)
        env:
          BASE: \${{ github.event.pull_request.base.sha }}
        run: npx otapress diff "$BASE" --format markdown >> "$GITHUB_STEP_SUMMARY"
      - name: The editor schema matches the installed otapress
        run: npx otapress schema --check
`,
    },
    {
      file: '.github/workflows/build.yml',
      text: `# Main branch: build the site as the hosts do, and keep the result as an artifact to inspect.
# Netlify and Cloudflare Pages build and deploy on their own when they see the push.
name: build
on:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  build:
${setup}
      - name: Build dist/
        run: npx otapress build
      - uses: actions/upload-artifact@v4
        with:
          name: dist
          path: dist/
`,
    },
  ];
}

/**
 * The workflow that publishes the site on GitHub Pages from main (`init --github-pages`, or a
 * site.yaml whose site is on Pages): GitHub's own starter (actions/starter-workflows pages/static.yml)
 * with the current majors of the Pages actions. An Actions deploy runs no Jekyll, and the site's
 * base path comes from site_url, so neither `.nojekyll` nor actions/configure-pages is needed here.
 */
export function pagesWorkflow(): ScaffoldFile {
  return {
    file: '.github/workflows/pages.yml',
    text: `# Main branch: build the site for GitHub Pages and deploy it. Once, in Settings → Pages, set Source
# to "GitHub Actions"; set site_url in content/site.yaml to the site's address
# (https://<owner>.github.io/<repository>/), and \`npx otapress hosting github-pages\` prints what
# each ROM build must set to ask it.
name: pages
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: read
  pages: write
  id-token: write
concurrency:
  group: pages
  cancel-in-progress: false
jobs:
  deploy:
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
${workflowSetup()}
      - name: Build dist/ for GitHub Pages
        run: npx otapress build --host github-pages
      - uses: actions/upload-pages-artifact@v5
        with:
          path: dist/
      - id: deployment
        uses: actions/deploy-pages@v5
`,
  };
}

/** `.gitignore`: the installed packages, the built site, and what a running build leaves beside it. */
export const GITIGNORE = `node_modules/
/dist/
# Left beside dist/ while a build writes it (or by a killed build; the next build cleans up), and
# the tree a build replaced, while an rm -rf in the background removes it.
.dist.staging-*/
.dist.previous-*/
.dist.trash-*/
.dist.lock*
`;

/** The maintainer's README: adding a build, deploying, and the address phones must ask. */
export function maintainerReadme(name: string): string {
  return `# ${name}

The update server of our Android builds: a static site published with
[otapress](https://www.npmjs.com/package/otapress). Each build is one small YAML manifest under
\`content/<device>/\`; \`npm run build\` turns them into \`dist/\`, the listings phones download.

## Add a build

1. Upload the OTA zip to \`{download_base_url}/{channel}/{device}/{filename}\` (see
   \`content/site.yaml\`), or pass \`--url\` with the address where it is.
2. Write its manifest from the zip itself (build time, Android version, hashes and size):

   \`\`\`sh
   npx otapress add path/to/e-3.0-a15-20250610500001-official-FP4.zip
   \`\`\`

3. \`npm run check\`, then commit the manifest. Open a pull request: the \`check\` workflow
   annotates any problem. The hosts build the site themselves; nothing else needs a commit.

\`npm run check\` validates without writing; \`npm run serve\` previews the site at
http://127.0.0.1:8788/ and rebuilds on every change.

## Deploy

- **Netlify**: add a site from this repository; \`netlify.toml\` sets the build command, the publish
  folder and Node 20.
- **Cloudflare Pages**: connect the repository with build command \`npm run build\`, output
  directory \`dist\` and the environment variable \`NODE_VERSION=20\`.

Both build every push to \`main\` and keep the previous deploy online when a build fails.

## What phones ask

The updater app reads the server address from the system property \`lineage.updater.uri\` of the
ROM. Set it in your ROM build to

- \`https://<your site>/api/v1/{device}/{type}/{incr}\` for /e/OS and LineageOS Updater up to 23.1,
- \`https://<your site>/api/v2/devices/{device}/builds\` for LineageOS Updater 23.2 and later.

Check a deploy with \`curl -s https://<your site>/api/v1/<device>/<list>/\`.

## Upgrade otapress

From the registry: \`npm install otapress@latest\`. Kept in \`vendor/\` (a package not installed from
a registry): \`npm install path/to/otapress-<new version>.tgz\`, then \`npx otapress init\`, which
keeps the new package in \`vendor/\` again (remove the old tarball there), and \`npm install\`.
Then \`npx otapress schema\` (the editor schema) and \`npm run build\`; commit what changed,
package-lock.json included.
`;
}

/**
 * The package.json of a catalog repository: the given one with the npm scripts and the otapress
 * dependency `otapress` (a spec; undefined leaves it as it is) added where missing (nothing it has is changed, except an
 * otapress dependency that `replace` names: a path outside the catalog), or a new one. `undefined`
 * text when nothing is missing.
 */
export function packageJson(
  existing: Record<string, unknown> | undefined,
  name: string,
  otapress: string | undefined,
  { indent = '  ', replace = false }: { indent?: string; replace?: boolean } = {},
): { text?: string; added: string[]; kept: string[] } {
  const pkg: Record<string, unknown> = existing ? { ...existing } : { name, version: '1.0.0', private: true };
  const added: string[] = [];
  const kept: string[] = [];
  const scripts = { ...((pkg.scripts ?? {}) as Record<string, string>) };
  for (const [script, command] of Object.entries(SCAFFOLD_SCRIPTS)) {
    if (Object.hasOwn(scripts, script)) {
      kept.push(`scripts.${script} (${JSON.stringify(scripts[script])})`);
    } else {
      scripts[script] = command;
      added.push(`scripts.${script}`);
    }
  }
  pkg.scripts = scripts;
  const has = ['dependencies', 'devDependencies'].find((field) =>
    Object.hasOwn((pkg[field] ?? {}) as object, 'otapress'),
  );
  if (otapress === undefined) {
    // Left as it is, present or not (init says why).
  } else if (has && replace) {
    const dependencies = pkg[has] as Record<string, string>;
    added.push(`${has}.otapress ${dependencies.otapress} → ${otapress}`);
    pkg[has] = { ...dependencies, otapress };
  } else if (has) {
    kept.push(`${has}.otapress (${JSON.stringify((pkg[has] as Record<string, string>).otapress)})`);
  } else {
    pkg.dependencies = { ...((pkg.dependencies ?? {}) as Record<string, string>), otapress };
    added.push(`dependencies.otapress ${otapress}`);
  }
  return { text: added.length > 0 ? `${JSON.stringify(pkg, null, indent)}\n` : undefined, added, kept };
}
