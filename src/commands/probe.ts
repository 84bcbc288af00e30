/** `otapress probe`: the live site and its downloads, as each updater fetches and reads them. */
import { oneLine } from '../catalog/problems.js';
import {
  annotationProperty,
  COMMON_OPTIONS,
  count,
  defineCommand,
  escapeData,
  EXIT,
  SEE_USAGE,
  UsageError,
} from '../io.js';
import type { Finding } from '../probe/check-answer.js';
import { fetchable } from '../probe/http.js';

export const command = defineCommand({
  summary: 'fetch the live site and check every download as each updater does; exit 1 when a phone would fail',
  synopsis: 'otapress probe <site url> [--root DIR] [--build-prop FILE] [--deep] [--concurrency N] [--timeout S]',
  about: `Plans the site from content/ as build does (nothing is written), then asks the site at <site url>
for every answer it publishes, each as its updater asks and reads it: LineageOS v1 and v2 and each
dialect of formats, with that updater's rules for https, redirects, Content-Type, the most bytes it
reads, its time limit and its decoding. Each download offered is checked with a ranged GET of its
first bytes, through the redirects the phone's download client follows: a 200 or 206, the length
the listing says, a zip, and range support where ota_property_files is published. One line per
problem (a GitHub annotation when GITHUB_ACTIONS=true), then a table per updater. Plain http:// is
probed on loopback addresses only (a preview).`,
  options: {
    'build-prop': {
      type: 'string',
      value: 'FILE',
      description: `probe only what one ROM build asks: its lineage.updater.uri with ro.lineage.device (or
        ro.product.device) and ro.lineage.releasetype, read by the v2 updater on LineageOS 23.2 and later`,
    },
    deep: {
      type: 'boolean',
      description: 'download every package whole and compare its sha256 and md5 with the listing',
    },
    concurrency: { type: 'string', value: 'N', default: '8', description: 'requests at a time, 1 to 64' },
    timeout: { type: 'string', value: 'S', default: '20', description: 'the most one request may take, in seconds' },
    ...COMMON_OPTIONS,
  },
  readOnly: true,
  setsJitBudget: true,
  async run({ values, positionals }, io) {
    const base = siteBase(positionals);
    const concurrency = integerOption('--concurrency', values.concurrency, 1, 64);
    const timeoutS = integerOption('--timeout', values.timeout, 1, 600);
    const path = await import('node:path');
    const { readFileSync } = await import('node:fs');
    const { check } = await import('../pipeline/build.js');
    const { ContentError } = await import('../catalog/problems.js');
    const { buildTarget, readBuildProps, siteTargets } = await import('../probe/targets.js');
    const compiled = check({ root: path.resolve(values.root) });
    if (compiled.problems.length > 0 || compiled.site === undefined) throw new ContentError(compiled.problems);
    let targets = siteTargets(compiled.site, compiled.listings, compiled.files, base);
    const propFile = values['build-prop'];
    if (propFile !== undefined) {
      let text: string;
      try {
        text = readFileSync(propFile, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read --build-prop ${propFile}: ${(error as NodeJS.ErrnoException).code}`);
      }
      const target = buildTarget(readBuildProps(text));
      if (typeof target === 'string') throw new UsageError(`${propFile}: ${target}`);
      if (!target.url.startsWith(`${base}/`))
        io.err(`${propFile}: the build asks ${target.url}, which is not under ${base}/`);
      targets = [target];
    }
    const { probeSite } = await import('../probe/probe-site.js');
    const { tallyTable } = await import('../probe/report.js');
    const { findings, tallies } = await probeSite(targets, { concurrency, timeoutS, deep: values.deep === true });
    const github = process.env.GITHUB_ACTIONS === 'true';
    const unreachable = findings.length > 0 && findings.every((f) => f.rule === 'unreachable');
    if (unreachable && tallies.every((t) => t.downloads === 0)) {
      io.err(`cannot reach ${base}/: ${findings[0].message}; check the address, and that the site is up`);
      return EXIT.invalid;
    }
    const lines = findings.map((f) => findingLine(f, github));
    for (const line of lines) io[github ? 'out' : 'err'](line);
    io.out(tallyTable(tallies).join('\n'));
    if (findings.length === 0) {
      io.out(`${count(targets.length, 'answer')} and every download offered pass each updater's rules`);
      return EXIT.ok;
    }
    io.err(`${count(findings.length, 'problem')} found: phones would fail on them`);
    return EXIT.invalid;
  },
});

// --- internal ---

/** One finding as a line (`<updater>  <url>  <rule>: <what>`), or as a GitHub Actions `::error` annotation. */
function findingLine(f: Finding, github: boolean): string {
  if (github)
    return `::error title=${annotationProperty(`${f.updater}: ${f.rule}`)}::${escapeData(`${f.url}  ${f.message}`)}`;
  return oneLine(`${f.updater}  ${f.url}  ${f.rule}: ${f.message}`);
}

/** The site's address without its trailing slash: https, or http on a loopback address. */
function siteBase(positionals: string[]): string {
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'name the site: otapress probe https://<your site>' : 'one site at a time',
      SEE_USAGE,
    );
  const given = positionals[0];
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`${given} is not a URL; give the site's address, such as https://updates.example.org`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '' || !fetchable(url))
    throw new UsageError(
      `${given}: give the site's https:// address without query or fragment (http:// only on a loopback address, a preview)`,
    );
  return url.href.replace(/\/+$/, '');
}

function integerOption(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${name} is a whole number from ${min} to ${max}, not ${value}`, SEE_USAGE);
  return n;
}
