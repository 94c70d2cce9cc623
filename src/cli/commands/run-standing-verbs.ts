import { asLoopError } from '../../errors.js';
import type { StandingView } from '../../standing/standing-types.js';
import type { CommandContext, CommandHandler } from '../command-context.js';
import { formatStandingList } from '../format-standing-list.js';
import { formatStandingView } from '../format-standing-view.js';

/**
 * The small `the-loop standing` verbs, each a call or two to serve's API (`create` and `say` read
 * input and have files of their own).
 */
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
