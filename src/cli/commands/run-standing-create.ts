import path from 'node:path';
import type { CommandHandler } from '../command-context.js';
import { readLocalFile } from '../read-local-file.js';
import { standingTarget } from '../../refs.js';
import { tmuxAttachCommand } from '../../tmux/attach-command.js';

/**
 * `the-loop standing create NAME …`. The prompt file is read here and sent as text, and --cwd is
 * made absolute against the directory the person is in: serve would otherwise read both relative
 * to its own config, which is not what someone typing a path means.
 */
export const runStandingCreate: CommandHandler = async (context) => {
  const prompt = context.stringFlag('prompt');
  const promptFile = context.stringFlag('prompt-file');
  if (prompt !== undefined && promptFile !== undefined) {
    return context.usageError('give --prompt or --prompt-file, not both');
  }
  const cwd = context.stringFlag('cwd');
  const body = {
    name: context.args['name'] ?? '',
    ...optional('harness', context.stringFlag('harness')),
    ...optional('cwd', cwd === undefined ? undefined : path.resolve(context.io.cwd, cwd)),
    ...optional(
      'prompt',
      promptFile === undefined
        ? prompt
        : await readLocalFile(context.io.cwd, promptFile, '--prompt-file'),
    ),
    ...optional('description', context.stringFlag('description')),
    ...optional('slackChannel', context.stringFlag('slack-channel')),
    ...(context.hasFlag('no-start') ? { start: false } : {}),
    ...(context.hasFlag('no-auto-start') ? { autoStart: false } : {}),
  };
  const session = await (await context.loop()).standing.create(body);
  if (context.json) {
    context.printJson(session);
    return 0;
  }
  const state = session.status === 'running' ? 'running' : 'not started';
  context.print(
    `created ${session.name}: ${state} (harness ${session.harness}, cwd ${session.cwd})`,
  );
  if (session.status === 'running') {
    // The socket comes from the config, so the line reaches the server the session is on (§17).
    const socket = (await context.loadConfig()).tmux.socket;
    context.print(`attach: ${tmuxAttachCommand(standingTarget(session.name), socket)}`);
  }
  return 0;
};

function optional(key: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [key]: value };
}
