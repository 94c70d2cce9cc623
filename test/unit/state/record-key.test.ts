import { describe, expect, it } from 'vitest';
import { isLoopError } from '../../../src/errors.js';
import { assertRecordKey, isValidRecordKey } from '../../../src/state/record-key.js';

describe('isValidRecordKey', () => {
  it.each([
    ['sup', true],
    ['0', true],
    ['octo-repo-12', true],
    ['ev0123.abc_d-e', true],
    ['a.json', true],
    ['x'.repeat(120), true],
    ['x'.repeat(121), false],
    ['', false],
    ['../x', false],
    ['a/b', false],
    ['a\\b', false],
    ['A', false],
    ['sUp', false],
    ['x\n', false],
    ['\nx', false],
    ['.hidden', false],
    ['-dash', false],
    ['_under', false],
    ['a..b', false],
    ['..', false],
    ['a b', false],
    ['a\0b', false],
    ['é', false],
  ])('%j → %s', (key, valid) => {
    expect(isValidRecordKey(key)).toBe(valid);
  });

  it('refuses non-strings', () => {
    expect(isValidRecordKey(undefined)).toBe(false);
    expect(isValidRecordKey(12)).toBe(false);
  });
});

describe('assertRecordKey', () => {
  it('throws invalid_name with the key shown printably', () => {
    let caught: unknown;
    try {
      assertRecordKey('x\n');
    } catch (error) {
      caught = error;
    }
    expect(isLoopError(caught) && caught.code).toBe('invalid_name');
    expect(String((caught as Error).message)).toContain('x\\n');
    expect((caught as Error).message).not.toContain('\n');
  });

  it('accepts a valid key', () => {
    expect(() => assertRecordKey('fine-key')).not.toThrow();
  });
});
