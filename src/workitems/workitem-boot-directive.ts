import { tmuxAttachCommand } from '../tmux/attach-command.js';

/** The fixed first words of a work-item session (docs/design.md §7.2): which item, and how to answer. */
export function workItemBootDirective(facts: {
  readonly ref: string;
  readonly url: string;
  readonly tmuxName: string;
  readonly instance: string;
  readonly slackThread: boolean;
  /** `tmux.socket` ("" or unset = the default server): the attach line names it (§17). */
  readonly tmuxSocket?: string;
}): string {
  const instance = facts.instance ? ` on the-loop instance \`${facts.instance}\`` : '';
  return [
    `You are the-loop's session for the work item ${facts.ref} (${facts.url})${instance}.`,
    'Work on that issue or pull request only. People reach you by commenting on it' +
      (facts.slackThread ? ', by replying in its Slack thread,' : '') +
      ` or by attaching to tmux (\`${tmuxAttachCommand(facts.tmuxName, facts.tmuxSocket)}\`); each message starts with a line naming who sent it.`,
    'To answer, run `the-loop post "your reply"` (or pipe text into `the-loop post -`): it becomes a comment on the ' +
      'work item' +
      (facts.slackThread ? ' and a message in its Slack thread' : '') +
      '. Do not post the-loop control keywords yourself.',
  ].join('\n');
}

export function workItemUrl(item: {
  host: string;
  owner: string;
  repo: string;
  number: number;
}): string {
  return `https://${item.host}/${item.owner}/${item.repo}/issues/${item.number}`;
}
