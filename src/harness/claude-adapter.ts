import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { writeFileAtomic } from '../state/write-file-atomic.js';
import type { HarnessAdapter, LaunchContext } from './harness-adapter.js';
import { claudeHooksVersion, claudeSettings } from './claude-settings.js';
import { readClaudeScreen } from './claude-screen.js';

/**
 * Claude Code: a fresh conversation gets `--session-id <uuid>` so the-loop knows the id before the
 * process says anything; a known one gets `--resume <id>`. Hooks come from a settings file written
 * next to the session's state, so they survive in the harness without touching the user's config.
 */
export function createClaudeAdapter(options: { newId?: () => string } = {}): HarnessAdapter {
  const newId = options.newId ?? randomUUID;
  return {
    kind: 'claude',
    async plan(context: LaunchContext) {
      const settingsPath = path.join(context.harnessDir, `${context.tmuxName}.settings.json`);
      await writeFileAtomic(
        settingsPath,
        `${JSON.stringify(claudeSettings(context.loopCommand), null, 2)}\n`,
      );
      const resuming = context.conversationId !== undefined;
      const conversationId = context.conversationId ?? newId();
      return {
        argv: [
          context.harness.command,
          ...context.harness.args,
          ...context.args,
          ...(resuming ? ['--resume', conversationId] : ['--session-id', conversationId]),
          '--settings',
          settingsPath,
        ],
        conversationId,
        resuming,
        readiness: { kind: 'hook', startDialogs: readClaudeScreen },
        confirms: true,
        hooksVersion: claudeHooksVersion(),
      };
    },
  };
}
