import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../../src/delivery/frame-message.js';
import { controlChar, hostileText } from './arbitraries.js';

/** ESC, every C0 control but newline and tab, DEL and every C1 control: what a pane must never get. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const unsafe = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;
const isUnsafe = (char: string) => char !== '\n' && char !== '\t' && unsafe.test(char);

/** Printable text: anything but the controls, lone surrogates included (they are not controls). */
const printable = fc
  .string({ unit: 'binary', maxLength: 300 })
  .map((text) => [...text].filter((char) => !isUnsafe(char)).join(''));

const withControls = fc
  .array(fc.oneof(printable, controlChar, fc.constant('\u001b[201~')), { maxLength: 30 })
  .map((parts) => parts.join(''));

const anyText = fc.oneof(hostileText, withControls, printable);

describe('sanitizeText', () => {
  it('never lets ESC, a C0 control other than \\n and \\t, DEL or a C1 control through', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const clean = sanitizeText(text);
        expect([...clean].filter(isUnsafe)).toEqual([]);
        expect(clean).not.toContain('\u001b[201~');
      }),
      { numRuns: 5000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = sanitizeText(text);
        expect(sanitizeText(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps printable text exactly, newlines, tabs and astral characters included', () => {
    fc.assert(
      fc.property(printable, fc.constantFrom('', '\n', '\t', '\u{1F600}', 'é'), (text, extra) => {
        expect(sanitizeText(`${text}${extra}${text}`)).toBe(`${text}${extra}${text}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('removes only the unsafe characters, one by one, and works piecewise', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        expect(sanitizeText(a)).toBe([...a].filter((char) => !isUnsafe(char)).join(''));
        expect(sanitizeText(`${a}${b}`)).toBe(`${sanitizeText(a)}${sanitizeText(b)}`);
      }),
      { numRuns: 3000 },
    );
  });
});
