import type { StandingSessionConfig } from '../config/types.js';
import type { AgentState } from '../delivery/agent-state.js';
import type { SessionStatus } from '../sessions/session-status.js';
import type { PaneState } from '../tmux/tmux-driver.js';

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

export interface SlackBinding {
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
  readonly slack?: SlackBinding;
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
