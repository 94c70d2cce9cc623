import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../../src/config/config-schema.js';
import { isLoopError } from '../../../../src/errors.js';
import {
  parseKeywordCommand,
  type KeywordResult,
} from '../../../../src/github/comment/parse-keyword-command.js';

const none: KeywordResult = { kind: 'none' };
const start: KeywordResult = { kind: 'command', command: 'start' };
const stop: KeywordResult = { kind: 'command', command: 'stop' };
const ambiguous: KeywordResult = { kind: 'ambiguous' };

describe('parseKeywordCommand', () => {
  it.each<[string, string, KeywordResult]>([
    ['start', 'the-loop start', start],
    ['stop', 'the-loop stop', stop],
    ['any case, two spaces', 'The-Loop  STOP', stop],
    ['in bold', '**the-loop start**', start],
    ['inside a sentence', 'could you the-loop start here?', start],
    ['before a full stop', 'the-loop start.', start],
    ['before a comma', 'the-loop stop, thanks', stop],
    ['a tab between', 'the-loop\tstart', start],
    ['one line break between', 'the-loop\nstart', start],
    ['with an address', 'instance:alpha the-loop start', start],
    ['nothing', 'looks good to me', none],
    ['the keyword alone', 'the-loop', none],
    ['a blank line between', 'the-loop\n\nstart', none],
    ['no space', 'the-loopstart', none],
    ['a colon after the keyword', 'the-loop: start', none],
    ['not a whole word', 'the-loop started', none],
    ['hyphenated on', 'the-loop start-up', none],
    ['another word', 'the-loop restart', none],
    ['glued to a word with a hyphen', 'not-the-loop start', none],
    ['inside a path', 'x/the-loop start', none],
    ['after a dot', 'x.the-loop start', none],
    ['after an underscore', 'x_the-loop start', none],
    ['after a digit', '9the-loop start', none],
    ['after a letter', 'xthe-loop start', none],
    ['after a non-ASCII letter', 'éthe-loop start', none],
    ['after a letter outside the BMP', '\u{1D400}the-loop start', none],
    ['a long s is not an s', 'the-loop ſtart', none],
    ['in an inline code span', 'run `the-loop start` to begin', none],
    ['in a span that is only the command', '`the-loop stop`', none],
    ['in a fence', '```\nthe-loop start\n```', none],
    ['in a quote', '> the-loop start', none],
    ['in an HTML comment', '<!-- the-loop start -->', none],
    ['a quoted stop, then a start', '> the-loop stop\nthe-loop start', start],
    ['the same command twice', 'the-loop start, I said the-loop start', start],
    ['start and stop', 'the-loop start\nthe-loop stop', ambiguous],
    ['stop and start in any case', 'THE-LOOP STOP the-loop start', ambiguous],
  ])('%s', (_label, body, expected) => {
    expect(parseKeywordCommand(body, 'the-loop')).toEqual(expected);
  });

  it.each<[string, string, string, KeywordResult]>([
    ['a short keyword', 'bot', 'bot start', start],
    ['a short keyword glued to a word', 'bot', 'robot start', none],
    ['a keyword in capitals matches any case', 'Loop', 'loop stop', stop],
    ['regex characters are literal', '@my.bot', 'ping @my.bot start', start],
    ['a dot in the keyword matches only a dot', '@my.bot', 'ping @myxbot start', none],
    ['a slash in the keyword', 'team/bot', 'team/bot stop', stop],
    ['a Kelvin sign is not a k', 'kube', '\u212Aube start', none],
  ])('keyword %s', (_label, keyword, body, expected) => {
    expect(parseKeywordCommand(body, keyword)).toEqual(expected);
  });

  it.each(['', 'the loop', 'c++', 'a'.repeat(41), 'the-loop\n', '(x)'])(
    'refuses the keyword %j with a config error',
    (keyword) => {
      let caught: unknown;
      try {
        parseKeywordCommand('the-loop start', keyword);
      } catch (error) {
        caught = error;
      }
      expect(isLoopError(caught) && caught.code).toBe('config_invalid');
    },
  );

  const schemaPattern = configSchema().properties?.['github']?.properties?.['keyword']?.pattern;

  it('accepts exactly the keywords the config schema accepts', () => {
    expect(schemaPattern).toBeDefined();
    const schema = new RegExp(schemaPattern ?? '(?!)');
    const near = fc.string({
      unit: fc.constantFrom('a', 'Z', '0', '-', '.', '/', '@', '_', ' ', '\n', '+', '(', '*'),
      maxLength: 42,
    });
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 42 })), (keyword) => {
        let accepted = true;
        try {
          parseKeywordCommand('', keyword);
        } catch (error) {
          if (!isLoopError(error) || error.code !== 'config_invalid') throw error;
          accepted = false;
        }
        expect(accepted).toBe(schema.test(keyword));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds both commands for every keyword the schema accepts', () => {
    const keyword = fc.stringMatching(new RegExp(schemaPattern ?? '(?!)'));
    fc.assert(
      fc.property(keyword, (word) => {
        expect(parseKeywordCommand(`ok, ${word} start`, word)).toEqual(start);
        expect(parseKeywordCommand(`${word.toUpperCase()}  STOP`, word)).toEqual(stop);
      }),
    );
  });

  it('never throws on any comment', () => {
    const fragments = fc.constantFrom(
      'the-loop',
      ' ',
      '\n',
      'start',
      'stop',
      'STOP',
      '`',
      '```',
      '>',
      '<!--',
      '-->',
      '-',
      '/',
      'é',
      '\u{1D400}',
    );
    const body = fc.oneof(
      fc.array(fragments, { maxLength: 30 }).map((parts) => parts.join('')),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    fc.assert(
      fc.property(body, (text) => {
        expect(['none', 'command', 'ambiguous']).toContain(
          parseKeywordCommand(text, 'the-loop').kind,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
