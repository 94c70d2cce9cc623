import { describe, expect, it } from 'vitest';
import { percentile } from '../../../bench/percentile.js';

describe('percentile', () => {
  it.each([
    [[5], 50, 5],
    [[1, 2, 3, 4], 50, 2],
    [[4, 3, 2, 1], 99, 4],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, 9],
  ])('%j p%d = %d', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });
  it('refuses an empty sample', () => {
    expect(() => percentile([], 50)).toThrow();
  });
});
