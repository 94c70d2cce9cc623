import fc from 'fast-check';

/**
 * Generators shared by the property tests: names from the grammar, the characters parsers trip
 * over, and text that mixes them with anything at all (lone surrogates and controls included).
 */

/** A name by docs/design.md §1, built from its parts rather than from the pattern under test. */
export const validName: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    fc.string({ unit: fc.constantFrom(...'abcz09-'), maxLength: 38 }),
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    fc.boolean(),
  )
  .map(([first, middle, last, single]) => (single ? first : `${first}${middle}${last}`));

/** Every C0 control, DEL and every C1 control. */
export const controlChar: fc.Arbitrary<string> = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((code) => String.fromCharCode(code));

/** Characters that matter to terminals, Markdown and the parsers here, plus look-alikes. */
export const trickyChar: fc.Arbitrary<string> = fc.oneof(
  controlChar,
  fc.constantFrom(
    '\u001b[201~',
    '\u001b[200~',
    '\u009b',
    '`',
    '```',
    '>',
    '<!--',
    '-->',
    '*',
    '_',
    ':',
    '/',
    '.',
    '-',
    '\u00a0',
    '\u2028',
    '\u200b',
    '\ufeff',
    'é',
    'ſ',
    '\u212a',
    '\u{1D400}',
    '\ud800',
    '\udc00',
    'I\u0307',
  ),
);

/** Text of any code units, or ordinary words laced with tricky characters. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc
    .array(fc.oneof(trickyChar, fc.constantFrom('a', 'Z', '9', ' ', '\n', 'word')), {
      maxLength: 40,
    })
    .map((parts) => parts.join('')),
);

/** The same ASCII text with each letter's case picked at random. */
export function randomCase(text: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flips) =>
      [...text].map((char, i) => (flips[i] ? char.toUpperCase() : char.toLowerCase())).join(''),
    );
}
