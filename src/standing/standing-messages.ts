import { standingTarget } from '../refs.js';
import { describeExit } from '../sessions/session-status.js';
import { tmuxAttachCommand, tmuxKillCommand } from '../tmux/attach-command.js';

/** The user-facing refusals of the standing verbs, each naming its remedy, in one place. */
export const standingMessages = {
  unknown: (name: string) =>
    `no standing session \`${name}\`; see \`the-loop standing list\`, or create it with ` +
    `\`the-loop standing create ${name}\``,
  stopped: (name: string) =>
    `session \`${name}\` is stopped — run \`the-loop standing start ${name}\` (or \`/loop start ${name}\`)`,
  exited: (name: string, exitStatus: number | undefined) =>
    `session \`${name}\` ${describeExit(exitStatus)} — run \`the-loop standing start ${name}\` ` +
    `(or \`/loop start ${name}\`)`,
  foreign: (name: string, socket: string | undefined) => {
    const target = standingTarget(name);
    return (
      `a tmux session \`${target}\` exists but was not started by this instance; the-loop will not ` +
      `touch it. Inspect it with \`${tmuxAttachCommand(target, socket, { readOnly: true })}\` and ` +
      `remove it with \`${tmuxKillCommand(target, socket)}\` if it is not needed`
    );
  },
  unrecorded: (name: string, socket: string | undefined) => {
    const target = standingTarget(name);
    return (
      `tmux session \`${target}\` is running but this instance has no record of it; inspect it with ` +
      `\`${tmuxAttachCommand(target, socket, { readOnly: true })}\` and remove it with ` +
      `\`${tmuxKillCommand(target, socket)}\``
    );
  },
  tmuxUnknown: (name: string) =>
    `tmux did not answer about \`${standingTarget(name)}\`; check that tmux runs (\`tmux ls\`) and try again`,
  nameTaken: (name: string, declared: boolean) =>
    declared
      ? `\`${name}\` is already declared in the config; pick another name`
      : `a standing session \`${name}\` already exists; pick another name or delete it first ` +
        `(\`the-loop standing delete ${name}\`)`,
  undeclared: (name: string) =>
    `session \`${name}\` is no longer declared in the config (a reload removed it), so it is not ` +
    `started again: declare it again and run \`the-loop reload\`, or create one with ` +
    `\`the-loop standing create\`; \`the-loop standing stop ${name}\` ends and forgets it`,
  declared: (name: string, configKey: string) =>
    `session \`${name}\` is declared in the config (${configKey}) and cannot be deleted here; ` +
    `remove it from the config, or stop it with \`the-loop standing stop ${name}\``,
} as const;
