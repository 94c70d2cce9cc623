import type { StandingView } from '../../standing/standing-types.js';
import type { CommandHandler } from '../command-context.js';
import { formatStandingList } from '../format-standing-list.js';

/** `the-loop standing list`; `--json` prints the sessions array itself. */
export const runStandingList: CommandHandler = async (context) => {
  const { sessions } = await context.api<{ sessions: StandingView[] }>(
    'GET',
    '/api/v1/standing-sessions',
  );
  if (context.json) context.printJson(sessions);
  else context.print(formatStandingList(sessions));
  return 0;
};
