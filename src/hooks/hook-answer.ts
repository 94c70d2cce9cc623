import { surfaceNames } from '../permissions/decisions.js';
import type { PermissionOutcome, PermissionRequest } from '../permissions/permission-types.js';

/**
 * The answer Claude Code reads: what a hook prints on stdout. The hook table's handlers return
 * serve's whole result; only Claude Code's own fields of it go back (docs/design.md §8, §14).
 */

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

/**
 * The JSON Claude Code reads on a PermissionRequest hook's stdout. Allow; allow always hands back
 * the suggestions the approver was shown as applied (docs/design.md §18), as `updatedPermissions`; deny carries a message the model reads. No
 * decision (expired) is an empty object: Claude Code then keeps its own dialog in the terminal.
 */
export function hookDecision(
  request: PermissionRequest,
  outcome: PermissionOutcome,
): Record<string, unknown> {
  if (outcome.kind === 'expired') return {};
  const decision =
    outcome.verdict === 'deny'
      ? { behavior: 'deny', message: denialMessage(outcome) }
      : outcome.verdict === 'allow-always' && request.alwaysApply.length > 0
        ? { behavior: 'allow', updatedPermissions: request.alwaysApply }
        : { behavior: 'allow' };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

function denialMessage(outcome: Extract<PermissionOutcome, { kind: 'decided' }>): string {
  const by = `${outcome.decider.name} from ${surfaceNames[outcome.decider.surface]}`;
  return outcome.reason ? `Denied by ${by}: ${outcome.reason}` : `Denied by ${by}.`;
}
