import { describe, expect, it } from 'vitest';
import { paneTarget, sessionTarget } from '../../../src/tmux/exact-target.js';

describe('exact targets', () => {
  it('always carries the = prefix', () => {
    expect(sessionTarget('sup')).toBe('=sup');
    expect(paneTarget('sup')).toBe('=sup:');
  });
});
