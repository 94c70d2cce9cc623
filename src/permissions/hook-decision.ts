import type { PermissionOutcome, PermissionRequest } from './permission-types.js';

const surfaceNames = { slack: 'Slack', github: 'GitHub', cli: 'the command line' } as const;

/**
 * The JSON Claude Code reads on a PermissionRequest hook's stdout. Allow; allow always hands back
 * Claude's own suggestions as `updatedPermissions`; deny carries a message the model reads. No
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
      : outcome.verdict === 'allow-always' && request.suggestions.length > 0
        ? { behavior: 'allow', updatedPermissions: request.suggestions }
        : { behavior: 'allow' };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}

function denialMessage(outcome: Extract<PermissionOutcome, { kind: 'decided' }>): string {
  const by = `${outcome.decider.name} from ${surfaceNames[outcome.decider.surface]}`;
  return outcome.reason ? `Denied by ${by}: ${outcome.reason}` : `Denied by ${by}.`;
}

/** How the outcome reads to people: "denied by @dana from Slack at 10:02 UTC". */
export function describeOutcome(outcome: PermissionOutcome): string {
  const at = `${outcome.at.slice(11, 16)} UTC`;
  if (outcome.kind === 'expired') {
    const why = {
      timeout: 'expired — answer in the terminal',
      restart: 'expired: the-loop restarted — answer in the terminal',
      terminal: 'answered in the terminal',
      stopped: 'ended: the session stopped',
    }[outcome.reason];
    return `${why} (${at})`;
  }
  const verb = { allow: 'allowed', 'allow-always': 'allowed always', deny: 'denied' }[
    outcome.verdict
  ];
  const reason = outcome.reason ? `: ${outcome.reason}` : '';
  return `${verb} by ${outcome.decider.name} from ${surfaceNames[outcome.decider.surface]} at ${at}${reason}`;
}
