import { describe, expect, it } from 'vitest';
import { standingRow, workItemRow } from '../../../src/dashboard/session-rows.js';
import { headerSurfaces } from '../../../src/dashboard/ui-routes.js';
import type { StandingView } from '../../../src/standing/standing-types.js';
import type { WorkItemRecord, WorkItemView } from '../../../src/workitems/workitem-types.js';

const standing: StandingView = {
  name: 'alpha',
  ref: 'standing:alpha',
  source: 'created',
  description: 'helps',
  harness: 'claude',
  cwd: '/srv/repo',
  autoStart: true,
  status: 'running',
  agentState: 'busy',
  tmux: 'live',
  slack: { channel: 'C0123ABC', threadTs: '1700000000.123456' },
};

describe('session rows', () => {
  it('labels a standing session by where it came from and links its Slack thread', () => {
    expect(standingRow(standing)).toEqual({
      ref: 'standing:alpha',
      name: 'alpha',
      kind: 'created',
      status: 'running',
      agentState: 'busy',
      harness: 'claude',
      cwd: '/srv/repo',
      description: 'helps',
      page: '/sessions/alpha',
      link: {
        label: 'Slack thread',
        url: 'https://slack.com/archives/C0123ABC/p1700000000123456',
      },
    });
  });

  it('links the channel when no thread was announced, and nothing without Slack', () => {
    expect(standingRow({ ...standing, slack: { channel: 'C9' } }).link).toEqual({
      label: 'Slack channel',
      url: 'https://slack.com/archives/C9',
    });
    const { slack: _slack, ...bare } = standing;
    expect(standingRow({ ...bare, source: 'declared' })).not.toHaveProperty('link');
  });

  it('shows a work item with its record, its page and its issue', () => {
    const view: WorkItemView = {
      ref: 'github:octo/repo#12',
      status: 'exited',
      exitStatus: 1,
      tmux: 'dead',
      agentState: null,
      instance: '',
      startedBy: 'octocat',
      startedAt: '2026-12-01T00:00:00Z',
    };
    const record = {
      ref: view.ref,
      item: { host: 'github.com', owner: 'octo', repo: 'repo', number: 12 },
      harness: 'claude',
      cwd: '/srv/repo',
    } as unknown as WorkItemRecord;
    expect(workItemRow(view, record, undefined)).toEqual({
      ref: 'github:octo/repo#12',
      name: 'octo/repo#12',
      kind: 'work item',
      status: 'exited',
      exitStatus: 1,
      agentState: 'exited',
      harness: 'claude',
      cwd: '/srv/repo',
      description: '',
      page: '/work-items/octo/repo/12',
      link: { label: 'issue octo/repo#12', url: 'https://github.com/octo/repo/issues/12' },
    });
    expect(workItemRow({ ...view, status: 'running' }, record, 'waiting').agentState).toBe(
      'waiting',
    );
    expect(workItemRow({ ...view, status: 'stopped' }, record, 'idle').agentState).toBeNull();
  });
});

describe('headerSurfaces', () => {
  it('says on, off or degraded for Slack and GitHub, and the fleet is off', () => {
    expect(
      headerSurfaces([
        { name: 'control', state: 'ok', detail: 'socket' },
        { name: 'github', state: 'degraded', detail: 'github: webhook off' },
        { name: 'slack', state: 'ok', detail: 'slack: socket mode' },
        { name: 'github', state: 'ok', detail: 'github: poller' },
      ]),
    ).toEqual([
      { name: 'Slack', state: 'on', detail: 'slack: socket mode' },
      { name: 'GitHub', state: 'degraded', detail: 'github: webhook off' },
      { name: 'fleet', state: 'off', detail: 'the fleet is not configured' },
    ]);
  });

  it("shows the fleet's row when this instance is in a fleet", () => {
    expect(headerSurfaces([{ name: 'fleet', state: 'ok', detail: 'ok (3 instances)' }])[2]).toEqual(
      { name: 'fleet', state: 'on', detail: 'ok (3 instances)' },
    );
    expect(
      headerSurfaces([{ name: 'fleet', state: 'failed', detail: 'down since 14:02: refused' }])[2],
    ).toEqual({ name: 'fleet', state: 'failed', detail: 'down since 14:02: refused' });
  });
});
