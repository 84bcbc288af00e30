// content/<device>/device.yaml: read like a manifest, every problem located at
// its line and column with the field path, unknown keys with suggestions.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import {
  DEVICE_KEYS,
  deviceJsonSchema,
  deviceSchema,
  isDeviceFile,
  LINK_KINDS,
  parseDeviceFile,
} from '../../src/catalog/device.js';
import { formatProblem } from '../../src/catalog/problems.js';
import { textProblem } from '../../src/catalog/published-text.js';
import { MAX_SOURCE_BYTES } from '../../src/catalog/yaml-source.js';

const FILE = 'content/FP4/device.yaml';
const messages = (text: string) => parseDeviceFile(text, FILE).problems.map(formatProblem);

const FULL = `# yaml-language-server: $schema=../device.schema.json
name: Fairphone 4
oem: Fairphone
models: [FP4, FP4 5G]
maintainers:
  - name: Jane Doe
    url: https://github.com/jane
  - name: Bob
links:
  info: https://wiki.lineageos.org/devices/FP4
  forum: https://xdaforums.com/t/fp4
  support: https://t.me/fp4
  donate: https://paypal.me/jane
  source: https://github.com/LineageOS/android_device_fairphone_FP4
dependencies: [android_device_fairphone_FP4, android_kernel_fairphone_sm7225]
`;

describe('parseDeviceFile', () => {
  it('knows the keys of the schema and of its mappings, for hints, without building it', () => {
    const { shape } = deviceSchema();
    expect(DEVICE_KEYS['']).toEqual(Object.keys(shape));
    expect(DEVICE_KEYS.links).toEqual(Object.keys(shape.links.unwrap().shape));
    expect(DEVICE_KEYS.maintainers).toEqual(Object.keys(shape.maintainers.unwrap().element.shape));
    expect(DEVICE_KEYS.links).toEqual(LINK_KINDS);
  });

  it('reads every key', () => {
    expect(parseDeviceFile(FULL, FILE)).toEqual({
      problems: [],
      info: {
        name: 'Fairphone 4',
        oem: 'Fairphone',
        models: ['FP4', 'FP4 5G'],
        maintainers: [{ name: 'Jane Doe', url: 'https://github.com/jane' }, { name: 'Bob' }],
        links: {
          info: 'https://wiki.lineageos.org/devices/FP4',
          forum: 'https://xdaforums.com/t/fp4',
          support: 'https://t.me/fp4',
          donate: 'https://paypal.me/jane',
          source: 'https://github.com/LineageOS/android_device_fairphone_FP4',
        },
        dependencies: ['android_device_fairphone_FP4', 'android_kernel_fairphone_sm7225'],
      },
    });
  });

  it.each([
    ['an empty file', ''],
    ['only comments', '# nothing yet\n'],
    ['only a name', 'name: Galaxy S9\n'],
  ])('accepts %s, every key being optional', (_, text) => {
    const { info, problems } = parseDeviceFile(text, FILE);
    expect(problems).toEqual([]);
    expect(info).toMatchObject({ models: [], maintainers: [], links: {}, dependencies: [] });
  });

  it.each([
    [
      'an unknown key, with a suggestion',
      'name: X\nvendor: Y\n',
      [
        'content/FP4/device.yaml:2:1  vendor  unknown key; known keys here: name, oem, models, maintainers, links, dependencies',
      ],
    ],
    ['a misspelt key', 'nmae: X\n', ['content/FP4/device.yaml:1:1  nmae  unknown key; did you mean `name`?']],
    [
      'a misspelt link',
      'links:\n  forums: https://x.org/\n',
      ['content/FP4/device.yaml:2:3  links.forums  unknown key; did you mean `forum`?'],
    ],
    [
      'an unknown maintainer key',
      'maintainers:\n  - name: A\n    github: a\n',
      ['content/FP4/device.yaml:3:5  maintainers.0.github  unknown key; known keys here: name, url'],
    ],
    [
      'an http link',
      'links:\n  info: http://wiki.example.org/FP4\n',
      [
        'content/FP4/device.yaml:2:9  links.info  expected an absolute https:// address without spaces (pages and apps open it from another site)',
      ],
    ],
    [
      'a javascript: link',
      'maintainers:\n  - name: A\n    url: "javascript:alert(1)"\n',
      [
        'content/FP4/device.yaml:3:10  maintainers.0.url  expected an absolute https:// address without spaces (pages and apps open it from another site)',
      ],
    ],
    [
      'a quote in a link',
      'links:\n  forum: https://x.org/a"b\n',
      [
        'content/FP4/device.yaml:2:10  links.forum  the address holds characters that must be percent-encoded (quotes, <, >, \\, control or non-ASCII characters); write them as %XX',
      ],
    ],
    [
      'a name on two lines',
      'name: "Fair\\nphone"\n',
      ['content/FP4/device.yaml:1:7  name  expected the display name on one line, without tabs or line breaks'],
    ],
    [
      'a line separator in a model',
      'models: ["FP4\\u2028X"]\n',
      ['content/FP4/device.yaml:1:10  models.0  expected a model name on one line, without tabs or line breaks'],
    ],
    [
      'a tab in the vendor',
      'oem: "Fair\\tphone"\n',
      ['content/FP4/device.yaml:1:6  oem  expected the vendor name on one line, without tabs or line breaks'],
    ],
    [
      'an empty name',
      'name: ""\n',
      [
        'content/FP4/device.yaml:1:7  name  expected the display name, e.g. Fairphone 4; leave the key out instead of leaving it empty',
      ],
    ],
    [
      'a number as models',
      'models: 4\n',
      ['content/FP4/device.yaml:1:9  models  expected a list of model names, e.g. [FP4, FP4 5G]'],
    ],
    [
      'a repository URL as a dependency',
      'dependencies: [https://github.com/a/b]\n',
      [
        'content/FP4/device.yaml:1:16  dependencies.0  expected a repository name: letters, digits, `.`, `-` and `_` (the name, not its URL), e.g. android_device_fairphone_FP4',
      ],
    ],
    [
      'a maintainer without a name',
      'maintainers:\n  - url: https://x.org/\n',
      ["content/FP4/device.yaml:2:5  maintainers.0.name  expected the maintainer's name, e.g. Jane Doe"],
    ],
    ['a model listed twice', 'models: [FP4, FP4]\n', ['content/FP4/device.yaml:1:15  models.1  `FP4` is listed twice']],
    [
      'a list instead of a mapping',
      '- name: X\n',
      [
        'content/FP4/device.yaml:1:1  (file)  expected a mapping of keys (name: ..., oem: ...), found a list; see the README, "Device files"',
      ],
    ],
    [
      'a duplicate key',
      'name: A\nname: B\n',
      [
        'content/FP4/device.yaml:2:1  name  `name` is written twice (first on line 1); each field may appear once, keep one',
      ],
    ],
  ])('refuses %s, at the line and column of the field', (_, text, expected) => {
    expect(messages(text)).toEqual(expected);
  });

  // The rule of every text a manifest publishes (manifest-text.ts), word for word: a name shown on
  // the pages and in v2's JSON can no more pass for another, or break a strict JSON decoder.
  const unpublishable = [
    [
      '\\u202E',
      'U+202E RIGHT-TO-LEFT OVERRIDE (character 5): an invisible direction control makes the text display in another order than it is written, so a name can pass for another; remove it',
    ],
    [
      '\\u061C',
      'U+061C ARABIC LETTER MARK (character 5): an invisible direction control makes the text display in another order than it is written, so a name can pass for another; remove it',
    ],
    ['\\0', 'U+0000 (character 5), a control character, which pages and feeds cannot show; remove it'],
    ['\\x7F', 'U+007F (character 5), a control character, which pages and feeds cannot show; remove it'],
    ['\\uFFFE', 'U+FFFE (character 5), a noncharacter, which is not text; remove it'],
    ['\\uFDD0', 'U+FDD0 (character 5), a noncharacter, which is not text; remove it'],
    [
      '\\uD800',
      'U+D800 (character 5), half of a character (a lone surrogate), which strict JSON decoders refuse; remove it',
    ],
    [
      '\\uDFFF',
      'U+DFFF (character 5), half of a character (a lone surrogate), which strict JSON decoders refuse; remove it',
    ],
  ] as const;
  const textFields = [
    ['name', (v: string) => `name: "${v}"\n`, '1:7'],
    ['oem', (v: string) => `oem: "${v}"\n`, '1:6'],
    ['models.1', (v: string) => `models: [FP4, "${v}"]\n`, '1:15'],
    ['maintainers.0.name', (v: string) => `maintainers:\n  - name: "${v}"\n`, '2:11'],
  ] as const;
  it.each(
    textFields.flatMap(([field, write, at]) =>
      unpublishable.map(([escape, said]) => ({ field, write, at, escape, said })),
    ),
  )('refuses $escape in $field, as every text field of a manifest does', ({ field, write, at, escape, said }) => {
    const text = write(`Fair${escape}phone`);
    expect(messages(text)).toEqual([`content/FP4/device.yaml:${at}  ${field}  holds ${said}`]);
    expect(`holds ${said}`).toBe(textProblem(parse(`v: "Fair${escape}phone"`).v)); // The manifest's own words.
  });

  it('takes right-to-left text, other scripts and characters outside the BMP in its names', () => {
    expect(
      messages(
        'name: "תיקוני 😀 Fair\u00a0phone"\noem: إصلاحات\nmodels: ["FP4 \u200b5G"]\nmaintainers:\n  - name: Jürgen 🐧\n',
      ),
    ).toEqual([]);
  });

  // What the YAML reader says about a file's shape, before any field is read, in a device file's words.
  it.each([
    [
      'several documents',
      'name: A\n---\nname: B\n',
      [
        "content/FP4/device.yaml:2:1  (file)  the file holds several YAML documents (a `---` line); write the device's fields in one document",
      ],
    ],
    [
      'nesting deeper than any device file',
      `maintainers:\n${Array.from({ length: 20 }, (_, i) => `${' '.repeat(2 * i + 2)}- a:`).join('\n')}\n`,
      [
        'content/FP4/device.yaml:10:19  maintainers.0.a.0.a.0.a.0.a.0.a.0.a.0.a.0.a  nested more than 16 levels deep; a device file is a mapping of a few fields, its lists and links one level below',
      ],
    ],
    [
      'nesting too deep for the parser',
      `name: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`,
      [
        'content/FP4/device.yaml:1:1  (file)  the YAML is nested too deeply to read (Maximum call stack size exceeded); a device file is a mapping of a few fields, its lists and links one level below',
      ],
    ],
    [
      'a file over the size limit',
      `# ${'x'.repeat(MAX_SOURCE_BYTES)}\n`,
      [
        `content/FP4/device.yaml:1:1  (file)  the file is ${MAX_SOURCE_BYTES + 3} bytes, over the ${MAX_SOURCE_BYTES}-byte limit for one file; a device file describes one device in a few lines`,
      ],
    ],
    [
      'a single value',
      'Fairphone 4\n',
      [
        'content/FP4/device.yaml:1:1  (file)  expected a mapping of keys (name: ..., oem: ...), found a single value; see the README, "Device files"',
      ],
    ],
  ])('speaks of a device file, not a build, for %s', (_, text, expected) => {
    expect(messages(text)).toEqual(expected);
    expect(messages(text).join('\n')).not.toMatch(/manifest|build/);
  });

  it('reports every problem of a file at once', () => {
    expect(messages('nmae: X\nlinks:\n  info: http://a.org/\nmodels: 4\n')).toEqual([
      'content/FP4/device.yaml:1:1  nmae  unknown key; did you mean `name`?',
      'content/FP4/device.yaml:3:9  links.info  expected an absolute https:// address without spaces (pages and apps open it from another site)',
      'content/FP4/device.yaml:4:9  models  expected a list of model names, e.g. [FP4, FP4 5G]',
    ]);
  });

  it('knows the device file by its name only', () => {
    expect(isDeviceFile('content/FP4/device.yaml')).toBe(true);
    expect(isDeviceFile('content/FP4/e-2.5-device.yaml')).toBe(false);
    expect(isDeviceFile('content/FP4/Device.yaml')).toBe(false);
  });
});

describe('the device JSON Schema', () => {
  const validate = new Ajv2020({ strict: false }).compile(deviceJsonSchema());
  it('accepts what the reader accepts', () => {
    expect(validate(parse(FULL)), JSON.stringify(validate.errors)).toBe(true);
  });
  it.each([
    ['an unknown key', 'vendor: X\n'],
    ['an unknown link', 'links:\n  forums: https://a.org/\n'],
    ['an http link', 'links:\n  info: http://a.org/\n'],
    ['a maintainer without a name', 'maintainers:\n  - url: https://a.org/\n'],
  ])('refuses %s, as the reader does', (_, text) => {
    expect(validate(parse(text))).toBe(false);
    expect(parseDeviceFile(text, FILE).problems).not.toEqual([]);
  });
});
