import { describe, expect, it } from 'vitest';
import { decideStart } from '../../../src/sessions/decide-start.js';
import type { SessionInfo } from '../../../src/tmux/tmux-driver.js';

const info = (state: SessionInfo['state'], owner = ''): SessionInfo => ({
  name: 't',
  state,
  owner,
});

describe('decideStart', () => {
  it.each([
    ['absent, no record', info('absent'), false, { action: 'spawn', clearDeadPane: false }],
    ['absent, record', info('absent'), true, { action: 'spawn', clearDeadPane: false }],
    ['live and ours with a record', info('live', 'me'), true, { action: 'already-running' }],
    [
      'live and ours without a record',
      info('live', 'me'),
      false,
      { action: 'refuse', reason: 'unrecorded' },
    ],
    ['live without a tag', info('live'), true, { action: 'refuse', reason: 'foreign' }],
    [
      'live, tagged by another instance',
      info('live', 'other'),
      true,
      { action: 'refuse', reason: 'foreign' },
    ],
    ['dead and ours', info('dead', 'me'), true, { action: 'spawn', clearDeadPane: true }],
    ['dead and not ours', info('dead', 'other'), true, { action: 'refuse', reason: 'foreign' }],
    ['tmux unknown', info('unknown'), true, { action: 'refuse', reason: 'tmux-unknown' }],
  ])('%s', (_label, probe, hasRecord, decision) => {
    expect(decideStart(probe, 'me', hasRecord)).toEqual(decision);
  });
});
