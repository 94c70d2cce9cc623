import type { PermissionOutcome } from './permission-types.js';

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
