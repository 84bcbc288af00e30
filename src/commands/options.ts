/**
 * A command's options, declared once: `node:util` parseArgs reads the declaration as it is, the
 * values come back typed from it, and the options block of the command's --help is rendered from
 * it, so that the help cannot name an option the command lacks, or miss one it has.
 */

/** One option: what parseArgs needs (type, short, multiple, default) and what --help shows. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /**
   * What the option does, for --help: one paragraph, wrapped when rendered (its line breaks and
   * indentation in the source are only the source's layout).
   */
  description: string;
  /** The value's name in --help (`DIR`, `a,b`); string options only. */
  value?: string;
  /** The value when the option is not given, shown in --help after the description. */
  default?: string;
  /** A one-letter alias (`-h`). */
  short?: string;
  /** The option may be given several times; its value is then every one given, in order. */
  multiple?: boolean;
  /** A heading over this option and those after it in --help, for options most runs do without. */
  group?: string;
}

/** A command's options by name (the name is the long flag without `--`). */
export type OptionSpecs = Record<string, OptionSpec>;

/**
 * The values parseArgs returns for `S`: text, a flag or a list of texts, `undefined` when not given
 * and without a default. `root` is always there: the CLI fills it in when it is not given.
 */
export type OptionValues<S extends OptionSpecs> = {
  [K in keyof S]: K extends 'root'
    ? string
    : S[K] extends { default: string }
      ? ValueOf<S[K]>
      : ValueOf<S[K]> | undefined;
};

/** The parsed command line a command runs with. */
export interface CommandArgs<S extends OptionSpecs = OptionSpecs> {
  values: OptionValues<S>;
  positionals: string[];
}

/**
 * The options every command on a catalog takes. Without `--root`, the CLI sets `root` to the
 * current folder or the nearest one above it that holds `content/site.yaml`.
 */
export const COMMON_OPTIONS = {
  root: {
    type: 'string',
    value: 'DIR',
    description: `project folder holding content/ (default: this folder, or the nearest one above it with
      content/site.yaml)`,
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
} as const satisfies OptionSpecs;

/** The `--help` option alone, for a command that works on no catalog (init). */
export const HELP_OPTION = { help: COMMON_OPTIONS.help } as const satisfies OptionSpecs;

/** Width of a rendered help line; a description wraps at a space before it. */
export const HELP_WIDTH = 100;

/**
 * The options block of --help: `  --name VALUE  description (default: D)`, the descriptions in one
 * column, wrapped within {@link HELP_WIDTH}; a group's heading before its first option.
 */
export function renderOptions(specs: OptionSpecs): string {
  const entries = Object.entries(specs).map(([name, spec]) => ({ flag: flagOf(name, spec), spec }));
  const width = Math.max(...entries.map((e) => e.flag.length));
  const lines: string[] = ['options:'];
  let group: string | undefined;
  for (const { flag, spec } of entries) {
    if (spec.group !== group) {
      group = spec.group;
      lines.push('', group === undefined ? 'options:' : group);
    }
    const text = spec.default === undefined ? spec.description : `${spec.description} (default: ${spec.default})`;
    const [first, ...rest] = wrap(text, HELP_WIDTH - width - 4);
    lines.push(`  ${flag.padEnd(width)}  ${first}`, ...rest.map((line) => `${' '.repeat(width + 4)}${line}`));
  }
  return lines.join('\n');
}

/** How --help names an option: `-h, --help`, `--root DIR`. */
export function flagOf(name: string, spec: OptionSpec): string {
  const long = spec.value === undefined ? `--${name}` : `--${name} ${spec.value}`;
  return spec.short === undefined ? long : `-${spec.short}, ${long}`;
}

// --- internal ---

type ValueOf<O extends OptionSpec> = O['type'] extends 'boolean'
  ? boolean
  : O extends { multiple: true }
    ? string[]
    : string;

/** The words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.trim().split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
