/** The top-level fields of a Claude Code hook's JSON output; anything else is the-loop's own. */
const claudeOutputKeys = [
  'continue',
  'stopReason',
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'hookSpecificOutput',
] as const;

/**
 * What a hook prints for Claude Code, from what serve's hook handler returned. The hook prints
 * serve's answer as it is, and Claude Code reads a hook's stdout as instructions (for SessionStart
 * and UserPromptSubmit, text that is not its JSON even becomes part of the prompt), so only its
 * own fields may go back; nothing left means no answer at all (HTTP 204, and the hook prints nothing).
 */
export function claudeHookAnswer(result: unknown): Record<string, unknown> | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const source = result as Record<string, unknown>;
  const answer = Object.fromEntries(
    claudeOutputKeys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]),
  );
  return Object.keys(answer).length > 0 ? answer : undefined;
}
