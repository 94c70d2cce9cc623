import { describe, expect, it } from 'vitest';
import { ansiToLines } from '../../../src/dashboard/ansi-segments.js';

describe('ansiToLines', () => {
  it.each([
    ['plain text', 'hello\nworld\n', [[{ text: 'hello' }], [{ text: 'world' }]]],
    [
      'a basic colour and a reset',
      '\x1b[31mred\x1b[0m plain',
      [[{ text: 'red', fg: 1 }, { text: ' plain' }]],
    ],
    [
      'bold bright on a background',
      '\x1b[1;92;44mok\x1b[22mno',
      [
        [
          { text: 'ok', bold: true, fg: 10, bg: 4 },
          { text: 'no', fg: 10, bg: 4 },
        ],
      ],
    ],
    ['a 256 colour', '\x1b[38;5;208mx', [[{ text: 'x', fg: 208 }]]],
    ['a true colour', '\x1b[48;2;255;0;16mx', [[{ text: 'x', bg: '#ff0010' }]]],
    [
      'a style carried to the next line',
      '\x1b[3mone\ntwo',
      [[{ text: 'one', italic: true }], [{ text: 'two', italic: true }]],
    ],
    [
      'other escapes and control characters dropped',
      'a\x1b]0;title\x07b\x1b[2Jc\x07\x08d',
      [[{ text: 'abcd' }]],
    ],
    ['markup kept as text', '<script>x</script>', [[{ text: '<script>x</script>' }]]],
  ])('%s', (_name, input, lines) => {
    expect(ansiToLines(input)).toEqual(lines);
  });
});
