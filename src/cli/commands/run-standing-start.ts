import type { StandingView } from '../../standing/standing-types.js';
import { applyVerb } from '../apply-verb.js';
import type { CommandHandler } from '../command-context.js';

/** `the-loop standing start [NAME]`: no NAME starts every auto-start session, as serve does. */
export const runStandingStart: CommandHandler = async (context) => {
  const name = context.args['name'];
  if (name !== undefined) return applyVerb(context, 'start', [name]);
  const { sessions } = await context.api<{ sessions: StandingView[] }>(
    'GET',
    '/api/v1/standing-sessions',
  );
  const names = sessions.filter((session) => session.autoStart).map((session) => session.name);
  if (names.length === 0 && !context.json) {
    context.print('no auto-start sessions to start; name one: the-loop standing start NAME');
    return 0;
  }
  return applyVerb(context, 'start', names);
};
