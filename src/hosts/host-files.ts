/**
 * The files a build writes besides the listings and pages, for every host: generated from the
 * route table (routes.ts) and the Apache rules (apache.ts). Pure.
 */
import { renderApacheRules } from './apache.js';
import { renderNetlifyHeaders, renderNetlifyRedirects } from './netlify.js';
import { endpoints, headerRules, notFoundScopes, renderCloudflareHeaders, renderCloudflareRedirects, type IncrementalAnswer } from './routes.js';
import { needsCloudflareWorker, renderCloudflareWorker, renderCloudflareWorkerRoutes } from './cloudflare-worker.js';
import { renderEnvelope } from '../render/v1.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from '../render/output.js';

/** Which host a build is for: `all` writes Cloudflare's rule files; `netlify` writes Netlify's in their place. */
export type Host = 'all' | 'netlify';

/**
 * The files besides the listings: the hosts' `_redirects` and `_headers`, the JSON 404 bodies
 * (`404.html` for Cloudflare, which serves the nearest one; `404.json` for Netlify's 404 rules),
 * and the HTML `404.html` at the root, whose presence also stops Cloudflare from treating the site
 * as a single-page app. Both hosts read `_redirects` and `_headers` from the publish folder, in
 * different dialects: Cloudflare's placeholder rules would hide Netlify's JSON 404s, so a Netlify
 * build writes Netlify's (netlify.ts) in their place, for a site whose `hosts` has netlify.
 * `apache_htaccess: true` adds `.htaccess` with the Apache rules. A paged endpoint's past-the-end
 * answer is here too (a JSON 404 body), and Cloudflare's `_worker.js`, which serves it.
 */
export function renderHostFiles(site: Site, devices: readonly string[], host: Host = 'all', incrementals: readonly IncrementalAnswer[] = [], rootFiles: readonly string[] = []): OutputFile[] {
  const files: OutputFile[] = [{ path: '404.html', contents: NOT_FOUND_PAGE }];
  for (const scope of notFoundScopes(site, devices)) {
    const body = renderEnvelope([], scope.message);
    files.push({ path: `${scope.folder.slice(1)}404.html`, contents: body });
    if (scope.file !== `${scope.folder}404.html`) files.push({ path: scope.file.slice(1), contents: body });
  }
  for (const { paging, paths } of endpoints(site)) {
    if (paging) files.push({ path: paging.past.slice(1), contents: renderEnvelope([], `past the last page: ${paths[0]} answers all it has on its first page (no ${paging.param}, or ${paging.param}=0)`) });
  }
  // Apache never serves `.ht*` files; other hosts would serve it like any file (it holds only rules).
  if (site.apacheHtaccess) files.push({ path: '.htaccess', contents: renderApacheRules(site) });
  if (host === 'all') {
    files.push({ path: '_redirects', contents: renderCloudflareRedirects(site, devices, incrementals, rootFiles) });
    files.push({ path: '_headers', contents: checkedHeaders(site, renderCloudflareHeaders) });
    if (needsCloudflareWorker(site)) {
      files.push({ path: '_worker.js', contents: renderCloudflareWorker(site) });
      files.push({ path: '_routes.json', contents: renderCloudflareWorkerRoutes(site) });
    }
  } else if (site.hosts.includes('netlify')) {
    files.push({ path: '_redirects', contents: renderNetlifyRedirects(site, devices, incrementals) });
    files.push({ path: '_headers', contents: checkedHeaders(site, (s) => renderNetlifyHeaders(s, rootFiles)) });
  }
  return files;
}

// --- internal ---

/**
 * `_headers` (either host's), whose values have no escapes: a line break would start rules of its
 * own, and Cloudflare fills `:splat` and `:name` in a value from the matched path. site.yaml's
 * grammar never lets either through; a value with one is refused here rather than written.
 */
function checkedHeaders(site: Site, render: (site: Site) => string): string {
  for (const rule of headerRules(site)) {
    // A rule's path is a line of its own: the formats' folders and patterns keep to the path grammar.
    if (!/^\/[A-Za-z0-9._~/:*-]*$/.test(rule.for)) throw new Error(`cannot be written as a path of _headers: ${JSON.stringify(rule.for)}`);
    for (const [name, value] of Object.entries(rule.values)) {
      if (!/^[A-Za-z0-9-]+$/.test(name) || !/^[\x20-\x7e]*$/.test(value) || /:[A-Za-z]/.test(value)) {
        throw new Error(`cannot be written literally in _headers (a line break, a control character or a :placeholder): ${name}: ${JSON.stringify(value)}`);
      }
    }
  }
  return render(site);
}

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found</title>
</head>
<body>
<main>
<h1>Not found</h1>
<p>There is nothing at this address. Update listings are at <code>/api/v1/&lt;device&gt;/&lt;list&gt;/</code>.</p>
<p><a href="/">Home</a></p>
</main>
</body>
</html>
`;
