import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAddress, type AddressResult } from '../../../src/instance/parse-address.js';
import { isValidName } from '../../../src/refs.js';

const none: AddressResult = { kind: 'none' };
const to = (name: string): AddressResult => ({ kind: 'addressed', name });
const malformed = (token: string): AddressResult => ({ kind: 'malformed', token });
const ambiguous = (...names: string[]): AddressResult => ({ kind: 'ambiguous', names });

describe('parseAddress', () => {
  it.each<[string, string, AddressResult]>([
    ['no token', 'the-loop start', none],
    ['empty comment', '', none],
    ['the token alone', 'instance:alpha', to('alpha')],
    ['at the start of the text', 'instance:alpha the-loop start', to('alpha')],
    ['after a newline', 'the-loop start\ninstance:alpha', to('alpha')],
    ['inside a sentence', 'please take this, instance:laptop-b', to('laptop-b')],
    ['prefix in capitals', 'INSTANCE:alpha', to('alpha')],
    ['prefix in mixed case', 'Instance:alpha', to('alpha')],
    ['in bold', '**instance:alpha**', to('alpha')],
    ['in an inline code span of its own', '`instance:alpha`', to('alpha')],
    ['after (', '(instance:alpha)', to('alpha')],
    ['before a comma', 'instance:alpha, please', to('alpha')],
    ['before a full stop', 'Go, instance:alpha.', to('alpha')],
    ['before !', 'instance:alpha!', to('alpha')],
    ['as link text', '[instance:alpha](https://example.com)', to('alpha')],
    ['after @', '@instance:alpha', to('alpha')],
    ['trailing hyphen dropped', 'instance:alpha-', to('alpha')],
    ['trailing hyphens dropped', 'instance:a-b-c--', to('a-b-c')],
    ['double hyphen inside', 'instance:alpha--beta', to('alpha--beta')],
    ['40-character name', `instance:${'a'.repeat(40)}`, to('a'.repeat(40))],
    ['digits only', 'instance:42', to('42')],
    ['the same name twice', 'instance:alpha and again instance:alpha', to('alpha')],
    ['glued to a word', 'myinstance:alpha', none],
    ['after a URL scheme', 'http://instance:alpha', none],
    ['inside a URL path', 'https://x/instance:a', none],
    ['after a dot', 'x.instance:a', none],
    ['after a hyphen', 'x-instance:a', none],
    ['after an underscore', 'x_instance:a', none],
    ['after a colon', 'x:instance:a', none],
    ['after a digit', '9instance:a', none],
    ['after a non-ASCII letter', 'éinstance:a', none],
    ['after a letter outside the BMP', '\u{1D400}instance:a', none],
    ['in a fenced block', '```\ninstance:alpha\n```', none],
    ['in a tilde fence, then outside it', '~~~yaml\ninstance:a\n~~~\ninstance:b', to('b')],
    ['in a quoted line', '> instance:alpha', none],
    ['quoted, then its own', '> instance:a\ninstance:b', to('b')],
    ['its own, then quoted', 'instance:a\n> instance:b', to('a')],
    ['in an HTML comment', '<!-- instance:alpha -->', none],
    ['the hidden marker is no token', '<!-- the-loop:instance=alpha -->', none],
    ['a code span holding more than the token', '`run instance:alpha`', none],
    ['an unclosed fence hides the rest', '   ```\ninstance:a', none],
    ['four spaces is no fence', '    ```\ninstance:a', to('a')],
    ['upper-case name', 'instance:LAPTOP', malformed('instance:LAPTOP')],
    ['upper case inside the name', 'instance:lapTop', malformed('instance:lapTop')],
    ['underscore inside the name', 'instance:lap_top', malformed('instance:lap_top')],
    ['leading hyphen', 'instance:-x', malformed('instance:-x')],
    ['only hyphens', 'instance:---', malformed('instance:---')],
    ['a space after the colon', 'instance: alpha', malformed('instance:')],
    ['nothing after the colon', 'take it, instance:', malformed('instance:')],
    ['a 41-character name', `instance:${'a'.repeat(41)}`, malformed(`instance:${'a'.repeat(41)}`)],
    ['a letter outside the BMP as the name', 'instance:\u{1D400}', malformed('instance:')],
    ['malformed in a code span of its own', '`instance:LAPTOP`', malformed('instance:LAPTOP')],
    ['a non-ASCII name in a code span of its own', '`instance:é`', malformed('instance:')],
    ['a name that is itself the prefix word', 'instance:instance:x', to('instance')],
    ['two names', 'instance:a,instance:b', ambiguous('a', 'b')],
    ['three names, one repeated', 'instance:b instance:a instance:b', ambiguous('b', 'a')],
    [
      'malformed wins over a valid name',
      'instance:alpha instance:LAPTOP',
      malformed('instance:LAPTOP'),
    ],
    ['malformed wins over ambiguity', 'instance:a instance:b instance:-', malformed('instance:-')],
  ])('%s', (_label, body, expected) => {
    expect(parseAddress(body)).toEqual(expected);
  });

  it('keeps only printable ASCII of a malformed token, at most 60 characters', () => {
    expect(parseAddress('instance:é\u001b[31mred')).toEqual(malformed('instance:'));
    expect(parseAddress('instance:ÀB\u0301C')).toEqual(malformed('instance:BC'));
    const long = parseAddress(`instance:${'A'.repeat(100)}`);
    expect(long).toEqual(malformed(`instance:${'A'.repeat(51)}`));
  });

  const validName = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/);
  const fragments = fc.constantFrom(
    'instance:',
    'INSTANCE:',
    'alpha',
    'a-b',
    '-',
    '_',
    'LAPTOP',
    ' ',
    '\n',
    '`',
    '```',
    '>',
    '<!--',
    '-->',
    '/',
    '.',
    ',',
    '*',
    '(',
    'é',
    '\u{1D400}',
    '\u0000',
    '\u001b',
  );
  const tokenish = fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join(''));
  const anyText = fc.oneof(tokenish, fc.string({ unit: 'binary', maxLength: 200 }));

  it('never throws, and lets only valid names and log-safe tokens out', () => {
    fc.assert(
      fc.property(anyText, (body) => {
        const result = parseAddress(body);
        if (result.kind === 'addressed') expect(isValidName(result.name)).toBe(true);
        if (result.kind === 'ambiguous') {
          expect(result.names.length).toBeGreaterThanOrEqual(2);
          expect(new Set(result.names).size).toBe(result.names.length);
          for (const name of result.names) expect(isValidName(name)).toBe(true);
        }
        if (result.kind === 'malformed') {
          expect(result.token).toMatch(/^[\x20-\x7e]{0,60}$/);
          expect(result.token.toLowerCase().startsWith('instance:')).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds any valid name written in prose, whatever markup surrounds it', () => {
    const around = fc.constantFrom(['', ''], ['**', '**'], ['(', ')'], ['`', '`'], [' ', '.']);
    fc.assert(
      fc.property(validName, around, (name, [before, after]) => {
        expect(parseAddress(`hi ${before}instance:${name}${after} there`)).toEqual(to(name));
      }),
    );
  });

  it('ignores any name written in a fence or a quote', () => {
    fc.assert(
      fc.property(validName, (name) => {
        expect(parseAddress(`\`\`\`\ninstance:${name}\n\`\`\``)).toEqual(none);
        expect(parseAddress(`> instance:${name}`)).toEqual(none);
      }),
    );
  });

  it('stays fast on a long run of hyphens', { timeout: 2000 }, () => {
    expect(parseAddress(`instance:a${'-'.repeat(65_000)}b`).kind).toBe('malformed');
    expect(parseAddress('instance:'.repeat(7_000))).toEqual(to('instance'));
  });
});
