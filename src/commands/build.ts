/** `otapress build`: validate content/ and write dist/. */
import { COMMON_OPTIONS, count, defineCommand, EXIT, reportNotices, SEE_USAGE, UsageError } from '../io.js';

export const command = defineCommand({
  summary: 'validate content/ and write the static site to dist/',
  synopsis: 'otapress build [--root DIR] [--out DIR [--overwrite]] [--host all|netlify|github-pages] [--wait SECONDS]',
  about: `Reads content/site.yaml and every content/<device>/*.yaml, and writes dist/ only if all of them
are valid; otherwise prints every problem as file:line:col  field  message and exits 1, leaving
the previous dist/ as it was.

The output folder (dist/, or --out DIR) is replaced as a whole. It must be missing, empty, or the
output of an earlier build (it holds the .otapress-output file every build writes); a folder that
holds anything else is refused with exit status 2, since replacing it would delete those files.
--overwrite replaces it anyway.

dist/_redirects and dist/_headers are Cloudflare's rule files; --host netlify writes Netlify's in
their place (Netlify reads both files, in a dialect of its own). netlify.toml's build command
passes it, and it is the default where Netlify runs the build (its environment sets NETLIFY=true).
No command changes netlify.toml. --host github-pages writes neither (GitHub Pages reads no rule
file) and an empty .nojekyll; it is the default for a site whose only host is github-pages.

Devices whose manifests did not change since the last build come from the cache in
node_modules/.cache/otapress (--no-cache compiles everything); the others compile on every core
(--threads N to use fewer). Neither changes a byte of the output.

One build at a time writes an output folder: a second one waits up to --wait seconds (default
300) for the first to finish, then gives up with exit status 75 and writes nothing.`,
  options: {
    out: { type: 'string', value: 'DIR', description: 'the output folder, replaced as a whole (default: dist/)' },
    overwrite: { type: 'boolean', description: 'replace the output folder even when it holds files no build wrote' },
    host: {
      type: 'string',
      value: 'all|netlify|github-pages',
      description: `netlify writes Netlify's rule files in place of Cloudflare's, github-pages neither
        (default: netlify where Netlify runs the build, else all)`,
    },
    threads: { type: 'string', value: 'N', description: 'compile on at most N cores (default: every core)' },
    'no-cache': {
      type: 'boolean',
      description: 'compile every device, not only those whose manifests changed since the last build',
    },
    wait: {
      type: 'string',
      value: 'SECONDS',
      default: '300',
      description: 'how long to wait for another build writing the same output folder',
    },
    ...COMMON_OPTIONS,
  },
  // Not while it loads and its workers start: only around the compiling (build.ts, withJitBudget).
  setsJitBudget: true,
  async run({ values }, io) {
    const path = await import('node:path');
    // Netlify's build environment sets NETLIFY=true (docs.netlify.com/configure-builds/environment-variables).
    const host = values.host ?? (process.env.NETLIFY === 'true' ? 'netlify' : 'all');
    if (host !== 'all' && host !== 'netlify' && host !== 'github-pages') {
      throw new UsageError(`--host is all, netlify or github-pages, not ${host}`, SEE_USAGE);
    }
    const wait = Number(values.wait);
    if (!/^\d+(\.\d+)?$/.test(values.wait) || !Number.isFinite(wait))
      throw new UsageError(`--wait is a number of seconds, not ${values.wait}`, SEE_USAGE);
    const root = path.resolve(values.root);
    const threads = values.threads === undefined ? undefined : Number(values.threads);
    if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1))
      throw new UsageError(`--threads is a whole number of at least 1, not ${values.threads}`, SEE_USAGE);
    const cache = !values['no-cache'];
    // A cold build's workers start before the rest of otapress is loaded here: they load it meanwhile.
    const { prestartForBuild } = await import('../pipeline/worker-pool.js');
    const pool = prestartForBuild(root, { cache, threads });
    let built;
    try {
      const { build } = await import('../pipeline/build.js');
      built = build({
        root,
        outDir: values.out ? path.resolve(values.out) : undefined,
        host,
        threads,
        cache,
        waitMs: wait * 1000,
        onWait: (pid) => io.err(`waiting for the build of pid ${pid} to finish writing the output folder`),
        overwrite: values.overwrite === true,
        pool,
      });
    } finally {
      void pool?.close();
    }
    reportNotices(built.notices, io, 'text');
    io.out(
      `built ${count(built.builds, 'build')} of ${count(built.devices, 'device')} into ${count(built.listings, 'listing')} (${count(built.records, 'record')}), ${count(built.files, 'file')}`,
    );
    return EXIT.ok;
  },
});
