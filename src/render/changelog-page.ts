import type { Build } from '../catalog/manifest.js';
import { buildsWithChangelog, changelogAnchor, renderChangelog } from './changelog.js';
import { html, isoTime, raw, readableTime } from './markup.js';
import type { OutputFile } from './output.js';
import { EXTRA_STYLE, pageBytes } from './pages.js';
import { fileOf, URLS, type Links } from './urls.js';

/**
 * The changelog page of a device (`/devices/<device>/changelog/`): every build with a changelog,
 * newest first, once whatever lists it is in, each at an anchor the device page, the feeds and
 * `/api/v2/changes` link to. `undefined` when no build of the device has a changelog: a catalog
 * without changelogs publishes exactly what it did before. It links as `links` says (urls.ts linksOf).
 */
export function renderChangelogPage(
  device: string,
  builds: Iterable<Build>,
  links: Links = URLS,
): OutputFile | undefined {
  const withChangelog = buildsWithChangelog(builds);
  if (withChangelog.length === 0) return undefined;
  // The head, whose arrow is the page's one character outside Latin-1, then each section as a part
  // of its own, one line apart: never joined into one string before the encoding (see utf8Of and
  // articleOf in pages.ts).
  const body = [
    html`<p><a href="${links.devicePage(device)}">← ${device} builds</a></p>
<h1>${device} changelog</h1>
`,
  ];
  for (const [i, build] of withChangelog.entries()) {
    const anchor = changelogAnchor(build);
    body.push(html`${i > 0 ? '\n' : ''}<article class="build" id="${anchor}">
<h2>${build.display_version}</h2>
<p class="meta">Version ${build.version}${build.android_version === '' ? '' : ` · Android ${build.android_version}`} · <time datetime="${isoTime(build.timestamp)}">${readableTime(build.timestamp)}</time>${build.placeholder ? ' · announced, no package yet' : ''}</p>
<div class="changelog">
${renderChangelog(build.changelog!, anchor)}
</div>
</article>`);
  }
  return {
    path: fileOf(URLS.changelogPage(device)),
    contents: pageBytes(`${device} changelog`, body, html`<style>${raw(EXTRA_STYLE)}</style>`),
  };
}
