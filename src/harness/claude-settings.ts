/** The hooks the-loop installs in Claude Code (DESIGN §8). */
export const claudeHookEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'Notification',
  // Progress in the session's Slack thread (DESIGN §15).
  'PreToolUse',
  'PostToolUse',
] as const;
export type ClaudeHookEvent = (typeof claudeHookEvents)[number];

/**
 * Claude Code runs hook commands through a shell, so each argv element is single-quoted. The hook
 * command itself never fails the agent: `the-loop hook` exits 0 whatever happens.
 */
export function claudeSettings(loopCommand: readonly string[]): Record<string, unknown> {
  const base = loopCommand.map(shellQuote).join(' ');
  const hooks = Object.fromEntries(
    claudeHookEvents.map((event) => [
      event,
      [{ matcher: '', hooks: [{ type: 'command', command: `${base} hook ${event}`, timeout: 5 }] }],
    ]),
  );
  return { hooks };
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
