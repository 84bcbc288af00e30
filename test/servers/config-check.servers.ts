// The configurations `otapress hosting` prints for the defaults (port 80, no prefix; Caddy with
// automatic HTTPS) pass the servers' own config testers: nginx -t, apache2 -t, caddy validate.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { main } from '../../src/cli.js';
import { EXAMPLE } from '../helpers/helpers.js';
import { serverProgram, tempFolder } from './servers.js';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe("the default configurations pass the servers' own checks", () => {
  let project: string;
  beforeAll(() => {
    project = tempFolder('otapress-check-project-');
    cpSync(path.join(EXAMPLE, 'content'), path.join(project, 'content'), { recursive: true });
    build({ root: project });
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it.each([
    {
      kind: 'nginx' as const,
      args: [],
      check: (file: string, prefix: string) => ['-t', '-p', `${prefix}/`, '-c', file],
    },
    { kind: 'apache' as const, args: [], check: (file: string, prefix: string) => ['-t', '-d', prefix, '-f', file] },
    {
      kind: 'caddy' as const,
      args: ['--server-name', 'updates.example.org'],
      check: (file: string) => ['validate', '--config', file, '--adapter', 'caddyfile'],
    },
    {
      kind: 'caddy' as const,
      args: [],
      check: (file: string) => ['validate', '--config', file, '--adapter', 'caddyfile'],
    },
  ])('$kind $args', async ({ kind, args, check }) => {
    const prefix = tempFolder(`otapress-check-${kind}-`);
    try {
      // The defaults but --root: a built example project, as a fresh clone has no dist/ of its own
      // (Apache refuses a DocumentRoot that does not exist).
      const { code, out, err } = await run(['hosting', kind, '--root', project, ...args]);
      expect(code, err).toBe(0);
      const file = path.join(prefix, 'config');
      writeFileSync(file, `${out}\n`);
      const result = spawnSync(serverProgram(kind), check(file, prefix), {
        encoding: 'utf8',
        cwd: prefix,
        env: { ...process.env, HOME: prefix, XDG_CONFIG_HOME: prefix, XDG_DATA_HOME: prefix },
      });
      expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    } finally {
      // Each run left its four folders (the configuration, and what the server writes beside it) in the temporary folder.
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});
