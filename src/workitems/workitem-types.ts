import type { AgentState } from '../delivery/agent-state-machine.js';
import type { WorkItemRef } from '../refs.js';
import type { SessionStatus } from '../sessions/session-status.js';
import type { PaneState } from '../tmux/tmux-driver.js';

/** `<root>/workitems/<slug>.json`: one work item's session, started by this instance. */
export interface WorkItemRecord {
  readonly version: 1;
  readonly ref: string;
  readonly item: WorkItemRef;
  /** The instance that recorded the start (its name, "" when unnamed). */
  readonly instance: string;
  readonly status: SessionStatus;
  /** Set when the harness ended by itself (status `exited`). */
  readonly exitStatus?: number;
  readonly exitedAt?: string;
  readonly harness: string;
  readonly cwd: string;
  readonly startedBy: string;
  readonly conversationId?: string;
  readonly sessionToken?: string;
  /** The hooks the running harness was started with (claude); see needsRestart. */
  readonly hooksVersion?: string;
  readonly startedAt: string;
  readonly stoppedAt?: string;
}

export interface WorkItemView {
  readonly ref: string;
  readonly status: SessionStatus;
  readonly exitStatus?: number;
  /** docs/design.md §13; null when the session is not running. */
  readonly agentState: AgentState | null;
  readonly tmux: PaneState;
  readonly instance: string;
  readonly startedBy: string;
  readonly conversationId?: string;
  readonly startedAt: string;
  readonly stoppedAt?: string;
}

export function isWorkItemRecord(value: unknown): value is WorkItemRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const item = record['item'] as Record<string, unknown> | undefined;
  return (
    record['version'] === 1 &&
    typeof record['ref'] === 'string' &&
    typeof item === 'object' &&
    item !== null &&
    typeof item['owner'] === 'string' &&
    typeof item['repo'] === 'string' &&
    typeof item['host'] === 'string' &&
    typeof item['number'] === 'number' &&
    typeof record['instance'] === 'string' &&
    (record['status'] === 'running' ||
      record['status'] === 'stopped' ||
      record['status'] === 'exited') &&
    (record['exitStatus'] === undefined || Number.isInteger(record['exitStatus'])) &&
    typeof record['harness'] === 'string' &&
    typeof record['cwd'] === 'string' &&
    typeof record['startedBy'] === 'string' &&
    typeof record['startedAt'] === 'string'
  );
}
