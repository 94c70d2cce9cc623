import { tmuxAttachCommand } from '../tmux/attach-command.js';

/**
 * The fixed first words of every standing session (docs/design.md §5). The config cannot remove them; a
 * configured brief is appended after. Only agent harnesses get it.
 */
export interface StandingBootFacts {
  readonly name: string;
  readonly tmuxName: string;
  readonly instance: string;
  readonly slackThread: boolean;
  /** `tmux.socket` ("" or unset = the default server): the attach line names it (§17). */
  readonly tmuxSocket?: string;
}

export function standingBootDirective(facts: StandingBootFacts): string {
  const instance = facts.instance ? ` on the-loop instance \`${facts.instance}\`` : '';
  const reach = [
    ...(facts.slackThread ? ['replies in your Slack thread'] : []),
    `\`the-loop standing say ${facts.name}\` from a terminal`,
    `attaching to tmux (\`${tmuxAttachCommand(facts.tmuxName, facts.tmuxSocket)}\`)`,
  ];
  return [
    `You are the standing session \`${facts.name}\`${instance}, run by the-loop.`,
    'You own no GitHub issue or pull request. Do not post the-loop control keywords ' +
      '(such as `the-loop start` or `the-loop stop`) and do not act on tickets unless your operator asks you to.',
    `People reach you by ${joinList(reach)}. Each message starts with a line naming who sent it and from where.`,
    'To answer them, run `the-loop post "your reply"` (or pipe text into `the-loop post -`); ' +
      'it goes to whoever this session works for.',
  ].join('\n');
}

/** The directive, then the configured brief after a blank line. */
export function bootPrompt(directive: string, brief: string | undefined): string {
  const trimmed = brief?.trim();
  return trimmed ? `${directive}\n\n${trimmed}` : directive;
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`;
}
