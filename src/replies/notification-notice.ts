import { tmuxAttachCommand } from '../tmux/attach-command.js';

/** What the session's people are told when Claude Code notifies, or undefined: nothing to post. */
export interface NotificationFacts {
  readonly tmuxName: string;
  /**
   * A permission request of the-loop's (§14) is open for this session: its own message already
   * asks the people, so Claude Code's `permission_prompt` (about 6 s after the dialog) is not posted.
   */
  readonly permissionRequestOpen: boolean;
  /** `tmux.socket`, when set: the attach remedy must name it (`-L`). */
  readonly tmuxSocket?: string;
}

/**
 * Which Claude Code notices reach the thread (docs/design.md §8): only the ones a person must act on —
 * a permission dialog (`permission_prompt`) nobody was asked about yet, and a question the agent
 * put on screen (`elicitation_dialog`). `idle_prompt`, which Claude Code sends a minute after
 * every answer, is not posted (the answer itself was); neither is any other type (`auth_success`),
 * nor a notice without a type, which Claude Code 2.1 always sends.
 */
export function notificationNotice(
  payload: Readonly<Record<string, unknown>>,
  facts: NotificationFacts,
): string | undefined {
  const type = payload['notification_type'];
  const needsPerson =
    (type === 'permission_prompt' && !facts.permissionRequestOpen) || type === 'elicitation_dialog';
  if (!needsPerson) return undefined;
  const message =
    typeof payload['message'] === 'string' && payload['message'].trim()
      ? payload['message']
      : 'it needs your input';
  return (
    `⏳ The agent is waiting for you: ${message.slice(0, 300)}\n` +
    `Answer here, or attach with \`${tmuxAttachCommand(facts.tmuxName, facts.tmuxSocket)}\`.`
  );
}
