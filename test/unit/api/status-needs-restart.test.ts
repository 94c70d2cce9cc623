import { describe, expect, it } from 'vitest';
import { summarizeStatus } from '../../../src/api/routes/status-routes.js';
import { resolveConfig } from '../../../src/config/resolve-config.js';
import { claudeHooksVersion } from '../../../src/harness/claude-settings.js';
import { standingView } from '../cli/standing-view-fixture.js';

const config = resolveConfig({}, '/home/dana/.the-loop/config.yaml');

describe('status: sessions on the hooks of an older the-loop', () => {
  it('names each running claude session whose hooks are not the current ones, with the remedy', () => {
    const report = summarizeStatus(
      config,
      [],
      [
        standingView({ name: 'old', harness: 'claude' }),
        standingView({ name: 'other', harness: 'claude', hooksVersion: 'abc123abc123' }),
        standingView({ name: 'fresh', harness: 'claude', hooksVersion: claudeHooksVersion() }),
        standingView({ name: 'plain', harness: 'shell' }),
        standingView({
          name: 'down',
          harness: 'claude',
          status: 'stopped',
          tmux: 'absent',
          autoStart: false,
        }),
      ],
    );
    expect(report.problems).toEqual([
      'session `old` runs the hooks of an older the-loop — run `the-loop standing restart old`',
      'session `other` runs the hooks of an older the-loop — run `the-loop standing restart other`',
    ]);
    expect(report.ok).toBe(false);
  });
});
