import { describe, expect, it } from 'vitest';
import { codePointBefore } from '../../../src/text/code-point-before.js';

describe('codePointBefore', () => {
  it.each<[string, number, string]>([
    ['abc', 0, ''],
    ['abc', 2, 'b'],
    ['\u{1D400}x', 2, '\u{1D400}'],
    ['\uDC00x', 1, '\uDC00'],
    ['a\uDC00', 2, '\uDC00'],
    ['\uD800\uD800', 2, '\uD800'],
  ])('%j at %i is %j', (text, index, expected) => {
    expect(codePointBefore(text, index)).toBe(expected);
  });
});
