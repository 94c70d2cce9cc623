import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn } from '../../../../src/slack/text/markdown-to-mrkdwn.js';

describe('markdownToMrkdwn', () => {
  it.each([
    ['emphasis', '**bold**, __bold__, *it*, _it_, ~~gone~~', '*bold*, *bold*, _it_, _it_, ~gone~'],
    ['bold and italic together', '***both*** and ___both___', '*_both_* and *_both_*'],
    [
      'italic inside bold',
      '**bold _it_ bold** **bold *it* bold**',
      '*bold _it_ bold* *bold _it_ bold*',
    ],
    ['bold inside italic', '*it **bold** it*', '_it *bold* it_'],
    ['lone asterisks stay', '2 * 3 * 4 and a*b*c', '2 * 3 * 4 and a*b*c'],
    ['underscores inside words stay', 'snake_case_name', 'snake_case_name'],
    ['inline code is left alone', 'run `a **b** _c_ ~~d~~` now', 'run `a **b** _c_ ~~d~~` now'],
    ['double-backtick code', '``a ` b`` and **x**', '``a ` b`` and *x*'],
    ['an unmatched backtick', 'it`s **fine**', 'it`s *fine*'],
    ['link', '[the docs](https://x.y/docs)', '<https://x.y/docs|the docs>'],
    [
      'link with underscores',
      '[my_file_name](https://x.y/a_b_c_d)',
      '<https://x.y/a_b_c_d|my_file_name>',
    ],
    ['link label keeps only words', '[**bold** `code`](https://x.y)', '<https://x.y|bold code>'],
    [
      'link with & and |',
      '[a & b](https://x.y/?a=1&b=2|3)',
      '<https://x.y/?a=1&amp;b=2%7C3|a &amp; b>',
    ],
    ['link with a title', '[t](https://x.y "Title")', '<https://x.y|t>'],
    ['link with parentheses', '[w](https://x.y/A_(b))', '<https://x.y/A_(b)|w>'],
    ['link whose label is its url', '[https://x.y](https://x.y)', '<https://x.y>'],
    ['relative link', 'see [file](src/a_b.ts)', 'see file (src/a_b.ts)'],
    ['image', '![a chart](https://x.y/c.png)', '<https://x.y/c.png|a chart>'],
    ['autolink', '<https://x.y/a_b_>', '<https://x.y/a_b_>'],
    ['email autolink', '<ana@x.y>', '<mailto:ana@x.y>'],
    ['bare url with underscores', 'at https://x.y/a_b_c.', 'at https://x.y/a_b_c.'],
    ['bare url with &', 'https://x.y/?a=1&b=2', 'https://x.y/?a=1&amp;b=2'],
    ['escaping', 'a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
    [
      'no control sequences from text',
      '<!channel> <@U1> <#C1>',
      '&lt;!channel&gt; &lt;@U1&gt; &lt;#C1&gt;',
    ],
    ['backslash escapes', '\\*not it\\* and \\<b\\>', '*not it* and &lt;b&gt;'],
    ['heading', '# Title', '*Title*'],
    ['heading with bold and closing hashes', '## The **plan** ##', '*The plan*'],
    ['heading with code', '### Run `npm test`', '*Run `npm test`*'],
    ['not a heading', '#hashtag', '#hashtag'],
    ['bullets', '- one\n* two\n+ three', '• one\n• two\n• three'],
    ['nested bullets', '- a\n  - b **x**', '• a\n  • b *x*'],
    ['task list', '- [ ] todo\n- [x] done', '• ☐ todo\n• ☑ done'],
    ['ordered list', '1. first *it*', '1. first _it_'],
    ['rule', 'a\n\n---\n\nb', 'a\n\n──────────\n\nb'],
    ['quote', '> **said** a < b', '> *said* a &lt; b'],
    ['CRLF', '**a**\r\n- b', '*a*\n• b'],
  ])('%s', (_name, md, expected) => {
    expect(markdownToMrkdwn(md)).toBe(expected);
  });

  it.each([
    [
      'a fence drops its language and keeps its text',
      '```ts\nconst a = **b** * _c_;\n# not a heading\n- not a bullet\n```\nafter **x**',
      '```\nconst a = **b** * _c_;\n# not a heading\n- not a bullet\n```\nafter *x*',
    ],
    [
      'a fence escapes only & < >',
      '```\nif (a < b && c > d) {}\n```',
      '```\nif (a &lt; b &amp;&amp; c &gt; d) {}\n```',
    ],
    ['a tilde fence becomes backticks', '~~~python\nx = 1\n~~~', '```\nx = 1\n```'],
    [
      'a longer fence holds a shorter one',
      '````md\n```\n**x**\n```\n````',
      '```\n```\n**x**\n```\n```',
    ],
    [
      'a fence that is never closed is closed at the end',
      'text\n```sh\nls **x**',
      'text\n```\nls **x**\n```',
    ],
    ['…before a final newline', '```sh\nls\n', '```\nls\n```\n'],
    [
      'an indented fence inside a list',
      '- step\n   ```\n   **x**\n   ```',
      '• step\n```\n   **x**\n```',
    ],
  ])('%s', (_name, md, expected) => {
    expect(markdownToMrkdwn(md)).toBe(expected);
  });

  it('sends no raw < outside the links it makes', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '<',
            '>',
            '&',
            '*',
            '_',
            '`',
            '[',
            ']',
            '(',
            ')',
            'a',
            ' ',
            '\n',
            '!',
            '@',
            '#',
          ),
        }),
        (md) => {
          const out = markdownToMrkdwn(md).replace(/<[a-z][a-z0-9+.-]*:[^<>\s]*>/g, '');
          expect(out).not.toContain('<');
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('leaves plain words unchanged', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9 ,.\n]*$/), (md) => {
        expect(markdownToMrkdwn(md)).toBe(md);
      }),
    );
  });
});
