import { describe, expect, it } from 'vitest';
import { formatStandingView } from '../../../src/cli/format-standing-view.js';
import { standingView } from './standing-view-fixture.js';

describe('formatStandingView', () => {
  it('shows every field it has and how to attach on the default tmux server', () => {
    const text = formatStandingView(
      standingView({ conversationId: 'c-1', slack: { channel: 'C1', threadTs: '1.2' } }),
      '',
    );
    expect(text).toContain('ref           standing:demo');
    expect(text).toContain('conversation  c-1');
    expect(text).toContain('slack         C1, thread 1.2');
    expect(text).toContain("attach        tmux attach -t '=loop-standing-demo'");
    expect(text).not.toContain('stopped ');
  });

  it('names the private tmux socket, and offers no attach when the pane is gone', () => {
    expect(formatStandingView(standingView(), 'ours')).toContain(
      "tmux -L ours attach -t '=loop-standing-demo'",
    );
    const stopped = formatStandingView(standingView({ status: 'stopped', tmux: 'absent' }), '');
    expect(stopped).not.toContain('attach');
    expect(stopped).toMatch(/^slack +no thread$/m);
  });
});
