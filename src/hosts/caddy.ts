/**
 * A Caddyfile from the route table: run it with `caddy run --config FILE --adapter caddyfile`.
 * Every request shape is one `path_regexp` rewrite for all devices and lists; a miss under `/api/`
 * answers the nearest JSON 404 (found with `try_files` in `handle_errors`). Pure.
 */
import { fillGroups, serverRules } from './server-rules.js';
import type { ServerConfigOptions } from './nginx.js';
import type { Site } from '../catalog/site.js';

export function renderCaddyfile(site: Site, { dist, listen, prefix, serverName }: ServerConfigOptions): string {
  const rules = serverRules(site);
  const indent = (lines: string[], depth = 1) => lines.map((line) => (line ? `${'\t'.repeat(depth)}${line}` : line));
  const headerBlock = (matcher: string, headers: Record<string, string>) => [
    `header ${matcher} {`,
    ...Object.entries(headers).map(([name, value]) => `\t${name} ${text(value)}`),
    '}',
  ];
  // With --listen: plain HTTP on that address (tests, or a proxy in front). Without it, the server
  // name gets Caddy's automatic HTTPS; without either, plain HTTP on port 80.
  const address = listen ? `http://${serverName ?? listen.host ?? ''}:${listen.port}` : (serverName ?? 'http://:80');
  const global = [
    '{',
    // No admin endpoint: nothing else listens, and two sites on one machine do not collide on :2019.
    '\tadmin off',
    ...(prefix ? [`\tstorage file_system ${quote(`${prefix.replace(/\/+$/, '')}/caddy`)}`] : []),
    '}',
  ];

  const rewrites = rules.rewrites.flatMap((rewrite, i) => [
    `# ${rewrite.name}: ${rewrite.shape}`,
    `@route${i + 1} path_regexp route${i + 1} ${quote(rewrite.regex)}`,
    `rewrite @route${i + 1} ${quote(fillGroups(rewrite.file, rewrite.groups, (n) => `{re.route${i + 1}.${n}}`))}`,
  ]);
  // Rewrites exclude each other, so a fallback is a second step (`route` runs after them): the
  // path asked for had this shape, and the file it was rewritten to does not exist.
  const fallbacks = rules.rewrites.flatMap((rewrite, i) =>
    rewrite.fallback
      ? [
          `# ${rewrite.name}: ${rewrite.shape}, for a device without the file`,
          `@route${i + 1}_fallback {`,
          `\texpression \`{http.request.orig_uri.path}.matches(r"${rewrite.regex}")\``,
          // The rewritten path, whose parts fill the fallback's placeholders.
          `\tpath_regexp fallback${i + 1} ${quote(rewrite.fileRegex)}`,
          '\tnot file',
          '}',
          `route @route${i + 1}_fallback {`,
          `\trewrite * ${quote(fillGroups(rewrite.fallback, rewrite.fileGroups, (n) => `{re.fallback${i + 1}.${n}}`))}`,
          '}',
        ]
      : [],
  );
  // A page after the first of a paged answer: its past-the-end file with 404. After the rewrites
  // (`route` runs after them), so the path and query matched are those asked for.
  const pastEnd = rules.rewrites.flatMap((rewrite, i) =>
    rewrite.paging
      ? [
          `# ${rewrite.name}: ${rewrite.shape}, a page after the first`,
          `@route${i + 1}_past {`,
          '\tmethod GET HEAD',
          `\texpression \`{http.request.orig_uri.path}.matches(r"${rewrite.regex}") && {http.request.orig_uri.query}.matches(r"${rewrite.paging.query}")\``,
          '}',
          `route @route${i + 1}_past {`,
          `\trewrite * ${quote(rewrite.paging.past)}`,
          `\theader Cache-Control ${quote(rules.notFoundCacheControl)}`,
          '\tfile_server {',
          '\t\tstatus 404',
          '\t}',
          '}',
        ]
      : [],
  );
  const variables = rules.notFound.map((_, i) => `{otapress_404_${i + 1}}`);
  // One map per folder: a path under several folders must find each one's 404.json.
  const maps = rules.notFound.flatMap((scope, i) => [
    `map {path} ${variables[i]} {`,
    `\t${quote(`~${scope.regex}`)} ${quote(fillGroups(scope.file, scope.groups, (n) => `\${${n}}`))}`,
    '\tdefault /.otapress-no-404',
    '}',
  ]);
  // The API's paths, as a regular expression: Caddy's `path` matcher is case-insensitive
  // (caddyserver.com/docs/modules/http.matchers.path), and /API/ is another folder than /api/
  // (a miss there would enter the JSON 404 handling, find no 404.json, and answer an empty 404).
  // The formats' files outside /api/: a folder of their own is one more prefix of it; a pattern at
  // the root is a matcher of its own, so that pages and other misses there keep the HTML 404.
  const folders = rules.formatScopes.flatMap((scope) => ('prefix' in scope ? [scope.prefix] : []));
  const apiPaths = `path_regexp ${quote(`^(?:${[rules.apiPrefix, ...folders].map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`)}`;
  const roots = rules.formatScopes.flatMap((scope) => ('regex' in scope ? [scope.regex] : []));
  const rootMatcher = (name: string, i: number, extra: string[]) => [`@${name}${i + 1} {`, ...extra.map((line) => `\t${line}`), `\tpath_regexp ${quote(roots[i])}`, '}'];
  const rootFormats = roots.flatMap((_, i) => [
    ...rootMatcher('format_root', i, []),
    ...headerBlock(`@format_root${i + 1}`, rules.apiHeaders),
    ...rootMatcher('format_root_options', i, ['method OPTIONS']),
    ...headerBlock(`@format_root_options${i + 1}`, { ...rules.optionsHeaders, 'Content-Type': '' }).map((l) => l.replace(/^\tContent-Type ""$/, '\t-Content-Type')),
    `respond @format_root_options${i + 1} 204`,
  ]);
  const apiMiss = [
    `\ttry_files ${variables.join(' ')}`,
    ...indent(headerBlock('', { ...rules.apiHeaders, 'Cache-Control': rules.notFoundCacheControl })),
    '\tfile_server',
  ];

  const typeHeaders = Object.entries(rules.types).flatMap(([extension, type]) => [`@type_${extension} path *.${extension}`, `header @type_${extension} Content-Type ${quote(type)}`]);

  const lines = [
    '# Generated by `otapress hosting caddy` from the route table. Regenerate it after changing',
    '# content/site.yaml (lists, cache_control, request paths); new devices and builds need nothing.',
    '# Run: caddy run --config THIS_FILE --adapter caddyfile',
    ...global,
    '',
    `${address} {`,
    ...indent([
      // The site address only matches the Host header; `bind` keeps the socket on that address.
      ...(listen?.host ? [`bind ${listen.host.replace(/^\[|\]$/g, '')}`] : []),
      `root * ${quote(dist)}`,
      '',
      '# Content types as on Cloudflare, not from the system mime table.',
      ...typeHeaders,
      `@api ${apiPaths}`,
      ...headerBlock('@api', rules.apiHeaders),
      ...rootFormats,
      '',
      '# The request shapes of the route table; the first that matches wins.',
      ...rewrites,
      ...fallbacks,
      ...pastEnd,
      '',
      '@options {',
      '\tmethod OPTIONS',
      `\t${apiPaths}`,
      '}',
      ...headerBlock('@options', { ...rules.optionsHeaders, 'Content-Type': '' }).map((l) => l.replace(/^\tContent-Type ""$/, '\t-Content-Type')),
      'respond @options 204',
      '# Other methods but GET and HEAD: 405 (Caddy\'s file server would answer them).',
      '@refused {',
      '\tnot method GET HEAD',
      '\tnot {',
      '\t\tmethod OPTIONS',
      `\t\t${apiPaths}`,
      '\t}',
      ...roots.flatMap((regex) => ['\tnot {', '\t\tmethod OPTIONS', `\t\tpath_regexp ${quote(regex)}`, '\t}']),
      '}',
      'error @refused 405',
      '',
      'file_server {',
      '\thide .*',
      '}',
      '',
      '# A miss under /api/ (or of a format\'s file) answers the nearest JSON 404, other misses the HTML 404 page.',
      'handle_errors {',
      ...indent(maps),
      '\t@api_miss {',
      '\t\texpression {http.error.status_code} == 404',
      `\t\t${apiPaths}`,
      '\t}',
      '\thandle @api_miss {',
      ...indent(apiMiss),
      '\t}',
      ...roots.flatMap((regex, i) => [
        `\t@format_root_miss${i + 1} {`,
        '\t\texpression {http.error.status_code} == 404',
        `\t\tpath_regexp ${quote(regex)}`,
        '\t}',
        `\thandle @format_root_miss${i + 1} {`,
        ...indent(apiMiss),
        '\t}',
      ]),
      '\t@page_miss expression {http.error.status_code} == 404',
      '\thandle @page_miss {',
      `\t\trewrite * ${rules.notFoundPage}`,
      `\t\theader Content-Type ${quote(rules.types.html)}`,
      `\t\theader Cache-Control ${quote(rules.notFoundCacheControl)}`,
      '\t\tfile_server',
      '\t}',
      '\thandle {',
      '\t\trespond {http.error.status_code}',
      '\t}',
      '}',
    ]),
    '}',
  ];
  return `${lines.join('\n').replace(/header  \{/g, 'header {')}\n`;
}

// --- internal ---

/**
 * Literal text as a Caddyfile token, for header values: Caddy expands `{placeholders}` in them
 * (`{env.SECRET}` would send the server's environment to every phone), so braces are escaped
 * (`\{`, which the replacer turns back into `{`). `{$NAME}` is replaced in the Caddyfile's text
 * before it is parsed, and has no escape; a backslash cannot be written exactly in a quoted token:
 * such values are refused (site.yaml's grammar never lets them through).
 */
function text(value: string): string {
  if (value.includes('{$') || value.includes('\\')) throw new Error(`cannot be written literally in a Caddyfile (\`{$\` or a backslash): ${JSON.stringify(value)}`);
  const escaped = value.replace(/[{}]/g, '\\$&');
  return escaped === value ? quote(value) : `"${escaped.replace(/"/g, '\\"')}"`;
}

/** A Caddyfile token: bare when it is safe, else double-quoted (where only `\"` is an escape; a regex keeps its backslashes). */
function quote(value: string): string {
  return /^[A-Za-z0-9_./:*{}$-]+$/.test(value) ? value : `"${value.replace(/"/g, '\\"')}"`;
}
