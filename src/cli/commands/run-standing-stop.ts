import type { StandingView } from '../../standing/standing-types.js';
import { applyVerb } from '../apply-verb.js';
import type { CommandHandler } from '../command-context.js';

/**
 * `the-loop standing stop [NAME]`: no NAME stops every session that is running or still has a
 * tmux session (a dead pane too), so nothing of ours is left behind.
 */
export const runStandingStop: CommandHandler = async (context) => {
  const name = context.args['name'];
  if (name !== undefined) return applyVerb(context, 'stop', [name]);
  const { sessions } = await context.api<{ sessions: StandingView[] }>(
    'GET',
    '/api/v1/standing-sessions',
  );
  const names = sessions
    .filter(
      (session) =>
        session.status === 'running' || session.tmux === 'live' || session.tmux === 'dead',
    )
    .map((session) => session.name);
  if (names.length === 0 && !context.json) {
    context.print('no running sessions to stop');
    return 0;
  }
  return applyVerb(context, 'stop', names);
};
