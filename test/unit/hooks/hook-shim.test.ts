import { describe, expect, it } from 'vitest';
import type { StreamText } from '../../../src/cli/read-stream-text.js';
import { hookPayload, hookWaitMs } from '../../../src/hooks/hook-shim.js';

describe('hookPayload', () => {
  it.each<[string, StreamText, Record<string, unknown>]>([
    [
      'a JSON object',
      { text: '{"session_id":"s","prompt":"hi"}', ending: 'end' },
      { session_id: 's', prompt: 'hi' },
    ],
    ['invalid JSON', { text: '{nope', ending: 'end' }, {}],
    ['an empty stdin', { text: '', ending: 'end' }, {}],
    ['a JSON array', { text: '[1,2]', ending: 'end' }, {}],
    ['JSON null', { text: 'null', ending: 'end' }, {}],
    ['a cut-off read, even if it parses', { text: '{}', ending: 'timeout' }, {}],
    ['too much input', { text: '{"a":1}', ending: 'too-large' }, {}],
  ])('turns %s into the object to send', (_, read, expected) => {
    expect(hookPayload(read)).toEqual(expected);
  });
});

describe('hookWaitMs', () => {
  it.each<[string | undefined, number]>([
    [undefined, 700],
    ['0.7', 700],
    ['600', 600_000],
    ['0', 700],
    ['soon', 700],
    ['-1', 700],
  ])('--wait %s → %d ms', (flag, ms) => {
    expect(hookWaitMs(flag)).toBe(ms);
  });
});
