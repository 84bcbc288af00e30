// `options_handler` in content/site.yaml: off by default (Cloudflare then answers OPTIONS with 405);
// on, the build adds the Pages worker that answers it, and only for a Cloudflare build.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../src/pipeline/build.js';
import { ContentError, formatProblem } from '../../src/catalog/problems.js';
import { tempProject } from '../helpers/helpers.js';

describe('options_handler', () => {
  it('is off by default: the worker runs only for /api/v2/changes, whose later pages _redirects cannot tell apart', () => {
    const root = tempProject({ withContent: true });
    build({ root });
    expect(JSON.parse(readFileSync(path.join(root, 'dist', '_routes.json'), 'utf8'))).toEqual({
      version: 1,
      include: ['/api/v2/changes', '/api/v2/changes/'],
      exclude: [],
    });
    expect(readFileSync(path.join(root, 'dist', '_worker.js'), 'utf8')).toContain('const ANSWERS = [];');
  });

  it('adds _worker.js and a _routes.json that limits it to /api/*', () => {
    const root = tempProject({ withContent: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), '\noptions_handler: true\n');
    build({ root });
    expect(JSON.parse(readFileSync(path.join(root, 'dist', '_routes.json'), 'utf8'))).toEqual({
      version: 1,
      include: ['/api/*'],
      exclude: [],
    });
    expect(readFileSync(path.join(root, 'dist', '_worker.js'), 'utf8')).toContain(
      'const ANSWERS = [{"for":"/api/*","headers":{"Allow":"GET, OPTIONS","Vary":"Accept","Cache-Control":"public, max-age=300","Access-Control-Allow-Origin":"*"}}];',
    );
  });

  it('is left out of a --host netlify build', () => {
    const root = tempProject({ withContent: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), '\noptions_handler: true\n');
    build({ root, host: 'netlify' });
    expect(existsSync(path.join(root, 'dist', '_worker.js'))).toBe(false);
    expect(existsSync(path.join(root, 'dist', '_routes.json'))).toBe(false);
  });

  it('must be true or false', () => {
    const root = tempProject({ withContent: true });
    appendFileSync(path.join(root, 'content', 'site.yaml'), '\noptions_handler: "yes"\n');
    let error: unknown;
    try {
      build({ root });
    } catch (e) {
      error = e;
    }
    expect((error as ContentError).problems.map(formatProblem)).toEqual([
      'content/site.yaml:19:1  options_handler  expected true or false',
    ]);
  });
});
