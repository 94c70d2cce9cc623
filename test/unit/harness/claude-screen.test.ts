import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxHoldsPaste, readClaudeScreen } from '../../../src/harness/claude-screen.js';

/** Screens of the real Claude Code 2.1.197, captured with `tmux capture-pane -p`. */
const screen = (name: string) =>
  readFileSync(path.resolve('test/fixtures/claude-screens', `${name}.txt`), 'utf8');

describe('readClaudeScreen on screens of the real Claude Code', () => {
  it.each([
    ['idle-empty', { box: '', busy: false, queued: false }],
    ['short-paste', { box: 'a short pasted line', busy: false, queued: false }],
    ['after-one-escape', { box: 'a short pasted line', busy: false, queued: false }],
    ['two-line-tab', { box: 'line one\nline    two', busy: false, queued: false }],
    ['long-paste-lines', { box: '[Pasted text #1 +12 lines]', busy: false, queued: false }],
    ['long-paste-chars', { box: '[Pasted text #2]', busy: false, queued: false }],
    ['busy', { box: '', busy: true, queued: false }],
    ['busy-with-paste', { box: 'typed while busy', busy: true, queued: false }],
    ['busy-queued', { box: '', busy: true, queued: true }],
    ['interrupted-restored', { box: 'a slow turn to interrupt', busy: false, queued: false }],
    ['permission', { box: undefined, dialog: 'permission', busy: false, queued: false }],
    ['permission-npm', { box: undefined, dialog: 'permission', busy: false, queued: false }],
    ['trust', { box: undefined, dialog: 'trust', busy: false, queued: false }],
    ['api-key', { box: undefined, dialog: 'api-key', busy: false, queued: false }],
  ])('%s', (name, expected) => {
    expect(readClaudeScreen(screen(name))).toEqual(expected);
  });

  it('sees no box in prompts echoed into the conversation (a plain space after ❯)', () => {
    expect(readClaudeScreen('❯ hello\n\n● OK.\n').box).toBeUndefined();
  });
});

describe('boxHoldsPaste', () => {
  it.each([
    ['[cli · ana · 02be]\n\nhello', '02be', true],
    ['[cli · ana · 02be]\n\nhello', 'ffff', false],
    ['[Pasted text #3 +4 lines]', 'ffff', true],
    ['[Pasted text #2]', 'ffff', true],
    ['', '02be', false],
    ['someone typing', '02be', false],
  ])('box %j, tag %s → %s', (box, tag, holds) => {
    expect(boxHoldsPaste({ box, busy: false, queued: false }, tag)).toBe(holds);
  });

  it('never sees a paste when no box shows (a dialog)', () => {
    expect(
      boxHoldsPaste({ box: undefined, dialog: 'permission', busy: false, queued: false }, 'x'),
    ).toBe(false);
  });
});

describe('readClaudeScreen at the bottom of a pane', () => {
  it('finds an empty box on the very last line (its no-break space is not trailing blank)', () => {
    expect(readClaudeScreen('ready\n❯\u00a0\n\n\n').box).toBe('');
  });
});
