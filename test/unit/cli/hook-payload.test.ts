import { describe, expect, it } from 'vitest';
import { hookPayload } from '../../../src/cli/hook-payload.js';
import type { StreamText } from '../../../src/cli/read-stream-text.js';

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
