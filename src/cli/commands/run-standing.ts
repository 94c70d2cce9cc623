// `the-loop standing …`: list, get, create, delete, start, stop, restart and say.
import { asLoopError } from '../../errors.js';
import type { StandingView } from '../../standing/standing-types.js';
import type { CommandContext, CommandHandler } from '../command-context.js';
import { formatStandingList, formatStandingView } from '../format.js';
import path from 'node:path';
import { readLocalFile, chooseTextSource, readInputText } from '../input.js';
import { standingTarget } from '../../refs.js';
import { tmuxAttachCommand } from '../../tmux/attach-command.js';
import { sayLine } from '../../delivery/first-answer.js';
import { isInteractive } from '../cli-io.js';

/** Every standing session, as serve lists it. */
const listSessions = async (context: CommandContext): Promise<StandingView[]> =>
  (await context.loop()).standing.list();

interface VerbResult {
  readonly name: string;
  readonly outcome?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * `start`, `stop` or `restart` on each named session in turn, printing one line per session as
 * it finishes (or, with --json, the list at the end). One failure does not stop the others; the
 * exit code is 1 when any failed. `serve` not running ends the whole run.
 */
async function applyVerb(
  context: CommandContext,
  verb: 'start' | 'stop' | 'restart',
  names: readonly string[],
): Promise<number> {
  const results: VerbResult[] = [];
  for (const name of names) {
    const loop = await context.loop();
    const result = await loop.standing[verb](name).then(
      (answer): VerbResult => ({ name, outcome: answer.outcome }),
      (thrown: unknown): VerbResult => {
        const error = asLoopError(thrown);
        // With serve gone every other session would fail the same way: say it once.
        if (error.code === 'serve_not_running') throw error;
        return { name, error: { code: error.code, message: error.message } };
      },
    );
    results.push(result);
    if (context.json) continue;
    if (result.error) context.io.stderr.write(`${name}: error: ${result.error.message}\n`);
    else context.print(`${name}: ${result.outcome ?? ''}`);
  }
  if (context.json) context.printJson(results);
  return results.some((result) => result.error) ? 1 : 0;
}

/** A verb on NAME, or without one on every session `pick` chooses (`none` when there is none). */
const onNameOrPicked =
  (verb: 'start' | 'stop', pick: (session: StandingView) => boolean, none: string) =>
  async (context: CommandContext): Promise<number> => {
    const name = context.args['name'];
    if (name !== undefined) return applyVerb(context, verb, [name]);
    const names = (await listSessions(context)).filter(pick).map((session) => session.name);
    if (names.length === 0 && !context.json) {
      context.print(none);
      return 0;
    }
    return applyVerb(context, verb, names);
  };

/** `the-loop standing list`; `--json` prints the sessions array itself. */
export const runStandingList: CommandHandler = async (context) => {
  const sessions = await listSessions(context);
  if (context.json) context.printJson(sessions);
  else context.print(formatStandingList(sessions));
  return 0;
};

/** `the-loop standing get NAME`. */
export const runStandingGet: CommandHandler = async (context) => {
  const session = await (await context.loop()).standing.get(context.args['name'] ?? '');
  if (context.json) context.printJson(session);
  else context.print(formatStandingView(session, (await context.loadConfig()).tmux.socket));
  return 0;
};

/** `the-loop standing delete NAME`. */
export const runStandingDelete: CommandHandler = async (context) => {
  const answer = await (await context.loop()).standing.delete(context.args['name'] ?? '');
  if (context.json) context.printJson(answer);
  else context.print(`deleted ${context.args['name'] ?? ''}`);
  return 0;
};

/** `the-loop standing start [NAME]`: no NAME starts every auto-start session, as serve does. */
export const runStandingStart: CommandHandler = onNameOrPicked(
  'start',
  (session) => session.autoStart,
  'no auto-start sessions to start; name one: the-loop standing start NAME',
);

/**
 * `the-loop standing stop [NAME]`: no NAME stops every session that is running or still has a
 * tmux session (a dead pane too), so nothing of ours is left behind.
 */
export const runStandingStop: CommandHandler = onNameOrPicked(
  'stop',
  (session) => session.status === 'running' || session.tmux === 'live' || session.tmux === 'dead',
  'no running sessions to stop',
);

/** `the-loop standing restart NAME`. */
export const runStandingRestart: CommandHandler = async (context) =>
  applyVerb(context, 'restart', [context.args['name'] ?? '']);

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

/** `the-loop standing say NAME [TEXT | -]`: through the delivery core, framed as `[cli · $USER]`. */
export const runStandingSay: CommandHandler = async (context) => {
  const name = context.args['name'] ?? '';
  const source = chooseTextSource({
    text: context.args['text'],
    stdinIsTerminal: isInteractive(context.io.stdin),
  });
  if (source.kind === 'usage-error') return context.usageError(source.message);
  const text = await readInputText(source, context.io);
  const actor = context.io.env['USER'] || 'operator';
  const result = await (await context.loop()).standing.say(name, text, { actor });
  if (context.json) context.printJson(result);
  else context.print(sayLine(name, result));
  return 0;
};
