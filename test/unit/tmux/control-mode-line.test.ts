import { describe, expect, it } from 'vitest';
import { controlModeLine } from '../../../src/tmux/control-mode-line.js';

describe('controlModeLine', () => {
  it.each<[string, string[], string | undefined]>([
    [
      'plain words',
      ['list-sessions', '-F', '#{session_name}'],
      "'list-sessions' '-F' '#{session_name}'",
    ],
    ['a quote inside', ['display-message', '-p', "it's"], "'display-message' '-p' 'it'\\''s'"],
    ['a separator kept', ['a', ';', 'b'], "'a' ; 'b'"],
    ['a trailing semicolon stays text', ['echo;'], "'echo;'"],
    ['dollar, tilde, braces and hash literal', ['$HOME ~ {x} #c'], "'$HOME ~ {x} #c'"],
    ['an empty argument', ['set', ''], "'set' ''"],
    ['a line feed cannot go on one line', ['a\nb'], undefined],
    ['nor a carriage return', ['a\rb'], undefined],
  ])('%s', (_label, args, line) => {
    expect(controlModeLine(args)).toBe(line);
  });
});
