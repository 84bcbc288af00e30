// The hosts as modules behind one interface (src/hosts/host.ts), registered in host-files.ts
// `HOSTS`: a build writes the rule files of exactly the hosts whose module says so, no two of them
// write the same file, and the self-hosted servers' configurations come from the same modules.
import { describe, expect, it } from 'vitest';
import { HOSTS as SITE_HOSTS, parseSite } from '../../src/catalog/site.js';
import { HOSTS, hostRuleProblems, renderHostFiles } from '../../src/hosts/host-files.js';
import type { Host } from '../../src/hosts/host.js';
import { renderApacheConfig } from '../../src/hosts/apache.js';
import { renderCaddyfile } from '../../src/hosts/caddy.js';
import { renderNginxConfig } from '../../src/hosts/nginx.js';
import { routeTable } from '../../src/hosts/routes.js';
import { FORMATS_OUTSIDE_API_YAML } from '../helpers/host-table.js';

const base = 'download_base_url: https://images.example.org/builds\n';
const site = (yaml: string) => {
  const parsed = parseSite(base + yaml);
  expect(parsed.problems).toEqual([]);
  return parsed.site!;
};
/** The files besides the JSON 404 bodies: the hosts' rule files. */
const ruleFileNames = (files: { path: string }[]) =>
  files.map((f) => f.path).filter((p) => !/(^|\/)404\.(html|json)$/.test(p));

describe('the host modules', () => {
  it('have one name each, and every host site.yaml may name has one', () => {
    const names = HOSTS.map((h) => h.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of SITE_HOSTS) expect(names).toContain(name);
  });

  const PAST_END = 'api/v2/changes-past-end.json';
  const CLOUDFLARE = ['_redirects', '_headers', '_worker.js', '_routes.json'];
  const cases: { what: string; yaml: string; host: Host; files: string[] }[] = [
    { what: 'a default build', yaml: '', host: 'all', files: [PAST_END, ...CLOUDFLARE] },
    { what: 'a Netlify build', yaml: '', host: 'netlify', files: [PAST_END, '_redirects', '_headers'] },
    { what: 'a Netlify build of a Cloudflare site', yaml: 'hosts: [cloudflare]\n', host: 'netlify', files: [PAST_END] },
    {
      what: 'a build with .htaccess',
      yaml: 'apache_htaccess: true\n',
      host: 'all',
      files: [PAST_END, '.htaccess', ...CLOUDFLARE],
    },
    {
      what: 'a Netlify build with apache_htaccess',
      yaml: 'apache_htaccess: true\n',
      host: 'netlify',
      files: [PAST_END, '.htaccess', '_redirects', '_headers'],
    },
  ];
  it.each(cases)('$what writes the rule files of the hosts whose module says so', ({ yaml, host, files }) => {
    const s = site(yaml);
    const table = routeTable(s, { devices: ['FP4'] });
    const written = renderHostFiles(s, host, table);
    expect(ruleFileNames(written)).toEqual(files);
    const expected = HOSTS.filter((h) => h.writes(s, host)).flatMap((h) => h.ruleFiles(table));
    expect(written.filter((f) => expected.some((e) => e.path === f.path))).toEqual(expected);
  });

  it('never has two hosts write the same file in one build', () => {
    const s = site(`apache_htaccess: true\noptions_handler: true\n${FORMATS_OUTSIDE_API_YAML}`);
    for (const host of ['all', 'netlify'] as const) {
      const written = HOSTS.filter((h) => h.writes(s, host));
      const paths = written.flatMap((h) => h.ruleFiles(routeTable(s)).map((f) => f.path));
      expect(new Set(paths).size, host).toBe(paths.length);
    }
  });

  it('give `otapress hosting` each server its configuration', () => {
    const s = site(FORMATS_OUTSIDE_API_YAML);
    const options = { dist: '/srv/dist', listen: { port: 8080 } };
    const config = (name: string) => HOSTS.find((h) => h.name === name)!.serverConfig!(s, options);
    expect(config('nginx')).toBe(renderNginxConfig(s, options));
    expect(config('caddy')).toBe(renderCaddyfile(s, options));
    expect(config('apache')).toBe(renderApacheConfig(s, options));
    const servers = HOSTS.filter((h) => h.serverConfig).map((h) => h.name);
    expect(servers.sort()).toEqual(['apache', 'caddy', 'nginx']);
  });

  it('report the rules past a limit of the hosts a build writes for, only those', () => {
    // 2,001 answers for phones on one build: static _redirects rules on Cloudflare (v1's and v2's), none on Netlify.
    const incrementals = Array.from({ length: 2001 }, (_, i) => ({
      device: 'FP4',
      list: 'stable',
      incremental: `eng.${i}`,
    }));
    const s = site('');
    const table = routeTable(s, { devices: ['FP4'], incrementals });
    const problems = hostRuleProblems(s, 'all', table);
    expect(problems.map((p) => p.field)).toEqual(['(incremental packages)']);
    expect(hostRuleProblems(s, 'netlify', table)).toEqual([]);
  });
});
