import type { DecideResult } from './create-permission-registry.js';
import type { PermissionOutcome } from './permission-types.js';

/**
 * Deciding, as people meet it (docs/design.md §14): who may decide, and the words for an outcome
 * and for a try to decide, the same on every surface.
 */

export const surfaceNames = {
  slack: 'Slack',
  github: 'GitHub',
  cli: 'the command line',
  dashboard: 'the dashboard',
} as const;

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

/**
 * What a person is told after trying to decide (the same words on every surface): done, unknown,
 * no "always" on offer, or already decided by someone else — the first decision wins.
 */
export function decisionReply(result: DecideResult, id: string): { ok: boolean; text: string } {
  switch (result.kind) {
    case 'decided':
      return { ok: true, text: `${id}: done` };
    case 'unknown':
      return {
        ok: false,
        text: `no open permission request ${id} on this instance; \`the-loop permissions\` lists them`,
      };
    case 'no-always':
      return {
        ok: false,
        text: `${id} cannot be allowed always: Claude Code offered no rule to save; allow or deny it`,
      };
    case 'already':
      return { ok: false, text: `${id} was already ${describeOutcome(result.outcome)}` };
  }
}

/**
 * Whether someone may answer a permission request (docs/design.md §14): only the surface's approvers, an
 * empty list meaning nobody. Slack ids compare exactly; GitHub logins ignore case, as GitHub does.
 */
export function mayDecide(
  surface: 'slack' | 'github',
  approvers: readonly string[],
  who: string,
): boolean {
  if (who === '') return false;
  return surface === 'github'
    ? approvers.some((login) => login.toLowerCase() === who.toLowerCase())
    : approvers.includes(who);
}
