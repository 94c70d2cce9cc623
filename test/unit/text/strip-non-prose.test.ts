import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripNonProse } from '../../../src/text/strip-non-prose.js';

/** The words that survive, in order: the exact blanks are checked by the properties below. */
const words = (body: string): string => stripNonProse(body).split(/\s+/).filter(Boolean).join(' ');

describe('stripNonProse', () => {
  it.each([
    ['plain prose stays', 'the-loop start please', 'the-loop start please'],
    ['a fenced block goes', 'a\n```\ncode here\n```\nb', 'a b'],
    ['a fence with an info string', 'a\n```yaml title="x"\ncode\n```\nb', 'a b'],
    ['a tilde fence', 'a\n~~~\ncode\n~~~\nb', 'a b'],
    ['a tilde fence with an info string holding backticks', 'a\n~~~ `x`\ncode\n~~~\nb', 'a b'],
    ['a fence indented three spaces', 'a\n   ```\ncode\n   ```\nb', 'a b'],
    ['four spaces is no fence', 'a\n    ```\ncode', 'a ``` code'],
    ['an unclosed fence runs to the end', 'a\n```\ncode\nmore', 'a'],
    ['a shorter closing run does not close', 'a\n````\ncode\n```\nstill\n````\nb', 'a b'],
    ['the other fence character does not close', 'a\n```\ncode\n~~~\nstill\n```\nb', 'a b'],
    ['a closing fence may not carry text', 'a\n```\ncode\n``` x\nstill\n```\nb', 'a b'],
    ['a backtick info string is inline code', '```a`b\nc', '```a`b c'],
    ['a quoted line goes', '> quoted\nmine', 'mine'],
    ['an indented quote goes', '  > quoted\nmine', 'mine'],
    ['a nested quote goes', '>> deep\nmine', 'mine'],
    ['a quoted fence does not swallow the rest', '> ```\nmine', 'mine'],
    ['an HTML comment goes', 'a <!-- hidden --> b', 'a b'],
    ['a multi-line HTML comment goes', 'a <!--\nhidden\n```\n--> b\n```\nc', 'a b'],
    ['an unclosed HTML comment runs to the end', 'a <!-- hidden\nmore', 'a'],
    ['the hidden marker goes', 'reply <!-- the-loop:instance=alpha -->', 'reply'],
    ['an inline code span goes', 'a `the-loop start` b', 'a b'],
    ['a double-backtick span goes', 'a ``x ` y`` b', 'a b'],
    ['a span over two lines goes', 'a `x\ny` b', 'a b'],
    ['a span does not cross a blank line', 'a `x\n\ny` b', 'a `x y` b'],
    ['an unmatched backtick stays literal', 'a ` b', 'a ` b'],
    ['a run of another length does not close', 'a `` x ` b', 'a `` x ` b'],
    ['an escaped backtick opens nothing', 'a \\`x` b', 'a \\`x` b'],
    ['a comment inside a code span is code', 'a `<!--` b', 'a b'],
    ['a span that is only an address token stays', 'a `instance:alpha` b', 'a instance:alpha b'],
    ['a malformed address token in a span stays', '`instance:LAPTOP`', 'instance:LAPTOP'],
    ['spaces around the token are allowed', '`` instance:alpha ``', 'instance:alpha'],
    ['a span with more than the token goes', 'a `instance:alpha run` b', 'a b'],
    ['a span with two tokens goes', '`instance:a,instance:b`', ''],
    ['an address token in a fence goes', '```\n`instance:alpha`\n```', ''],
    ['CRLF line endings', 'a\r\n```\r\ncode\r\n```\r\nb', 'a b'],
  ])('%s', (_label, body, expected) => {
    expect(words(body)).toBe(expected);
  });

  it('keeps word boundaries where something was cut out', () => {
    expect(stripNonProse('a`x`b')).toBe('a   b');
    expect(stripNonProse('a<!--x-->b')).toBe('a        b');
    expect(stripNonProse('x\n```\ny\n```\nz')).toBe('x\n   \n \n   \nz');
  });

  const fragments = fc.constantFrom(
    '`',
    '``',
    '```',
    '~~~',
    '>',
    '<!--',
    '-->',
    '\\',
    '\n',
    '\r\n',
    ' ',
    '   ',
    'a',
    'the-loop',
    'start',
    'instance:',
    'alpha',
    'é',
    '\u{1D400}',
    '\uD800',
  );
  const markdownish = fc.array(fragments, { maxLength: 40 }).map((parts) => parts.join(''));
  const anyText = fc.oneof(markdownish, fc.string({ unit: 'binary', maxLength: 200 }));

  it('keeps length and line breaks, and only ever turns characters into spaces', () => {
    fc.assert(
      fc.property(anyText, (body) => {
        const out = stripNonProse(body);
        expect(out).toHaveLength(body.length);
        for (let index = 0; index < body.length; index += 1) {
          if (body[index] === '\n') expect(out[index]).toBe('\n');
          else expect([body[index], ' ']).toContain(out[index]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves text without markup characters alone', () => {
    const plain = fc.string({
      unit: fc.constantFrom('a', 'Z', '9', ' ', '\n', '-', ':', '.', 'é'),
    });
    fc.assert(
      fc.property(plain, (body) => {
        expect(stripNonProse(body)).toBe(body);
      }),
    );
  });

  it('never lets anything inside a closed fence through', () => {
    const inner = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '`', '>', 'x') });
    fc.assert(
      fc.property(inner, (text) => {
        const body = `~~~~\n${text.replace(/~/g, '')}\n~~~~\nafter`;
        expect(words(body)).toBe('after');
      }),
    );
  });

  it(
    'stays fast on hostile input the size of the largest GitHub comment',
    { timeout: 2000 },
    () => {
      const size = 65_536;
      const hostile = [
        '`'.repeat(size),
        Array.from({ length: size / 4 }, (_, index) => '`'.repeat((index % 60) + 1)).join(' '),
        '` \n'.repeat(size / 3),
        '`` x\n'.repeat(size / 5),
        '<!--'.repeat(size / 4),
        '```\n'.repeat(size / 4),
        'a\n'.repeat(size / 2),
      ];
      for (const body of hostile) expect(stripNonProse(body).length).toBe(body.length);
    },
  );
});
