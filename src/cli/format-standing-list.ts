import type { StandingView } from '../standing/standing-types.js';
import { formatColumns } from './format-columns.js';

/** `the-loop standing list`: one row a session, or a line saying how to get one. */
export function formatStandingList(sessions: readonly StandingView[]): string {
  if (sessions.length === 0) {
    return (
      'no standing sessions: create one with `the-loop standing create NAME`, or declare one ' +
      'under standing.sessions in the config'
    );
  }
  return formatColumns([
    ['NAME', 'SOURCE', 'STATUS', 'STATE', 'TMUX', 'HARNESS', 'AUTO', 'CWD'],
    ...sessions.map((session) => [
      session.name,
      session.source,
      session.exitStatus === undefined
        ? session.status
        : `${session.status} (${session.exitStatus})`,
      session.agentState ?? '-',
      session.tmux,
      session.harness,
      session.autoStart ? 'yes' : 'no',
      session.cwd,
    ]),
  ]);
}
