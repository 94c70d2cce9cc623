import { describe, expect, it } from 'vitest';
import type { StandingView } from '../../../../src/standing/standing-types.js';
import {
  formatSessionLine,
  formatStatusReply,
} from '../../../../src/slack/text/format-session-line.js';

const view = (extra: Partial<StandingView> = {}): StandingView => ({
  name: 'sup',
  ref: 'standing:sup',
  source: 'declared',
  description: '',
  harness: 'claude',
  cwd: '/work/repo',
  autoStart: true,
  status: 'running',
  agentState: 'idle',
  tmux: 'live',
  ...extra,
});

describe('formatSessionLine', () => {
  it.each([
    [
      'running with a conversation',
      view({ conversationId: '1234abcd-5678-90ef' }),
      '• *sup* — running (claude, declared) · conversation 1234abcd',
    ],
    [
      'stopped',
      view({ status: 'stopped', tmux: 'absent', source: 'created' }),
      '• *sup* — stopped (claude, created)',
    ],
    [
      'stopped with a dead pane',
      view({ status: 'stopped', tmux: 'dead' }),
      '• *sup* — stopped (claude, declared) · tmux: pane dead (the harness exited)',
    ],
    [
      'tmux not answering',
      view({ status: 'stopped', tmux: 'unknown' }),
      '• *sup* — stopped (claude, declared) · tmux: unknown (tmux gave no answer)',
    ],
    ['a harness name with <', view({ harness: 'a<b' }), '• *sup* — running (a&lt;b, declared)'],
  ])('%s', (_name, session, expected) => {
    expect(formatSessionLine(session)).toBe(expected);
  });
});

describe('formatStatusReply', () => {
  it('names every field a person asks about', () => {
    const reply = formatStatusReply(
      view({
        description: 'watches\nthe work',
        conversationId: 'c0ffee',
        startedAt: '2026-01-02T03:04:05.678Z',
        stoppedAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    expect(reply).toBe(
      [
        '*sup* is running — watches the work',
        '• agent: idle',
        '• tmux: pane live',
        '• harness: `claude` (declared)',
        '• folder: `/work/repo`',
        '• conversation: `c0ffee`',
        '• started: <!date^1767323045^{date_short_pretty} {time}|2026-01-02T03:04:05Z>',
        '• starts with the bot: yes',
      ].join('\n'),
    );
  });

  it('shows when a stopped session stopped', () => {
    const reply = formatStatusReply(
      view({
        status: 'stopped',
        tmux: 'absent',
        autoStart: false,
        stoppedAt: '2026-01-01T00:00:00Z',
      }),
    );
    expect(reply).toContain('*sup* is stopped\n');
    expect(reply).toContain('• tmux: no tmux session');
    expect(reply).toContain(
      '• stopped: <!date^1767225600^{date_short_pretty} {time}|2026-01-01T00:00:00Z>',
    );
    expect(reply).toContain('• starts with the bot: no');
  });

  it('escapes what came from people and keeps a backtick from ending a code span', () => {
    const reply = formatStatusReply(
      view({ cwd: '/a`b<c', description: '<!channel> & co', startedAt: 'soon' }),
    );
    expect(reply).toContain('• folder: /a`b&lt;c');
    expect(reply).toContain('— &lt;!channel&gt; &amp; co');
    expect(reply).toContain('• started: soon');
    expect(reply).not.toMatch(/<!channel>/);
  });
});
