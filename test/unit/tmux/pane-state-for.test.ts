import { describe, expect, it } from 'vitest';
import { paneStateFor } from '../../../src/tmux/pane-state-for.js';
import type { SessionInfo } from '../../../src/tmux/tmux-driver.js';

const sessions = new Map<string, SessionInfo>([
  ['mine', { name: 'mine', state: 'live', owner: 'me' }],
  ['crashed', { name: 'crashed', state: 'dead', owner: 'me' }],
  ['squat', { name: 'squat', state: 'live', owner: '' }],
]);

describe('paneStateFor', () => {
  it.each([
    ['mine', 'live'],
    ['crashed', 'dead'],
    ['squat', 'unknown'],
    ['gone', 'absent'],
  ])('%s → %s', (name, state) => {
    expect(paneStateFor({ ok: true, sessions }, name, 'me')).toBe(state);
  });
  it('is unknown for every name when tmux gave no listing', () => {
    expect(paneStateFor({ ok: false, reason: 'x' }, 'mine', 'me')).toBe('unknown');
  });
});
