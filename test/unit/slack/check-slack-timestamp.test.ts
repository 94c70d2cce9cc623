import { describe, expect, it } from 'vitest';
import { isSlackTimestampCurrent } from '../../../src/slack/check-slack-timestamp.js';

const now = 1_700_000_000_000;
const seconds = now / 1000;

describe('isSlackTimestampCurrent', () => {
  it.each<[string, string | undefined, boolean]>([
    ['now', String(seconds), true],
    ['five minutes ago', String(seconds - 300), true],
    ['five minutes ahead', String(seconds + 300), true],
    ['a second too old', String(seconds - 301), false],
    ['a second too far ahead', String(seconds + 301), false],
    ['an hour ahead', String(seconds + 3600), false],
    ['missing', undefined, false],
    ['empty', '', false],
    ['not a number', 'soon', false],
    ['a fraction', `${seconds}.5`, false],
    ['negative', '-1', false],
    ['absurdly long', '9'.repeat(40), false],
  ])('%s → %s', (_label, header, expected) => {
    expect(isSlackTimestampCurrent(header, now)).toBe(expected);
  });
});
