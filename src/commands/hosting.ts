/**
 * `otapress hosting`: a configuration for a server of one's own, generated from the route table;
 * for GitHub Pages, which takes no configuration, the address each updater's ROM build must set.
 */
import { COMMON_OPTIONS, defineCommand, EXIT, SEE_USAGE, UsageError } from '../io.js';

const SERVERS = ['nginx', 'caddy', 'apache', 'github-pages'] as const;

export const command = defineCommand({
  summary:
    'print an nginx, Caddy or Apache configuration that serves dist/ as the hosts do, or what ROMs set for Pages',
  synopsis:
    'otapress hosting <nginx|caddy|apache|github-pages> [--root DIR] [--dist DIR] [--listen [HOST:]PORT] [--prefix DIR] [--server-name NAME]',
  about: `Prints one complete configuration file, generated from content/site.yaml and the route table:
the phone paths, the API headers, OPTIONS, the JSON 404s and the v2 path, with one rule per
request shape for every device and list (new devices need no new configuration; regenerate it
when content/site.yaml changes).

On every host but Pages, each build has its own answers (an incremental package from it; nothing
its keys cannot install) when its phones ask with their incremental: LineageOS up to 23.1 by
default, 23.2 and later when the ROM sets
  lineage.updater.uri=https://<site>/api/v2/devices/{device}/builds/{incr}
(the default v2 URI has no {incr}; any other build gets the device's v2 answer).

  nginx   a whole nginx.conf:  nginx -p PREFIX/ -c FILE -g 'daemon off;'
  caddy   a Caddyfile:         caddy run --config FILE --adapter caddyfile
  apache  a whole httpd.conf:  apache2 -d PREFIX -f FILE -DFOREGROUND   (Debian's module paths)

For .htaccess-only hosting, set apache_htaccess: true in content/site.yaml: the build then writes
the same rules to dist/.htaccess.

With a grapheneos format, the zips its updater asks beside the channel files
(<device>-ota_update-<incremental>.zip, <device>-incremental-<from>-<to>.zip) are redirected
(302) to each build's url: one rule per build, so print the configuration again after each build.

  github-pages  GitHub Pages takes no configuration: prints, for each updater the site publishes
                (every dialect of its formats), the property or resource value its ROM build must
                set to ask the site at site_url (https://<owner>.github.io/<repository>/), and what
                Pages cannot serve of it (AOSPA's text type, GrapheneOS's zip names) and instead.`,
  options: {
    dist: {
      type: 'string',
      value: 'DIR',
      description: 'the built site (default: dist/ of --root, as an absolute path)',
    },
    listen: {
      type: 'string',
      value: '[HOST:]PORT',
      description: `the address to listen on (default: port 80 on every address); with Caddy, --listen serves
        plain HTTP on that address, and without it --server-name gets Caddy's automatic HTTPS`,
    },
    prefix: {
      type: 'string',
      value: 'DIR',
      description: `where the server writes its pid, logs and temp files (Caddy: its certificates); without
        it, nginx and Apache use the prefix they are started with (-p, -d) and Caddy its own folders`,
    },
    'server-name': { type: 'string', value: 'NAME', description: 'the host name the site answers to' },
    ...COMMON_OPTIONS,
  },
  async run({ values, positionals }, io) {
    const server = positionals[0];
    if (positionals.length !== 1 || !SERVERS.includes(server as (typeof SERVERS)[number])) {
      throw new UsageError(
        positionals.length > 1
          ? `one server at a time, not ${positionals.join(' ')}`
          : `name the server: ${SERVERS.join(', ')}${server ? `, not ${server}` : ''}`,
        SEE_USAGE,
      );
    }
    const path = await import('node:path');
    const { parseListen } = await import('../hosts/server-rules.js');
    const listen = values.listen === undefined ? undefined : parseListen(values.listen);
    if (values.listen !== undefined && !listen)
      throw new UsageError(
        `--listen is PORT, HOST:PORT or [IPv6]:PORT with a port from 1 to 65535, not ${values.listen}`,
        SEE_USAGE,
      );
    const serverName = values['server-name'];
    if (serverName !== undefined && !/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(serverName)) {
      throw new UsageError(`--server-name is a host name such as updates.example.org, not ${serverName}`, SEE_USAGE);
    }
    const root = path.resolve(values.root);
    const dist = path.resolve(root, values.dist ?? 'dist');
    const prefix = values.prefix === undefined ? undefined : path.resolve(values.prefix);
    for (const [name, value] of [
      ['--dist', dist],
      ['--prefix', prefix],
    ] as const) {
      // Written into the configuration as they are: a quote or a line break would end the string.
      if (value !== undefined && !/^[^\s"'\\;{}$#`]+$/.test(value))
        throw new UsageError(
          `${name} must be a path without spaces, quotes or ;{}$#\\ characters, not ${value}`,
          SEE_USAGE,
        );
    }
    const { readContent } = await import('../catalog/read.js');
    const { parseSite, SITE_FILE } = await import('../catalog/site.js');
    const { ContentError } = await import('../catalog/problems.js');
    // Only site.yaml matters: the rules are the same for every device and build.
    const content = readContent(root);
    const { site, problems } = content.site
      ? parseSite(content.site)
      : { site: undefined, problems: content.problems.filter((p) => p.file === SITE_FILE) };
    if (!site) throw new ContentError(problems);
    if (server === 'github-pages') {
      if (site.siteUrl === undefined) {
        const message =
          'the addresses a ROM build sets are absolute, and otapress does not know where the site is published;' +
          ' add `site_url: https://<owner>.github.io/<repository>/`';
        throw new ContentError([{ file: SITE_FILE, line: 1, col: 1, field: 'site_url', message }]);
      }
      const { renderUpdaterAddresses } = await import('../hosts/github-pages.js');
      io.out(renderUpdaterAddresses(site, site.siteUrl).trimEnd());
      return EXIT.ok;
    }
    // GrapheneOS's zip names are redirected to each build's download: those rules need the builds.
    const { DIALECT_SETTINGS } = await import('../catalog/dialects.js');
    let redirects;
    if (site.formats.some((f) => DIALECT_SETTINGS[f.family].file === 'channel')) {
      const { compileSite } = await import('../pipeline/build.js');
      const { listingRedirects } = await import('../hosts/routes.js');
      const compiled = compileSite(content);
      if (compiled.problems.length > 0) throw new ContentError(compiled.problems);
      redirects = listingRedirects(site, compiled.listings);
    }
    const options = { dist, listen, prefix, serverName, redirects };
    const { HOSTS } = await import('../hosts/host-files.js');
    io.out(HOSTS.find((host) => host.name === server)!.serverConfig!(site, options).trimEnd());
    return EXIT.ok;
  },
});
