import { describe, expect, it } from 'vitest';
import type { StatusReport } from '../../../src/api/routes/status-routes.js';
import { formatStatus } from '../../../src/cli/format-status.js';
import { standingView } from './standing-view-fixture.js';

const report = (overrides: Partial<StatusReport> = {}): StatusReport => ({
  ok: true,
  instance: { name: '', scopeMode: 'open', warnings: [] },
  services: [
    { name: 'control', state: 'ok', detail: '/s/control.sock' },
    { name: 'slack', state: 'off', detail: 'set SLACK_BOT_TOKEN' },
  ],
  sessions: [standingView()],
  problems: [],
  ...overrides,
});

describe('formatStatus', () => {
  it('starts with the instance line and ends with ok', () => {
    const lines = formatStatus(report()).split('\n');
    expect(lines[0]).toBe('instance: (unnamed) · scope open');
    expect(lines).toContain('  control  ok   /s/control.sock');
    expect(lines).toContain('  NAME  SOURCE    STATUS   STATE  TMUX  HARNESS  AUTO  CWD');
    expect(lines.at(-1)).toBe('ok');
    expect(lines).not.toContain('problems:');
  });

  it('lists the problems, the warnings and the count when not ok', () => {
    const text = formatStatus(
      report({
        ok: false,
        instance: {
          name: 'laptop-b',
          scopeMode: 'locked',
          warnings: ['instance.scope.mode is wrong'],
        },
        problems: ['auto-start session `demo` is not running', 'tmux: no server'],
      }),
    );
    expect(text).toContain(
      'instance: laptop-b · scope locked\n  warning: instance.scope.mode is wrong',
    );
    expect(text).toContain(
      'problems:\n  - auto-start session `demo` is not running\n  - tmux: no server',
    );
    expect(text.endsWith('not ok (2 problems)')).toBe(true);
  });
});
