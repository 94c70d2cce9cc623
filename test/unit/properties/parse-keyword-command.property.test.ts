import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseKeywordCommand,
  type KeywordResult,
} from '../../../src/github/comment/parse-keyword-command.js';
import { hostileText, randomCase } from './arbitraries.js';

/** Keywords as the config schema allows them: 1–40 of letters, digits and @ / _ . - */
const keyword = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', '@', '/', '_', '.', '-'),
  minLength: 1,
  maxLength: 40,
});
/** Prose that cannot open code, a quote or a comment, nor glue itself to a keyword. */
const prose = fc.string({
  unit: fc.constantFrom('w', 'o', 'r', 'd', ' ', ' ', ',', '!', '?', '(', ')'),
  maxLength: 30,
});
const command = fc.constantFrom('start', 'stop');
const spacing = fc.constantFrom(' ', '  ', '\t', ' \n', '\n  ', '\r\n');

const none: KeywordResult = { kind: 'none' };
const found = (name: string): KeywordResult => ({
  kind: 'command',
  command: name === 'stop' ? 'stop' : 'start',
});

function combine(a: KeywordResult, b: KeywordResult): KeywordResult {
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  if (a.kind === 'command' && b.kind === 'command' && a.command === b.command) return a;
  return { kind: 'ambiguous' };
}

describe('parseKeywordCommand on generated comments', () => {
  it('never throws on hostile text for any keyword the schema allows', () => {
    fc.assert(
      fc.property(keyword, hostileText, (word, body) => {
        expect(['none', 'command', 'ambiguous']).toContain(parseKeywordCommand(body, word).kind);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the command for any keyword, in any case, with any spacing, inside any prose', () => {
    const cased = keyword.chain((word) => randomCase(word).map((written) => ({ word, written })));
    const verb = command.chain((name) => randomCase(name).map((written) => ({ name, written })));
    fc.assert(
      fc.property(prose, cased, spacing, verb, prose, (head, k, gap, v, tail) => {
        const body = `${head} ${k.written}${gap}${v.written} ${tail}`;
        expect(parseKeywordCommand(body, k.word)).toEqual(found(v.name));
      }),
      { numRuns: 2000 },
    );
  });

  it('start and stop together are ambiguous in either order; the same one twice is that one', () => {
    fc.assert(
      fc.property(keyword, command, command, prose, (word, first, second, middle) => {
        const body = `${word} ${first} ${middle}\n\n${word} ${second}`;
        expect(parseKeywordCommand(body, word)).toEqual(
          first === second ? found(first) : { kind: 'ambiguous' },
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('paragraphs are judged on their own and then combined', () => {
    const paragraph = fc
      .array(
        fc.oneof(
          prose,
          fc.constantFrom('the-loop start', 'the-loop stop', 'THE-LOOP Stop', 'the-loop', 'start'),
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(paragraph, paragraph, (a, b) => {
        expect(parseKeywordCommand(`${a}\n\n${b}`, 'the-loop')).toEqual(
          combine(parseKeywordCommand(a, 'the-loop'), parseKeywordCommand(b, 'the-loop')),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('a keyword glued to a word or path, or a command glued to more letters, is no command', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('not-', 'x/', 'a.', 'my_', 'é', '9'),
        command,
        fc.constantFrom('s', 'ed', '-now', '_x', 'é', '9'),
        (before, name, after) => {
          expect(parseKeywordCommand(`${before}the-loop ${name}`, 'the-loop')).toEqual(none);
          expect(parseKeywordCommand(`the-loop ${name}${after}`, 'the-loop')).toEqual(none);
        },
      ),
    );
  });

  it('commands in code, quotes and HTML comments do not count', () => {
    const hide = fc.constantFrom(
      (text: string) => `\`${text}\``,
      (text: string) => `\`\`\`\n${text}\n\`\`\``,
      (text: string) => `> ${text}`,
      (text: string) => `<!-- ${text} -->`,
    );
    fc.assert(
      fc.property(hide, command, prose, (hidden, name, around) => {
        expect(
          parseKeywordCommand(`${around}\n\n${hidden(`the-loop ${name}`)}`, 'the-loop'),
        ).toEqual(none);
      }),
    );
  });

  it('Unicode look-alikes never pass for start or stop', () => {
    fc.assert(
      fc.property(fc.constantFrom('ſtart', 'ſtop', 'ѕtart', 'st\u0430rt', 'stop\u0301'), (word) => {
        expect(parseKeywordCommand(`the-loop ${word}`, 'the-loop')).toEqual(none);
      }),
    );
  });
});
