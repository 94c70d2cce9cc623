import { describe, expect, it } from 'vitest';
import { fenceTextFile, maxFencedFileBytes } from '../../../src/replies/fence-text-file.js';

const file = (name: string, content: string | Buffer) => ({
  name,
  content: Buffer.isBuffer(content) ? content : Buffer.from(content),
});

describe('fenceTextFile', () => {
  it.each([
    ['plain text', 'a.txt', 'hello\n', '**a.txt**\n\n```\nhello\n```'],
    ['a fence inside', 'b.md', '```js\nx\n```', '**b.md**\n\n````\n```js\nx\n```\n````'],
    ['a long backtick run', 'c', 'x ````` y', '**c**\n\n``````\nx ````` y\n``````'],
    ['markup in the name', 'a*b_[c].md', 'x', '**a\\*b\\_\\[c\\].md**\n\n```\nx\n```'],
    ['unicode', 'é.txt', 'ünïcode', '**é.txt**\n\n```\nünïcode\n```'],
  ])('%s', (_what, name, content, expected) => {
    expect(fenceTextFile(file(name, content))).toBe(expected);
  });

  it.each([
    ['a NUL byte', file('x.bin', Buffer.from([104, 0, 105])), 'bad_request', /not UTF-8 text/],
    ['invalid UTF-8', file('x.bin', Buffer.from([0xff, 0xfe])), 'bad_request', /not UTF-8 text/],
    [
      'over 60 KB',
      file('big.txt', 'x'.repeat(maxFencedFileBytes + 1)),
      'file_too_large',
      /up to 60 KB; big.txt is 61441 bytes/,
    ],
  ])('refuses %s with why', (_what, input, code, message) => {
    expect(() => fenceTextFile(input)).toThrow(
      expect.objectContaining({ code, message: expect.stringMatching(message) }),
    );
  });

  it('takes a text file of exactly 60 KB', () => {
    expect(fenceTextFile(file('max.txt', 'y'.repeat(maxFencedFileBytes)))).toContain('```');
  });
});
