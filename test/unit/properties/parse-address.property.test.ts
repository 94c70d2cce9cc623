import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAddress, type AddressResult } from '../../../src/instance/parse-address.js';
import { isValidName } from '../../../src/refs.js';
import { hostileText, randomCase, validName } from './arbitraries.js';

/** Prose that cannot form a token or open code, a quote or a comment: no `:`, backtick, `<`, `>`. */
const plainProse = fc.string({
  unit: fc.constantFrom('a', 'n', 'x', 'Q', '7', ' ', ' ', ',', '!', '?', '(', ')', 'é'),
  maxLength: 40,
});
const prefix = randomCase('instance:');
/** A token's surroundings that end the name and do not join the prefix to a word. */
const around = fc.constantFrom<[string, string]>(
  ['', ''],
  [' ', ' '],
  ['**', '**'],
  ['(', ')'],
  ['`', '`'],
  ['[', '](https://example.com)'],
  ['\n', '.'],
  ['@', ','],
);

const checkShape = (result: AddressResult): void => {
  if (result.kind === 'addressed') expect(isValidName(result.name)).toBe(true);
  if (result.kind === 'ambiguous') {
    expect(result.names.length).toBeGreaterThanOrEqual(2);
    for (const name of result.names) expect(isValidName(name)).toBe(true);
  }
  if (result.kind === 'malformed') expect(result.token).toMatch(/^[\x20-\x7e]{0,60}$/);
};

describe('parseAddress on generated comments', () => {
  it('never throws on hostile text, and only validated names or a log-safe token come out', () => {
    fc.assert(
      fc.property(hostileText, (body) => checkShape(parseAddress(body))),
      { numRuns: 4000 },
    );
  });

  it('finds one valid name in any prose, with the prefix in any case and any markup around it', () => {
    fc.assert(
      fc.property(
        plainProse,
        prefix,
        validName,
        around,
        plainProse,
        (head, p, name, [l, r], tail) => {
          const body = `${head} ${l}${p}${name}${r} ${tail}`;
          expect(parseAddress(body)).toEqual({ kind: 'addressed', name });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('two different names are ambiguous in order of appearance; the same one twice is one address', () => {
    fc.assert(
      fc.property(validName, validName, plainProse, (a, b, middle) => {
        const body = `instance:${a} ${middle} instance:${b}`;
        expect(parseAddress(body)).toEqual(
          a === b ? { kind: 'addressed', name: a } : { kind: 'ambiguous', names: [a, b] },
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('a malformed token wins over every valid one, wherever it stands', () => {
    const badName = fc.oneof(
      validName.map((name) => name.toUpperCase()).filter((name) => /[A-Z]/.test(name)),
      validName.map((name) => `-${name}`),
      validName.map((name) => `${name}_x`),
      fc.constant(''),
    );
    fc.assert(
      fc.property(validName, badName, fc.boolean(), (good, bad, badFirst) => {
        const tokens = [`instance:${good}`, `instance:${bad}`];
        const body = (badFirst ? tokens.reverse() : tokens).join(' and ');
        expect(parseAddress(body).kind).toBe('malformed');
      }),
      { numRuns: 1000 },
    );
  });

  it('a prefix glued to a word, a path or a URL is no token', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('my', 'x_', 'a.', 'b-', 'c:', 'https://', 'a/', '9', 'é', '\u{1D400}'),
        validName,
        (glue, name) => {
          expect(parseAddress(`see ${glue}instance:${name} now`)).toEqual({ kind: 'none' });
        },
      ),
    );
  });

  it('tokens in fences, quotes and HTML comments do not count, whatever the prose around them', () => {
    const hidden = fc.constantFrom(
      (token: string) => `\`\`\`\n${token}\n\`\`\``,
      (token: string) => `~~~sh\n${token}\n~~~`,
      (token: string) => `> ${token}`,
      (token: string) => `<!-- ${token} -->`,
      (token: string) => `\`run ${token}\``,
    );
    fc.assert(
      fc.property(hidden, validName, plainProse, (hide, name, prose) => {
        expect(parseAddress(`${prose}\n\n${hide(`instance:${name}`)}\n\n${prose}`)).toEqual({
          kind: 'none',
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('prose added in a paragraph of its own never changes the answer', () => {
    fc.assert(
      fc.property(hostileText, plainProse, (body, extra) => {
        fc.pre(!/```|~~~|<!--|`/.test(body));
        expect(parseAddress(`${body}\n\n${extra.trim() || 'ok'}`)).toEqual(parseAddress(body));
      }),
      { numRuns: 2000 },
    );
  });
});
