/**
 * The hosts otapress publishes for ({@link HOSTS}), and the files a build writes besides the
 * listings and pages: the JSON 404 bodies every host serves, and each host's rule files, all
 * generated from one route table (routes.ts). Pure.
 */
import { apache } from './apache.js';
import { caddy } from './caddy.js';
import { cloudflare } from './cloudflare.js';
import { githubPages } from './github-pages.js';
import { netlify } from './netlify.js';
import { nginx } from './nginx.js';
import type { RouteTable } from './routes.js';
import type { Host, HostModule } from './host.js';
import { renderEnvelope } from '../render/v1.js';
import type { Problem } from '../catalog/problems.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from '../render/output.js';
import { basePath } from '../render/urls.js';

export type { Host } from './host.js';

/**
 * Every host, in the order a build writes their rule files. Apache's `.htaccess` comes first, with
 * `apache_htaccess: true`; Cloudflare's and Netlify's rule files share their names, and a build
 * writes one host's (host.ts `writes`).
 */
export const HOSTS: readonly HostModule[] = [apache, cloudflare, netlify, githubPages, nginx, caddy];

/**
 * The files besides the listings: the JSON 404 bodies (`404.html` for Cloudflare, which serves the
 * nearest one; `404.json` for the hosts with 404 rules), the HTML `404.html` at the root, whose
 * presence also stops Cloudflare from treating the site as a single-page app, a paged endpoint's
 * past-the-end answer (a JSON 404 body), and the rule files of every host a build for `host`
 * writes ({@link HOSTS}).
 */
export function renderHostFiles(site: Site, host: Host, table: RouteTable): OutputFile[] {
  const files: OutputFile[] = [{ path: '404.html', contents: notFoundPage(basePath(site)) }, ...notFoundFiles(table)];
  for (const written of writtenHosts(site, host)) files.push(...written.ruleFiles(table));
  return files;
}

/** The rules a build for `host` writes past their hosts' limits, each at the setting that makes them. */
export function hostRuleProblems(site: Site, host: Host, table: RouteTable): Problem[] {
  return writtenHosts(site, host).flatMap((h) => h.limitProblems(table));
}

// --- internal ---

function writtenHosts(site: Site, host: Host): HostModule[] {
  return HOSTS.filter((h) => h.writes(site, host));
}

/** The JSON 404 bodies, and the past-the-end answers of the paged endpoints. */
function notFoundFiles(table: RouteTable): OutputFile[] {
  const files: OutputFile[] = [];
  for (const scope of table.notFound) {
    const body = renderEnvelope([], scope.message);
    files.push({ path: `${scope.folder.slice(1)}404.html`, contents: body });
    if (scope.file !== `${scope.folder}404.html`) files.push({ path: scope.file.slice(1), contents: body });
  }
  for (const { paging, paths } of table.endpoints) {
    if (paging)
      files.push({
        path: paging.past.slice(1),
        contents: renderEnvelope(
          [],
          `past the last page: ${paths[0]} answers all it has on its first page (no ${paging.param}, or ${paging.param}=0)`,
        ),
      });
  }
  return files;
}

/**
 * The HTML 404 page. Hosts serve it for a miss at any depth, so its links are absolute paths, under
 * the site's base path (`/<repository>` on a GitHub Pages project site).
 */
function notFoundPage(base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found</title>
</head>
<body>
<main>
<h1>Not found</h1>
<p>There is nothing at this address. Update listings are at <code>${base}/api/v1/&lt;device&gt;/&lt;list&gt;/</code>.</p>
<p><a href="${base}/">Home</a></p>
</main>
</body>
</html>
`;
}
