import { describe, expect, it } from 'vitest';
import { assistantText } from '../../../src/harness/read-last-assistant-message.js';

describe('assistantText (a transcript line)', () => {
  it.each([
    [
      '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_use"}]}}',
      'hi',
    ],
    ['{"type":"assistant","message":{"content":"plain"}}', 'plain'],
    ['{"type":"user","message":{"content":"no"}}', undefined],
    ['not json', undefined],
  ])('assistantText(%s)', (line, expected) => {
    expect(assistantText(line)).toBe(expected);
  });
});
