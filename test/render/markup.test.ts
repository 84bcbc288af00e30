import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMarkup, flatten, html, humanSize, isoTime, raw, readableTime } from '../../src/render/markup.js';
import { utf8Of } from '../../src/render/output.js';

describe('escapeMarkup', () => {
  it.each([
    ['FP4', 'FP4'],
    [`<script>alert("x")</script>`, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'],
    [`a & b's`, 'a &amp; b&#39;s'],
    ['&amp;', '&amp;amp;'],
    ['tab\tand\nnewline stay, \u0001 and \u001f go', 'tab\tand\nnewline stay,  and  go'],
  ])('%j → %j', (input, expected) => {
    expect(escapeMarkup(input)).toBe(expected);
  });

  it('escapes every value in an html template but keeps nested markup', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(String(html`<p title="${'"x"'}">${inner}${raw('<br>')}${undefined}${false}${['<a>', inner]}</p>`)).toBe(
      '<p title="&quot;x&quot;"><b>&lt;i&gt;</b><br>&lt;a&gt;<b>&lt;i&gt;</b></p>',
    );
  });
});

describe('humanSize', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [1536000, '1.46 MiB'],
    [52428800, '50.0 MiB'],
    [1387003904, '1.29 GiB'],
    [214748364800, '200 GiB'],
  ])('%i bytes → %s', (bytes, expected) => {
    expect(humanSize(bytes)).toBe(expected);
  });
});

describe('times', () => {
  it('are UTC, to the second for machines and to the minute for people', () => {
    expect(isoTime(1731067200)).toBe('2024-11-08T12:00:00Z');
    expect(readableTime(1731067245)).toBe('2024-11-08 12:00 UTC');
  });

  /** What isoTime computes by arithmetic, as `Date` says it. */
  const byDate = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

  it('are the days of the calendar, leap days and the ends of months, years and centuries included', () => {
    const days = [
      '1970-01-01',
      '1972-02-29',
      '1999-12-31',
      '2000-02-29',
      '2000-03-01',
      '2024-02-29',
      '2024-12-31',
      '2100-02-28',
      '2100-03-01',
      '2400-02-29',
      '9999-12-31',
    ];
    for (const day of days) {
      for (const time of ['00:00:00', '23:59:59', '12:34:56']) {
        const seconds = Date.parse(`${day}T${time}Z`) / 1000;
        expect(isoTime(seconds)).toBe(`${day}T${time}Z`);
      }
    }
  });

  it('agree with Date on any whole second from 1970 to 9999, and on what lies outside (through Date)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799 }), (seconds) => isoTime(seconds) === byDate(seconds)),
      { numRuns: 20_000 },
    );
    for (const seconds of [-1, -86400 * 365, 1.5, 253402300800, 1e12]) expect(isoTime(seconds)).toBe(byDate(seconds));
  });

  it.each([0, 59, 86399, 86400, 951782400, 951868800, 4107542400, 1731067245, 253402300799, 253402300800, 1.5, -1])(
    'isoTime(%d) is what Date#toISOString says, to the second',
    (seconds) => {
      expect(isoTime(seconds)).toBe(new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'));
    },
  );
});

describe('utf8Of', () => {
  it.each([
    ['nothing', [] as string[]],
    ['ASCII parts', ['<p>', 'FP4', '</p>\n']],
    ['parts outside ASCII, in Latin-1 and beyond, and an empty one', ['← ', '', 'a · b', '\u{1f4f1} Fairphone']],
  ])('%s: the bytes of the parts joined', (_, parts) => {
    expect(utf8Of(parts)).toEqual(Buffer.from(parts.join('')));
  });

  it('takes markup as its text', () => {
    expect(String(utf8Of([html`<b>${'<i>'}</b>`, raw(' ←')]))).toBe('<b>&lt;i&gt;</b> ←');
  });
});

describe('flatten', () => {
  it('gives back the very text or markup it is given, whatever it holds', () => {
    let text = '';
    for (let i = 0; i < 50; i++) text += `<p id="${i}">x</p>`;
    const markup = html`<div>${raw(text)}</div>`;
    expect(flatten(text)).toBe(text);
    expect(flatten(markup)).toBe(markup);
    expect(String(flatten(markup))).toBe(`<div>${text}</div>`);
    expect(flatten('12')).toBe('12');
  });
});
