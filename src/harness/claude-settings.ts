/** The hooks the-loop installs in Claude Code (DESIGN §8). */
export const claudeHookEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'Notification',
  'PermissionRequest',
] as const;
export type ClaudeHookEvent = (typeof claudeHookEvents)[number];

const defaultPermissionTimeoutSeconds = 600;
/** serve answers "no decision" at its timeout; the margin lets that answer reach Claude Code. */
export const permissionTimeoutMarginSeconds = 15;

/**
 * Claude Code runs hook commands through a shell, so each argv element is single-quoted. The hook
 * command itself never fails the agent: `the-loop hook` exits 0 whatever happens.
 */
export function claudeSettings(
  loopCommand: readonly string[],
  options: { readonly permissionTimeoutSeconds?: number } = {},
): Record<string, unknown> {
  const base = loopCommand.map(shellQuote).join(' ');
  // PermissionRequest is the one hook that blocks (DESIGN §17): it waits for a decision up to
  // permissions.timeoutSeconds, so Claude Code must give it a little longer than that.
  const timeout = (event: ClaudeHookEvent): number =>
    event === 'PermissionRequest'
      ? (options.permissionTimeoutSeconds ?? defaultPermissionTimeoutSeconds) +
        permissionTimeoutMarginSeconds
      : 5;
  const hooks = Object.fromEntries(
    claudeHookEvents.map((event) => [
      event,
      [
        {
          matcher: '',
          hooks: [{ type: 'command', command: `${base} hook ${event}`, timeout: timeout(event) }],
        },
      ],
    ]),
  );
  return { hooks };
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
