import { describe, expect, it } from 'vitest';
import { checkBearer } from '../../../src/api/check-bearer.js';

describe('checkBearer', () => {
  const token = 's3cret-token';
  const cases: [string | undefined, string, boolean][] = [
    ['Bearer s3cret-token', token, true],
    ['bearer s3cret-token', token, true],
    ['Bearer  s3cret-token ', token, true],
    [undefined, token, false],
    ['', token, false],
    ['Bearer', token, false],
    ['Bearer ', token, false],
    ['s3cret-token', token, false],
    ['Basic s3cret-token', token, false],
    ['Bearer s3cret-toke', token, false],
    ['Bearer s3cret-token2', token, false],
    ['Bearer S3CRET-TOKEN', token, false],
    ['Bearer s3cret-token extra', token, false],
    // An empty configured token must never let anything in.
    ['Bearer ', '', false],
    ['Bearer x', '', false],
  ];
  it.each(cases)('%j against %j → %s', (header, expected, result) => {
    expect(checkBearer(header, expected)).toBe(result);
  });
});
