import type { StandingView } from '../../standing/standing-types.js';
import type { CommandHandler } from '../command-context.js';
import { formatStandingView } from '../format-standing-view.js';
import { sessionPath } from '../session-path.js';

/** `the-loop standing get NAME`. */
export const runStandingGet: CommandHandler = async (context) => {
  const session = await context.api<StandingView>('GET', sessionPath(context.args['name']));
  if (context.json) context.printJson(session);
  else context.print(formatStandingView(session, (await context.loadConfig()).tmux.socket));
  return 0;
};
