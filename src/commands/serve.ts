/** `otapress serve`: the local preview, rebuilt on every change. */
import { COMMON_OPTIONS, defineCommand, EXIT, SEE_USAGE, UsageError } from '../io.js';

export const command = defineCommand({
  summary: 'preview the site locally, answering as the hosts do, rebuilt when content/ changes',
  synopsis: 'otapress serve [--port N] [--root DIR]',
  about: `Compiles content/ in memory (dist/ is not written) and serves it on http://127.0.0.1:N/ (default
8788; 0 picks a free port) with the hosts' routes, headers and JSON 404s. Rebuilds when anything
under content/ changes; if the new content is invalid, prints the problems and keeps serving the
last good build. Ctrl-C, SIGTERM or SIGHUP stops it, and so does the end of the process that
started it (npx, npm run).`,
  options: {
    port: {
      type: 'string',
      value: 'N',
      default: '8788',
      description: 'the port on 127.0.0.1 to serve on; 0 picks a free one',
    },
    ...COMMON_OPTIONS,
  },
  readOnly: true,
  async run({ values }, io) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535)
      throw new UsageError(`--port is a number from 0 to 65535, not ${values.port}`, SEE_USAGE);
    const path = await import('node:path');
    const { startPreview } = await import('../pipeline/preview.js');
    const preview = await startPreview({ root: path.resolve(values.root), port, io }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE')
          throw new UsageError(
            `port ${port} is already in use on 127.0.0.1; pick another with --port N (0 picks a free one)`,
            SEE_USAGE,
          );
        throw error;
      },
    );
    // Listening for the stop signals before saying where it serves: whoever reads that may stop it at once.
    const stopped = untilStopped();
    io.out(`serving content/ at ${preview.url} (Ctrl-C stops)`);
    await stopped;
    await preview.close();
    return EXIT.ok;
  },
});

// --- internal ---

/** How often the preview looks whether the process that started it is still there. */
const PARENT_POLL_MS = 250;

/**
 * Resolves on SIGINT, SIGTERM or SIGHUP, or when the parent process ends. `npx otapress serve`
 * runs the preview under `sh -c`, and npm passes a SIGTERM only to that shell, which dies without
 * passing it on: the preview would keep running, and holding its port, under init. When the
 * parent goes, the process is re-parented, so `process.ppid` changes.
 */
function untilStopped(): Promise<void> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const parent = process.ppid;
  return new Promise<void>((resolve) => {
    const stop = () => {
      clearInterval(timer);
      for (const signal of signals) process.off(signal, stop);
      resolve();
    };
    for (const signal of signals) process.on(signal, stop);
    const timer = setInterval(() => {
      if (process.ppid !== parent) stop();
    }, PARENT_POLL_MS);
  });
}
