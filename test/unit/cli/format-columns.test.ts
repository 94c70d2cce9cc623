import { describe, expect, it } from 'vitest';
import { formatColumns } from '../../../src/cli/format-columns.js';

describe('formatColumns', () => {
  it.each<[string, string[][], string]>([
    ['nothing', [], ''],
    ['one row', [['a', 'b']], 'a  b'],
    [
      'columns as wide as their widest cell',
      [
        ['NAME', 'CWD'],
        ['supervisor', '/x'],
      ],
      'NAME        CWD\nsupervisor  /x',
    ],
    [
      'no trailing blanks when the last cell is empty',
      [
        ['a', ''],
        ['bbb', 'c'],
      ],
      'a\nbbb  c',
    ],
    [
      'code points, not UTF-16 units',
      [
        ['é🙂', 'x'],
        ['ab', 'y'],
      ],
      'é🙂  x\nab  y',
    ],
    ['control characters escaped', [['\u001b[31mred', 'x']], '\\u001b[31mred  x'],
  ])('lays out %s', (_, rows, expected) => {
    expect(formatColumns(rows)).toBe(expected);
  });
});
