import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentStates } from '../../../src/delivery/agent-states.js';
import { standingBootDirective } from '../../../src/harness/boot-directive.js';
import { formatStandingView } from '../../../src/cli/format.js';
import { notificationNotice } from '../../../src/replies/notification-notice.js';
import { startDialogNotice } from '../../../src/replies/start-dialog-notice.js';
import { standingMessages } from '../../../src/standing/standing-messages.js';
import {
  tmuxAttachCommand,
  tmuxKillCommand,
  tmuxServerCommand,
} from '../../../src/tmux/attach-command.js';
import { workItemBootDirective } from '../../../src/workitems/workitem-boot-directive.js';
import { workItemMessages } from '../../../src/workitems/workitem-messages.js';
import { slackConfig } from '../../helpers/slack-config.js';
import { standingView } from '../cli/standing-view-fixture.js';

const srcRoot = path.resolve(import.meta.dirname, '../../../src');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return Promise.resolve(entry.name.endsWith('.ts') ? [full] : []);
    }),
  );
  return nested.flat();
}

describe('the tmux attach command (docs/design.md §17)', () => {
  it('names the private server with -L when tmux.socket is set, and only then', () => {
    expect(tmuxAttachCommand('loop-standing-a', '')).toBe("tmux attach -t '=loop-standing-a'");
    expect(tmuxAttachCommand('loop-standing-a', undefined, { readOnly: true })).toBe(
      "tmux attach -r -t '=loop-standing-a'",
    );
    expect(tmuxAttachCommand('loop-standing-a', 'work')).toBe(
      "tmux -L work attach -t '=loop-standing-a'",
    );
    expect(tmuxKillCommand('loop-standing-a', 'work')).toBe(
      "tmux -L work kill-session -t '=loop-standing-a'",
    );
    expect(tmuxServerCommand('odd name')).toBe("tmux -L 'odd name'");
  });

  it('is the one place in src/ that spells a tmux attach or kill-session line', async () => {
    const helper = path.join(srcRoot, 'tmux', 'attach-command.ts');
    const spelled = /tmux (-L \S+ )?(attach|kill-session)\b|attach( -r)? -t '=/;
    const offenders: string[] = [];
    for (const file of await sourceFiles(srcRoot)) {
      if (file === helper) continue;
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        // Comments may name the command; only code builds what people read.
        if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) return;
        if (spelled.test(line)) offenders.push(`${path.relative(srcRoot, file)}:${index + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('every user-facing text that names tmux attach carries -L <socket>', async () => {
    const socket = 'work';
    const want = 'tmux -L work attach';
    const texts = [
      standingBootDirective({
        name: 'a',
        tmuxName: 'loop-standing-a',
        instance: '',
        slackThread: false,
        tmuxSocket: socket,
      }),
      workItemBootDirective({
        ref: 'gh:o/r#1',
        url: 'https://github.com/o/r/issues/1',
        tmuxName: 'loop-gh-o-r-1',
        instance: '',
        slackThread: false,
        tmuxSocket: socket,
      }),
      standingMessages.foreign('a', socket),
      standingMessages.unrecorded('a', socket),
      workItemMessages(slackConfig({ tmux: { socket } })).foreign('loop-gh-o-r-1'),
      startDialogNotice('trust', { tmuxName: 'loop-standing-a', tmuxSocket: socket }),
      notificationNotice(
        { notification_type: 'elicitation_dialog', message: 'pick one' },
        { tmuxName: 'loop-standing-a', permissionRequestOpen: false, tmuxSocket: socket },
      ) ?? '',
      formatStandingView(standingView(), socket),
    ];
    for (const text of texts) {
      expect(text).toContain(want);
      expect(text).not.toMatch(/`tmux attach/);
    }
    expect(standingMessages.foreign('a', socket)).toContain(
      "tmux -L work kill-session -t '=loop-standing-a'",
    );
  });

  it('the agent-state refusal of a session that never became ready names the socket', async () => {
    const states = createAgentStates({ tmuxSocket: 'work' });
    states.spawned('loop-standing-a');
    await expect(
      states.waitUntilTypeable('loop-standing-a', { startingTimeoutMs: 10 }),
    ).rejects.toThrow("tmux -L work attach -r -t '=loop-standing-a'");
  });
});
