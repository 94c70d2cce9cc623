import { standingRef } from '../refs.js';
import type { PaneState } from '../tmux/tmux-driver.js';
import type {
  StandingDefinition,
  StandingRecord,
  StandingSource,
  StandingView,
} from './standing-types.js';

/** The public face of a session: definition, record and tmux state; never the session token. */
export function toStandingView(
  definition: StandingDefinition,
  source: StandingSource,
  record: StandingRecord | undefined,
  tmux: PaneState,
  defaultChannel: string,
): StandingView {
  const channel =
    definition.slack === false ? undefined : definition.slack.channel || defaultChannel;
  const slack = record?.slack ?? (channel ? { channel } : undefined);
  return {
    name: definition.name,
    ref: standingRef(definition.name),
    source,
    description: definition.description,
    harness: definition.harness,
    cwd: definition.cwd,
    autoStart: definition.autoStart,
    status: record?.status === 'running' && tmux === 'live' ? 'running' : 'stopped',
    tmux,
    ...(record?.conversationId ? { conversationId: record.conversationId } : {}),
    ...(record?.hooksVersion ? { hooksVersion: record.hooksVersion } : {}),
    ...(record?.createdAt ? { createdAt: record.createdAt } : {}),
    ...(record?.startedAt ? { startedAt: record.startedAt } : {}),
    ...(record?.stoppedAt ? { stoppedAt: record.stoppedAt } : {}),
    ...(slack ? { slack } : {}),
  };
}
