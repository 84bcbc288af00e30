import type { DeviceInfo } from '../catalog/device.js';
import { displayVersionOf, isWithdrawn } from '../catalog/filename.js';
import { idIsSha256, sha256Of } from '../catalog/download-key.js';
import { DEVICE_FACTS_STYLE, deviceFacts, deviceHeading, deviceLabel, groupByVendor } from './device-facts.js';
import type { ChangelogBlock } from '../catalog/changelog.js';
import type { Build } from '../catalog/manifest.js';
import { writtenAsIs } from './as-is.js';
import { asIs, escapeMarkup, flatten, html, humanSize, isoTime, raw, readableTime, type Markup } from './markup.js';
import type { Listing } from '../catalog/plan.js';
import type { DeviceSummary } from './summary.js';
import { compareStrings } from '../catalog/problems.js';
import { fileOf, URLS, type Links } from './urls.js';
import { changelogAnchor, hasChangelog, renderChangelog } from './changelog.js';
import { utf8Of, type OutputFile } from './output.js';
import type { DialectAnswer } from './formats.js';

// The pages people read: a home page listing the devices and one page per device with its builds
// per list. Plain HTML with inline CSS and a few lines of script for the copy buttons: no framework,
// no request to another site. Every manifest value goes through the escaping `html` template.

/**
 * The page of one device: what device.yaml says of it, and its builds per list, with everything
 * needed to pick and check one. It links as `links` says (urls.ts linksOf: the site's base path, Pages' files).
 */
export function renderDevicePage(
  device: string,
  lists: readonly Listing[],
  info?: DeviceInfo,
  checksums = false,
  links: Links = URLS,
  answers: readonly DialectAnswer[] = [],
): OutputFile {
  const nav = lists.map(
    (l) => html`<li><a href="#${l.list}">${l.list}</a> <span class="meta">(${l.builds.length})</span></li>`,
  );
  const withChangelog = lists.some((l) => l.builds.some(hasChangelog));
  const hasFiles = lists.some((l) => l.builds.some((b) => b.files !== undefined));
  // The body in parts, never joined (see utf8Of): the head with the arrow, then per list its
  // heading (with `·`), then each article's opening tag and its body (see articleOf). The lists
  // follow the nav, one line apart.
  const body: (Markup | string)[] = [
    html`<p><a href="${links.home}">← All devices</a></p>
${deviceHeading(device, info)}
${info ? html`${deviceFacts(info)}\n` : ''}${
      withChangelog
        ? html`<p><a href="${links.changelogPage(device)}">Changelog</a> of every build</p>
`
        : ''
    }<p>Phones ask <code>${links.listing(device, '<list>')}</code>; LineageOS 23.2 and later ask <a href="${links.v2Builds(device)}"><code>${links.v2Builds(device)}</code></a>.</p>
${
  checksums
    ? html`<p><a href="${links.checksums(device)}">SHA256SUMS</a> of every download: in the folder of the files you downloaded, <code>sha256sum -c --ignore-missing SHA256SUMS</code></p>
`
    : ''
}${otherUpdaters(answers, links)}<nav aria-label="Lists"><ul class="lists">${join(nav, '\n')}</ul></nav>
`,
  ];
  for (const [i, listing] of lists.entries()) {
    body.push(html`${i > 0 ? '\n' : ''}<section id="${listing.list}" aria-labelledby="${listing.list}-title">
<h2 id="${listing.list}-title">${listing.list}</h2>
<p class="meta">${listing.builds.length} build${listing.builds.length === 1 ? '' : 's'} ·
<a href="${links.listing(device, listing.list)}">JSON</a> ·
<a href="${links.feed(device, listing.list)}">Atom feed</a></p>
`);
    if (listing.builds.length === 0) body.push(html`<p>No builds in this list.</p>`);
    const list = escapeMarkup(listing.list);
    for (const [n, build] of listing.builds.entries()) {
      // Each article's opening tag (after a line break unless it is the list's first), then its body.
      const article = articleOf(build, links);
      body.push(`${n > 0 ? '\n' : ''}${article.open}${list}${article.close}`, article.body);
    }
    body.push(raw('\n</section>'));
  }
  // Feed readers find the lists' feeds from the page address alone.
  const feeds = lists.map(
    (l) =>
      html`<link rel="alternate" type="application/atom+xml" title="${device} ${l.list} builds" href="${links.feed(device, l.list)}">`,
  );
  const styles = [
    ...(info ? [DEVICE_FACTS_STYLE] : []),
    ...(withChangelog || hasFiles ? [html`<style>${raw(EXTRA_STYLE)}</style>`] : []),
  ];
  const head = join([...feeds, ...styles], '\n');
  return {
    path: fileOf(URLS.devicePage(device)),
    contents: pageBytes(`${deviceLabel(device, info)} builds`, body, head),
  };
}

/** The home page: every device with its newest build and the size of each list, linked as `links` says (see renderDevicePage). */
export function renderHomePage(summaries: readonly DeviceSummary[], links: Links = URLS): string {
  const base = links.home.slice(0, -1);
  const rowOf = ({ device, lists, info, answers = [] }: DeviceSummary) => {
    const newest = lists
      .flatMap((l) => (l.newest ? [l.newest] : []))
      .sort((a, b) => b.datetime - a.datetime || compareStrings(a.filename, b.filename))[0];
    const counts = lists.map((l) => html`${l.list} ${l.count}`);
    return html`<li><a href="${links.devicePage(device)}">${deviceLabel(device, info)}</a>
<span class="meta">${newest ? html`newest ${newest.version}${newest.android_version === '' ? '' : html` (Android ${newest.android_version})`}, ${readableTime(newest.datetime).slice(0, 10)}` : 'no downloadable build yet'}</span>
<span class="meta">builds per list: ${join(counts, ' · ')}</span>${otherAnswers(answers, base)}</li>`;
  };
  // Grouped by vendor once device.yaml names one; a catalog without device files keeps one list.
  const groups = groupByVendor(summaries);
  const devices = groups
    ? join(
        groups.map(
          ({ vendor, devices: members }, i) => html`<section aria-labelledby="vendor-${i + 1}">
<h2 class="vendor" id="vendor-${i + 1}">${vendor}</h2>
<ul class="devices">
${join(members.map(rowOf), '\n')}
</ul>
</section>`,
        ),
        '\n',
      )
    : html`<ul class="devices">
${join(summaries.map(rowOf), '\n')}
</ul>`;
  const body = html`<h1>Update builds</h1>
<p>${summaries.length} device${summaries.length === 1 ? '' : 's'}. Phones ask <code>${base}/api/v1/&lt;device&gt;/&lt;list&gt;/</code> (LineageOS 23.2 and later: <code>${base}/api/v2/devices/&lt;device&gt;/builds</code>); scripts can read <a href="${links.deviceIndex}">the device index</a>.</p>
${devices}`;
  return page('Update builds', body, groups ? DEVICE_FACTS_STYLE : raw(''));
}

/**
 * A build's page anchor in one list is `<list>-<tail>` (a build appears once per list it belongs
 * to): this is the tail, the same in every list, so that the page and the feeds make it once.
 */
export function anchorTail(build: Build): string {
  // Where the tail below would be another build's too, the anchor the device's compilation settled (changelog.ts).
  if (build.anchor !== undefined) return build.placeholder ? build.anchor : build.anchor.slice('build-'.length);
  // A download key that is not a SHA-256 may share its first characters with another: all of it then.
  if (build.placeholder) return `placeholder-${build.version}-${build.timestamp}`;
  return idIsSha256(build) ? build.id.slice(0, 16) : build.id;
}

// --- internal ---

/** A home page row's answers in other updaters' dialects, each linked by updater and list; nothing without any. */
function otherAnswers(answers: readonly DialectAnswer[], base: string): Markup | string {
  if (answers.length === 0) return '';
  const links = answers.map((a) => html`<a href="${base}${a.path}">${a.title} (${a.list})</a>`);
  return html`
<span class="meta">other updaters: ${join(links, ' · ')}</span>`;
}

/**
 * The answers other updaters read (site.yaml `formats`), one line each, by updater and list, with
 * the address a ROM build points its updater at; nothing when the site publishes none.
 */
function otherUpdaters(answers: readonly DialectAnswer[], links: Links): Markup | string {
  if (answers.length === 0) return '';
  const base = links.home.slice(0, -1);
  const items = answers.map(
    (a) => html`<li>${a.title}, list ${a.list}: <a href="${base}${a.path}"><code>${base}${a.path}</code></a></li>`,
  );
  return html`<p>Other updaters ask:</p>
<ul class="answers">${join(items, '\n')}</ul>
`;
}

/**
 * A build's article, the same in every list the build is in but for the list's name in its anchor:
 * its opening tag up to that name and after it, and its body, made once, as one flat string, and
 * encoded into the page (utf8Of) as a part of its own. Joined with the list's other articles into
 * one string first, every article was copied once more before the encoding, and that join was the
 * largest single cost of the device pages: 0.9 s of the CPU of a cold 100k build, 1.6 s with a
 * changelog on every build (page assembly alone: 3.9 ms a page of 300 articles joined, 0.4 to 0.6
 * ms in parts). The name goes in escaped by the caller (escaping is character by character, so the
 * parts' escapes are the whole anchor's).
 */
interface Article {
  open: string;
  close: string;
  body: string;
}

function articleOf(build: Build, links: Links): Article {
  let article = ARTICLES.get(build);
  if (article === undefined) {
    const classes = `build${build.placeholder ? ' is-placeholder' : ''}${isWithdrawn(build) ? ' is-disabled' : ''}`;
    // The build's values as they are, when none of them holds a character to escape (as-is.ts).
    const e = writtenAsIs(build) ? asIs : escapeMarkup;
    article = {
      open: `<article class="${classes}" id="`,
      close: `-${e(anchorTail(build))}">`,
      body: flatten(buildBody(build, e, links)),
    };
    ARTICLES.set(build, article);
  }
  return article;
}

/** The articles made so far (see articleOf). */
const ARTICLES = new WeakMap<Build, Article>();

/**
 * What a build's article holds after its opening tag, made as plain text: each manifest value
 * through `e` (escapeMarkup, or asIs when none needs it: articleOf), the rest constant (the
 * times, sizes and a SHA-256 have no character to escape). Made of the `html` template (an object
 * per value and per row, nested templates joined), the device pages took 1.5 times the
 * instructions; the rarer sections (other files, changelog) still use it.
 */
function buildBody(build: Build, e: (value: string) => string, links: Links): string {
  const withdrawn = isWithdrawn(build);
  const badges: string[] = [];
  if (build.placeholder) badges.push('<span class="badge placeholder">Placeholder: announced, no package yet</span>');
  if (withdrawn) badges.push('<span class="badge disabled">Disabled: withdrawn, do not install</span>');
  if (build.is_upgrade_supported) badges.push('<span class="badge upgrade">Upgrade supported</span>');
  if (build.cleanInstall)
    badges.push(
      '<span class="badge clean-install">Clean install required: signed with another key than the build before it trusts, so phones cannot update to it over the air</span>',
    );
  const time = build.timestamp;
  let rows =
    `${row('Version', e(build.version))}\n` +
    `${row('Android', `${build.android_version === '' ? 'not stated' : e(build.android_version)}${build.api_level ? ` <span class="meta">(API ${e(build.api_level)})</span>` : ''}`)}\n` +
    row('Date', `<time datetime="${isoTime(time)}">${readableTime(time)}</time>`);
  const size = build.placeholder ? '' : humanSize(build.size as number);
  if (!build.placeholder) {
    rows += `\n${row('Size', `${size} <span class="meta">(${build.size} bytes)</span>`)}`;
    rows += `\n${row('File', `<code>${e(build.filename)}</code>`)}`;
  }
  if (build.md5sum) rows += `\n${row('MD5', hash(e(build.md5sum)))}`;
  if (!build.placeholder) {
    const sha256 = sha256Of(build);
    if (sha256 !== undefined) rows += `\n${row('SHA-256', hash(sha256))}`;
    if (!idIsSha256(build))
      rows += `\n${row('Download id', `<code>${e(build.id)}</code> <span class="meta">${sha256 === undefined ? DOWNLOAD_ID_NOTE : DOWNLOAD_KEY_NOTE}</span>`)}`;
  }
  if (build.sha1) rows += `\n${row('SHA-1', hash(e(build.sha1)))}`;
  if (build.signer)
    rows += `\n${row('Signer', `${hash(build.signer)} <span class="meta">(SHA-256 of the signing key)</span>`)}`;
  rows += `\n${row('Android upgrade', build.is_upgrade_supported ? 'Yes: marked as an upgrade from an earlier Android version' : 'No: not marked as an upgrade from an earlier Android version')}`;
  const download = build.placeholder
    ? '<p class="meta">No download: this build has no package yet.</p>'
    : `<p><a class="download" href="${e(build.url ?? '')}">Download${withdrawn ? ' (withdrawn file)' : ''}</a> <span class="meta">${size}</span></p>`;
  return `
<h3>${e(buildTitle(build))}</h3>
${badges.length > 0 ? `<p>${badges.join(' ')}</p>` : ''}
<dl>
${rows}
</dl>
${download}${build.files ? renderFiles(build).text : ''}${build.incrementals ? renderIncrementals(build).text : ''}${hasChangelog(build) ? changelogSection(build, links).text : ''}
</article>`;
}

/**
 * A build's title as its users know it: the file name without `.zip` (`lineage-21.0-20240315-nightly-akita-signed`,
 * `e-2.5-a14-20241108446322-official-FP4`), which names the ROM, where `display_version` is the
 * one derived from it, which drops the ROM's name; a `display_version` the manifest writes itself,
 * and a placeholder's, as written.
 */
export function buildTitle(build: Pick<Build, 'placeholder' | 'filename' | 'display_version'>): string {
  if (build.placeholder || build.display_version !== displayVersionOf(build.filename)) return build.display_version;
  return build.filename.replace(/(\.disabled)?\.zip$/, '');
}

/**
 * Beside a download id that is not a SHA-256, with no `sha256` in the manifest: the v2 answer
 * carries it as `sha256` (LineageOS phones key downloads by that field), which the download portal
 * (lineageos-infra/updater-client, DownloadableItem.vue and DownloadableDetail.vue at
 * 469a0e707f63ebbaf2fc3daf05aa4dc7e8d9f3aa) shows as the file's SHA256 and compares with the
 * SHA-256 of a file the user picks.
 */
const DOWNLOAD_ID_NOTE =
  'not a SHA-256: the LineageOS download portal shows it as the SHA256, and its Compare reports a mismatch even for the right file';

/**
 * Beside a download id that is not a SHA-256 when the manifest gives the zip's SHA-256 too
 * (`sha256`): the v2 answer, and so the portal, carry that one (the row above it); the id stays the
 * key of the v1 listing, which its phones already know.
 */
const DOWNLOAD_KEY_NOTE = 'not a SHA-256: the download key of the v1 listing, which phones already know';

/** The changelog section of a build's article. */
function changelogSection(build: Build & { changelog: ChangelogBlock[] }, links: Links): Markup {
  return html`\n<section class="changelog" aria-label="Changelog of ${build.display_version}"><h4>Changelog</h4>
${renderChangelog(build.changelog)}
<p class="meta"><a href="${links.changelogPage(build.device)}#${changelogAnchor(build)}">On the changelog page</a></p></section>`;
}

/** The build's other files (images, firmware), each with its download, size and hashes. */
function renderFiles(build: Build): Markup {
  const items = (build.files ?? []).map(
    (
      f,
    ) => html`<li><a href="${f.url}">${f.filename}</a> <span class="meta">${humanSize(f.size)} (${f.size} bytes)</span>
<dl><div><dt>SHA-256</dt><dd>${raw(hash(escapeMarkup(f.sha256)))}</dd></div><div><dt>SHA-1</dt><dd>${raw(hash(escapeMarkup(f.sha1)))}</dd></div></dl></li>`,
  );
  return html`\n<section class="files" aria-label="Other files of ${build.display_version}"><h4>Other files</h4>
<ul>
${join(items, '\n')}
</ul></section>`;
}

/**
 * The incremental packages that install a build, for people downloading by hand: each applies only
 * on its source build (recovery and update_engine refuse it on any other), so the source comes first.
 */
function renderIncrementals(build: Build): Markup {
  const items = build.incrementals!.map((pkg) => {
    const sha256 = sha256Of(pkg);
    return html`<li>From <code>${pkg.appliesOn!.incremental}</code>: <a href="${pkg.url ?? ''}">${pkg.filename}</a> <span class="meta">${humanSize(pkg.size as number)} (${pkg.size} bytes)</span>
<dl>${sha256 === undefined ? '' : raw(`<div><dt>SHA-256</dt><dd>${hash(sha256)}</dd></div>`)}${pkg.md5sum ? raw(`<div><dt>MD5</dt><dd>${hash(escapeMarkup(pkg.md5sum))}</dd></div>`) : ''}${pkg.sha1 ? raw(`<div><dt>SHA-1</dt><dd>${hash(escapeMarkup(pkg.sha1))}</dd></div>`) : ''}</dl></li>`;
  });
  return html`\n<section class="incrementals" aria-label="Incremental packages of ${build.display_version}"><h4>Incremental packages</h4>
<p class="meta">Each installs only on the build it names (its <code>ro.build.version.incremental</code>).</p>
<ul>
${join(items, '\n')}
</ul></section>`;
}

/** A row of a build's facts: `value` is markup (already escaped). */
function row(term: string, value: string): string {
  return `<div><dt>${term}</dt><dd>${value}</dd></div>`;
}

/**
 * A hash, which the page's script gives a copy button (see SCRIPT). In the markup, the buttons had
 * repeated each hash and build name: a quarter of a device page's bytes (107 of 394 KB with 297
 * builds), for buttons hidden without script.
 */
function hash(value: string): string {
  return `<code class="hash">${value}</code>`;
}

/** Joins markup with a separator. */
function join(parts: readonly Markup[], separator: string): Markup {
  return raw(parts.map(String).join(separator));
}

/** A whole page: the shared head, style and copy script around `body`. */
function page(title: string, body: Markup, head: Markup = raw('')): string {
  return `${pageStart(title, head)}${body}${PAGE_END}`;
}

/** {@link page} as UTF-8 bytes, its body given in parts that are never joined into one string (see utf8Of). */
export function pageBytes(title: string, body: readonly (Markup | string)[], head: Markup = raw('')): Buffer {
  return utf8Of([pageStart(title, head), ...body, PAGE_END]);
}

/** A page up to its body. */
function pageStart(title: string, head: Markup): Markup {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
${head}
<style>${raw(STYLE)}</style>
</head>
<body>
<main>
`;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#5a5a5a;--line:#d6d6d6;--card:#f6f7f8;--link:#0b57d0;--warn:#8a4b00;--warnbg:#fff1dc;--bad:#a1111b;--badbg:#fde7e9;--ok:#116329;--okbg:#e3f5e8}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#141414;--muted:#a8a8a8;--line:#3a3a3a;--card:#1e1f21;--link:#8ab4f8;--warn:#ffcf8a;--warnbg:#3a2a10;--bad:#ffb3b8;--badbg:#45161a;--ok:#9be0ae;--okbg:#15361f}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:52rem;margin:0 auto;padding:1rem}
a{color:var(--link)}
h1{font-size:1.8rem;margin:.5rem 0}
h2{font-size:1.4rem;margin:2rem 0 .25rem;padding-top:.5rem;border-top:1px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 .5rem;overflow-wrap:anywhere}
code{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.meta{color:var(--muted)}
.devices{list-style:none;padding:0}
.devices li{padding:.75rem 0;border-bottom:1px solid var(--line)}
.devices a{font-size:1.2rem;font-weight:600;margin-right:.5rem}
.devices .meta{display:block}
.lists{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}
.build{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0}
.build dl{margin:0;display:grid;gap:.15rem}
.build dl div{display:grid;grid-template-columns:9.5rem 1fr;gap:.5rem}
.build dt{color:var(--muted)}
.build dd{margin:0;min-width:0}
@media (max-width:34rem){main{padding:.75rem}.build{padding:.6rem .75rem}.build dl div{grid-template-columns:5.5rem 1fr}}
.badge{display:inline-block;font-size:.85rem;font-weight:600;padding:.1rem .5rem;border-radius:1rem;margin:0 .25rem .25rem 0}
.placeholder{color:var(--warn);background:var(--warnbg)}
.disabled{color:var(--bad);background:var(--badbg)}
.upgrade{color:var(--ok);background:var(--okbg)}
.is-placeholder{border-style:dashed}
.is-disabled{border-color:var(--bad)}
.download{display:inline-block;font-weight:600;padding:.35rem .9rem;border:1px solid var(--link);border-radius:.35rem;text-decoration:none}
.copy{font:inherit;font-size:.8rem;padding:.05rem .5rem;margin-left:.25rem;cursor:pointer}
a:focus-visible,button:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.status{position:absolute;left:-9999px}
`;

/** Style for changelogs and file lists, only on pages that show them (pages without keep their bytes). */
export const EXTRA_STYLE = `
.changelog,.files{margin-top:.75rem;border-top:1px solid var(--line);padding-top:.5rem}
.changelog h4,.files h4{font-size:1rem;margin:.25rem 0}
.changelog ul,.files ul{margin:.25rem 0;padding-left:1.25rem}
.changelog pre{overflow-x:auto;background:var(--bg);padding:.5rem;border-radius:.25rem}
.files li{margin:.35rem 0}
.build .files dl div{grid-template-columns:5rem 1fr}
`;

/**
 * Gives each hash a copy button, named by its row and by the build (its heading) or file (its
 * link) it belongs to, e.g. "Copy SHA-256 of recovery.img"; a button copies the hash before it.
 * Without script there is nothing to copy with, so the markup has no buttons.
 */
const SCRIPT = `
for (const code of document.querySelectorAll('code.hash')) {
  const file = code.closest('section.files li');
  const owner = file ? file.querySelector('a') : code.closest('article').querySelector('h3');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', \`Copy \${code.closest('div').querySelector('dt').textContent} of \${owner.textContent}\`);
  code.after(' ', button);
}
const status = document.querySelector('.status');
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button.copy');
  if (!button) return;
  try {
    await navigator.clipboard.writeText(button.previousElementSibling.textContent);
    button.textContent = 'Copied';
    status.textContent = 'Copied to the clipboard';
  } catch {
    getSelection().selectAllChildren(button.previousElementSibling);
    button.textContent = 'Selected: press Ctrl+C';
    status.textContent = 'Could not copy; the text is selected';
  }
});
`;

/** A page after its body. */
const PAGE_END = `
</main>
<p class="status" role="status" aria-live="polite"></p>
<script>${SCRIPT}</script>
</body>
</html>
`;
