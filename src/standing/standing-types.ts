// A standing session as the-loop keeps it: its definition, its record on disk and the guard that
// recognises one, and the view people are shown.
import type { StandingSessionConfig } from '../config/types.js';
import type { AgentState } from '../delivery/agent-state-machine.js';
import { type SessionStatus, shownStatus } from '../sessions/session-status.js';
import type { PaneState, SessionInfo } from '../tmux/tmux-driver.js';
import { isValidName, standingRef } from '../refs.js';
import { isRecord } from '../guards.js';

export type StandingSource = 'declared' | 'created';

/**
 * How a session is shown: `undeclared` is a session recorded as declared whose name the config
 * no longer declares (a reload removed it while it ran). It can be stopped, which forgets it, or
 * deleted; it is not started again (docs/standing-sessions.md).
 */
export type ShownSource = StandingSource | 'undeclared';
export type StandingStatus = SessionStatus;

/**
 * What a standing session is: from the config (declared) or from a create (created). One shape
 * for both, so every verb treats them alike.
 */
export type StandingDefinition = StandingSessionConfig;

/** The Slack thread a standing session was announced in, kept on its record (its binding holds the ref). */
export interface StandingSlackThread {
  readonly channel: string;
  readonly threadTs: string;
}

/** `<root>/standing/<name>.json`. */
export interface StandingRecord {
  readonly version: 1;
  readonly name: string;
  readonly source: StandingSource;
  readonly definition: StandingDefinition;
  readonly status: StandingStatus;
  readonly conversationId?: string;
  /** Lets the session's `the-loop post` and hooks speak as this session only. */
  readonly sessionToken?: string;
  /** The hooks the running harness was started with (claude); see needsRestart. */
  readonly hooksVersion?: string;
  readonly createdAt: string;
  readonly startedAt?: string;
  readonly stoppedAt?: string;
  /** Set when the harness ended by itself (status `exited`). */
  readonly exitStatus?: number;
  readonly exitedAt?: string;
  readonly slack?: StandingSlackThread;
}

/** What the API and CLI show; never the session token. */
export interface StandingView {
  readonly name: string;
  readonly ref: string;
  readonly source: ShownSource;
  readonly description: string;
  readonly harness: string;
  readonly cwd: string;
  readonly autoStart: boolean;
  readonly status: StandingStatus;
  readonly exitStatus?: number;
  /** What its agent is doing (docs/design.md §13); null when the session is not running. */
  readonly agentState: AgentState | null;
  readonly tmux: PaneState;
  readonly conversationId?: string;
  readonly hooksVersion?: string;
  readonly createdAt?: string;
  readonly startedAt?: string;
  readonly stoppedAt?: string;
  readonly slack?: { readonly channel: string; readonly threadTs?: string };
}

export type { StartOutcome } from '../sessions/session-lifecycle.js';

/** Shape check for records read from disk; a file that fails it is skipped as corrupt. */
export function isStandingRecord(value: unknown): value is StandingRecord {
  if (!isRecord(value)) return false;
  const definition = value['definition'];
  return (
    value['version'] === 1 &&
    isValidName(value['name']) &&
    (value['source'] === 'declared' || value['source'] === 'created') &&
    (value['status'] === 'running' ||
      value['status'] === 'stopped' ||
      value['status'] === 'exited') &&
    (value['exitStatus'] === undefined || Number.isInteger(value['exitStatus'])) &&
    typeof value['createdAt'] === 'string' &&
    optionalString(value['conversationId']) &&
    optionalString(value['sessionToken']) &&
    isRecord(definition) &&
    definition['name'] === value['name'] &&
    typeof definition['harness'] === 'string' &&
    typeof definition['cwd'] === 'string' &&
    typeof definition['description'] === 'string' &&
    typeof definition['autoStart'] === 'boolean' &&
    Array.isArray(definition['args']) &&
    (definition['slack'] === false || isRecord(definition['slack']))
  );
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** The public face of a session: definition, record and tmux state; never the session token. */
export function toStandingView(
  definition: StandingDefinition,
  source: ShownSource,
  record: StandingRecord | undefined,
  tmux: Pick<SessionInfo, 'state' | 'deadStatus'>,
  defaultChannel: string,
  agentState?: AgentState,
): StandingView {
  const channel =
    definition.slack === false ? undefined : definition.slack.channel || defaultChannel;
  const slack = record?.slack ?? (channel ? { channel } : undefined);
  const shown = shownStatus(record, tmux);
  return {
    name: definition.name,
    ref: standingRef(definition.name),
    source,
    description: definition.description,
    harness: definition.harness,
    cwd: definition.cwd,
    autoStart: definition.autoStart,
    ...shown,
    agentState:
      shown.status === 'running'
        ? (agentState ?? 'idle')
        : shown.status === 'exited'
          ? 'exited'
          : null,
    tmux: tmux.state,
    ...(record?.conversationId ? { conversationId: record.conversationId } : {}),
    ...(record?.hooksVersion ? { hooksVersion: record.hooksVersion } : {}),
    ...(record?.createdAt ? { createdAt: record.createdAt } : {}),
    ...(record?.startedAt ? { startedAt: record.startedAt } : {}),
    ...(record?.stoppedAt ? { stoppedAt: record.stoppedAt } : {}),
    ...(slack ? { slack } : {}),
  };
}
