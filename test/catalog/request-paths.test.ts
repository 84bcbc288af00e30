// site.yaml's request_paths: what is refused, with its line and column, and
// what each host file gets for the paths that are accepted. That every host answers them is the
// host table's part (REQUEST_PATHS_YAML in test/helpers/host-table.ts, on every engine).
import { describe, expect, it } from 'vitest';
import { compileSite } from '../../src/pipeline/build.js';
import { readContent } from '../../src/catalog/read.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { parseSite } from '../../src/catalog/site.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { compileWith, REQUEST_PATHS_YAML } from '../helpers/host-table.js';

const BASE = 'download_base_url: https://images.example.org/builds\nrequest_paths:\n';
const problemsOf = (entries: string) => parseSite(`${BASE}${entries}`).problems.map(formatProblem);

describe('request_paths in site.yaml', () => {
  it.each([
    [
      '  - /{device}.json\n',
      'content/site.yaml:3:5  request_paths.0  a request path starts with /api/v1/, e.g. /api/v1/{device}_{list}: under it every host sends the API headers and the JSON 404s',
    ],
    [
      '  - /api/v1/{device}/{type}\n',
      'content/site.yaml:3:5  request_paths.0  unknown placeholder {type}; use {device}, {list} and {incremental}',
    ],
    [
      '  - /api/v1/{device}_{list}?x=1\n',
      'content/site.yaml:3:5  request_paths.0  `?` cannot be part of a request path; use letters, digits, `.`, `_`, `~`, `-` and `/` besides the placeholders',
    ],
    [
      '  - /api/v1//{device}_{list}\n',
      'content/site.yaml:3:5  request_paths.0  a request path has no empty, `.` or `..` segments',
    ],
    [
      '  - /api/v1/../{device}_{list}\n',
      'content/site.yaml:3:5  request_paths.0  a request path has no empty, `.` or `..` segments',
    ],
    ['  - /api/v1/{list}.json\n', 'content/site.yaml:3:5  request_paths.0  a request path has {device} exactly once'],
    [
      '  - /api/v1/{device}.json\n',
      'content/site.yaml:3:5  request_paths.0  a request path has {list} once, or give the list it answers: `- path: /api/v1/{device}.json` with `list: stable` below it',
    ],
    [
      '  - path: /api/v1/{device}_{list}\n    list: stable\n',
      'content/site.yaml:3:11  request_paths.0.path  it has {list} and `list: stable`; keep one of them',
    ],
    [
      '  - /api/v1/{device}{list}\n',
      'content/site.yaml:3:5  request_paths.0  two placeholders next to each other cannot be told apart; put a character between them, e.g. {device}_{list}',
    ],
    [
      '  - /api/v1/{device}/{incremental}/{list}\n',
      'content/site.yaml:3:5  request_paths.0  {incremental} is the whole last segment of a request path, e.g. /api/v1/{device}/{list}/{incremental}',
    ],
    [
      '  - /api/v1/{device}_{list}/{incremental}\n',
      'content/site.yaml:3:5  request_paths.0  {incremental} needs {device} and {list} to be whole segments: Cloudflare Pages takes such a path as one rule per device and list, and its rules with a placeholder are limited to 100',
    ],
    // /api/v1/x/{device}/{list} is /api/v1/{device}/{list}/{incremental} for a device named x.
    [
      '  - /api/v1/x/{device}/{list}\n',
      'content/site.yaml:3:5  request_paths.0  can ask for the same path as the built-in /api/v1/{device}/{list}/{incremental}; make it differ by a fixed part',
    ],
    [
      '  - /api/v1/{device}/{list}/\n',
      'content/site.yaml:3:5  request_paths.0  can ask for the same path as the built-in /api/v1/{device}/{list}/; make it differ by a fixed part',
    ],
    [
      '  - /api/v1/{device}/{list}.json\n',
      'content/site.yaml:3:5  request_paths.0  can ask for the same path as the built-in /api/v1/{device}/{list}; make it differ by a fixed part',
    ],
    [
      '  - /api/v1/{device}/{list}/index.jsonx\n',
      'content/site.yaml:3:5  request_paths.0  can ask for the same path as the built-in /api/v1/{device}/{list}/{incremental}; make it differ by a fixed part',
    ],
    [
      '  - /api/v1/{device}_{list}\n  - path: /api/v1/{device}_stable\n    list: dev\n',
      'content/site.yaml:4:11  request_paths.1.path  can ask for the same path as the request path /api/v1/{device}_{list} above; make it differ by a fixed part',
    ],
    [
      '  - path: /api/v1/{device}.json\n    list: nightly\n',
      'content/site.yaml:4:11  request_paths.0.list  `nightly` is not a list of this site (lists: stable, official, dev, community)',
    ],
    [
      '  - path: /api/v1/{device}.json\n',
      'content/site.yaml:3:5  request_paths.0.list  expected the list this path answers (stable, official, dev, community)',
    ],
    [
      '  - path: /api/v1/{device}.json\n    list: stable\n    status: 200\n',
      'content/site.yaml:5:5  request_paths.0.status  unknown key; a request path has `path:` and `list:`',
    ],
    [
      '  - 12\n',
      'content/site.yaml:3:5  request_paths.0  expected a path such as /api/v1/{device}_{list}, or `path:` and `list:` for a path without {list}',
    ],
  ])('refuses %j', (entries, message) => {
    expect(problemsOf(entries)).toEqual([message]);
  });

  it('refuses a separator that a list name holds', () => {
    const text =
      'download_base_url: https://images.example.org/builds\nchannels: [beta]\nlists:\n  beta-1: [beta]\nrequest_paths:\n  - /api/v1/{device}-{list}\n';
    expect(parseSite(text).problems.map(formatProblem)).toEqual([
      'content/site.yaml:6:5  request_paths.0  ambiguous: the list `beta-1` contains `-`, which separates {device} from {list} here; pick a separator no list name has',
    ]);
  });

  it.each([
    '  - /api/v1/{device}_{list}\n  - path: /api/v1/{device}.json\n    list: stable\n  - /api/v1/legacy/{device}/{list}/{incremental}\n',
    '  - /api/v1/{list}~{device}\n',
    '  - /api/v1/{device}-{list}\n',
    '  - /api/v1/x/y/{device}/{list}\n',
  ])('accepts %j', (entries) => {
    expect(problemsOf(entries)).toEqual([]);
  });
});

describe('the host files for request paths', () => {
  const content = readContent(EXAMPLE);
  const plain = compileSite(content);
  const withPaths = compileWith(content, REQUEST_PATHS_YAML);
  const file = (compiled: typeof plain, name: string) => String(compiled.files.find((f) => f.path === name)?.contents);

  it('Cloudflare: a static rule per device and list beside fixed text, one placeholder rule for whole segments', () => {
    const before = new Set(file(plain, '_redirects').split('\n'));
    const added = file(withPaths, '_redirects')
      .split('\n')
      .filter((line) => !before.has(line));
    expect(added).toEqual([
      ...['FP3', 'FP4', 'starlte'].flatMap((d) =>
        ['stable', 'official', 'dev', 'community'].map((l) => `/api/v1/${d}_${l}  /api/v1/${d}/${l}/index.json  200`),
      ),
      ...['FP3', 'FP4', 'starlte'].map((d) => `/api/v1/${d}.json  /api/v1/${d}/stable/index.json  200`),
      '/api/v1/legacy/:device/:list/:incremental  /api/v1/:device/:list/index.json  200',
    ]);
  });

  it('without request_paths, every host file is as before (the golden tree and netlify.toml are compared in build.test.ts)', () => {
    // The rules of the request paths join the others, each among the static or the placeholder
    // rules (every static rule first: routes.ts cloudflareRules); the others keep their order.
    const before = file(plain, '_redirects').split('\n');
    expect(
      file(withPaths, '_redirects')
        .split('\n')
        .filter((line) => before.includes(line)),
    ).toEqual(before);
    const rules = file(withPaths, '_redirects')
      .split('\n')
      .filter((line) => line.startsWith('/'))
      .map((line) => line.split(/\s+/)[0]);
    const firstDynamic = rules.findIndex((from) => from.includes(':'));
    expect(rules.slice(firstDynamic).every((from) => from.includes(':'))).toBe(true);
    expect(file(withPaths, '_headers')).toBe(file(plain, '_headers'));
  });
});
