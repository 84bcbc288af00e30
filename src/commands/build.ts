/** `otapress build`: validate content/ and write dist/. */
import { type Command, COMMON_OPTIONS, count, EXIT, reportNotices, UsageError } from '../io.js';

export const command: Command = {
  summary: 'validate content/ and write the static site to dist/',
  usage: `otapress build [--root DIR] [--out DIR [--overwrite]] [--host all|netlify] [--wait SECONDS]

Reads content/site.yaml and every content/<device>/*.yaml, and writes dist/ only if all of them
are valid; otherwise prints every problem as file:line:col  field  message and exits 1, leaving
the previous dist/ as it was.

The output folder (dist/, or --out DIR) is replaced as a whole. It must be missing, empty, or the
output of an earlier build (it holds the .otapress-output file every build writes); a folder that
holds anything else is refused with exit status 2, since replacing it would delete those files.
--overwrite replaces it anyway.

dist/_redirects and dist/_headers are Cloudflare's rule files; --host netlify writes Netlify's in
their place (Netlify reads both files, in a dialect of its own). netlify.toml's build command
passes it, and it is the default where Netlify runs the build (its environment sets NETLIFY=true).
No command changes netlify.toml.

Devices whose manifests did not change since the last build come from the cache in
node_modules/.cache/otapress (--no-cache compiles everything); the others compile on every core
(--threads N to use fewer). Neither changes a byte of the output.

One build at a time writes an output folder: a second one waits up to --wait seconds (default
300) for the first to finish, then gives up with exit status 75 and writes nothing.`,
  options: { ...COMMON_OPTIONS, out: { type: 'string' }, overwrite: { type: 'boolean' }, host: { type: 'string' }, threads: { type: 'string' }, 'no-cache': { type: 'boolean' }, wait: { type: 'string', default: '300' } },
  // Not while it loads and its workers start: only around the compiling (build.ts, withJitBudget).
  setsJitBudget: true,
  async run({ values }, io) {
    const path = await import('node:path');
    // Netlify's build environment sets NETLIFY=true (docs.netlify.com/configure-builds/environment-variables).
    const host = String(values.host ?? (process.env.NETLIFY === 'true' ? 'netlify' : 'all'));
    if (host !== 'all' && host !== 'netlify') throw new UsageError(`--host is all or netlify, not ${host}`);
    const wait = Number(values.wait);
    if (!/^\d+(\.\d+)?$/.test(String(values.wait)) || !Number.isFinite(wait)) throw new UsageError(`--wait is a number of seconds, not ${values.wait}`);
    const root = path.resolve(String(values.root));
    const threads = values.threads === undefined ? undefined : Number(values.threads);
    if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) throw new UsageError(`--threads is a whole number of at least 1, not ${values.threads}`);
    const cache = !values['no-cache'];
    // A cold build's workers start before the rest of otapress is loaded here: they load it meanwhile.
    const { prestartForBuild } = await import('../pipeline/worker-pool.js');
    const pool = prestartForBuild(root, { cache, threads });
    let built;
    try {
      const { build } = await import('../pipeline/build.js');
      built = build({
        root,
        outDir: values.out ? path.resolve(String(values.out)) : undefined,
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
    io.out(`built ${count(built.builds, 'build')} of ${count(built.devices, 'device')} into ${count(built.listings, 'listing')} (${count(built.records, 'record')}), ${count(built.files, 'file')}`);
    return EXIT.ok;
  },
};
