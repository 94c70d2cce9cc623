import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../../../src/slack/text/split-message.js';

const piece = fc.constantFrom(
  'word',
  'a',
  'longerwordwithoutspaces',
  ' ',
  ' ',
  '  ',
  '\n',
  '\n',
  '\n\n',
  '😀',
  '&amp;',
  '<https://x.y/a|a link>',
  '`code here`',
  '\n```ts\n',
  '\n```\n',
  '    indented',
);
const messages = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text, read back from the parts: each may have gained a reopened fence and a closer. */
function joinPattern(parts: readonly string[]): RegExp {
  const body = parts.map((part) => {
    const opener = /^ {0,3}(?:`{3,}|~{3,})[^\n]*\n/.exec(part)?.[0] ?? '';
    const closer = /\n(?:`{3,}|~{3,})$/.exec(part.slice(opener.length))?.[0] ?? '';
    const middle = part.slice(opener.length, part.length - closer.length);
    const open = opener ? `(?:${escapeRegExp(opener)})?` : '';
    // The added closer may stand for the block's own closing line, which can be longer.
    const close = closer ? '(?:\\s*(?:`{3,}|~{3,}))?' : '';
    return open + escapeRegExp(middle) + close;
  });
  return new RegExp(`^\\s*${body.join('\\s*')}\\s*$`, 'u');
}

/** Whether every fence a part opens is closed in the same part. */
function fencesBalance(part: string): boolean {
  let open = '';
  for (const line of part.split('\n')) {
    const run = / {0,3}(`{3,}|~{3,})(.*)$/y.exec(line);
    if (!run) continue;
    const [, fence = '', after = ''] = run;
    if (open === '') open = fence.startsWith('`') && after.includes('`') ? '' : fence;
    else if (fence[0] === open[0] && fence.length >= open.length && after.trim() === '') open = '';
  }
  return open === '';
}

describe('splitMessage', () => {
  it.each([
    ['a text within the limit', 'one\n\ntwo', 20, ['one\n\ntwo']],
    ['an empty text', '', 20, []],
    [
      'at a blank line first',
      'para one is here\n\npara two is here too',
      20,
      ['para one is here', 'para two is here too'],
    ],
    [
      'at a newline before a space',
      'line one here\nline two here',
      20,
      ['line one here', 'line two here'],
    ],
    [
      'at a space when a line is too long',
      'aaaa bbbb cccc dddd eeee',
      10,
      ['aaaa bbbb', 'cccc dddd', 'eeee'],
    ],
    [
      'inside a word only when nothing else is left',
      'a'.repeat(25),
      10,
      ['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)],
    ],
    ['never inside a surrogate pair', '😀😀😀😀😀', 5, ['😀😀', '😀😀', '😀']],
    ['never inside an entity', 'abcdefg&amp;hij', 10, ['abcdefg', '&amp;hij']],
    [
      'not inside a Slack link when a space is left',
      'see <https://x.y|the docs> now',
      25,
      ['see', '<https://x.y|the docs>', 'now'],
    ],
    [
      'not inside a code span',
      'run `npm test now` please',
      15,
      ['run', '`npm test now`', 'please'],
    ],
    [
      'before a code block that fits whole in the next part',
      'short para\n\n```ts\nconst a = 1;\nconst b = 2;\n```\nafter text',
      45,
      ['short para', '```ts\nconst a = 1;\nconst b = 2;\n```', 'after text'],
    ],
    [
      'inside a block too long for any part, closing and reopening it',
      '```ts\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```',
      30,
      ['```ts\nconst a = 1;\n```', '```ts\nconst b = 2;\n```', '```ts\nconst c = 3;\n```'],
    ],
    [
      'a long code line, cut inside it',
      '```\n' + 'x'.repeat(30) + '\n```',
      20,
      [
        '```\n' + 'x'.repeat(12) + '\n```',
        '```\n' + 'x'.repeat(12) + '\n```',
        '```\n' + 'x'.repeat(6) + '\n```',
      ],
    ],
    [
      'a longer fence is reopened and closed with its own length',
      '````md\n```\ninner\n```\nmore text here\n````',
      30,
      ['````md\n```\ninner\n```\n````', '````md\nmore text here\n````'],
    ],
    [
      'a block that is never closed stays open in the last part',
      'intro\n```sh\nls one\nls two\nls three',
      24,
      ['intro\n```sh\nls one\n```', '```sh\nls two\nls three'],
    ],
  ])('splits %s', (_name, text, limit, expected) => {
    const parts = splitMessage(text, limit);
    expect(parts).toEqual(expected);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
  });

  it.each([0, 1, 2.5, Number.NaN])('refuses the limit %s', (limit) => {
    expect(() => splitMessage('text', limit)).toThrow(/limit/);
  });

  it('keeps the indentation of code after a cut', () => {
    const text = '```py\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n```';
    const parts = splitMessage(text, 40);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('\n')).toContain('    return 2');
  });

  it('handles 100 KB in well under a second', () => {
    const para = 'Some words and `code` and <https://x.y|a link> &amp; more.\n';
    const text = (para.repeat(20) + '\n```ts\n' + 'const x = 1;\n'.repeat(200) + '```\n\n').repeat(
      25,
    );
    const started = performance.now();
    const parts = splitMessage(text, 3000);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parts.every((part) => part.length <= 3000)).toBe(true);
  });
});

describe('splitMessage properties', () => {
  it('keeps every part within the limit, drops nothing but whitespace, and makes no empty part', () => {
    fc.assert(
      fc.property(messages, fc.integer({ min: 2, max: 120 }), (text, limit) => {
        const parts = splitMessage(text, limit);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(limit);
          // A text within the limit comes back as it is, even when it is only whitespace.
          if (text.length > limit) expect(part.trim()).not.toBe('');
          else expect(part).toBe(text);
          expect(/[\uD800-\uDBFF]$/.test(part)).toBe(false);
          expect(/^[\uDC00-\uDFFF]/.test(part)).toBe(false);
        }
        expect(text).toMatch(joinPattern(parts));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives every part balanced fences when the limit leaves room to reopen them', () => {
    fc.assert(
      fc.property(messages, fc.integer({ min: 20, max: 120 }), (text, limit) => {
        fc.pre(fencesBalance(text));
        // A fence line too long to repeat in every part is split as plain text (see planFenceRepair).
        fc.pre(text.split('\n').every((line) => !/^ *(```|~~~)/.test(line) || line.length <= 5));
        for (const part of splitMessage(text, limit)) expect(fencesBalance(part)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('returns a text within the limit as one part, unchanged', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), (text) => {
        expect(splitMessage(text, 60)).toEqual([text]);
      }),
    );
  });
});
