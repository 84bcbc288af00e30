import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagOf, HELP_WIDTH, renderOptions, type OptionSpecs } from '../../src/commands/options.js';
import type { Command } from '../../src/io.js';
import { runMain } from '../helpers/cli-process.js';

const COMMANDS_DIR = path.resolve(import.meta.dirname, '../../src/commands');

/** Every command of src/commands/ (the files that export one), by name. */
const commands: [string, Command][] = await Promise.all(
  readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map(
      async (f) =>
        [
          f.replace(/\.ts$/, ''),
          ((await import(path.join(COMMANDS_DIR, f))) as { command?: Command }).command,
        ] as const,
    ),
).then((all) => all.filter((entry): entry is [string, Command] => entry[1] !== undefined));

/**
 * The options block of a --help text read back: each option's flag and description (its lines
 * joined), and each heading. A line that is none of these is returned as stray.
 */
function readOptionsBlock(usage: string): { headings: string[]; entries: [string, string][]; stray: string[] } {
  const start = usage.indexOf('\n\noptions:\n');
  const lines = usage.slice(start + 2).split('\n');
  const headings: string[] = [];
  const entries: [string, string][] = [];
  const stray: string[] = [];
  // The description column: where the text of the first option line starts.
  const column = /^ {2}\S.*? {2,}(?=\S)/.exec(lines[1])![0].length;
  for (const line of lines) {
    if (line === '') continue;
    if (!line.startsWith(' ')) headings.push(line);
    else if (line.startsWith('  -') && line.slice(0, column).trimEnd().length < column) {
      entries.push([line.slice(2, column).trimEnd(), line.slice(column)]);
    } else if (line.startsWith(' '.repeat(column)) && entries.length > 0)
      entries.at(-1)![1] += ` ${line.slice(column)}`;
    else stray.push(line);
  }
  return { headings, entries, stray };
}

/** What the declaration says each option's entry is: its flag, and its description as one line. */
function declared(options: OptionSpecs): [string, string][] {
  return Object.entries(options).map(([name, spec]) => {
    const description = spec.description.trim().split(/\s+/).join(' ');
    return [flagOf(name, spec), spec.default === undefined ? description : `${description} (default: ${spec.default})`];
  });
}

describe('the options of each command, declared once', () => {
  it('finds the commands it checks (a check of none could not fail)', () => {
    expect(commands.map(([name]) => name)).toEqual([
      'add',
      'build',
      'check',
      'diff',
      'hosting',
      'import',
      'init',
      'probe',
      'raw-branch',
      'schema',
      'serve',
    ]);
  });

  it.each(commands)(
    '%s --help lists every declared option, and each line of its options block comes from a declaration',
    (_, command) => {
      const { headings, entries, stray } = readOptionsBlock(command.usage);
      expect(stray).toEqual([]);
      expect(entries).toEqual(declared(command.options));
      const groups = [...new Set(Object.values(command.options).map((spec) => spec.group))].map(
        (group) => group ?? 'options:',
      );
      expect(headings).toEqual(groups);
    },
  );

  it.each(commands)('%s --help keeps its options block within the width of a terminal line', (_, command) => {
    const block = command.usage.slice(command.usage.indexOf('\n\noptions:\n'));
    expect(block.split('\n').filter((line) => line.length > HELP_WIDTH)).toEqual([]);
  });

  it('renders an option table: value names, aliases, defaults, wrapped descriptions and group headings', () => {
    const text = renderOptions({
      out: { type: 'string', value: 'DIR', description: 'where the site goes', default: 'dist' },
      help: { type: 'boolean', short: 'h', description: 'show this help' },
      device: {
        type: 'string',
        value: 'CODE',
        group: 'When the name does not tell:',
        description: `the device ${'and more '.repeat(12).trim()}`,
      },
    });
    expect(text.split('\n')).toEqual([
      'options:',
      '  --out DIR      where the site goes (default: dist)',
      '  -h, --help     show this help',
      '',
      'When the name does not tell:',
      // 100 characters: the widest line the width allows.
      '  --device CODE  the device and more and more and more and more and more and more and more and more',
      '                 and more and more and more and more',
    ]);
  });

  it('reads the command line with the same declaration: the values come back as declared', async () => {
    // An option the declaration lacks is refused, with the usage rendered from it.
    const refused = await runMain(['check', '--formats', 'github']);
    expect(refused.code).toBe(2);
    expect(refused.err[0]).toMatch(/^Unknown option '--formats'/);
    expect(refused.err).toContain(
      '  --format text|github  github prints each problem as a GitHub Actions annotation, so a pull request',
    );
    const help = await runMain(['serve', '-h']);
    expect({ code: help.code, first: help.out[0] }).toEqual({
      code: 0,
      first: 'otapress serve [--port N] [--root DIR]',
    });
  });
});
