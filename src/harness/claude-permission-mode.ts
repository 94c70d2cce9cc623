import { execFile } from 'node:child_process';
import type { ClaudePermissionMode } from '../config/types.js';

/**
 * The `--permission-mode` value for a configured mode (docs/design.md §23). `ask` — every tool
 * call asks — is `default` up to 2.1.x releases that renamed it `manual` (2.1.332 did); which one
 * the installed Claude Code knows is read from its `--help`. The others keep their names.
 * `bypassPermissions` and `dontAsk` are never produced: the config cannot name them.
 */
export function permissionModeArgument(mode: ClaudePermissionMode, helpText: string): string {
  if (mode !== 'ask') return mode;
  return /"manual"/.test(helpText) ? 'manual' : 'default';
}

/**
 * Reads `<command> <harness args…> --help` once per command line (a harness may wrap Claude Code,
 * e.g. `env NAME=value claude`): Claude Code prints its choices of `--permission-mode` there. An
 * unreadable help counts as "" (the older name, `default`).
 */
export function createHelpReader(
  env: NodeJS.ProcessEnv = process.env,
): (command: string, args: readonly string[]) => Promise<string> {
  const cache = new Map<string, Promise<string>>();
  return (command, args) => {
    const key = JSON.stringify([command, ...args]);
    let help = cache.get(key);
    if (help === undefined) {
      help = new Promise((resolve) => {
        execFile(
          command,
          [...args, '--help'],
          {
            env: {
              ...env,
              DISABLE_AUTOUPDATER: '1',
              CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            },
            timeout: 15_000,
          },
          (error, stdout) => resolve(error === null ? stdout : ''),
        );
      });
      cache.set(key, help);
    }
    return help;
  };
}
