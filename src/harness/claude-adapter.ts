import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ensurePrivateDir } from '../state/ensure-private-dir.js';
import { writeFileAtomic } from '../state/write-file-atomic.js';
import type { HarnessAdapter, LaunchContext } from './harness-adapter.js';
import { claudeHookTable, claudeHooksVersion, claudeSettings } from './claude-settings.js';
import { allowMcpTools, claudeMcpConfig } from './claude-mcp.js';
import { readClaudeScreen } from './claude-screen.js';
import { createHelpReader, permissionModeArgument } from './claude-permission-mode.js';

/**
 * Claude Code: a fresh conversation gets `--session-id <uuid>` so the-loop knows the id before the
 * process says anything; a known one gets `--resume <id>`. Hooks come from a settings file written
 * next to the session's state, so they survive in the harness without touching the user's config.
 */
export function createClaudeAdapter(
  options: {
    newId?: () => string;
    permissionTimeoutSeconds?: number;
    /** `<state.root>/files`: each session may read the files people sent it from its folder here. */
    filesRoot?: string;
    /** Reads `<command> --help`, to name `ask` as the installed Claude Code does (§23). */
    readHelp?: (command: string, args: readonly string[]) => Promise<string>;
  } = {},
): HarnessAdapter {
  const newId = options.newId ?? randomUUID;
  const hooks = claudeHookTable(options.permissionTimeoutSeconds);
  const readHelp = options.readHelp ?? createHelpReader();
  return {
    kind: 'claude',
    async plan(context: LaunchContext) {
      const settingsPath = path.join(context.harnessDir, `${context.tmuxName}.settings.json`);
      const filesDir =
        options.filesRoot === undefined
          ? undefined
          : path.join(options.filesRoot, context.tmuxName);
      // Claude Code reads only under its cwd and added directories; files from Slack land here.
      // The folder goes in the settings, not `--add-dir`: that opens a trust dialog on 2.1.332
      // (docs/design.md §23), and nothing but the-loop's own folder is trusted on anyone's behalf.
      if (filesDir !== undefined) await ensurePrivateDir(filesDir);
      const settings = claudeSettings(context.loopCommand, hooks, filesDir ? [filesDir] : []);
      // the-loop's MCP server (docs/design.md §20), unless `harnesses.<name>.mcp: false`.
      const mcp = context.harness.mcp !== false;
      const mcpPath = path.join(context.harnessDir, `${context.tmuxName}.mcp.json`);
      if (mcp) {
        const loopBin = context.loopCommand.at(-1) ?? 'the-loop';
        await writeFileAtomic(mcpPath, `${JSON.stringify(claudeMcpConfig(loopBin), null, 2)}\n`);
      }
      await writeFileAtomic(
        settingsPath,
        `${JSON.stringify(mcp ? allowMcpTools(settings) : settings, null, 2)}\n`,
      );
      const mode = context.harness.permissionMode;
      const modeArgs =
        mode === undefined
          ? []
          : [
              '--permission-mode',
              permissionModeArgument(
                mode,
                mode === 'ask' ? await readHelp(context.harness.command, context.harness.args) : '',
              ),
            ];
      const resuming = context.conversationId !== undefined;
      const conversationId = context.conversationId ?? newId();
      return {
        argv: [
          context.harness.command,
          ...context.harness.args,
          // After the harness's own args: a harness may wrap Claude Code (`env … claude`).
          ...modeArgs,
          ...context.args,
          ...(resuming ? ['--resume', conversationId] : ['--session-id', conversationId]),
          // Claude Code's --mcp-config takes several values: a flag must follow it.
          ...(mcp ? ['--mcp-config', mcpPath] : []),
          '--settings',
          settingsPath,
        ],
        conversationId,
        resuming,
        readiness: { kind: 'hook', startDialogs: readClaudeScreen },
        confirms: true,
        hooksVersion: claudeHooksVersion(hooks),
      };
    },
  };
}
