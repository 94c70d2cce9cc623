import type { StandingView } from '../../standing/standing-types.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';

/**
 * One line per session for `/loop list` and `/loop status`, as Slack mrkdwn:
 * `• *sup* — running (claude, declared) · conversation 1234abcd`.
 */
export function formatSessionLine(view: StandingView): string {
  const pieces = [`• *${view.name}* — ${view.status} (${view.harness}, ${view.source})`];
  const note = tmuxNote(view);
  if (note) pieces.push(note);
  if (view.conversationId) pieces.push(`conversation ${view.conversationId.slice(0, 8)}`);
  return escapeMrkdwn(pieces.join(' · '));
}

/** `!status` in a session's thread: every field a person asks about, one a line, as mrkdwn. */
export function formatStatusReply(view: StandingView): string {
  const about = view.description ? ` — ${escapeMrkdwn(view.description.replace(/\s+/g, ' '))}` : '';
  const lines = [
    `*${escapeMrkdwn(view.name)}* is ${view.status}${view.exitStatus === undefined ? '' : ` (status ${view.exitStatus})`}${about}`,
    ...(view.agentState && view.agentState !== 'exited' ? [`• agent: ${view.agentState}`] : []),
    `• tmux: ${tmuxState(view)}`,
    `• harness: ${code(view.harness)} (${view.source})`,
    `• folder: ${code(view.cwd)}`,
  ];
  if (view.conversationId) lines.push(`• conversation: ${code(view.conversationId)}`);
  if (view.startedAt) lines.push(`• started: ${slackTime(view.startedAt)}`);
  // A running session's last stop is history, not its state.
  if (view.stoppedAt && view.status === 'stopped') {
    lines.push(`• stopped: ${slackTime(view.stoppedAt)}`);
  }
  lines.push(`• starts with the bot: ${view.autoStart ? 'yes' : 'no'}`);
  return lines.join('\n');
}

/** A value in a code span, unless a backtick in it would end the span early. */
function code(value: string): string {
  return value.includes('`') ? escapeMrkdwn(value) : `\`${escapeMrkdwn(value)}\``;
}

/** A note when tmux says something other than what the status implies. */
function tmuxNote(view: StandingView): string | undefined {
  const expected = view.status === 'running' ? 'live' : 'absent';
  return view.tmux === expected ? undefined : `tmux: ${tmuxState(view)}`;
}

function tmuxState(view: StandingView): string {
  switch (view.tmux) {
    case 'live':
      return 'pane live';
    case 'dead':
      return 'pane dead (the harness exited)';
    case 'absent':
      return 'no tmux session';
    case 'unknown':
      return 'unknown (tmux gave no answer)';
  }
}

/**
 * Slack shows a `<!date^…>` token in each reader's own time zone, and its fallback text where it
 * cannot; a time that does not parse is shown as it is.
 */
function slackTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return escapeMrkdwn(iso);
  const seconds = Math.floor(ms / 1000);
  const fallback = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallback}>`;
}
