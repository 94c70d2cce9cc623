import type { Config } from '../config/types.js';
import { describeExit } from '../sessions/session-status.js';
import { tmuxAttachCommand } from '../tmux/attach-command.js';

/** The user-facing refusals about work-item sessions, each naming its remedy, in one place. */
export function workItemMessages(config: Config) {
  const startHint = (ref: string): string => `comment \`${config.github.keyword} start\` on ${ref}`;
  return {
    notRunning: (ref: string) =>
      `the session for ${ref} is not running — comment \`${config.github.keyword} start\` on it`,
    exited: (ref: string, exitStatus: number | undefined) =>
      `the session for ${ref} ${describeExit(exitStatus)} — ${startHint(ref)}`,
    foreign: (target: string) =>
      `tmux session \`${target}\` exists but is not this instance's; inspect it with ` +
      `\`${tmuxAttachCommand(target, config.tmux.socket, { readOnly: true })}\``,
    tmuxUnknown: () => 'tmux did not answer; try again',
    restartHint: (ref: string) =>
      `stop it (\`the-loop workitem stop ${ref}\`) and start it again (${startHint(ref)})`,
  } as const;
}
