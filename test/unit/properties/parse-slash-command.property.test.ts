import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSlashCommand } from '../../../src/slack/commands/parse-slash-command.js';
import { slashSubcommands } from '../../../src/slack/commands/slash-subcommands.js';
import { hostileText, randomCase, validName } from './arbitraries.js';

const verbs = slashSubcommands.map((spec) => spec.verb);
const namedVerbs = ['delete', 'start', 'stop', 'restart'] as const;
/** Whitespace as Slack may hand it over: spaces, tabs, newlines, a no-break space. */
const gap = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\u00a0'), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(''));
/** A word that is not an option and not a flag: the start of a brief. */
const briefWord = fc
  .string({
    unit: fc.constantFrom('a', 'B', '9', '.', ',', '!', '?', '=', '"', '-'),
    minLength: 1,
    maxLength: 8,
  })
  .filter((word) => !/^[A-Za-z][A-Za-z0-9_-]*=/.test(word) && !word.startsWith('-'));
const brief = fc.array(briefWord, { minLength: 1, maxLength: 5 }).map((words) => words.join(' '));
/** A cwd value; quoted when it holds a space. */
const dir = fc.string({
  unit: fc.constantFrom('a', 'Z', '/', '.', '-', '_', ' ', 'é'),
  minLength: 1,
  maxLength: 20,
});

describe('parseSlashCommand on generated input', () => {
  it('never throws; names that come out are valid; usage errors carry no raw < > or &', () => {
    const texts = fc.oneof(
      hostileText,
      fc
        .tuple(fc.constantFrom(...verbs, 'frobnicate', 'LIST', ''), gap, hostileText)
        .map(([verb, space, rest]) => `${verb}${space}${rest}`),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const parsed = parseSlashCommand(text, '/loop');
        if ('name' in parsed) expect(parsed.name).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/);
        if (parsed.verb === 'usage-error') {
          expect(parsed.message.replace(/&(amp|lt|gt);/g, '')).not.toMatch(/[<>&]/);
          expect(parsed.message).toMatch(/\/loop/);
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('reads every named verb in any case with any whitespace', () => {
    const cased = fc
      .constantFrom(...namedVerbs)
      .chain((verb) => randomCase(verb).map((written) => ({ verb, written })));
    fc.assert(
      fc.property(
        fc.option(gap, { nil: '' }),
        cased,
        gap,
        validName,
        fc.option(gap, { nil: '' }),
        (lead, v, space, name, trail) => {
          expect(parseSlashCommand(`${lead}${v.written}${space}${name}${trail}`)).toEqual({
            verb: v.verb,
            name,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a word that is no subcommand is a usage error naming every subcommand', () => {
    const word = fc.string({
      unit: fc.constantFrom('a', 'x', 'Q', '-', '!', '`', '<'),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(word, fc.option(fc.tuple(gap, validName), { nil: undefined }), (given, rest) => {
        fc.pre(!verbs.includes(given.toLowerCase() as (typeof verbs)[number]));
        const parsed = parseSlashCommand(rest ? `${given}${rest[0]}${rest[1]}` : given);
        expect(parsed.verb).toBe('usage-error');
        if (parsed.verb !== 'usage-error') return;
        expect(parsed.message).toMatch(/is not a subcommand/);
        for (const verb of verbs) expect(parsed.message).toContain(`\`${verb}\``);
      }),
      { numRuns: 1000 },
    );
  });

  it('a named verb with a bad name, no name or two names is a usage error', () => {
    const badName = fc.oneof(
      validName.map((name) => `${name}_`),
      validName.map((name) => `-${name}`),
      validName.filter((name) => /[a-z]/.test(name)).map((name) => name.toUpperCase()),
      fc.constant('a'.repeat(41)),
      validName.map((name) => `${name}\u0007`),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...namedVerbs),
        badName,
        validName,
        validName,
        (verb, bad, a, b) => {
          expect(parseSlashCommand(`${verb} ${bad}`).verb).toBe('usage-error');
          expect(parseSlashCommand(`${verb}`).verb).toBe('usage-error');
          expect(parseSlashCommand(`${verb} ${a} ${b}`).verb).toBe('usage-error');
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('create round-trips its name, options and brief', () => {
    fc.assert(
      fc.property(
        validName,
        fc.option(validName, { nil: undefined }),
        fc.option(dir, { nil: undefined }),
        fc.option(brief, { nil: undefined }),
        fc.boolean(),
        (name, harness, cwd, text, cwdFirst) => {
          const options = [
            ...(harness === undefined ? [] : [`harness=${harness}`]),
            ...(cwd === undefined ? [] : [/\s/.test(cwd) ? `cwd="${cwd}"` : `cwd=${cwd}`]),
          ];
          if (cwdFirst) options.reverse();
          const line = ['create', name, ...options, ...(text === undefined ? [] : [text])].join(
            ' ',
          );
          expect(parseSlashCommand(line)).toEqual({
            verb: 'create',
            name,
            ...(harness === undefined ? {} : { harness }),
            ...(cwd === undefined ? {} : { cwd }),
            ...(text === undefined ? {} : { brief: text }),
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('create refuses options it does not know, given twice, or holding control characters', () => {
    const key = fc.constantFrom('args', 'command', 'env', 'prompt', 'Harness2', 'x');
    fc.assert(
      fc.property(
        validName,
        key,
        validName,
        fc.constantFrom('\u0007', '\u001b', '\u007f'),
        (name, unknown, value, control) => {
          expect(parseSlashCommand(`create ${name} ${unknown}=${value}`).verb).toBe('usage-error');
          expect(parseSlashCommand(`create ${name} harness=${value} harness=${value}`).verb).toBe(
            'usage-error',
          );
          expect(parseSlashCommand(`create ${name} cwd="a${control}b"`).verb).toBe('usage-error');
        },
      ),
      { numRuns: 500 },
    );
  });
});
