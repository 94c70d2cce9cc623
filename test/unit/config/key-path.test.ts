import { describe, expect, it } from 'vitest';
import { closestKey } from '../../../src/config/closest-key.js';
import { keyPath } from '../../../src/config/key-path.js';
import { quote } from '../../../src/config/quote.js';

describe('keyPath', () => {
  it.each([
    [[], ''],
    [['state', 'root'], 'state.root'],
    [['standing', 'sessions', 1, 'name'], 'standing.sessions[1].name'],
    [['harnesses', 'my-harness', 'kind'], 'harnesses.my-harness.kind'],
    [['harnesses', '123'], 'harnesses.123'],
    [['harnesses', 'a b'], 'harnesses["a b"]'],
    [['x.y'], '["x.y"]'],
    [['\u001b[31m', 'k'], '["\\u001b[31m"].k'],
    [['\u202e'], '["\\u202e"]'],
  ] as [(string | number)[], string][])('%j → %s', (segments, expected) => {
    expect(keyPath(segments)).toBe(expected);
  });
});

describe('quote', () => {
  it('keeps readable text readable and escapes what a terminal would act on', () => {
    expect(quote('café')).toBe('"café"');
    expect(quote('a\u0007\u009b\u200f')).toBe('"a\\u0007\\u009b\\u200f"');
    expect(quote(undefined)).toBe('undefined');
    expect(quote('x'.repeat(100))).toBe(`"${'x'.repeat(59)}…`);
  });
});

describe('closestKey', () => {
  const known = ['autoStart', 'allowedRoots', 'sessions'];
  it.each([
    ['autostart', 'autoStart'],
    ['session', 'sessions'],
    ['alowedRoot', 'allowedRoots'],
    ['zzz', undefined],
    ['x'.repeat(10_000), undefined],
  ])('%s → %s', (key, expected) => {
    expect(closestKey(key, known)).toBe(expected);
  });
});
