import { describe, expect, it } from 'vitest';
import type { AgentScreen } from '../../../src/harness/claude-screen.js';
import {
  decideResume,
  isSubmitMark,
  type ResumeStep,
  type SubmitMark,
} from '../../../src/delivery/submit-mark.js';

const mark: SubmitMark = { tag: '02be', tmuxName: 'loop-standing-sup', panePid: 4242 };
const screen = (box: string | undefined, extra: Partial<AgentScreen> = {}): AgentScreen => ({
  box,
  busy: false,
  queued: false,
  ...extra,
});

describe('what a restart does with a message marked before its Enter', () => {
  const rows: ReadonlyArray<
    readonly [string, { tmuxName?: string; panePid?: number; screen: AgentScreen }, ResumeStep]
  > = [
    ['our paste waits in the box', { screen: screen('[cli · ana · 02be] ship it') }, 'press-enter'],
    [
      'a long paste waits as its token',
      { screen: screen('[Pasted text #1 +40 lines]') },
      'press-enter',
    ],
    ['the box is empty: it went in', { screen: screen('') }, 'submitted'],
    ['empty while the turn it started runs', { screen: screen('', { busy: true }) }, 'submitted'],
    [
      'another message waits in the box',
      { screen: screen('[cli · ana · 7777] other') },
      'type-again',
    ],
    ['a person typed meanwhile', { screen: screen('half a thought') }, 'type-again'],
    [
      'a dialog hides the box',
      { screen: screen(undefined, { dialog: 'permission' }) },
      'type-again',
    ],
    ['another process in the pane', { panePid: 5151, screen: screen('') }, 'type-again'],
    ['the pane has no process id', { panePid: undefined, screen: screen('') }, 'type-again'],
    ['another session name', { tmuxName: 'loop-standing-other', screen: screen('') }, 'type-again'],
  ];
  it.each(rows)('%s', (_, seen, step) => {
    expect(
      decideResume(mark, {
        tmuxName: seen.tmuxName ?? mark.tmuxName,
        ...('panePid' in seen
          ? seen.panePid === undefined
            ? {}
            : { panePid: seen.panePid }
          : { panePid: 4242 }),
        screen: seen.screen,
      }),
    ).toBe(step);
  });

  it('a mark written without the pane process id is never taken as proof', () => {
    const { panePid: _, ...noPid } = mark;
    expect(
      decideResume(noPid, { tmuxName: mark.tmuxName, panePid: 4242, screen: screen('') }),
    ).toBe('type-again');
  });
});

describe('a mark read back from disk', () => {
  it.each([
    [mark, true],
    [{ tag: '02be', tmuxName: 'x' }, true],
    [{ tag: '02BE', tmuxName: 'x' }, false],
    [{ tag: 'zz', tmuxName: 'x' }, false],
    [{ tag: '02be' }, false],
    [{ tag: '02be', tmuxName: 'x', panePid: '1' }, false],
    [{ tag: '02be', tmuxName: 'x', panePid: 1.5 }, false],
    [null, false],
    ['02be', false],
  ])('%j is a mark: %s', (value, ok) => {
    expect(isSubmitMark(value)).toBe(ok);
  });
});
