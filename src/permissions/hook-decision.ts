import { surfaceNames } from './describe-outcome.js';
import type { PermissionOutcome, PermissionRequest } from './permission-types.js';

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
