/**
 * The raw-branch workflow of `init --raw-branch <branch>`: ROM builds already shipped ask
 * raw.githubusercontent.com/<owner>/<repository>/<branch>/<path>, an address compiled into each
 * build, so the branch they name must keep receiving the site's files (`otapress raw-branch`,
 * hosts/raw-branch.ts). The flag names that branch because the maintainer knows it from the
 * address the phones ask, and it is independent of where the site itself is published (Pages,
 * Netlify, Cloudflare, a server). A workflow of its own: it alone needs `contents: write`, and it
 * is written (never over a file that is there) whether or not pages.yml already exists.
 */
import { workflowSetup, type ScaffoldFile } from './init-files.js';

/** Where the workflow checks out the raw branch, inside the catalog's checkout (the build is done by then). */
export const RAW_CHECKOUT = 'raw-branch';

/**
 * Why `branch` cannot be the raw branch's name, or undefined when it can: git's own rules
 * (`git check-ref-format --branch`: no `..`, `@{`, control characters, space, `~^:?*[\`, no part
 * starting with `.` or ending in `.lock`, no `//`, no `/` or `.` at the end) and, since the name is
 * written into the workflow where GitHub evaluates `${{ … }}` in any value, letters, digits and
 * `._/-` only.
 */
export function rawBranchNameProblem(branch: string): string | undefined {
  const why =
    branch === ''
      ? 'it is empty'
      : !/^[A-Za-z0-9._/-]+$/.test(branch)
        ? 'a branch name here is letters, digits and . _ / - only'
        : branch.startsWith('-') || branch.startsWith('/') || branch.endsWith('/') || branch.endsWith('.')
          ? 'a branch name does not start with - or /, nor end with / or .'
          : branch.includes('..') || branch.includes('//')
            ? 'git refuses .. and // in a branch name'
            : branch.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock'))
              ? 'git refuses a part of a branch name that starts with . or ends in .lock'
              : undefined;
  return why && `--raw-branch: ${JSON.stringify(branch)} is not a branch phones can ask: ${why}`;
}

/**
 * `.github/workflows/raw-branch.yml`: on every push to main, build the site, check out `branch`
 * into {@link RAW_CHECKOUT}, copy the files with `npx otapress raw-branch`, and commit and push
 * only when a file changed. `branch` must have passed {@link rawBranchNameProblem}; it reaches
 * the YAML as a double-quoted scalar (JSON's string form, which YAML reads as written) and the
 * shell only through an environment variable.
 */
export function rawBranchWorkflow(branch: string): ScaffoldFile {
  const name = JSON.stringify(branch);
  return {
    file: '.github/workflows/raw-branch.yml',
    text: `# Main branch: copy the site's updater files into the branch that ROM builds already shipped fetch from
# raw.githubusercontent.com/<owner>/<repository>/<branch>/<path> (each format's path in content/site.yaml
# set to the path those phones ask), and push it when a file changed. The branch must exist; otapress
# writes only the files its .otapress-raw there lists (README, "Deploy").
name: raw-branch
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: write
concurrency:
  group: raw-branch
  cancel-in-progress: false
jobs:
  raw-branch:
    env:
      RAW_BRANCH: ${name}
${workflowSetup()}
      - name: Build dist/
        run: npx otapress build
      - uses: actions/checkout@v4
        with:
          ref: ${name}
          path: ${RAW_CHECKOUT}
      - name: Copy the updater files into the raw branch
        run: npx otapress raw-branch ${RAW_CHECKOUT}
      - name: Commit and push, only when a file changed
        working-directory: ${RAW_CHECKOUT}
        run: |
          git add -A
          if git diff --cached --quiet; then echo "$RAW_BRANCH has the site's files already"; exit 0; fi
          git -c user.name='github-actions[bot]' -c user.email='41898282+github-actions[bot]@users.noreply.github.com' commit -q -m "otapress raw-branch: the updater files of $GITHUB_SHA"
          git push origin "HEAD:refs/heads/$RAW_BRANCH"
`,
  };
}
