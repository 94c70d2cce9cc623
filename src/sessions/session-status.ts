import type { SessionInfo } from '../tmux/tmux-driver.js';

export type SessionStatus = 'running' | 'stopped' | 'exited';

/** What a record last said about its session. */
export interface RecordedStatus {
  readonly status: SessionStatus;
  readonly exitStatus?: number;
}

export interface ShownStatus {
  readonly status: SessionStatus;
  readonly exitStatus?: number;
}

/**
 * The status people see, from the record and what tmux shows under the session's name (docs/design.md
 * §17). A dead pane of ours is an exit, whatever the record still says; when tmux gives no answer
 * the record's word stands, because "stopped" would be a guess.
 */
export function shownStatus(
  record: RecordedStatus | undefined,
  tmux: Pick<SessionInfo, 'state' | 'deadStatus'>,
): ShownStatus {
  const recorded = record?.status ?? 'stopped';
  switch (tmux.state) {
    case 'live':
      return { status: recorded === 'running' ? 'running' : 'stopped' };
    case 'dead':
      if (recorded === 'stopped') return { status: 'stopped' };
      return withExit('exited', tmux.deadStatus ?? record?.exitStatus);
    case 'unknown':
      return recorded === 'exited' ? withExit('exited', record?.exitStatus) : { status: recorded };
    case 'absent':
      return recorded === 'exited' ? withExit('exited', record?.exitStatus) : { status: 'stopped' };
  }
}

function withExit(status: 'exited', exitStatus: number | undefined): ShownStatus {
  return exitStatus === undefined ? { status } : { status, exitStatus };
}

/** How a session's exit reads, e.g. "has exited (status 1)". */
export function describeExit(exitStatus: number | undefined): string {
  return exitStatus === undefined ? 'has exited' : `has exited (status ${exitStatus})`;
}
