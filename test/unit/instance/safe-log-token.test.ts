import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeLogToken } from '../../../src/instance/safe-log-token.js';

describe('safeLogToken', () => {
  it.each([
    ['instance:LAPTOP', 'instance:LAPTOP'],
    ['a\u001b[31mb', 'a[31mb'],
    ['tab\there\r\n', 'tabhere'],
    ['é\u{1D400}x\u200b', 'x'],
    ['~ and space', '~ and space'],
    ['\u007f', ''],
  ])('%j → %j', (text, expected) => {
    expect(safeLogToken(text)).toBe(expected);
  });

  it('keeps at most 60 printable ASCII characters, in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const kept = safeLogToken(text);
        expect(kept).toMatch(/^[\x20-\x7e]{0,60}$/);
        const printable = [...text].filter((char) => /^[\x20-\x7e]$/.test(char)).join('');
        expect(kept).toBe(printable.slice(0, 60));
      }),
    );
  });
});
