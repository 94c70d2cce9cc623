import { standingTarget } from '../refs.js';
import type { StandingView } from '../standing/standing-types.js';
import { formatColumns } from './format-columns.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';

/** `the-loop standing get NAME`: every field, then how to look at the pane. */
export function formatStandingView(session: StandingView, tmuxSocket: string): string {
  const rows: [string, string | undefined][] = [
    ['name', session.name],
    ['ref', session.ref],
    ['source', session.source],
    ['status', session.status],
    ['tmux', session.tmux],
    // `blocked`: a dialog or a screen the-loop cannot read waits for a person (§13).
    ['agent', session.agentState ?? undefined],
    ['harness', session.harness],
    ['cwd', session.cwd],
    ['auto-start', session.autoStart ? 'yes' : 'no'],
    ['description', session.description || undefined],
    ['conversation', session.conversationId],
    ['created', session.createdAt],
    ['started', session.startedAt],
    ['stopped', session.stoppedAt],
    ['slack', session.slack ? slackLine(session.slack) : 'no thread'],
    [
      'attach',
      session.tmux === 'live'
        ? tmuxAttachCommand(standingTarget(session.name), tmuxSocket)
        : undefined,
    ],
  ];
  return formatColumns(
    rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== ''),
  );
}

function slackLine(slack: NonNullable<StandingView['slack']>): string {
  const channel = slack.channel === '' ? 'slack.channel' : slack.channel;
  return slack.threadTs ? `${channel}, thread ${slack.threadTs}` : `${channel} (not announced yet)`;
}
