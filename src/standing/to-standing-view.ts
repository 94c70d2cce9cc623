import { standingRef } from '../refs.js';
import type { AgentState } from '../delivery/agent-state.js';
import { shownStatus } from '../sessions/session-status.js';
import type { SessionInfo } from '../tmux/tmux-driver.js';
import type {
  ShownSource,
  StandingDefinition,
  StandingRecord,
  StandingView,
} from './standing-types.js';

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
