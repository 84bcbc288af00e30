/** `otapress serve`: the local preview, rebuilt on every change. */
import { type Command, COMMON_OPTIONS, EXIT, UsageError } from '../io.js';

export const command: Command = {
  summary: 'preview the site locally, answering as the hosts do, rebuilt when content/ changes',
  usage: `otapress serve [--port N] [--root DIR]

Compiles content/ in memory (dist/ is not written) and serves it on http://127.0.0.1:N/ (default
8788; 0 picks a free port) with the hosts' routes, headers and JSON 404s. Rebuilds when anything
under content/ changes; if the new content is invalid, prints the problems and keeps serving the
last good build. Ctrl-C stops it.`,
  options: { ...COMMON_OPTIONS, port: { type: 'string', default: '8788' } },
  async run({ values }, io) {
    const port = Number(values.port);
    if (!/^\d+$/.test(String(values.port)) || port > 65535) throw new UsageError(`--port is a number from 0 to 65535, not ${values.port}`);
    const path = await import('node:path');
    const { startPreview } = await import('../build/preview.js');
    const preview = await startPreview({ root: path.resolve(String(values.root)), port, io }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use on 127.0.0.1; pick another with --port N (0 picks a free one)`);
      throw error;
    });
    io.out(`serving content/ at ${preview.url} (Ctrl-C stops)`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await preview.close();
    return EXIT.ok;
  },
};
