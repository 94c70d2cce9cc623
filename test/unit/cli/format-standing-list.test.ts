import { describe, expect, it } from 'vitest';
import { formatStandingList } from '../../../src/cli/format-standing-list.js';
import { standingView } from './standing-view-fixture.js';

describe('formatStandingList', () => {
  it('shows one row a session under the pinned headers', () => {
    const text = formatStandingList([
      standingView(),
      standingView({
        name: 'helper',
        source: 'created',
        status: 'stopped',
        agentState: null,
        tmux: 'absent',
        autoStart: false,
        harness: 'claude',
        cwd: '/tmp',
      }),
    ]);
    expect(text.split('\n')).toEqual([
      'NAME    SOURCE    STATUS   STATE  TMUX    HARNESS  AUTO  CWD',
      'demo    declared  running  idle   live    shell    yes   /work/repo',
      'helper  created   stopped  -      absent  claude   no    /tmp',
    ]);
  });

  it('says how to make a session when there is none', () => {
    expect(formatStandingList([])).toContain('the-loop standing create NAME');
  });
});
