import { describe, expect, it } from 'vitest';
import {
  createControlModeParser,
  type ControlModeEvent,
} from '../../../src/tmux/parse-control-mode.js';

const feed = (lines: string[]): ControlModeEvent[] => {
  const parser = createControlModeParser();
  return lines.flatMap((line) => parser.line(line) ?? []);
};

describe('createControlModeParser', () => {
  it('returns the output of a command of ours, and drops the server’s own blocks', () => {
    expect(
      feed([
        '%begin 1700000000 264 0',
        '%end 1700000000 264 0',
        '%sessions-changed',
        '%begin 1700000000 265 1',
        'one',
        'two',
        '%end 1700000000 265 1',
      ]),
    ).toEqual([{ type: 'block', ok: true, lines: ['one', 'two'] }]);
  });

  it('marks a failed command', () => {
    expect(feed(['%begin 1 7 1', "can't find session: nosuch", '%error 1 7 1'])).toEqual([
      { type: 'block', ok: false, lines: ["can't find session: nosuch"] },
    ]);
  });

  it('keeps output lines that look like guards of another command, or notifications', () => {
    expect(
      feed(['%begin 1 8 1', '%end 1 99 1', '%exit', '%begin 1 9 1', '', '%end 1 8 1']),
    ).toEqual([{ type: 'block', ok: true, lines: ['%end 1 99 1', '%exit', '%begin 1 9 1', ''] }]);
  });

  it('tells which session the client was attached to', () => {
    expect(feed(['%session-changed $3 loop-standing-sup'])).toEqual([
      { type: 'session-changed', name: 'loop-standing-sup' },
    ]);
  });

  it('ignores notifications between blocks', () => {
    expect(feed(['%window-add @1', '%sessions-changed', '%output %1 hi'])).toEqual([]);
  });
});
