import { describe, expect, it } from 'vitest';
import { describeExit, shownStatus } from '../../../src/sessions/session-status.js';

describe('shownStatus: what people see, from the record and tmux', () => {
  it.each([
    ['running', 'live', undefined, { status: 'running' }],
    ['stopped', 'live', undefined, { status: 'stopped' }],
    ['running', 'absent', undefined, { status: 'stopped' }],
    ['running', 'dead', 2, { status: 'exited', exitStatus: 2 }],
    ['exited', 'dead', undefined, { status: 'exited', exitStatus: 7 }],
    ['stopped', 'dead', 1, { status: 'stopped' }],
    ['exited', 'absent', undefined, { status: 'exited', exitStatus: 7 }],
    // tmux gave no answer: the record's word stands rather than a guess of "stopped".
    ['running', 'unknown', undefined, { status: 'running' }],
    ['exited', 'unknown', undefined, { status: 'exited', exitStatus: 7 }],
  ] as const)('record %s, tmux %s (dead status %s) → %o', (status, state, deadStatus, shown) => {
    const record = status === 'exited' ? { status, exitStatus: 7 } : { status };
    const tmux = deadStatus === undefined ? { state } : { state, deadStatus };
    expect(shownStatus(record, tmux)).toEqual(shown);
  });

  it('treats a missing record as stopped', () => {
    expect(shownStatus(undefined, { state: 'live' })).toEqual({ status: 'stopped' });
  });

  it('names the exit status when there is one', () => {
    expect(describeExit(1)).toBe('has exited (status 1)');
    expect(describeExit(undefined)).toBe('has exited');
  });
});
