/**
 * The files a build writes besides the listings and pages, for every host: generated from the
 * route table (routes.ts) and the Apache rules (apache.ts). Pure.
 */
import { renderApacheRules } from './apache.js';
import { type IncrementalAnswer, headerRules, notFoundScopes, renderCloudflareHeaders, renderCloudflareRedirects, renderCloudflareWorker, renderCloudflareWorkerRoutes } from './routes.js';
import { renderEnvelope } from '../render/v1.js';
import type { Site } from '../catalog/site.js';
import type { OutputFile } from '../render/output.js';

/** Which host a build is for: `all` writes Cloudflare's rule files too; Netlify must not see them. */
export type Host = 'all' | 'netlify';

/**
 * The files besides the listings: Cloudflare's `_redirects` and `_headers`, the JSON 404 bodies
 * (`404.html` for Cloudflare, which serves the nearest one; `404.json` for Netlify's 404 rules),
 * and the HTML `404.html` at the root, whose presence also stops Cloudflare from treating the site
 * as a single-page app. Netlify reads `_redirects`/`_headers` from the publish folder before
 * `netlify.toml`, and Cloudflare's placeholder rules would hide its JSON 404s, so a Netlify build
 * leaves them out. `apache_htaccess: true` adds `.htaccess` with the Apache rules.
 */
export function renderHostFiles(site: Site, devices: readonly string[], host: Host = 'all', incrementals: readonly IncrementalAnswer[] = []): OutputFile[] {
  const files: OutputFile[] = [{ path: '404.html', contents: NOT_FOUND_PAGE }];
  for (const scope of notFoundScopes(site, devices)) {
    const body = renderEnvelope([], scope.message);
    files.push({ path: `${scope.folder.slice(1)}404.html`, contents: body });
    files.push({ path: `${scope.folder.slice(1)}404.json`, contents: body });
  }
  // Apache never serves `.ht*` files; other hosts would serve it like any file (it holds only rules).
  if (site.apacheHtaccess) files.push({ path: '.htaccess', contents: renderApacheRules(site) });
  if (host === 'all') {
    files.push({ path: '_redirects', contents: renderCloudflareRedirects(site, devices, incrementals) });
    files.push({ path: '_headers', contents: cloudflareHeaders(site) });
    if (site.optionsHandler) {
      files.push({ path: '_worker.js', contents: renderCloudflareWorker(site) });
      files.push({ path: '_routes.json', contents: renderCloudflareWorkerRoutes(site) });
    }
  }
  return files;
}

// --- internal ---

/**
 * `_headers`, whose values have no escapes: a line break would start rules of its own, and
 * Cloudflare fills `:splat` and `:name` in a value from the matched path. site.yaml's grammar never
 * lets either through; a value with one is refused here rather than written.
 */
function cloudflareHeaders(site: Site): string {
  for (const rule of headerRules(site)) {
    for (const [name, value] of Object.entries(rule.values)) {
      if (!/^[A-Za-z0-9-]+$/.test(name) || !/^[\x20-\x7e]*$/.test(value) || /:[A-Za-z]/.test(value)) {
        throw new Error(`cannot be written literally in _headers (a line break, a control character or a :placeholder): ${name}: ${JSON.stringify(value)}`);
      }
    }
  }
  return renderCloudflareHeaders(site);
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
