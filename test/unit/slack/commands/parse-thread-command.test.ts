import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseThreadCommand,
  threadHelp,
  type ThreadCommand,
} from '../../../../src/slack/commands/parse-thread-command.js';

describe('parseThreadCommand', () => {
  it.each<[string, ThreadCommand | undefined]>([
    ['please look at this', undefined],
    ['', undefined],
    ['say !status', undefined],
    ['*!status*', undefined],
    ['!status', { command: 'status' }],
    ['  \n!status', { command: 'status' }],
    ['!STATUS', { command: 'status' }],
    ['!status?', { command: 'status' }],
    ['! status', { command: 'status' }],
    ['!interrupt now please', { command: 'interrupt' }],
    ['!interrupt!!', { command: 'interrupt' }],
    ['!restart.', { command: 'restart' }],
    ['!help', { command: 'help' }],
    ['!stop', { command: 'unknown', given: 'stop' }],
    ['!Frob, please', { command: 'unknown', given: 'frob' }],
    ['!', { command: 'unknown', given: '' }],
    ['!!!', { command: 'unknown', given: '' }],
    ['!status-ish', { command: 'unknown', given: 'status-ish' }],
  ])('%j → %j', (text, expected) => {
    expect(parseThreadCommand(text)).toEqual(expected);
  });

  it('returns a command for every message that starts with !, so none is forwarded', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(' ', '\n', '\t') }),
        fc.string(),
        (space, rest) => {
          expect(parseThreadCommand(`${space}!${rest}`)).toBeDefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('returns undefined for every message that does not start with !', () => {
    fc.assert(
      fc.property(
        fc.string().filter((text) => !text.trimStart().startsWith('!')),
        (text) => {
          expect(parseThreadCommand(text)).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('threadHelp', () => {
  it('lists every command and says that ! messages are not forwarded', () => {
    const help = threadHelp();
    for (const command of ['status', 'interrupt', 'restart', 'help']) {
      expect(help).toContain(`• \`!${command}\` — `);
      expect(parseThreadCommand(`!${command}`)).toEqual({ command });
    }
    expect(help).toMatch(/not sent to the session/);
    expect(help).not.toMatch(/[<>]/);
  });
});
