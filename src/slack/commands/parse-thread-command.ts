import { escapeMrkdwn } from '../text/escape-mrkdwn.js';

export type ThreadCommand =
  | { readonly command: 'status' | 'interrupt' | 'restart' | 'help' }
  | { readonly command: 'unknown'; readonly given: string };

const commands: readonly {
  readonly command: 'status' | 'interrupt' | 'restart' | 'help';
  readonly summary: string;
}[] = [
  { command: 'status', summary: "the session's state: running or stopped, harness, folder, times" },
  { command: 'interrupt', summary: "sends the harness's interrupt key, to stop what it is doing" },
  {
    command: 'restart',
    summary: 'stops the session and starts it again; its conversation resumes',
  },
  { command: 'help', summary: 'this list' },
];

/**
 * A thread message that starts with `!` is a command for the bound session and is never typed
 * into it (docs/design.md §6), so an unknown one still comes back, as `unknown`. Anything else: undefined.
 */
export function parseThreadCommand(text: string): ThreadCommand | undefined {
  const match = /^\s*!\s*(\S*)/.exec(text);
  if (!match) return undefined;
  const given = (match[1] ?? '').toLowerCase().replace(/[\p{P}\p{S}]+$/u, '');
  const known = commands.find((c) => c.command === given);
  return known ? { command: known.command } : { command: 'unknown', given };
}

/** The commands a person can type in a session's thread, as Slack mrkdwn. */
export function threadHelp(): string {
  return escapeMrkdwn(
    [
      'Commands for this thread (a message that starts with `!` is not sent to the session):',
      ...commands.map((c) => `• \`!${c.command}\` — ${c.summary}`),
      '• `!allow [id]`, `!allow-always [id]`, `!deny [id] <reason>` — answer the agent’s open permission request (approvers only)',
      'Anything else you write here is typed into the session.',
    ].join('\n'),
  );
}
